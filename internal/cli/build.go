package cli

import (
	"fmt"
	"os"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/sitegen"
	"github.com/gpuatlas/gpuatlas/templates"
)

func runBuild(env Env, args []string) int {
	fs, parse := newFlagSet(env, "build", "build [--catalog FILE] --out DIR [--base-url /]")
	path := fs.String("catalog", "", "snapshot to build from (default: the catalog embedded in this build)")
	out := fs.String("out", "", "folder to write the site to (replaced whole, atomically)")
	base := fs.String("base-url", "/", "URL path the site is served under, e.g. /gpuatlas/ for a GitHub Pages project site")
	dev := fs.String("templates", "", "read templates from this folder instead of the embedded ones (development)")
	if code, ok := parse(args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(env, "build: unexpected argument %q", fs.Arg(0))
	}
	if *out == "" {
		return usageError(env, "build: --out DIR is required")
	}
	snap, raw, err := loadSnapshot(*path)
	if err != nil {
		return fail(env, "build: %v", err)
	}
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		return fail(env, "build: %v", err)
	}
	tmpl := templates.FS
	opts := sitegen.Options{Snapshot: snap, Reference: ref, Templates: tmpl, OutDir: *out, BaseURL: *base, CatalogJSON: raw}
	if *dev != "" {
		opts.Templates = os.DirFS(*dev)
	}
	start := time.Now()
	stats, err := sitegen.Build(opts)
	if err != nil {
		return fail(env, "build: %v (the previous site in %s, if any, is untouched)", err, *out)
	}
	fmt.Fprintf(env.Stderr, "built %s: %d pages, %d files, %.1f MiB in %s\n", *out, stats.Pages, stats.Files, float64(stats.Bytes)/(1<<20), time.Since(start).Round(time.Millisecond))
	return ExitOK
}
