//go:build !unix

package catalog

import "os"

// openLockFile opens (creating) the lock file. Without flock (not a Unix
// system) the lock file is created but holds nothing: concurrent writers are
// not kept apart there (docs/security.md).
func openLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
}

func tryLock(*os.File) (bool, error) { return true, nil }

// processGone cannot tell without kill(pid, 0): a temporary file is never
// taken for a dead run's.
func processGone(int) bool { return false }
