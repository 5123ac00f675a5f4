package layering

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// DocMapped are the packages whose doc comment is a map of their files (which
// file holds which concept; docs/architecture.md): every production .go file of
// each is named in it, by name or by a pattern such as swap_*.go.
var DocMapped = []string{"catalog", "compare", "providers", "sitegen", "words", "internal/cli"}

// goFileName matches a file name or pattern in a doc comment: diff.go,
// history*.go, swap_*.go.
var goFileName = regexp.MustCompile(`[A-Za-z0-9_*]+\.go\b`)

// DocMapGaps returns, sorted, the production .go files of the package in dir
// (a folder of the module at root) that its package doc comment does not name,
// as "dir/file.go" (doc.go, the map itself, need not be); an error when the
// folder has no package doc comment.
func DocMapGaps(root, dir string) ([]string, error) {
	folder := filepath.Join(root, filepath.FromSlash(dir))
	entries, err := os.ReadDir(folder)
	if err != nil {
		return nil, fmt.Errorf("doc map of %s: %w", dir, err)
	}
	var files []string
	var doc strings.Builder
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(folder, name), nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("doc map of %s: %w", dir, err)
		}
		if name != "doc.go" { // the map itself
			files = append(files, name)
		}
		if f.Doc != nil {
			doc.WriteString(f.Doc.Text())
		}
	}
	if doc.Len() == 0 {
		return nil, fmt.Errorf("doc map of %s: no package doc comment", dir)
	}
	named := goFileName.FindAllString(doc.String(), -1)
	var gaps []string
	for _, f := range files {
		found := false
		for _, n := range named {
			if ok, _ := path.Match(n, f); ok {
				found = true
				break
			}
		}
		if !found {
			gaps = append(gaps, dir+"/"+f)
		}
	}
	sort.Strings(gaps)
	return gaps, nil
}
