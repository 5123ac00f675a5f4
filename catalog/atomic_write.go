package catalog

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// WriteFileAtomic writes data to a temporary file beside path, syncs it and renames
// it over path. It refuses a path that is there and is not a regular file (a
// folder, a device such as /dev/null, a FIFO, a socket, a symbolic link):
// renaming over it would replace it. The temporary file is named
// ".NAME.tmp-PID-RANDOM"; the temporaries of runs that were killed (their
// process is gone) are removed first.
func WriteFileAtomic(path string, data []byte) error {
	if err := CheckOutputFile(path); err != nil {
		return fmt.Errorf("write %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	RemoveStaleTemporaries(path)
	f, err := os.CreateTemp(dir, tempPrefix(path)+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	// cleanup abandons the temporary file after a failed step: that step's error
	// is the one returned, and the half-written file is removed either way.
	cleanup := func() {
		_ = f.Close()
		_ = os.Remove(tmp)
	}
	w := bufio.NewWriter(f)
	if _, err := w.Write(data); err != nil {
		cleanup()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		cleanup()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if afterTempWrite != nil {
		afterTempWrite(tmp)
	}
	if err := f.Sync(); err != nil {
		cleanup()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		cleanup()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(tmp) // best effort: the close error is what the caller needs
		return fmt.Errorf("write %s: %w", path, err)
	}
	// Checked again just before the rename: what was not there at the start
	// may have been made since.
	if err := CheckOutputFile(path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp) // best effort: the rename error is what the caller needs
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// afterTempWrite, when set (by tests), is called with the temporary file's
// name once the data is in it and before it is renamed: a test stops a run
// there.
var afterTempWrite func(tmp string)

// lstatOutput is what the output checks share: done with no error when path
// is missing or of the kind ok accepts (not following a link), done with the
// error when it cannot be read; else the checks go on with its info.
func lstatOutput(path string, ok func(fs.FileMode) bool) (fs.FileInfo, bool, error) {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, true, nil
	case err != nil:
		return nil, true, fmt.Errorf("%s: %w", SafeLine(path), err)
	}
	return info, ok(info.Mode()), nil
}

// CheckOutputFile says why path cannot be replaced by a file written whole,
// or nil: it is missing, or a regular file. A folder, a symbolic link (which
// the rename would replace, not follow), a device, a FIFO or a socket is
// refused. The error starts with the path.
func CheckOutputFile(path string) error {
	info, done, err := lstatOutput(path, fs.FileMode.IsRegular)
	switch {
	case done:
		return err
	case info.IsDir():
		// Else the rename fails with "file exists", which says neither.
		return fmt.Errorf("%s: it is a folder: give the path of a file to write (in it, or elsewhere)", SafeLine(path))
	}
	return fmt.Errorf("%s: it is %s, not a regular file: refusing to replace it; give the path of a file to write", SafeLine(path), fileKind(info.Mode()))
}

// CheckOutputFolder says why path cannot be an output folder that a command
// replaces whole (a site), or nil: it is missing or a folder. A symbolic link
// is refused, not followed, as is anything else that is not a folder.
func CheckOutputFolder(path string) error {
	info, done, err := lstatOutput(path, fs.FileMode.IsDir)
	switch {
	case done:
		return err
	case info.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s: it is a symbolic link: refusing to follow it; give the folder itself (a link is not followed, so that a build never writes where the link points)", SafeLine(path))
	}
	return fmt.Errorf("%s: it is %s, not a folder: refusing to replace it; give a new or empty folder, or one a build wrote", SafeLine(path), fileKind(info.Mode()))
}

// tempPrefix is the start of the name of path's temporary files.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

// RemoveStaleTemporaries removes the temporary files that runs killed while
// writing path left beside it: those whose name holds the pid of a process
// that no longer runs (".NAME.tmp-PID-RANDOM"; older builds named them
// ".NAME.tmp-RANDOM", which reads as a pid that, almost always, is not
// running). Failures are ignored: a leftover only costs disk space, and the
// next run tries again.
func RemoveStaleTemporaries(path string) {
	dir := filepath.Dir(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := tempPrefix(path)
	for _, e := range entries {
		pid, ok := TempFilePID(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() || pid == os.Getpid() || (pid > 0 && !processGone(pid)) {
			continue
		}
		_ = os.Remove(filepath.Join(dir, e.Name())) // ignored, as said above
	}
}

// TempFilePID reads the pid from the name of a temporary file made for a
// target whose temporaries start with prefix: ".NAME.tmp-PID-RANDOM", or an
// older ".NAME.tmp-RANDOM", whose number is read as the pid, or as 0 (no
// process) when no pid is so large. ok is false for any other name.
func TempFilePID(name, prefix string) (pid int, ok bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok || rest == "" {
		return 0, false
	}
	digits := func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
	if i := strings.IndexByte(rest, '-'); i >= 0 {
		if !digits(rest[i+1:]) {
			return 0, false
		}
		pid, err := ParsePID(rest[:i])
		return pid, err == nil
	}
	if !digits(rest) || len(rest) > 10 {
		return 0, false
	}
	if pid, err := ParsePID(rest); err == nil {
		return pid, true
	}
	return 0, true
}
