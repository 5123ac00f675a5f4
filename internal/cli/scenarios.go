package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/words"
)

// scenariosSynopsis is `gpuatlas scenarios --help`: the synopsis and what it does.
const scenariosSynopsis = "scenarios [--scenario ID] [--format text|json] [--lang en|zh] [--catalog FILE] [--billing KIND] [--region R] [--top N]\n\n" +
	"Ranks the catalog's instance types for each scenario (data/scenarios.yaml): whether each\n" +
	"fits, why, its score, and the best offers per provider and per GPU tier. Benchmark results\n" +
	"(data/benchmarks) give cost per unit of work. The text is in --lang; the JSON carries every\n" +
	"reason as a code with its figures (see docs/cli.md). Exit 0 on success, 1 when the data cannot\n" +
	"be read, 2 for a bad command line."

func runScenarios(env Env, args []string) int {
	fs, parse := newFlagSet(env, "scenarios", scenariosSynopsis)
	id := fs.String("scenario", "", "show only this scenario (default: all)")
	report := addReportFlags(fs, "output format: text or json (the full matrix, reasons as codes and figures)")
	path := fs.String("catalog", "", "snapshot to rank (default: the catalog embedded in this build)")
	scPath := fs.String("scenarios", "", "scenario definitions YAML (default: data/scenarios.yaml embedded in this build)")
	bench := fs.String("benchmarks", "", "benchmark uploads (files or a folder) for cost per unit of work (default: the embedded data/benchmarks; none: no benchmarks)")
	billing := fs.String("billing", string(catalog.OnDemand), "billing kind whose offers are priced")
	region := fs.String("region", "", "only offers in this region id (default: every region, cheapest first)")
	top := fs.Int("top", 10, "text: how many ranked instance types to show per scenario (0: all)")
	perCell := fs.Int("per-cell", 3, "offers listed per provider and per tier")
	tag, code, ok := report.parse(env, fs, parse, args)
	if !ok {
		return code
	}
	bk, err := catalog.ParseBillingKind(*billing)
	if err != nil {
		return usageError(env, "scenarios: --billing: %v", err)
	}
	if *top < 0 || *perCell < 1 {
		return usageError(env, "scenarios: --top must be 0 or more and --per-cell 1 or more")
	}
	set, err := loadScenarioSet(*scPath)
	if err != nil {
		return fail(env, "scenarios: %v", err)
	}
	scs := set.Scenarios
	if *id != "" {
		s, ok := set.Scenario(*id)
		if !ok {
			return usageError(env, "scenarios: --scenario %s: not one of %s", catalog.Excerpt(*id), strings.Join(set.IDs(), ", "))
		}
		scs = []compare.Scenario{s}
	}
	snap, _, err := loadSnapshot(*path)
	if err != nil {
		return fail(env, "scenarios: %v", err)
	}
	if *region != "" && !hasRegion(snap, *region) {
		// Else the matrix would be empty without a word.
		return usageError(env, "scenarios: --region %s: no offer of the catalog is in that region; %s", catalog.Excerpt(*region), knownRegions(snap, 12))
	}
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		return fail(env, "scenarios: %v", err)
	}
	costs, err := benchmarkCosts(env, "scenarios", *bench, snap)
	if err != nil {
		return fail(env, "scenarios: %v", err)
	}
	m := compare.BuildMatrix(scs, snap, ref, compare.MatrixOptions{Billing: bk, Region: *region, PerCell: *perCell, Costs: costs})
	w := bufio.NewWriter(env.Stdout)
	if report.json() {
		err = writeJSON(w, m)
	} else {
		var words words.ReasonWords
		if words, err = reasonWords(tag); err == nil {
			err = writeScenariosText(w, words, snap, m, *top)
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fail(env, "scenarios: %v", err)
	}
	return ExitOK
}

// hasRegion reports whether an offer of the snapshot is in region.
func hasRegion(snap *catalog.Snapshot, region string) bool {
	for _, o := range snap.Offers {
		if o.Region == region {
			return true
		}
	}
	return false
}

// knownRegions names the regions of the snapshot's offers, the first n in
// order and how many more.
func knownRegions(snap *catalog.Snapshot, n int) string {
	seen := map[string]bool{}
	var ids []string
	for _, o := range snap.Offers {
		if !seen[o.Region] {
			seen[o.Region] = true
			ids = append(ids, o.Region)
		}
	}
	if len(ids) == 0 {
		return "the catalog has no offers"
	}
	slices.Sort(ids)
	if len(ids) <= n {
		return "its regions are " + strings.Join(ids, ", ")
	}
	return fmt.Sprintf("its regions are %s and %d more (gpuatlas export lists every offer's region)", strings.Join(ids[:n], ", "), len(ids)-n)
}

// loadScenarioSet reads the scenario definitions at path, or the embedded ones.
func loadScenarioSet(path string) (*compare.ScenarioSet, error) {
	if path == "" {
		set, err := compare.LoadScenarios(data.FS)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w (this build does not embed data/scenarios.yaml; pass --scenarios data/scenarios.yaml)", err)
		}
		return set, err
	}
	b, err := catalog.ReadFileLimit(path, catalog.MaxDataFileBytes)
	if err != nil {
		return nil, fmt.Errorf("read scenarios: %w", err)
	}
	return compare.ParseScenarios(path, b)
}

// benchmarkCosts loads benchmark uploads and prices them against the snapshot:
// the embedded data/benchmarks when path is empty, none when it is "none", else
// the files or folder at path. Records with errors are left out and counted on
// stderr (gpuatlas validate lists them).
func benchmarkCosts(env Env, cmd, path string, snap *catalog.Snapshot) ([]compare.WorkCost, error) {
	if path == "none" {
		return nil, nil
	}
	workloads, err := catalog.LoadWorkloads(data.FS)
	if err != nil {
		return nil, err
	}
	var runs []catalog.BenchmarkRun
	var problems []catalog.Problem
	where := path
	if path == "" {
		where = "the embedded data/benchmarks"
		runs, problems = catalog.LoadBenchmarksFS(data.FS, "benchmarks", "data/", snap, workloads, env.now())
	} else {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("--benchmarks: %w", err)
		}
		runs, problems = catalog.LoadBenchmarks([]string{path}, snap, workloads, env.now())
	}
	errs := 0
	for _, p := range problems {
		if p.Severity == catalog.SeverityError {
			errs++
		}
	}
	if errs > 0 {
		fmt.Fprintf(env.Stderr, "%s: %d benchmark records in %s have errors and were left out (see gpuatlas validate)\n", cmd, errs, tf(where))
	}
	return compare.CostPerWork(snap, runs, workloads), nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
