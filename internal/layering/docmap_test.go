package layering

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDocMaps_ThisModule keeps every package doc map current: each package of
// DocMapped, and each package with a doc.go, names every production .go file
// it holds.
func TestDocMaps_ThisModule(t *testing.T) {
	root := filepath.Join("..", "..")
	dirs := map[string]bool{}
	for _, d := range DocMapped {
		dirs[d] = true
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && notSource(d.Name()) && p != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "doc.go" {
			rel, err := filepath.Rel(root, filepath.Dir(p))
			if err != nil {
				return err
			}
			dirs[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !dirs["sitegen"] || !dirs["providers/replay"] || len(dirs) < len(DocMapped)+2 {
		t.Fatalf("found only the doc maps %v; is the walk broken?", dirs)
	}
	for d := range dirs {
		gaps, err := DocMapGaps(root, d)
		if err != nil {
			t.Error(err)
		}
		for _, g := range gaps {
			t.Errorf("%s is not named in the package doc comment of %s: add it to the map (which file holds which concept)", g, d)
		}
	}
}

// A file the doc comment does not name is a gap, by name or by a pattern
// (swap_*.go); tests and doc.go need not be named; a package without a doc
// comment is an error.
func TestDocMapGaps_NamesAMissingFile(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"pkg/doc.go":        "// Package pkg holds a.go: one thing; swap_*.go: the swap.\npackage pkg\n",
		"pkg/a.go":          "package pkg\n",
		"pkg/b.go":          "package pkg\n",
		"pkg/swap_linux.go": "package pkg\n",
		"pkg/a_test.go":     "package pkg\n",
		"bare/x.go":         "package bare\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gaps, err := DocMapGaps(root, "pkg")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"pkg/b.go"}, gaps); diff != "" {
		t.Errorf("gaps (-want +got):\n%s", diff)
	}
	if _, err := DocMapGaps(root, "bare"); err == nil || !strings.Contains(err.Error(), "no package doc comment") {
		t.Errorf("a package without a doc comment: %v", err)
	}
}
