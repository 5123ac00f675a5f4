package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/templates"
)

func runBuild(env Env, args []string) int {
	fs, parse := newFlagSet(env, "build", "build [--catalog FILE] --out DIR [--base-url /]")
	path := fs.String("catalog", "", "snapshot to build from (default: the catalog embedded in this build)")
	out := fs.String("out", "", "folder to write the site to (replaced whole, atomically)")
	base := fs.String("base-url", "/", "URL path the site is served under, e.g. /gpuatlas/ for a GitHub Pages project site")
	siteURL := fs.String("site-url", "", "origin the site is published at, e.g. https://example.github.io: canonical URLs, Open Graph and sitemap.xml")
	historyPath := fs.String("history", "", "price history to chart (default: history.jsonl beside --catalog, or data/history.jsonl, when it exists)")
	dev := fs.String("templates", "", "read templates from this folder instead of the embedded ones (development)")
	benchDir := fs.String("benchmarks", "", "folder of benchmark uploads (default: data/benchmarks embedded in this build)")
	skipInvalid := fs.Bool("skip-invalid-benchmarks", false, "publish without the benchmark runs that have errors (each is named) instead of refusing to build")
	if code, ok := parseFlags(env, fs, parse, args, nil); !ok {
		return code
	}
	if *out == "" {
		return usageError(env, "build: --out DIR is required")
	}
	// A symbolic link is refused before any work, not followed: the site
	// would be written where it points.
	if err := catalog.CheckOutputFolder(*out); err != nil {
		return fail(env, "build: --out %v", err)
	}
	snap, raw, ref, err := loadCatalog(*path)
	if err != nil {
		return fail(env, "build: %v", err)
	}
	runs, workloads, code := loadBuildBenchmarks(env, snap, *benchDir, *skipInvalid)
	if code != ExitOK {
		return code
	}
	history, err := loadBuildHistory(*historyPath, *path)
	if err != nil {
		return fail(env, "build: %v", err)
	}
	tmpl := templates.FS
	opts := SiteInput{Snapshot: snap, Reference: ref, Templates: tmpl, OutDir: *out, BaseURL: *base, CatalogJSON: raw, SiteURL: *siteURL,
		// The benchmarks page, results on instance and GPU pages, and the
		// explorer's cost column (the best figure per offer and workload).
		Benchmarks: runs, Workloads: workloads, BenchmarkCosts: compare.CostPerWork(snap, runs, workloads),
		// The changes pages and feed, GPU price trends and the instance pages'
		// price history (nil without history).
		History: history}
	if opts.BandHistory, err = catalog.LoadBandHistory(data.FS); err != nil {
		return fail(env, "build: %v", err)
	}
	// The scenario and TCO pages: the scenarios ranked and their TCO presets
	// computed by compare, which lists the offers it could not compare.
	set, err := compare.LoadScenarios(data.FS)
	if err != nil {
		return fail(env, "build: %v", err)
	}
	if opts.Scenarios, err = compare.NewScenarioReport(set.Scenarios, snap, ref, opts.BenchmarkCosts); err != nil {
		return fail(env, "build: %v", err)
	}
	for _, l := range opts.Scenarios.TCO.LeftOut {
		fmt.Fprintf(env.Stderr, "build: note: %v\n", l)
	}
	// The memory estimator: the known models.
	if opts.Models, err = compare.LoadModels(data.FS); err != nil {
		return fail(env, "build: %v", err)
	}
	if *dev != "" {
		opts.Templates = os.DirFS(*dev)
	}
	lock, err := lockTarget(env, "build", filepath.Clean(*out))
	if err != nil {
		return fail(env, "build: %v; nothing was written", err)
	}
	defer unlock(env, lock)
	start := env.now()
	if env.Site.Build == nil {
		return fail(env, "build: %v", errNoSite)
	}
	stats, err := env.Site.Build(opts)
	if err != nil {
		return fail(env, "build: %v (the previous site in %s, if any, is untouched)", err, *out)
	}
	fmt.Fprintf(env.Stderr, "built %s: %d pages, %d files, %.1f MiB in %s\n", *out, stats.Pages, stats.Files, float64(stats.Bytes)/(1<<20), env.now().Sub(start).Round(time.Millisecond))
	return ExitOK
}

// loadBuildBenchmarks reads the benchmark uploads for a build. With errors in
// them the build refuses to publish, naming each problem, unless skipInvalid is
// set: then the broken runs are left out, each named.
func loadBuildBenchmarks(env Env, snap *catalog.Snapshot, dir string, skipInvalid bool) ([]catalog.BenchmarkRun, *catalog.WorkloadRegistry, int) {
	workloads, err := catalog.LoadWorkloads(data.FS)
	if err != nil {
		return nil, nil, fail(env, "build: %v", err)
	}
	var runs []catalog.BenchmarkRun
	var problems []catalog.Problem
	if dir != "" {
		runs, problems = catalog.LoadBenchmarks([]string{dir}, snap, workloads, env.now())
	} else {
		runs, problems = catalog.LoadBenchmarksFS(data.FS, "benchmarks", "data/", snap, workloads, env.now())
	}
	for _, p := range problems {
		fmt.Fprintln(env.Stderr, p)
	}
	if catalog.HasErrors(problems) {
		if !skipInvalid {
			return nil, nil, fail(env, "build: benchmark uploads have errors (listed above): fix them (gpuatlas validate) or pass --skip-invalid-benchmarks to publish without those runs")
		}
		fmt.Fprintln(env.Stderr, "build: --skip-invalid-benchmarks: publishing without the runs listed above")
	}
	return runs, workloads, ExitOK
}

// loadBuildHistory reads the price history to chart: the given file, else
// history.jsonl beside the catalog file (data/history.jsonl for the embedded
// catalog) when it exists. No history is no error.
func loadBuildHistory(path, catalogPath string) (*catalog.History, error) {
	if path == "" {
		path = filepath.Join("data", "history.jsonl")
		if catalogPath != "" {
			path = filepath.Join(filepath.Dir(catalogPath), "history.jsonl")
		}
		if _, err := os.Stat(path); err != nil {
			return nil, nil
		}
	}
	return catalog.ReadHistory(path)
}
