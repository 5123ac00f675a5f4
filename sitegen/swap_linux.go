//go:build linux

package sitegen

import "golang.org/x/sys/unix"

// exchange swaps two paths in one step (renameat2 RENAME_EXCHANGE), so that the
// output folder never goes missing between taking the old site away and putting
// the new one in, not even if the process is killed.
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
