// Package testlane holds the two lanes of the tests. `go test -short ./...`
// (make test-short) is the inner loop: every unit test, in about a minute and a
// half on 2 cores. `make test` runs everything, adding the tests Long marks:
// browsers, whole-site builds, subprocesses, DuckDB and axe, large corpora. It
// also counts the costly steps (site builds, browser starts) when
// $GPUATLAS_TEST_COUNTS names a file, so that a change to the shared setup can be
// measured (docs/performance.md).
package testlane

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Long skips t in -short mode. what says what makes the test long ("builds the
// whole site", "drives Chromium"); the skip message names it and make test.
func Long(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("%s: not in the -short lane (make test runs it)", what)
	}
}

// CountsEnv names the file Count appends to.
const CountsEnv = "GPUATLAS_TEST_COUNTS"

var countMu sync.Mutex

// Count records one costly step of kind ("site-build", "chromium-start",
// "browser-tab"), with a detail, as the line "kind<TAB>package folder<TAB>detail"
// appended to the file $GPUATLAS_TEST_COUNTS names; without it, nothing. Test
// binaries of several packages may append at once: each line is one write to a
// file opened for appending.
func Count(kind, detail string) {
	path := os.Getenv(CountsEnv)
	if path == "" {
		return
	}
	line := fmt.Sprintf("%s\t%s\t%s\n", kind, packageDir(), detail)
	countMu.Lock()
	defer countMu.Unlock()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "testlane: count %s: %v\n", kind, err)
		return
	}
	_, err = f.WriteString(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "testlane: count %s: %v\n", kind, err)
	}
}

// packageDir is the test's package folder (a test runs in it) relative to the
// module root, the nearest folder above with a go.mod.
func packageDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return "?"
	}
	for root := dir; ; {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			if rel, err := filepath.Rel(root, dir); err == nil {
				return filepath.ToSlash(rel)
			}
			return dir
		}
		up := filepath.Dir(root)
		if up == root {
			return dir
		}
		root = up
	}
}
