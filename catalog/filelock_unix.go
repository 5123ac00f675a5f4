//go:build unix

package catalog

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// openLockFile opens (creating) the lock file, not through a symbolic link: a
// link planted as the lock file cannot make a command truncate another file.
func openLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
}

// tryLock takes the flock without waiting; ok is false while another holds it.
func tryLock(f *os.File) (ok bool, err error) {
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, unix.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, unix.EINTR):
			continue
		}
		return false, err
	}
}

// processGone reports whether no process with the id runs: kill(pid, 0) says
// ESRCH. A process of another user (EPERM) runs.
func processGone(pid int) bool {
	return errors.Is(unix.Kill(pid, 0), unix.ESRCH)
}
