package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// The limits of one load of benchmark uploads, besides MaxUploadBytes and
// MaxUploadRecords per file: a folder of more files, or more records in all,
// is not read past them. Memory stays proportional to what is read: each file
// is parsed as soon as it is read and only its records are kept.
const (
	MaxUploadFiles        = 1_000
	MaxUploadRecordsTotal = 100_000
)

func isBenchmarkName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".csv", ".yaml", ".yml":
		return true
	}
	return false
}

// LoadBenchmarks reads the uploads at paths (files, or folders searched
// recursively for .csv, .yaml and .yml files; names starting with "." are skipped)
// and validates every record. A file that cannot be read or parsed is reported and
// never stops the others from loading. Runs with errors are left out of the
// returned runs; the problems name each of them.
//
// Uploads come from anyone who can open a pull request, and the nightly job
// validates them in the step that holds every provider's secrets, so only
// regular files inside the folder given are read: a symbolic link is followed
// only while it stays inside the folder it is in (never to /proc/self/environ
// or /dev/zero), a device, named pipe or socket is not opened, a file is read
// to at most MaxUploadBytes, and one whose size changes while it is read
// (a /proc or /sys file, which reports no size) is refused.
func LoadBenchmarks(paths []string, snap *Snapshot, workloads *WorkloadRegistry, now time.Time) ([]BenchmarkRun, []Problem) {
	l := &uploadLoader{seen: map[string]bool{}}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			l.problem(filepath.ToSlash(p), "cannot read: %v", unwrapPathError(err))
			continue
		}
		if info.IsDir() {
			l.folder(p)
		} else {
			l.file(filepath.Dir(p), filepath.Base(p), p)
		}
	}
	runs, more := ValidateBenchmarks(l.records, snap, workloads, now)
	l.probs = append(l.probs, more...)
	SortProblems(l.probs)
	return runs, l.probs
}

// uploadLoader reads upload files one by one into records.
type uploadLoader struct {
	records []BenchmarkRecord
	probs   []Problem
	seen    map[string]bool
	files   int
	full    bool // a limit on files or records was met: nothing more is read
}

func (l *uploadLoader) problem(file, format string, args ...any) {
	l.probs = append(l.probs, Problem{File: file, Severity: SeverityError, Message: fmt.Sprintf(format, args...)})
}

// folder reads every upload under dir, through an os.Root that no path or
// symbolic link leaves.
func (l *uploadLoader) folder(dir string) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		l.problem(filepath.ToSlash(dir), "cannot read: %v", unwrapPathError(err))
		return
	}
	defer func() { _ = root.Close() }() // read-only: a close error loses nothing
	var names []string
	err = fs.WalkDir(root.FS(), ".", func(q string, d fs.DirEntry, err error) error {
		shown := displayName(dir, q)
		if err != nil {
			l.problem(shown, "cannot read: %v", unwrapPathError(err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if q != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		// A symbolic link to a folder is not walked (WalkDir does not follow
		// links); one to a file is read below if it stays inside.
		if !d.IsDir() && isBenchmarkName(d.Name()) {
			names = append(names, q)
		}
		return nil
	})
	if err != nil {
		l.problem(filepath.ToSlash(dir), "cannot read: %v", err)
	}
	sort.Strings(names)
	for _, n := range names {
		l.read(root, dir, n, displayName(dir, n))
	}
}

// file reads one upload named on the command line: through an os.Root of its
// folder, so that a symbolic link is followed only within that folder too.
func (l *uploadLoader) file(dir, name, shown string) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		l.problem(filepath.ToSlash(shown), "cannot read: %v", unwrapPathError(err))
		return
	}
	defer func() { _ = root.Close() }() // read-only: a close error loses nothing
	l.read(root, dir, name, filepath.ToSlash(filepath.Clean(shown)))
}

