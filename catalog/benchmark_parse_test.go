package catalog

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A record that spans lines in YAML reports each field's own line.
func TestParseBenchmarksYAML_FieldLines(t *testing.T) {
	data := "# uploads\n- submitter: A\n  run_date: 2025-06-01\n  provider: aws\n  instance_type: g5.xlarge\n  workload: llm-inference-8b\n  metric: throughput\n  unit: tokens/s\n  value: -1\n"
	recs, probs := ParseBenchmarksYAML("a.yaml", []byte(data))
	_, more := ValidateBenchmarks(recs, benchSnapshot(), testWorkloads(t), testNow)
	got := problemStrings(append(probs, more...))
	if diff := cmp.Diff([]string{"a.yaml:9: value -1 must be positive"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if recs[0].Line != 2 {
		t.Errorf("record line = %d, want 2", recs[0].Line)
	}
}

func FuzzParseBenchmarksCSV(f *testing.F) {
	f.Add([]byte(benchHeader + "Alice,2025-06-01,aws,g5.xlarge,us-east-1,1,llm-inference-8b,throughput,tokens/s,120,true\n"))
	f.Add([]byte(benchHeader + "A,\"2025\n-06\",aws,,,,,,,1e3,\n"))
	f.Add([]byte("\xef\xbb\xbfsubmitter,value\n\"a\"\"b\",-0\n"))
	f.Add([]byte(",,\n,,\n"))
	fuzzBenchmarkParser(f, "testdata/benchmarks/broken/outlier.csv", "f.csv", ParseBenchmarksCSV)
}

func FuzzParseBenchmarksYAML(f *testing.F) {
	f.Add([]byte("- submitter: A\n  run_date: 2025-06-01\n  provider: aws\n  instance_type: g5.xlarge\n  workload: llm-inference-8b\n  metric: throughput\n  unit: tokens/s\n  value: 120\n"))
	f.Add([]byte("- &a {submitter: A, value: 1}\n- *a\n- [1, 2]\n---\n- x\n"))
	f.Add([]byte("- submitter: !!binary aGk=\n  notes: |\n    multi\n    line\n  value: ~\n"))
	f.Add([]byte("a: [\n"))
	fuzzBenchmarkParser(f, "testdata/benchmarks/broken/wrong_type.yaml", "f.yaml", ParseBenchmarksYAML)
}

// fuzzBenchmarkParser adds the file seed to the seeds already added, then fuzzes
// parse (reading the input as an upload called name) and validation together.
func fuzzBenchmarkParser(f *testing.F, seed, name string, parse func(name string, data []byte) ([]BenchmarkRecord, []Problem)) {
	if b, err := os.ReadFile(seed); err == nil {
		f.Add(b)
	}
	snap, wl := benchSnapshot(), testWorkloads(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, probs := parse(name, data)
		runs, more := ValidateBenchmarks(recs, snap, wl, testNow)
		checkFuzzResult(t, recs, runs, append(probs, more...))
	})
}

func checkFuzzResult(t *testing.T, recs []BenchmarkRecord, runs []BenchmarkRun, probs []Problem) {
	t.Helper()
	for _, p := range probs {
		if p.Line < 0 || p.Message == "" || (p.Severity != SeverityError && p.Severity != SeverityWarning) {
			t.Fatalf("bad problem %+v", p)
		}
		// A message is one line and repeats at most a short excerpt of the
		// input: never a whole line of it.
		if s := p.String(); strings.ContainsAny(s, "\r\n") || len(p.Message) > 600 {
			t.Fatalf("problem is not one short line: %q", s)
		}
	}
	for _, r := range recs {
		if r.Line < 1 {
			t.Fatalf("record without a line: %+v", r)
		}
	}
	for _, r := range runs {
		if !r.Value.IsPositive() || r.Workload == "" || r.InstanceType == "" {
			t.Fatalf("invalid run loaded: %+v", r)
		}
		if r.Value.GreaterThan(Dec("1000000000")) || r.Value.LessThan(Dec("0.000001")) {
			t.Fatalf("run with a value out of range loaded: %s", r.Value)
		}
	}
	if len(runs) > len(recs) {
		t.Fatalf("%d runs from %d records", len(runs), len(recs))
	}
}
