package cli

import (
	"errors"
	"io"
	"io/fs"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// Site is what the commands that write the site or its exports (build,
// export, history export) need of the site generator, package sitegen.
// cmd/gpuatlas fills it, so that the command line depends on the model
// (catalog, compare) and the words (package words) but not on the renderer
// (docs/architecture.md, internal/layering).
type Site struct {
	// Build renders the site into in.OutDir (sitegen.Build).
	Build func(in SiteInput) (SiteStats, error)
	// WriteOffersCSV and WriteOffersJSON write a snapshot's offers, one row
	// each (sitegen.WriteOffersCSV, sitegen.WriteOffersJSON).
	WriteOffersCSV, WriteOffersJSON func(w io.Writer, s *catalog.Snapshot) error
	// HistoryParquet is the price history as Parquet files, one per provider
	// (sitegen.HistoryParquet).
	HistoryParquet func(h *catalog.History) ([]HistoryFile, error)
}

// SiteInput is what `gpuatlas build` hands Site.Build: the fields of
// sitegen.Options of the same names.
type SiteInput struct {
	Snapshot       *catalog.Snapshot
	Reference      *catalog.GPUReference
	Templates      fs.FS
	OutDir         string
	BaseURL        string
	CatalogJSON    []byte
	SiteURL        string
	Benchmarks     []catalog.BenchmarkRun
	Workloads      *catalog.WorkloadRegistry
	BenchmarkCosts []compare.WorkCost
	History        *catalog.History
	BandHistory    *catalog.BandHistory
	Scenarios      *compare.ScenarioReport
	Models         *compare.ModelSet
}

// SiteStats says what a build wrote (sitegen.Stats).
type SiteStats struct {
	Pages int   // HTML pages
	Files int   // all files, pages included
	Bytes int64 // their total size
}

// HistoryFile is one Parquet file of the history, named by its path under the
// export folder ("provider=aws/part-0.parquet").
type HistoryFile struct {
	Name string
	Data []byte
}

// errNoSite is the error of a command that needs the site generator when the
// program that runs it wired none (Env.Site).
var errNoSite = errors.New("this program has no site generator wired in (cli.Env.Site; cmd/gpuatlas sets it)")
