// Command gpuatlas crawls cloud GPU instance catalogs into one normalized catalog
// and renders a static comparison site. See README.md and docs/cli.md for the commands.
package main

import (
	"net/http"
	"os"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/cli"
	"github.com/gpuatlas/gpuatlas/sitegen"
)

func main() {
	os.Exit(cli.Main(osEnv(), os.Args[1:]))
}

// osEnv is the process environment with the site generator wired in: the
// command line calls sitegen only through cli.Site, so that it does not import
// the renderer (docs/architecture.md).
func osEnv() cli.Env {
	env := cli.OSEnv()
	env.Site = site()
	return env
}

// site is sitegen as the commands build, export and history export call it.
func site() cli.Site {
	return cli.Site{
		Build: func(in cli.SiteInput) (cli.SiteStats, error) {
			st, err := sitegen.Build(siteOptions(in))
			return cli.SiteStats{Pages: st.Pages, Files: st.Files, Bytes: st.Bytes}, err
		},
		WriteOffersCSV:  sitegen.WriteOffersCSV,
		WriteOffersJSON: sitegen.WriteOffersJSON,
		HistoryParquet: func(h *catalog.History) ([]cli.HistoryFile, error) {
			files, err := sitegen.HistoryParquet(h)
			out := make([]cli.HistoryFile, len(files))
			for i, f := range files {
				out[i] = cli.HistoryFile{Name: f.Name, Data: f.Data}
			}
			return out, err
		},
	}
}

// siteOptions are sitegen's options for what `gpuatlas build` hands the site:
// each field of cli.SiteInput to the field of the same name
// (TestSite_OptionsCarryEveryInput).
func siteOptions(in cli.SiteInput) sitegen.Options {
	return sitegen.Options{Snapshot: in.Snapshot, Reference: in.Reference, Templates: in.Templates,
		OutDir: in.OutDir, BaseURL: in.BaseURL, CatalogJSON: in.CatalogJSON, SiteURL: in.SiteURL,
		Benchmarks: in.Benchmarks, Workloads: in.Workloads, BenchmarkCosts: in.BenchmarkCosts,
		History: in.History, BandHistory: in.BandHistory, Scenarios: in.Scenarios, Models: in.Models}
}

// newServeHandler serves a built site folder as `gpuatlas serve` does.
func newServeHandler(root string) http.Handler { return cli.NewServeHandler(root) }
