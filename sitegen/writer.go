package sitegen

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// siteWriter is the only way the build writes files. It writes the whole site
// into a fresh temporary folder beside the output folder, and commit swaps that
// folder in with renames, so that a failed build leaves the previous site as it
// was and a reader never sees half of a new one.
type siteWriter struct {
	out  string   // the output folder (absolute)
	tmp  string   // the folder being written
	root *os.Root // tmp, opened so that no name can write outside it
	done bool

	// write is called from several goroutines at once (renderAll).
	mu    sync.Mutex
	dirs  map[string]bool // folders made
	files int
	bytes int64
}

// siteMarker is a file every built site has; an existing output folder without it
// (and not empty) is not replaced, so a mistyped --out cannot wipe a home folder.
const siteMarker = "index.html"

func newSiteWriter(out string) (*siteWriter, error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return nil, fmt.Errorf("output folder %s: %w", out, err)
	}
	if filepath.Dir(abs) == abs {
		return nil, fmt.Errorf("output folder %s: refusing to replace a file system root", out)
	}
	if err := checkReplaceable(abs); err != nil {
		return nil, err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create output folder: %w", err)
	}
	removeStaleTemporaries(parent, "."+filepath.Base(abs)+".tmp-")
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(abs)+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("create temporary site folder: %w", err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		_ = os.RemoveAll(tmp) // best effort: a later build removes a leftover (removeStaleTemporaries)
		return nil, fmt.Errorf("create temporary site folder: %w", err)
	}
	root, err := os.OpenRoot(tmp)
	if err != nil {
		_ = os.RemoveAll(tmp) // best effort, as above
		return nil, fmt.Errorf("open temporary site folder: %w", err)
	}
	return &siteWriter{out: abs, tmp: tmp, root: root, dirs: map[string]bool{}}, nil
}

// checkReplaceable refuses an output path that is a file, or a non-empty folder
// that is not a site this program built.
func checkReplaceable(out string) error {
	fi, err := os.Lstat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("output folder %s exists and is not a folder; choose another --out", out)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(out, siteMarker)); err != nil {
		return fmt.Errorf("output folder %s is not empty and holds no %s, so it does not look like a built site; refusing to replace it (choose an empty or new folder)", out, siteMarker)
	}
	return nil
}

// write stores one file; name is a slash-separated path inside the site. Writing
// the same name twice is an error (it would mean two pages share a path).
func (w *siteWriter) write(name string, data []byte) error {
	if !fs.ValidPath(name) || name == "." {
		return fmt.Errorf("write %q: not a valid path inside the site", name)
	}
	if dir := path.Dir(name); dir != "." {
		if err := w.mkdirAll(dir); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	f, err := w.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close() // the write error is the one to report; abort removes the file
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	w.mu.Lock()
	w.files++
	w.bytes += int64(len(data))
	w.mu.Unlock()
	return nil
}

// mkdirAll creates a folder of the site once, however many files go in it.
func (w *siteWriter) mkdirAll(dir string) error {
	w.mu.Lock()
	made := w.dirs[dir]
	w.mu.Unlock()
	if made {
		return nil
	}
	if err := w.root.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	w.mu.Lock()
	w.dirs[dir] = true
	w.mu.Unlock()
	return nil
}

// commit swaps the new site in: the old folder is moved aside, the new one renamed
// into place, and the old one removed. If the second rename fails the old folder
// is put back.
func (w *siteWriter) commit() error {
	if err := w.root.Close(); err != nil {
		return fmt.Errorf("close site folder: %w", err)
	}
	old := ""
	if _, err := os.Lstat(w.out); err == nil {
		// Swap in one step where the system can: the new site takes the output
		// path and the old one the temporary path, which is then removed.
		if err := exchange(w.tmp, w.out); err == nil {
			w.done = true
			if err := os.RemoveAll(w.tmp); err != nil {
				return fmt.Errorf("remove previous site %s: %w", w.tmp, err)
			}
			return nil
		}
		old = w.tmp + ".old"
		if err := os.Rename(w.out, old); err != nil {
			return fmt.Errorf("move previous site aside: %w", err)
		}
	}
	if err := os.Rename(w.tmp, w.out); err != nil {
		err = fmt.Errorf("move new site into place: %w", err)
		if old != "" {
			if rerr := os.Rename(old, w.out); rerr != nil {
				err = fmt.Errorf("%w; the previous site could not be put back and is left at %s: %w", err, old, rerr)
			}
		}
		return err
	}
	w.done = true
	if old != "" {
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("remove previous site %s: %w", old, err)
		}
	}
	return nil
}

// abort removes the temporary folder of a build that failed; after a commit it
// does nothing.
func (w *siteWriter) abort() {
	if w.done {
		return
	}
	// The build's own error is what the caller reports. Closing twice (after a
	// failed commit) is harmless, and a folder that cannot be removed now is
	// removed by a later build (removeStaleTemporaries).
	_ = w.root.Close()
	_ = os.RemoveAll(w.tmp)
}

// staleAfter is how old a temporary site folder must be before a later build
// removes it: older than any build takes, so a concurrent build's folder is safe.
const staleAfter = time.Hour

// removeStaleTemporaries removes the temporary folders that killed builds left
// beside the output folder. Failures are ignored: they only cost disk space.
func removeStaleTemporaries(parent, prefix string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleAfter {
			_ = os.RemoveAll(filepath.Join(parent, e.Name())) // ignored, as said above
		}
	}
}
