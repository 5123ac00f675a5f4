package testlane

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A shared site is built once, by the first test that asks; the others get its
// folder; Remove removes it.
func TestSites_BuiltOnceAndShared(t *testing.T) {
	if testing.Short() {
		t.Skip("Get skips in -short mode: nothing to check")
	}
	var s Sites
	builds := 0
	build := func(t *testing.T, out string) {
		builds++
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var dirs []string
	for _, name := range []string{"first", "second"} {
		t.Run(name, func(t *testing.T) { dirs = append(dirs, s.Get(t, "site", build)) })
	}
	other := ""
	t.Run("other", func(t *testing.T) { other = s.Get(t, "other", build) })
	if builds != 2 || len(dirs) != 2 || dirs[0] != dirs[1] || dirs[0] == other {
		t.Fatalf("%d builds, folders %v and %s; want 2 builds, one folder for site and another for other", builds, dirs, other)
	}
	s.Remove()
	if _, err := os.Stat(dirs[0]); !os.IsNotExist(err) {
		t.Errorf("after Remove, %s: %v", dirs[0], err)
	}
}

// Count appends one line per step, naming the package, to the file
// $GPUATLAS_TEST_COUNTS names, and nothing without it.
func TestCount(t *testing.T) {
	t.Setenv(CountsEnv, "")
	Count("site-build", "nowhere")
	path := filepath.Join(t.TempDir(), "counts.txt")
	t.Setenv(CountsEnv, path)
	Count("site-build", "a")
	Count("chromium-start", "")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "site-build\tinternal/testlane\ta\nchromium-start\tinternal/testlane\t\n"
	if string(b) != want {
		t.Errorf("counts file:\n%q\nwant\n%q", b, want)
	}
	if strings.Contains(string(b), "nowhere") {
		t.Error("Count wrote without $GPUATLAS_TEST_COUNTS")
	}
}
