// Package golden compares test output with golden files under testdata and
// rewrites them when the tests run with -update (go test ./... -update).
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update is the one -update flag of every package whose tests use golden files.
var update = flag.Bool("update", false, "rewrite the golden files under testdata instead of comparing with them")

// Updating reports whether the tests run with -update.
func Updating() bool { return *update }

// Check compares got with the golden file at path. With -update it writes got to
// path (creating its folder) instead. A mismatch fails the test with a unified
// diff (-want +got) and the command that rewrites the file.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		Write(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got); run go test with -update if the change is intended, and review the diff:\n%s", path, diff)
	}
}

// Write writes data to path, creating the folder; for inputs that a golden test
// keeps beside its output and rewrites with -update.
func Write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
