package catalog

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes data to a temporary file beside path, syncs it and renames
// it over path.
func WriteFileAtomic(path string, data []byte) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		// Else the rename fails with "file exists", which says neither.
		return fmt.Errorf("write %s: it is a folder: give the path of a file to write (in it, or elsewhere)", path)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
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
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp) // best effort: the rename error is what the caller needs
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
