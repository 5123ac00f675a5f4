package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gpuatlas/gpuatlas/internal/benchrow"
)

// buildTarget is the target: a build takes at most 3× the time of
// copying its output folder with cp -r in the same run.
const buildTarget = 3.0

// runBuild times `gpuatlas build` against `cp -r` of the folder it wrote, and
// reports pages per second and the build's peak memory.
func runBuild(args []string) error {
	fs := flag.NewFlagSet("build", flag.ExitOnError)
	bin := fs.String("gpuatlas", "", "the gpuatlas binary")
	cat := fs.String("catalog", "", "snapshot to build (default: the embedded catalog)")
	hist := fs.String("history", "", "history to build with (default: none)")
	benchmarks := fs.String("benchmarks", "", "benchmark uploads folder (default: the embedded ones)")
	name := fs.String("name", "", "what is built, for the table")
	work := fs.String("work", "", "scratch folder")
	rows := fs.String("rows", "", "file to append the rows to")
	n := fs.Int("runs", 3, "runs of each; the median is reported")
	warmup := fs.Bool("warmup", true, "build once before the measured runs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *bin == "" || *name == "" || *work == "" || *rows == "" {
		return fmt.Errorf("build: -gpuatlas, -name, -work and -rows are required")
	}
	site := filepath.Join(*work, "site")
	copyDir := filepath.Join(*work, "site.copy")
	buildArgs := []string{"build", "--out", site}
	if *cat != "" {
		buildArgs = append(buildArgs, "--catalog", *cat)
	}
	if *benchmarks != "" {
		buildArgs = append(buildArgs, "--benchmarks", *benchmarks)
	}
	if *hist != "" {
		buildArgs = append(buildArgs, "--history", *hist)
	} else if *cat != "" {
		// Without --history, build reads history.jsonl beside the catalog.
		if _, err := os.Stat(filepath.Join(filepath.Dir(*cat), "history.jsonl")); err == nil {
			return fmt.Errorf("build: %s has a history.jsonl beside it; pass -history to say whether to use it", *cat)
		}
	}
	// The first build writes the folder; the measured ones replace it, as the
	// nightly job's build does.
	if *warmup {
		if _, err := execute(*bin, buildArgs); err != nil {
			return err
		}
	}
	builds, err := repeat(*n, func() (run, error) { return execute(*bin, buildArgs) })
	if err != nil {
		return err
	}
	copies, err := repeat(*n, func() (run, error) {
		if err := os.RemoveAll(copyDir); err != nil {
			return run{}, err
		}
		return execute("cp", []string{"-r", site, copyDir})
	})
	if err != nil {
		return err
	}
	if err := os.RemoveAll(copyDir); err != nil {
		return err
	}
	files, size, err := treeSize(site)
	if err != nil {
		return err
	}
	pages, err := countPages(site)
	if err != nil {
		return err
	}
	b, c := median(builds).wall, median(copies).wall
	ratio := float64(b) / float64(c)
	input := "the embedded catalog"
	inputSize := int64(0)
	if *cat != "" {
		input = filepath.Base(*cat)
		if inputSize, err = fileSize(*cat); err != nil {
			return err
		}
	}
	if *hist != "" {
		input += " + " + filepath.Base(*hist)
	}
	out := []benchrow.Row{
		{Stage: "build", Name: *name, Measure: "build / cp -r of its output",
			Value: fmt.Sprintf("%.1f× (%s / %s)", ratio, seconds(b), seconds(c)), Target: fmt.Sprintf("≤ %.0f×", buildTarget),
			Met:  benchrow.Check(ratio <= buildTarget),
			Note: fmt.Sprintf("gpuatlas build of %s: %d pages, %d files, %s; %s, files in the page cache", input, pages, files, mib(size), runsText(*n))},
		{Stage: "build", Name: *name, Measure: "pages per second",
			Value: fmt.Sprintf("%.0f pages/s", float64(pages)/b.Seconds()),
			Note:  fmt.Sprintf("%d HTML pages (both languages) in %s, plus %d data and static files", pages, seconds(b), files-pages)},
		peakRow(*name, peakRSS(builds), inputSize),
	}
	return benchrow.Append(*rows, out...)
}

func peakRow(name string, peak, inputSize int64) benchrow.Row {
	r := benchrow.Row{Stage: "build", Name: name, Measure: "peak memory (max RSS)", Value: mib(peak)}
	if inputSize > 0 {
		r.Note = fmt.Sprintf("%.1f× the catalog file (%s)", float64(peak)/float64(inputSize), mib(inputSize))
	}
	return r
}

// runsText says how a figure was taken: "one run each" or "median of 3 runs each".
func runsText(n int) string {
	if n == 1 {
		return "one run each"
	}
	return fmt.Sprintf("median of %d runs each", n)
}

// countPages counts the HTML pages under dir.
func countPages(dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".html" {
			n++
		}
		return err
	})
	return n, err
}