// read reads and parses the upload name of root, shown as shown in messages.
func (l *uploadLoader) read(root *os.Root, dir, name, shown string) {
	if l.seen[shown] || l.full {
		return
	}
	l.seen[shown] = true
	if l.files == MaxUploadFiles || len(l.records) >= MaxUploadRecordsTotal {
		l.full = true
		l.problem(shown, "not read: more than %d files or %d records in all; the rest are not read", MaxUploadFiles, MaxUploadRecordsTotal)
		return
	}
	l.files++
	data, err := readUpload(root, dir, name)
	if err != nil {
		l.problem(shown, "%v", err)
		return
	}
	recs, probs := ParseBenchmarkFile(shown, data)
	l.records = append(l.records, recs...)
	l.probs = append(l.probs, probs...)
}

// readUpload reads name from root if it is a regular file of at most
// MaxUploadBytes, reached without leaving root. The error is the message.
func readUpload(root *os.Root, dir, name string) ([]byte, error) {
	info, err := root.Lstat(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read: %w", unwrapPathError(err))
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		if info, err = root.Stat(name); err != nil {
			if _, outside := os.Stat(filepath.Join(dir, name)); outside == nil {
				return nil, errors.New("not read: a symbolic link that leads out of its folder (uploads are read only inside the folder given)")
			}
			return nil, fmt.Errorf("cannot read: %w", unwrapPathError(err))
		}
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("not read: not a regular file (%s)", fileKind(info.Mode()))
	}
	if info.Size() > MaxUploadBytes {
		return nil, fmt.Errorf("larger than %d MB", MaxUploadBytes/MB)
	}
	// O_NONBLOCK: were the file swapped for a named pipe since the check above,
	// opening it would wait for a writer forever.
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot read: %w", unwrapPathError(err))
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot read: %w", unwrapPathError(err))
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not read: not a regular file (%s)", fileKind(st.Mode()))
	}
	data, err := readAllLimit(name, f, st.Size(), MaxUploadBytes)
	var tooLarge *TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("larger than %d MB", MaxUploadBytes/MB)
	case err != nil:
		return nil, fmt.Errorf("cannot read: %w", unwrapPathError(err))
	case int64(len(data)) != st.Size():
		// A file of /proc or /sys says it holds 0 bytes and holds more.
		return nil, fmt.Errorf("not read: the file holds %d bytes but reported %d (a /proc or /sys file, or one being written)", len(data), st.Size())
	}
	return data, nil
}

// displayName is how messages name file q of folder dir: dir/q with forward
// slashes.
func displayName(dir, q string) string {
	if q == "." {
		return filepath.ToSlash(filepath.Clean(dir))
	}
	return filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(q)))
}

// LoadBenchmarksFS is LoadBenchmarks over a file system (the embedded data
// folder): every .csv, .yaml and .yml file under dir. Messages name files as
// prefix + their path in fsys (e.g. prefix "data/"). The same limits hold.
func LoadBenchmarksFS(fsys fs.FS, dir, prefix string, snap *Snapshot, workloads *WorkloadRegistry, now time.Time) ([]BenchmarkRun, []Problem) {
	l := &uploadLoader{seen: map[string]bool{}}
	err := fs.WalkDir(fsys, dir, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			l.problem(prefix+q, "cannot read: %v", unwrapPathError(err))
			return nil
		}
		if q != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !isBenchmarkName(d.Name()) || l.full {
			return nil
		}
		if l.files == MaxUploadFiles || len(l.records) >= MaxUploadRecordsTotal {
			l.full = true
			l.problem(prefix+q, "not read: more than %d files or %d records in all; the rest are not read", MaxUploadFiles, MaxUploadRecordsTotal)
			return nil
		}
		l.files++
		if info, err := d.Info(); err == nil && info.Size() > MaxUploadBytes {
			l.problem(prefix+q, "larger than %d MB", MaxUploadBytes/MB)
			return nil
		}
		data, err := fs.ReadFile(fsys, q)
		if err != nil {
			l.problem(prefix+q, "cannot read: %v", unwrapPathError(err))
			return nil
		}
		recs, probs := ParseBenchmarkFile(prefix+q, data)
		l.records = append(l.records, recs...)
		l.probs = append(l.probs, probs...)
		return nil
	})
	if err != nil {
		l.problem(prefix+dir, "cannot read: %v", err)
	}
	runs, more := ValidateBenchmarks(l.records, snap, workloads, now)
	l.probs = append(l.probs, more...)
	SortProblems(l.probs)
	return runs, l.probs
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
