package catalog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each validation rule, one upload each: the exact messages it gives.
func TestValidateBenchmarks_Rules(t *testing.T) {
	tests := []uploadCase{
		{"Valid", "ok.csv", benchHeader + "Alice,2025-06-01,aws,g5.xlarge,us-east-1,1,llm-inference-8b,throughput,tokens/s,120,true\n", nil},
		{"ValidYAMLAnyOrder", "ok.yaml", "- value: 1.5e2\n  unit: tokens/s\n  metric: throughput\n  workload: llm-inference-8b\n  instance_type: g5.xlarge\n  provider: aws\n  run_date: 2025-06-01\n  submitter: Alice\n", nil},
		{"MissingField", "a.csv", benchHeader + "Alice,,aws,g5.xlarge,,,llm-inference-8b,throughput,tokens/s,120,\n",
			[]string{`a.csv:2: missing required field "run_date"`}},
		{"MissingColumn", "a.csv", "submitter,run_date,provider,instance_type,workload,metric,value\nA,2025-06-01,aws,g5.xlarge,llm-inference-8b,throughput,1\n",
			[]string{`a.csv:1: missing required field "unit" (no such column)`}},
		{"UnknownFieldCSV", "a.csv", "submiter,run_date,provider,instance_type,workload,metric,unit,value\nA,2025-06-01,aws,g5.xlarge,llm-inference-8b,throughput,tokens/s,1\n",
			[]string{`a.csv:1: unknown field "submiter"; did you mean "submitter"?`, `a.csv:1: missing required field "submitter" (no such column)`}},
		{"UnknownFieldYAML", "a.yaml", "- submitter: A\n  run_date: 2025-06-01\n  provider: aws\n  instance_type: g5.xlarge\n  workload: llm-inference-8b\n  metric: throughput\n  unit: tokens/s\n  value: 1\n  colour: blue\n",
			[]string{`a.yaml:9: unknown field "colour"`}},
		{"RepeatedFieldYAML", "a.yaml", "- submitter: A\n  run_date: 2025-06-01\n  provider: aws\n  instance_type: g5.xlarge\n  workload: llm-inference-8b\n  metric: throughput\n  unit: tokens/s\n  value: 1\n  submitter: B\n",
			[]string{`a.yaml:9: field "submitter" given twice (first on line 1)`}},
		{"WrongTypes", "a.csv", benchHeader + "A,2025-13-01,aws,g5.xlarge,,one,llm-inference-8b,throughput,tokens/s,\"1,200\",yes\n",
			[]string{
				`a.csv:2: run_date "2025-13-01" is not a date (want YYYY-MM-DD)`,
				`a.csv:2: gpu_count_used "one" is not a whole number`,
				`a.csv:2: higher_is_better "yes" is not true or false`,
				`a.csv:2: value "1,200" is not a number`,
			}},
		{"FutureDate", "a.csv", benchHeader + "A,2025-12-02,aws,g5.xlarge,,,llm-inference-8b,throughput,tokens/s,1,\n",
			[]string{`a.csv:2: run_date 2025-12-02 is in the future (today is 2025-12-01)`}},
		{"Today", "a.csv", benchHeader + "A,2025-12-01,aws,g5.xlarge,,,llm-inference-8b,throughput,tokens/s,1,\n", nil},
		{"UnknownProvider", "a.csv", benchHeader + "A,2025-06-01,amazon,g5.xlarge,,,llm-inference-8b,throughput,tokens/s,1,\n",
			[]string{`a.csv:2: unknown provider "amazon" (known: aws, alibaba, tencent, huawei, volcengine, azure, gcp)`}},
		{"UnknownInstanceType", "a.csv", benchHeader + "A,2025-06-01,aws,g5.2xl,,,llm-inference-8b,throughput,tokens/s,1,\n",
			[]string{`a.csv:2: unknown aws instance type "g5.2xl"; closest: g5.2xlarge, g5.12xlarge, g5.4xlarge`}},
		{"UnknownInstanceTypeNoneKnown", "a.csv", benchHeader + "A,2025-06-01,tencent,GN7.2XLARGE32,,,llm-inference-8b,throughput,tokens/s,1,\n",
			[]string{`a.csv:2: unknown tencent instance type "GN7.2XLARGE32" (the catalog has no tencent instance types)`}},
		{"UnknownRegionWarns", "a.csv", benchHeader + "A,2025-06-01,aws,g5.xlarge,mars-1,,llm-inference-8b,throughput,tokens/s,1,\n",
			[]string{`a.csv:2: warning: region "mars-1" is not a aws region in the catalog`}},
		{"UnknownWorkload", "a.csv", benchHeader + "A,2025-06-01,aws,g5.xlarge,,,sdxl-inferense,throughput,images/s,1,\n",
			[]string{`a.csv:2: unknown workload "sdxl-inferense"; did you mean "sdxl-inference"? (known workloads are listed in data/workloads.csv)`}},
		{"UnitMismatch", "a.csv", benchHeader + "A,2025-06-01,aws,g5.xlarge,,,sdxl-inference,throughput,images/min,1,\n",
			[]string{`a.csv:2: unit "images/min" does not match workload sdxl-inference (want "images/s")`}},
		{"MetricAndDirectionMismatch", "a.csv", benchHeader + "A,2025-06-01,aws,g5.xlarge,,,blender-render,throughput,s/frame,30,true\n",
			[]string{
				`a.csv:2: metric "throughput" does not match workload blender-render (want "render_time")`,
				`a.csv:2: higher_is_better true does not match workload blender-render (lower is better)`,
			}},
		{"TooManyGPUs", "a.csv", benchHeader + "A,2025-06-01,aws,g5.12xlarge,,5,llm-inference-8b,throughput,tokens/s,1,\n",
			[]string{`a.csv:2: gpu_count_used 5 is more than the 4 GPUs of g5.12xlarge`}},
		{"LongSubmitter", "a.csv", benchHeader + strings.Repeat("A", 201) + ",2025-06-01,aws,g5.xlarge,,,llm-inference-8b,throughput,tokens/s,1,\n",
			[]string{`a.csv:2: submitter: longer than 200 bytes (201)`}},
		{"ZeroGPUs", "a.csv", benchHeader + "A,2025-06-01,aws,g5.12xlarge,,0,llm-inference-8b,throughput,tokens/s,1,\n",
			[]string{`a.csv:2: gpu_count_used 0 must be at least 1`}},
		{"ValueNotPositive", "a.csv", benchHeader + "A,2025-06-01,aws,g5.xlarge,,,llm-inference-8b,throughput,tokens/s,0,\nA,2025-06-02,aws,g5.xlarge,,,llm-inference-8b,throughput,tokens/s,-0.5,\n",
			[]string{`a.csv:2: value 0 must be positive`, `a.csv:3: value -0.5 must be positive`}},
		{"Duplicate", "a.csv", benchHeader + "A,2025-06-01,aws,g5.xlarge,,,llm-inference-8b,throughput,tokens/s,120,\nA,2025-06-01,aws,g5.xlarge,,,llm-inference-8b,throughput,tokens/s,120.0,\n",
			[]string{`a.csv:3: duplicate of the run at a.csv:2`}},
		{"Outlier", "a.csv", benchHeader +
			"A,2025-06-01,aws,g5.xlarge,,,resnet50-inference,throughput,images/s,1000,\n" +
			"A,2025-06-02,aws,g5.2xlarge,,,resnet50-inference,throughput,images/s,900,\n" +
			"A,2025-06-03,aws,g5.48xlarge,,8,resnet50-inference,throughput,images/s,8800,\n" +
			"A,2025-06-04,aws,g5.4xlarge,,,resnet50-inference,throughput,images/s,310,\n",
			[]string{`a.csv:5: warning: outlier: 310 images/s per GPU is 0.31x the median (1000 per GPU) of 3 other resnet50-inference runs on nvidia-a10g-24gb; check the value, unit and gpu_count_used`}},
		{"NotOutlierWithTwoOthers", "a.csv", benchHeader +
			"A,2025-06-01,aws,g5.xlarge,,,resnet50-inference,throughput,images/s,1000,\n" +
			"A,2025-06-02,aws,g5.2xlarge,,,resnet50-inference,throughput,images/s,900,\n" +
			"A,2025-06-04,aws,g5.4xlarge,,,resnet50-inference,throughput,images/s,31,\n", nil},
		{"OptionalFieldsChecked", "a.yaml", "- {submitter: A, run_date: 2025-06-01, provider: aws, instance_type: g5.xlarge, workload: llm-inference-8b, metric: throughput, unit: tokens/s, value: 1, duration_s: -1, gpu_util_pct: 101, gpu_mem_peak_gib: lots, source_url: example.org}\n",
			[]string{
				`a.yaml:1: duration_s -1 must not be negative`,
				`a.yaml:1: gpu_util_pct 101 is out of range: want 0 to 100`,
				`a.yaml:1: gpu_mem_peak_gib "lots" is not a number`,
				`a.yaml:1: source_url "example.org" is not an http(s) URL`,
			}},
		{"RowFieldCount", "a.csv", benchHeader + "A,2025-06-01,aws\n", []string{`a.csv:2: row has 3 fields, the header has 11`}},
		{"MalformedCSV", "a.csv", benchHeader + "A,\"2025-06-01\"x,aws\n", []string{`a.csv:2: malformed CSV: extraneous or missing " in quoted-field`}},
		{"MalformedYAML", "a.yaml", "- a: b\n c: d\n", []string{`a.yaml:1: malformed YAML: did not find expected '-' indicator`}},
		{"YAMLNotAList", "a.yaml", "submitter: A\n", []string{`a.yaml:1: want a list of records (a YAML sequence), found a mapping`}},
		{"YAMLRecordNotMapping", "a.yaml", "- just text\n", []string{`a.yaml:1: record must be a mapping of field: value, found a single value`}},
		{"YAMLNested", "a.yaml", "- submitter: A\n  run_date: 2025-06-01\n  provider: aws\n  instance_type: g5.xlarge\n  workload: llm-inference-8b\n  metric: throughput\n  unit: tokens/s\n  value: 1\n  notes: {a: b}\n",
			[]string{`a.yaml:9: field "notes" must be a single value, found a mapping`}},
		{"Empty", "a.yaml", "\n", []string{`a.yaml:1: warning: file has no records`}},
		{"WrongExtension", "a.json", "[]", []string{`a.json: not a benchmark file: want a .csv, .yaml or .yml extension`}},
	}
	checkUploadCases(t, tests)
}

