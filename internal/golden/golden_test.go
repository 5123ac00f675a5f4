package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeT records failures instead of stopping the test that uses it.
type fakeT struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeT) Helper()                           {}
func (f *fakeT) Errorf(format string, args ...any) { f.failed = true; f.msg = format }
func (f *fakeT) Fatalf(format string, args ...any) { f.failed = true; f.msg = format }

func TestCheck_MatchAndMismatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.golden")
	if err := os.WriteFile(path, []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := &fakeT{TB: t}
	Check(ok, path, []byte("a\nb\n"))
	if ok.failed {
		t.Errorf("equal content failed: %s", ok.msg)
	}
	bad := &fakeT{TB: t}
	Check(bad, path, []byte("a\nc\n"))
	if !bad.failed {
		t.Error("different content passed")
	}
	missing := &fakeT{TB: t}
	Check(missing, filepath.Join(t.TempDir(), "none"), []byte("x"))
	if !missing.failed {
		t.Error("a missing golden file passed")
	}
}

func TestWrite_CreatesFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "c.golden")
	Write(t, path, []byte("x"))
	if got, err := os.ReadFile(path); err != nil || string(got) != "x" {
		t.Errorf("read back %q, %v", got, err)
	}
}
