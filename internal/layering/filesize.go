package layering

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MaxLines is the most lines a production source file may have
// (docs/architecture.md): a longer one holds more than one job.
const MaxLines = 700

// sourceExt are the endings of the source files LongFiles counts: Go, the
// site's scripts and styles, the templates and the shell scripts.
var sourceExt = map[string]bool{".go": true, ".js": true, ".mjs": true, ".css": true, ".html": true, ".sh": true}

// notSource reports whether a folder of the module holds no production source:
// hidden folders, test data, npm's node_modules and the built site (public/).
func notSource(dir string) bool {
	return strings.HasPrefix(dir, ".") || dir == "testdata" || dir == "node_modules" || dir == "public"
}

// LongFiles returns, sorted, the production source files under root with more
// than max lines, as "path: N lines" (path from root, with slashes). Tests
// (_test.go) are not production, nor are the folders notSource names.
func LongFiles(root string, max int) ([]string, error) {
	var long []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && notSource(name) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !sourceExt[filepath.Ext(name)] || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n := bytes.Count(b, []byte("\n"))
		if len(b) > 0 && b[len(b)-1] != '\n' {
			n++
		}
		if n > max {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			long = append(long, fmt.Sprintf("%s: %d lines", filepath.ToSlash(rel), n))
		}
		return nil
	})
	sort.Strings(long)
	return long, err
}
