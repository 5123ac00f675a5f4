package sitegen

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
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
	// SiteURL is the origin the site is published at, e.g. https://example.github.io
	// (the path is BaseURL). It makes the canonical and Open Graph URLs and the
	// sitemap; when empty they are left out.
	SiteURL string
	// PriceHistory is optional: each offer's recorded prices by offer key
	// (catalog.History.PriceSeries). Instance pages chart it when present.
	PriceHistory map[string][]catalog.PricePoint
	// Benchmarks are the validated benchmark runs (catalog.LoadBenchmarks). With
	// them or BenchmarkCosts the site has a benchmarks page, and instance and GPU
	// pages show their results.
	Benchmarks []catalog.BenchmarkRun
	// Workloads names the runs' workloads (optional).
	Workloads *catalog.WorkloadRegistry
	// BenchmarkCosts are compare.CostPerWork's figures, measured and estimated,
	// for the benchmark pages; the explorer's cost column gets the best of them.
	BenchmarkCosts []compare.WorkCost
	// History is the crawl history (catalog.ReadHistory). With it the site has
	// the changes pages and their Atom feed, GPU pages a price trend, and instance
	// pages their price history when PriceHistory is not given.
	History *catalog.History
	// BandHistory is the dated interruption bands of AWS's Spot Instance
	// Advisor copies (catalog.LoadBandHistory); with it instance pages show
	// how each region's band moved. Optional.
	BandHistory *catalog.BandHistory
	// Now is the time every page counts the data's age to ("AWS prices
	// observed 2025-11-30, 366 days ago", the stale marks); zero means the
	// snapshot's taken_at, the crawl's time, so that the same catalog always
	// builds the same site.
	Now time.Time
	// Scenarios are the scenarios ranked over Snapshot and their TCO presets
	// (compare.NewScenarioReport, with BenchmarkCosts for cost per unit of
	// work). With them the site has the scenario pages and the TCO page.
	Scenarios *compare.ScenarioReport
	// Models are the known models (compare.LoadModels). With them the site has
	// the memory estimator page (fit.html) and its data (data/fit.json).
	Models *compare.ModelSet
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
	siteURL, err := normalizeSiteURL(opts.SiteURL)
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
	m, err := newSiteModel(snap, opts.Reference, opts.Now)
	if err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	setPageFX(langs, snap.FX)
	m.history = opts.PriceHistory
	m.bands = opts.BandHistory
	m.explorer = explorerInputs{langs: langs, scenarios: opts.Scenarios}
	// benchmarks and changes (sitegen/benchmarks.go, changes.go)
	ex, err := newExtras(m, opts, base, siteURL)
	if err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	// scenarios and TCO (sitegen/scenarios.go, tco.go)
	scen := newScenarioSite(opts.Scenarios)
	m.fits = newScenarioFits(m, opts.Scenarios)
	data, downloads, err := dataFiles(m, opts.CatalogJSON, opts.History)
	if err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	// the memory estimator (sitegen/fit.go)
	fit, err := newFitSite(m, opts.Models)
	if err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	if fit != nil {
		data = append(data, siteFile{name: fitDataPath, data: fit.data})
		if scen != nil {
			scen.fitLinks = fit.scenarioLinks()
		}
	}

	// the JSON API and llms.txt (sitegen/api_*.go)
	apiFiles, apiSum, err := newAPISite(m, ex, scen).files(opts.Templates)
	if err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	data = append(data, apiFiles...)

	w, err := newSiteWriter(opts.OutDir)
	if err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	defer w.abort()
	// Rendering is most of a build; pages are independent, so they are rendered
	// and written by a worker per processor, one language at a time (so that
	// only one language's page models are held), the data files alongside the
	// first.
	pages := 0
	var locs []string
	files := slices.Concat(static, data)
	for i, l := range langs {
		alt := langs[(i+1)%len(langs)]
		ps, err := m.pages(opts.Templates, base, l, downloads)
		if err != nil {
			return Stats{}, fmt.Errorf("build site: %w", err)
		}
		if ps, err = ex.pages(l, ps); err != nil {
			return Stats{}, fmt.Errorf("build site: %w", err)
		}
		if scen != nil {
			sps, err := scen.pages(m, base, l)
			if err != nil {
				return Stats{}, fmt.Errorf("build site: %w", err)
			}
			ps = append(ps, sps...)
		}
		if fit != nil {
			fp, err := fit.page(base, l)
			if err != nil {
				return Stats{}, fmt.Errorf("build site: %w", err)
			}
			ps = append(ps, fp)
		}
		ps = append(ps, page{Path: apiPagePath, Template: "api.html", Data: apiPage(apiSum, siteURL, base)})
		ages, err := m.ageLines(l)
		if err != nil {
			return Stats{}, fmt.Errorf("build site: %w", err)
		}
		jobs := make([]renderJob, 0, len(ps))
		for _, p := range ps {
			rel := strings.TrimSuffix(p.Path, "index.html")
			pd := pageData{
				Lang: l, Alt: alt, AltHref: base + alt.Prefix + rel,
				Path: p.Path, Nav: p.Nav, TakenAt: snap.TakenAt, Data: p.Data, Sections: ex.sections, Ages: ages,
			}
			pd.Scenarios = scen != nil
			pd.Fit = fit != nil
			if siteURL != "" {
				pd.Canonical = siteURL + base + l.Prefix + rel
				pd.AltCanonical = siteURL + base + alt.Prefix + rel
				if p.Path != "404.html" {
					locs = append(locs, pd.Canonical)
				}
			}
			jobs = append(jobs, renderJob{lang: l, page: p, data: pd})
		}
		if err := renderAll(r, w, jobs, files); err != nil {
			return Stats{}, fmt.Errorf("build site: %w", err)
		}
		files = nil
		pages += len(jobs)
	}
	if err := w.write(llmsTxtPath, llmsTxt(m, apiSum, siteURL, base, scen != nil)); err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	if err := w.write("robots.txt", robotsTxt(siteURL, base)); err != nil {
		return Stats{}, fmt.Errorf("build site: %w", err)
	}
	if siteURL != "" {
		sm, err := sitemapXML(locs, snap.TakenAt.UTC().Format("2006-01-02"))
		if err != nil {
			return Stats{}, fmt.Errorf("build site: %w", err)
		}
		if err := w.write("sitemap.xml", sm); err != nil {
			return Stats{}, fmt.Errorf("build site: %w", err)
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

// dataFiles are the published data: the snapshot, offers and instance types as
// CSV, JSON and partitioned Parquet, and the explorer's compact JSON; the
// downloads page's model describes them.
func dataFiles(m *siteModel, catalogJSON []byte, h *catalog.History) ([]siteFile, downloadsData, error) {
	if len(catalogJSON) == 0 {
		b, err := m.snap.MarshalCanonical()
		if err != nil {
			return nil, downloadsData{}, fmt.Errorf("encode data/catalog.json: %w", err)
		}
		catalogJSON = b
	}
	type export struct {
		name, desc string
		write      func(io.Writer, *catalog.Snapshot) error
	}
	files := []siteFile{{name: "data/catalog.json", data: catalogJSON}}
	desc := []string{"downloads.catalog_json"}
	for _, e := range []export{
		{"data/offers.csv", "downloads.offers_csv", WriteOffersCSV},
		{"data/offers.full.json", "downloads.offers_full_json", WriteOffersJSON},
		{"data/instances.csv", "downloads.instances_csv", WriteInstancesCSV},
		{"data/instances.json", "downloads.instances_json", WriteInstancesJSON},
	} {
		var b bytes.Buffer
		if err := e.write(&b, m.snap); err != nil {
			return nil, downloadsData{}, fmt.Errorf("write %s: %w", e.name, err)
		}
		files = append(files, siteFile{name: e.name, data: b.Bytes()})
		desc = append(desc, e.desc)
	}
	offers, err := m.offersJSON()
	if err != nil {
		return nil, downloadsData{}, err
	}
	files = append(files, siteFile{name: offersDataPath, data: offers})
	desc = append(desc, "downloads.offers_json")
	pq, err := parquetFiles(m.snap)
	if err != nil {
		return nil, downloadsData{}, fmt.Errorf("write parquet: %w", err)
	}
	d := downloadsData{OfferColumns: columnDocs(OfferColumns, "csv."), InstanceColumns: columnDocs(InstanceColumns, "icol.")}
	for i, f := range files {
		d.Files = append(d.Files, download{Path: f.name, Bytes: int64(len(f.data)), Desc: desc[i]})
	}
	for _, f := range pq {
		d.Parquet = append(d.Parquet, download{Path: f.name, Bytes: int64(len(f.data))})
	}
	files = append(files, pq...)
	if h != nil {
		// The price history, one row per price interval (history_parquet.go).
		hist, err := HistoryParquet(h)
		if err != nil {
			return nil, downloadsData{}, fmt.Errorf("write history parquet: %w", err)
		}
		for _, f := range hist {
			name := parquetDir + "/history/" + f.Name
			files = append(files, siteFile{name: name, data: f.Data})
			d.History = append(d.History, download{Path: name, Bytes: int64(len(f.Data))})
		}
		for _, c := range HistoryColumns {
			d.HistoryColumns = append(d.HistoryColumns, columnDoc{Name: c.Name, Desc: "hcol." + c.Name, Parquet: c.Type})
		}
	}
	return files, d, nil
}

// columnDocs pairs each column with its message key and Parquet type.
func columnDocs(cols []string, prefix string) []columnDoc {
	out := make([]columnDoc, len(cols))
	for i, c := range cols {
		t, ok := ParquetTypes[c]
		if !ok {
			t = "STRING"
		}
		out[i] = columnDoc{Name: c, Desc: prefix + c, Parquet: t}
	}
	return out
}

// renderJob is one page to render and write, in one language.
type renderJob struct {
	lang *language
	page page
	data pageData
}

// renderAll renders and writes every page, and writes the given files, with a
// worker per processor; it stops at the first error. What a page renders to
// does not depend on the order, so the site is the same as a serial build's.
func renderAll(r *renderer, w *siteWriter, jobs []renderJob, files []siteFile) error {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	work := make(chan func() error)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				if err := f(); err != nil {
					cancel(err)
				}
			}
		}()
	}
	send := func(f func() error) bool {
		select {
		case work <- f:
			return true
		case <-ctx.Done():
			return false
		}
	}
	// The data files first: the largest (the catalog, offers in every format)
	// then overlap with the pages.
	for _, f := range files {
		if !send(func() error { return w.write(f.name, f.data) }) {
			break
		}
	}
	for _, j := range jobs {
		ok := send(func() error {
			b, err := r.render(j.lang, j.page.Template, j.data)
			if err != nil {
				return err
			}
			if err := w.write(j.lang.Prefix+j.page.Path, b); err != nil {
				return err
			}
			files := j.page.Files
			if j.page.Make != nil {
				more, err := j.page.Make()
				if err != nil {
					return err
				}
				files = append(files[:len(files):len(files)], more...)
			}
			for _, f := range files {
				if err := w.write(j.lang.Prefix+f.name, f.data); err != nil {
					return err
				}
			}
			return nil
		})
		if !ok {
			break
		}
	}
	close(work)
	wg.Wait()
	return context.Cause(ctx)
}
