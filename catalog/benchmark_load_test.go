package catalog

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuatlas/gpuatlas/internal/golden"
)

// Every file under testdata/benchmarks/broken breaks a rule; the whole list of
// messages is a golden file. A bad file never stops the others from loading.
func TestLoadBenchmarks_BrokenGolden(t *testing.T) {
	runs, probs := LoadBenchmarks([]string{"testdata/benchmarks/broken"}, benchSnapshot(), testWorkloads(t), testNow)
	got := strings.Join(problemStrings(probs), "\n") + "\n"
	golden.Check(t, filepath.Join("testdata", "benchmarks", "broken.golden"), []byte(got))
	// The valid rows of the broken folder still load: the good row of
	// malformed.csv, the first of duplicate.csv, the four of outlier.csv.
	var refs []string
	for _, r := range runs {
		refs = append(refs, r.Ref())
	}
	wantRefs := []string{
		"testdata/benchmarks/broken/duplicate.csv:2",
		"testdata/benchmarks/broken/malformed.csv:2",
		"testdata/benchmarks/broken/outlier.csv:2",
		"testdata/benchmarks/broken/outlier.csv:3",
		"testdata/benchmarks/broken/outlier.csv:4",
		"testdata/benchmarks/broken/outlier.csv:5",
	}
	if diff := cmp.Diff(wantRefs, refs); diff != "" {
		t.Errorf("loaded runs (-want +got):\n%s", diff)
	}
	if !HasErrors(probs) {
		t.Error("HasErrors = false")
	}
}

func TestLoadBenchmarks_MissingPath(t *testing.T) {
	_, probs := LoadBenchmarks([]string{"testdata/benchmarks/nope"}, benchSnapshot(), testWorkloads(t), testNow)
	want := []string{"testdata/benchmarks/nope: cannot read: no such file or directory"}
	if diff := cmp.Diff(want, problemStrings(probs)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// The committed seed uploads are valid against a catalog holding their instance
// types, and each cites its source. The clock is the day the published results
// were added (data/benchmarks/published); the small catalog lacks some of their
// GPU models, which only warns.
func TestSeedBenchmarks_Valid(t *testing.T) {
	added := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	runs, probs := LoadBenchmarks([]string{"../data/benchmarks"}, benchSnapshot(), testWorkloads(t), added)
	for _, p := range probs {
		if p.Severity == SeverityWarning && strings.Contains(p.Message, "no instance type in the catalog has GPU model") {
			continue
		}
		t.Error(p)
	}
	if len(runs) < 5 {
		t.Errorf("only %d seed runs", len(runs))
	}
	for _, r := range runs {
		if r.SourceURL == "" && !strings.Contains(r.Notes, "illustrative") {
			t.Errorf("%s: no source_url and not marked illustrative", r.Ref())
		}
	}
}
