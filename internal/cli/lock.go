package cli

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// lockWait is how long a command waits for another run that writes the same
// history, snapshot or site (catalog.Lock) before it gives up: longer than an
// import or a build takes, and than a crawl spends writing. Tests shorten it.
var lockWait = 2 * time.Minute

// lockTarget takes the lock of target for command cmd, saying on stderr when
// it has to wait and for whom.
func lockTarget(env Env, cmd, target string) (*catalog.FileLock, error) {
	return catalog.Lock(target, lockWait, func(lock string, holder int) {
		by := "another process"
		if holder > 0 {
			by = "process " + strconv.Itoa(holder)
		}
		fmt.Fprintf(env.Stderr, "%s: waiting for %s, held by %s (another gpuatlas run writing the same file), for at most %s\n",
			cmd, catalog.SafeLine(lock), by, lockWait)
	})
}

// unlock releases a lock at the end of a command; the lock is released when
// the process ends anyway, so an error is only reported.
func unlock(env Env, l *catalog.FileLock) {
	if err := l.Unlock(); err != nil {
		fmt.Fprintf(env.Stderr, "gpuatlas: release lock: %v\n", err)
	}
}
