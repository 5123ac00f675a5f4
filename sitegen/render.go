package sitegen

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"sort"
	"strings"
)

// requiredPages are the page templates a template set must have.
var requiredPages = []string{"index.html", "offers.html", "instance.html", "downloads.html", "404.html",
	"compare.html", "gpus.html", "gpu.html", "regions.html", "markdown.html"}

// renderer holds every page template, parsed once at the start of a build and
// bound to each language's functions.
type renderer struct {
	pages map[string]*template.Template // "<lang>/<page file>"
}

// parseTemplates parses the shared templates (_*.html: the layout and partials)
// and every page template (*.html), each page in its own set so that each can
// define "title" and "content". Any error stops the build before it writes.
func parseTemplates(fsys fs.FS, base string, langs []*language, versions map[string]string) (*renderer, error) {
	all, err := fs.Glob(fsys, "*.html")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	var shared, pages []string
	for _, name := range all {
		if strings.HasPrefix(name, "_") {
			shared = append(shared, name)
		} else {
			pages = append(pages, name)
		}
	}
	if len(shared) == 0 {
		return nil, fmt.Errorf("templates: no shared layout (_*.html) in the template folder")
	}
	for _, req := range requiredPages {
		if i := sort.SearchStrings(pages, req); i == len(pages) || pages[i] != req {
			return nil, fmt.Errorf("templates: page template %s is missing", req)
		}
	}
	root, err := template.New("site").Funcs(funcMap(base, langs[0], versions)).ParseFS(fsys, shared...)
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	if root.Lookup("layout") == nil {
		return nil, fmt.Errorf("templates: no template defines \"layout\"")
	}
	r := &renderer{pages: map[string]*template.Template{}}
	for _, p := range pages {
		pt, err := root.Clone()
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		if _, err := pt.ParseFS(fsys, p); err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		for _, def := range []string{"title", "content"} {
			if pt.Lookup(def) == nil {
				return nil, fmt.Errorf("templates: %s does not define %q", p, def)
			}
		}
		for _, l := range langs {
			lt, err := pt.Clone()
			if err != nil {
				return nil, fmt.Errorf("templates: %w", err)
			}
			r.pages[l.Tag+"/"+p] = lt.Funcs(funcMap(base, l, versions))
		}
	}
	return r, nil
}

func (r *renderer) render(l *language, tmpl string, data pageData) ([]byte, error) {
	t, ok := r.pages[l.Tag+"/"+tmpl]
	if !ok {
		return nil, fmt.Errorf("render %s: no template %s", data.Path, tmpl)
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "layout", data); err != nil {
		return nil, fmt.Errorf("render %s%s: %w", l.Prefix, data.Path, err)
	}
	return b.Bytes(), nil
}
