package cli

import (
	"bytes"
	"fmt"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/internal/ghactions"
)

// defaultBenchmarks is where uploads live, relative to the repository root.
const defaultBenchmarks = "data/benchmarks"

func runValidate(env Env, args []string) int {
	fs, parse := newFlagSet(env, "validate", "validate [--catalog FILE] [--workloads FILE] [PATH...]\n\n"+
		"Checks benchmark uploads (CSV or YAML files; folders are searched for .csv, .yaml\n"+
		"and .yml files) and prints each problem as file:line: message. PATH defaults to\n"+
		defaultBenchmarks+". With --catalog FILE it also checks that catalog's data quality\n"+
		"(gpuatlas check, text report). Exit 0 when there is no error (warnings allowed), 1\n"+
		"when any record or the catalog has an error, 2 for a bad command line.")
	path := fs.String("catalog", "", "snapshot to check instance types against, and whose data quality to check (default: the catalog embedded in this build, quality not checked)")
	wlPath := fs.String("workloads", "", "workload registry CSV (default: data/workloads.csv embedded in this build)")
	if code, ok := parse(args); !ok {
		return code
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{defaultBenchmarks}
	}
	snap, _, err := loadSnapshot(*path)
	if err != nil {
		return fail(env, "validate: %v", err)
	}
	workloads, err := loadWorkloads(*wlPath)
	if err != nil {
		return fail(env, "validate: %v", err)
	}
	// Run dates after the clock's day are in the future.
	runs, problems := catalog.LoadBenchmarks(paths, snap, workloads, env.now())
	gha := env.Getenv != nil && env.Getenv("GITHUB_ACTIONS") == "true"
	errs, warns := 0, 0
	for _, p := range problems {
		fmt.Fprintln(env.Stdout, p.String())
		if p.Severity == catalog.SeverityError {
			errs++
		} else {
			warns++
		}
		if gha {
			fmt.Fprintln(env.Stderr, problemAnnotation(p))
		}
	}
	fmt.Fprintf(env.Stderr, "validate: %d valid %s; %d %s, %d %s\n",
		len(runs), plural(len(runs), "run", "runs"), errs, plural(errs, "error", "errors"), warns, plural(warns, "warning", "warnings"))
	if *path != "" {
		// The catalog named is checked as gpuatlas check does; the report is
		// printed when it finds something.
		r, err := qualityReport(snap, time.Time{})
		if err != nil {
			return fail(env, "validate: %v", err)
		}
		if !r.OK() || r.Warnings() > 0 {
			if _, err := fmt.Fprint(env.Stdout, r.Text(0)); err != nil {
				return fail(env, "validate: write: %v", err)
			}
		}
		fmt.Fprintf(env.Stderr, "validate: catalog data quality: %d %s, %d %s\n",
			len(r.Errors), plural(len(r.Errors), "error", "errors"), r.Warnings(), plural(r.Warnings(), "warning", "warnings"))
		annotateQuality(env, r)
		errs += len(r.Errors)
	}
	if errs > 0 {
		return ExitError
	}
	return ExitOK
}

// loadWorkloads reads the workload registry at path, or the embedded one when
// path is empty.
func loadWorkloads(path string) (*catalog.WorkloadRegistry, error) {
	if path == "" {
		return catalog.LoadWorkloads(data.FS)
	}
	b, err := catalog.ReadFileLimit(path, catalog.MaxDataFileBytes)
	if err != nil {
		return nil, fmt.Errorf("read workloads: %w", err)
	}
	return catalog.ParseWorkloads(path, bytes.NewReader(b))
}

// problemAnnotation shows a problem on its file and line of a pull request.
func problemAnnotation(p catalog.Problem) string {
	level := "error"
	if p.Severity == catalog.SeverityWarning {
		level = "warning"
	}
	return ghactions.Annotation(level, "gpuatlas validate", p.File, p.Line, p.Message)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
