// Package sitegen renders a catalog snapshot into the static GPU Atlas site: the
// overview, the offers explorer, a page per instance type and the downloads, in
// English and Chinese, written to a folder in one swap.
package sitegen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Options are the inputs of a build. The same inputs always give the same bytes.
type Options struct {
	Snapshot  *catalog.Snapshot
	Reference *catalog.GPUReference // optional: GPU names and specs
	Templates fs.FS                 // templates.FS, or a folder on disk while editing them
	OutDir    string
	// BaseURL is the path the site is served under: "/" or "/gpuatlas/". Every
	// link is absolute under it.
	BaseURL string
	// CatalogJSON is published as data/catalog.json as is (the canonical snapshot
	// bytes); when empty, the snapshot's canonical serialization is used.
	CatalogJSON []byte
}

// Stats says what a build wrote.
type Stats struct {
	Pages int   // HTML pages
	Files int   // all files, pages included
	Bytes int64 // their total size
}

// Build renders the site into opts.OutDir. It parses every template before it
// writes anything, builds the site in a temporary folder beside OutDir and swaps it
// in whole; on any error the previous OutDir is left as it was.
func Build(opts Options) (Stats, error) {
	if opts.Snapshot == nil {
		return Stats{}, errors.New("build site: no snapshot")
	}
	if opts.Templates == nil {
		return Stats{}, errors.New("build site: no templates")
	}
	if opts.OutDir == "" {
		return Stats{}, errors.New("build site: no output folder")
	}
	base, err := normalizeBaseURL(opts.BaseURL)
	if err != nil {
		return Stats{}, err
	}
	snap := canonicalCopy(opts.Snapshot)
	if err := snap.Validate(); err != nil {
		return Stats{}, fmt.Errorf("build site: snapshot: %w", err)
	}
	langs := newLanguages()
	if err := loadMessages(opts.Templates, langs); err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	static, versions, err := readStatic(opts.Templates)
	if err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	r, err := parseTemplates(opts.Templates, base, langs, versions)
	if err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	m, err := newSiteModel(snap, opts.Reference)
	if err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	data, downloads, err := dataFiles(m, opts.CatalogJSON)
	if err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}

	w, err := newSiteWriter(opts.OutDir)
	if err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	defer w.abort()
	for _, f := range append(static, data...) {
		if err := w.write(f.name, f.data); err != nil {
			return Stats{}, fmt.Errorf("build site: %w", err)
		}
	}
	pages := 0
	for i, l := range langs {
		alt := langs[(i+1)%len(langs)]
		for _, p := range m.pages(base, l, downloads) {
			pd := pageData{
				Lang: l, Alt: alt, AltHref: base + alt.Prefix + strings.TrimSuffix(p.Path, "index.html"),
				Path: p.Path, Nav: p.Nav, TakenAt: snap.TakenAt, Data: p.Data,
			}
			b, err := r.render(l, p.Template, pd)
			if err != nil {
				return Stats{}, fmt.Errorf("build site: %w", err)
			}
			if err := w.write(l.Prefix+p.Path, b); err != nil {
				return Stats{}, fmt.Errorf("build site: %w", err)
			}
			pages++
		}
	}
	if err := w.commit(); err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	return Stats{Pages: pages, Files: w.files, Bytes: w.bytes}, nil
}

// normalizeBaseURL checks the base path and gives it a trailing slash. It must be
// a path ("/" or "/gpuatlas/"), not a URL: the site loads nothing from other hosts
// and its links work wherever the folder is served.
func normalizeBaseURL(s string) (string, error) {
	if s == "" {
		return "/", nil
	}
	if !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") || strings.ContainsAny(s, "?#\\\"'<> \t\r\n") {
		return "", fmt.Errorf("build site: base URL %q must be a path such as / or /gpuatlas/", s)
	}
	for _, seg := range strings.Split(s, "/") {
		if seg == "." || seg == ".." {
			return "", fmt.Errorf("build site: base URL %q must not contain . or .. segments", s)
		}
	}
	if !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s, nil
}

type siteFile struct {
	name string
	data []byte
}

// readStatic reads every file under static/ of the templates, with a short content
// hash of each for cache-busting links.
func readStatic(fsys fs.FS) ([]siteFile, map[string]string, error) {
	var files []siteFile
	versions := map[string]string{}
	err := fs.WalkDir(fsys, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		versions[p] = hex.EncodeToString(sum[:4])
		files = append(files, siteFile{name: p, data: b})
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read static files: %w", err)
	}
	return files, versions, nil
}

// dataFiles are the published data: the snapshot, the offers CSV and the
// explorer's compact JSON; downloads describes them for the downloads page.
func dataFiles(m *siteModel, catalogJSON []byte) ([]siteFile, []download, error) {
	if len(catalogJSON) == 0 {
		b, err := m.snap.MarshalCanonical()
		if err != nil {
			return nil, nil, fmt.Errorf("encode data/catalog.json: %w", err)
		}
		catalogJSON = b
	}
	var csv bytes.Buffer
	if err := WriteOffersCSV(&csv, m.snap); err != nil {
		return nil, nil, fmt.Errorf("write data/offers.csv: %w", err)
	}
	offers, err := m.offersJSON()
	if err != nil {
		return nil, nil, err
	}
	files := []siteFile{
		{name: "data/catalog.json", data: catalogJSON},
		{name: "data/offers.csv", data: csv.Bytes()},
		{name: offersDataPath, data: offers},
	}
	desc := []string{"downloads.catalog_json", "downloads.offers_csv", "downloads.offers_json"}
	var downloads []download
	for i, f := range files {
		downloads = append(downloads, download{Path: f.name, Bytes: int64(len(f.data)), Desc: desc[i]})
	}
	return files, downloads, nil
}
