package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/internal/golden"
)

// testdata/src holds real rows of every source file, picked to meet each rule
// once (kept, on an instance type, each reason to leave a row out). The uploads
// written from them and the summary are golden files.
func TestRun_Golden(t *testing.T) {
	out := t.TempDir()
	var log bytes.Buffer
	if err := run(filepath.Join("testdata", "src"), out, &log); err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	all.WriteString(strings.ReplaceAll(log.String(), out, "OUT"))
	for _, s := range sources {
		b, err := os.ReadFile(filepath.Join(out, s.Out))
		if err != nil {
			t.Fatal(err)
		}
		all.WriteString("== " + s.Out + "\n")
		all.Write(b)
	}
	golden.Check(t, filepath.Join("testdata", "out.golden"), all.Bytes())

	// Everything written validates as uploads against the embedded catalog and
	// workload registry, with no warning.
	snap := datatest.Snapshot(t)
	workloads := datatest.Load(t, catalog.LoadWorkloads)
	runs, probs := catalog.LoadBenchmarks([]string{out}, snap, workloads, time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	for _, p := range probs {
		t.Error(p)
	}
	if len(runs) == 0 {
		t.Fatal("no runs written")
	}
	measured := 0
	for _, r := range runs {
		if r.OnInstance() {
			measured++
			if r.InstanceKey() != "aws/g4dn.xlarge" {
				t.Errorf("%s: on %s, want only cTuning's aws/g4dn.xlarge", r.Ref(), r.InstanceKey())
			}
		}
		if r.Round == "" || r.System == "" || r.Submitter == "" || (r.Scenario == "") != (r.Unit == "min/run") || !strings.HasPrefix(r.SourceURL, "https://github.com/") {
			t.Errorf("%s: round %q, system %q, submitter %q, scenario %q, source %q: want all (no scenario for a time to train)", r.Ref(), r.Round, r.System, r.Submitter, r.Scenario, r.SourceURL)
		}
	}
	if measured != 1 {
		t.Errorf("%d runs on an instance type, want 1 (the g4dn.xlarge row)", measured)
	}
}

// A row that names one of the five clouds but is not a known instance type
// stops the conversion, naming it.
func TestOnInstance_UnknownCloudSystem(t *testing.T) {
	for _, r := range []sourceRow{
		{"submitter": "Alibaba", "system_name": "ecs.gn8v", "system_id": "x"},
		{"submitter": "cTuning", "system_name": "x", "system_id": "aws_p5.48xlarge-trt"},
		{"submitter": "Huawei Cloud", "system_name": "x", "system_id": "x"},
	} {
		err := onInstance(r, record{})
		if err == nil || !strings.Contains(err.Error(), "names one of GPU Atlas's clouds") {
			t.Errorf("%v: error %v, want one naming the cloud", r, err)
		}
	}
	rec := record{}
	if err := onInstance(sourceRow{"submitter": "Azure", "system_name": "NC_H100_v5", "system_id": "NC_H100_v5_TRT"}, rec); err != nil || rec["provider"] != "" {
		t.Errorf("Azure: %v, %v: want no instance type and no error (not one of the five)", err, rec)
	}
}

func TestSourceURL(t *testing.T) {
	tests := []struct {
		row  sourceRow
		want string
	}{
		{sourceRow{"source_repo": "mlcommons/inference_results_v5.1", "source_commit": "c1", "source_path": "summary_results.json", "result_location": "closed/X/results/S/llama2-70b-99/Offline"},
			"https://github.com/mlcommons/inference_results_v5.1/tree/c1/closed/X/results/S/llama2-70b-99/Offline"},
		{sourceRow{"source_repo": "ntuhpc/mlperf_inference_results_v5.0 (fork of mlcommons/inference_results_v5.0)", "source_commit": "c2", "source_path": "closed/Lambda/results/S/README.md"},
			"https://github.com/ntuhpc/mlperf_inference_results_v5.0/blob/c2/closed/Lambda/results/S/README.md"},
		{sourceRow{"source_repo": "mlcommons/training_results_v4.0", "source_commit": "c3", "source_path": "<submitter>/results/<system>/<benchmark>/result_*.txt", "result_location": "Dell/results/S/bert"},
			"https://github.com/mlcommons/training_results_v4.0/tree/c3/Dell/results/S/bert"},
		{sourceRow{"details_url": "https://example.org/d"}, "https://example.org/d"},
	}
	for _, tt := range tests {
		if got := sourceURL(tt.row); got != tt.want {
			t.Errorf("sourceURL(%v) = %s, want %s", tt.row, got, tt.want)
		}
	}
}
