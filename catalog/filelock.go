package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LockSuffix is what a target's lock file adds to its name:
// data/history.jsonl is locked by data/history.jsonl.lock.
const LockSuffix = ".lock"

// FileLock is the lock of a file or folder that one command writes: a read,
// a change and a write of it happen under the lock, so that two commands (two
// imports, a crawl and an import) that write it at the same time each read
// what the other wrote. The lock is an flock(2) on the lock file: the system
// releases it when the process ends, however it ends, so a lock file left
// behind by a killed run holds nothing.
type FileLock struct {
	f    *os.File
	path string
}

// LockBusyError is a lock that another process held for longer than the
// wait: it names the lock file and, where the lock file says it, the process.
type LockBusyError struct {
	Lock   string
	Holder int // 0: unknown
	Waited time.Duration
}

func (e *LockBusyError) Error() string {
	by := "another process"
	if e.Holder > 0 {
		by = "process " + strconv.Itoa(e.Holder)
	}
	return fmt.Sprintf("%s is held by %s (another gpuatlas run writing the same file) and was not released within %s: wait for that run to end and try again", SafeLine(e.Lock), by, e.Waited)
}

// lockPoll is how often a waiting Lock tries again.
const lockPoll = 50 * time.Millisecond

// Lock takes the lock of target (target + ".lock", created beside it), waiting
// at most wait while another process holds it; waiting, if not nil, is told
// once, with the holder's pid (0 when unknown), that the lock is busy. The
// lock file then records this process's pid for the next waiter's message.
func Lock(target string, wait time.Duration, waiting func(lock string, holder int)) (*FileLock, error) {
	path := target + LockSuffix
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", SafeLine(target), err)
	}
	f, err := openLockFile(path)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", SafeLine(target), err)
	}
	start := time.Now()
	told := false
	for {
		ok, err := tryLock(f)
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("lock %s: %w", SafeLine(path), err)
		}
		if ok {
			break
		}
		holder := lockHolder(path)
		if time.Since(start) >= wait {
			_ = f.Close()
			return nil, &LockBusyError{Lock: path, Holder: holder, Waited: wait}
		}
		if !told && waiting != nil {
			waiting(path, holder)
			told = true
		}
		time.Sleep(lockPoll)
	}
	// The pid is a courtesy for the messages: the flock is the lock.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &FileLock{f: f, path: path}, nil
}

// Unlock releases the lock. The lock file stays: removing it would let a
// waiter hold a lock on a file that no longer has the name.
func (l *FileLock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the last descriptor releases the flock
	l.f = nil
	return err
}

// lockHolder reads the pid a lock file records, 0 when it records none.
func lockHolder(path string) int {
	b, err := ReadRegularFile(path, 64)
	if err != nil {
		return 0
	}
	pid, err := ParsePID(string(b))
	if err != nil {
		return 0
	}
	return pid
}

// ParsePID reads a process id as a lock file or a temporary file's name holds
// it: decimal digits (a newline after them in a lock file), 1 to 2^22-1 (the
// largest pid_max of Linux).
func ParsePID(s string) (int, error) {
	s = strings.TrimSuffix(s, "\n")
	if s == "" || len(s) > 7 || strings.Trim(s, "0123456789") != "" || s[0] == '0' {
		return 0, errors.New("not a process id")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n >= 1<<22 {
		return 0, errors.New("not a process id")
	}
	return n, nil
}
