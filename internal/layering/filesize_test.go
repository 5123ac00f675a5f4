package layering

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLongFiles_ThisModule: no production source file of the module (Go, the
// site's scripts, styles and templates, the shell scripts) is over MaxLines.
func TestLongFiles_ThisModule(t *testing.T) {
	long, err := LongFiles(filepath.Join("..", ".."), MaxLines)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range long {
		t.Errorf("%s, over %d: split it by job", l, MaxLines)
	}
}

// LongFiles names a long production file of any source kind and passes over
// tests, test data, hidden folders and short files.
func TestLongFiles_NamesLongProductionFiles(t *testing.T) {
	root := t.TempDir()
	lines := func(n int) string { return strings.Repeat("x\n", n) }
	files := map[string]string{
		"pkg/long.go":              lines(8),
		"pkg/short.go":             lines(5),
		"pkg/long_test.go":         lines(50),
		"pkg/testdata/big.go":      lines(50),
		".git/hooks/x.sh":          lines(50),
		"templates/static/page.js": lines(6) + "x", // no final newline: 7 lines
		"templates/page.html":      lines(6),
		"scripts/run.sh":           lines(9),
		"data/big.json":            lines(50),
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := LongFiles(root, 6)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"pkg/long.go: 8 lines", "scripts/run.sh: 9 lines", "templates/static/page.js: 7 lines"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LongFiles (-want +got):\n%s", diff)
	}
}