func TestValidateBenchmarks_RunFields(t *testing.T) {
	data := benchHeader[:len(benchHeader)-1] + ",duration_s,gpu_util_pct,gpu_mem_peak_gib,driver,cuda,framework,image,source_url,notes,notes_zh\n" +
		"Alice,2025-06-01,aws,g5.12xlarge,us-east-1,,llm-inference-8b,throughput,tokens/s,480.5,,31.29,91.98,19.33,550.54,12.4,vLLM 0.6,img:1,https://example.org/r,\"a, b\",甲、乙\n"
	recs, probs := ParseBenchmarksCSV("data/benchmarks/a.csv", []byte(data))
	runs, more := ValidateBenchmarks(recs, benchSnapshot(), testWorkloads(t), testNow)
	if len(probs)+len(more) > 0 {
		t.Fatalf("problems: %v %v", probs, more)
	}
	want := BenchmarkRun{File: "data/benchmarks/a.csv", Line: 2, Submitter: "Alice", RunDate: "2025-06-01", Provider: AWS,
		InstanceType: "g5.12xlarge", Region: "us-east-1", GPUCountUsed: 4, Workload: "llm-inference-8b", Metric: "throughput",
		Unit: "tokens/s", Value: Dec("480.5"), HigherIsBetter: true, DurationS: DecPtr("31.29"), GPUUtilPct: DecPtr("91.98"),
		GPUMemPeakGiB: DecPtr("19.33"), Driver: "550.54", CUDA: "12.4", Framework: "vLLM 0.6", Image: "img:1",
		SourceURL: "https://example.org/r", Notes: "a, b", NotesZH: "甲、乙",
		// A run on an instance type has that type's accelerators.
		AcceleratorModel: "nvidia-a10g-24gb", AcceleratorCount: 4}
	if len(runs) != 1 {
		t.Fatalf("got %d runs, want 1", len(runs))
	}
	if diff := cmp.Diff(want, runs[0]); diff != "" {
		t.Errorf("run (-want +got):\n%s", diff)
	}
	if runs[0].Ref() != "data/benchmarks/a.csv:2" {
		t.Errorf("Ref = %s", runs[0].Ref())
	}
}

// A large upload (5,000 runs of one workload on one GPU model) validates in
// O(n log n): the outlier check sorts each group once.
func BenchmarkValidateBenchmarks_5000Runs(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(benchHeader)
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&sb, "S%d,2025-06-01,aws,g5.xlarge,us-east-1,1,resnet50-inference,throughput,images/s,%d,\n", i, 900+i%200)
	}
	data := []byte(sb.String())
	snap, wl := benchSnapshot(), testWorkloads(b)
	b.ResetTimer()
	for b.Loop() {
		recs, _ := ParseBenchmarksCSV("big.csv", data)
		runs, probs := ValidateBenchmarks(recs, snap, wl, testNow)
		if len(runs) != 5000 || len(probs) != 0 {
			b.Fatalf("%d runs, %d problems", len(runs), len(probs))
		}
	}
}
