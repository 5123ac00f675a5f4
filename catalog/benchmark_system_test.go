package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sysHeader is the header of a published result on a system that is not an
// instance type (as internal/tools/benchsources writes them).
const sysHeader = "submitter,run_date,round,benchmark,scenario,system,accelerator_model,accelerator_count,vendor_tuned,workload,metric,unit,value\n"

// The rules of published results: a run names an instance type or a system
// with its accelerators, and the two agree where both are given.
func TestValidateBenchmarks_SystemRules(t *testing.T) {
	tests := []uploadCase{
		{"ValidSystem", "p.csv", sysHeader + "Dell,2025-09-04,MLPerf Inference v5.1,llama2-70b-99,Offline,XE9680 (8x H100),nvidia-h100-sxm-80gb,8,false,mlperf-llama2-70b,throughput,tokens/s,24525.6\n", nil},
		{"ValidSystemYAML", "p.yaml", "- {submitter: NVIDIA, run_date: 2025-09-04, system: DGX H100, accelerator_model: nvidia-h100-sxm-80gb, accelerator_count: 8, vendor_tuned: true, workload: mlperf-llama2-70b, metric: throughput, unit: tokens/s, value: 1}\n", nil},
		{"NoInstanceNoSystem", "p.csv", "submitter,run_date,provider,instance_type,accelerator_model,accelerator_count,system,workload,metric,unit,value\nA,2025-06-01,,,,,,mlperf-llama2-70b,throughput,tokens/s,1\n",
			[]string{
				`p.csv:2: missing required field "system" (a run names its provider and instance_type, or, run on another system, that system's name, accelerator_model and accelerator_count)`,
				`p.csv:2: missing required field "accelerator_model" (a run names its provider and instance_type, or, run on another system, that system's name, accelerator_model and accelerator_count)`,
				`p.csv:2: missing required field "accelerator_count" (a run names its provider and instance_type, or, run on another system, that system's name, accelerator_model and accelerator_count)`,
			}},
		{"NoWhereColumns", "p.csv", "submitter,run_date,workload,metric,unit,value\nA,2025-06-01,mlperf-llama2-70b,throughput,tokens/s,1\n",
			[]string{
				`p.csv:1: missing required field "provider" (no such column; a published result on another system names accelerator_model and accelerator_count instead)`,
				`p.csv:1: missing required field "instance_type" (no such column; a published result on another system names accelerator_model and accelerator_count instead)`,
			}},
		{"InstanceTypeWithoutProvider", "p.csv", "submitter,run_date,provider,instance_type,workload,metric,unit,value\nA,2025-06-01,,p5.48xlarge,mlperf-llama2-70b,throughput,tokens/s,1\n",
			[]string{`p.csv:2: missing required field "provider"`}},
		{"BadModelAndCount", "p.csv", sysHeader + "A,2025-06-01,,,,S,NVIDIA H100,eight,maybe,mlperf-llama2-70b,throughput,tokens/s,1\n",
			[]string{
				`p.csv:2: accelerator_count "eight" is not a whole number`,
				`p.csv:2: accelerator_model "NVIDIA H100" is not a GPU model id (lower-case, as in data/gpus.csv: nvidia-h100-sxm-80gb)`,
				`p.csv:2: vendor_tuned "maybe" is not true or false`,
			}},
		{"CountZero", "p.csv", sysHeader + "A,2025-06-01,,,,S,nvidia-h100-sxm-80gb,0,,mlperf-llama2-70b,throughput,tokens/s,1\n",
			[]string{`p.csv:2: accelerator_count 0 must be at least 1`}},
		{"ModelNotInCatalogWarns", "p.csv", sysHeader + "A,2025-06-01,,,,S,amd-mi300x-192gb,8,,mlperf-llama2-70b,throughput,tokens/s,1\n",
			[]string{`p.csv:2: warning: no instance type in the catalog has GPU model amd-mi300x-192gb: the result is listed but gives no cost per unit of work`}},
		{"InstanceAndSystemAgree", "p.csv", "submitter,run_date,provider,instance_type,system,accelerator_model,accelerator_count,workload,metric,unit,value\nA,2025-06-01,aws,p5.48xlarge,AWS p5,nvidia-h100-sxm-80gb,8,mlperf-llama2-70b,throughput,tokens/s,1\n", nil},
		{"InstanceAndSystemDisagree", "p.csv", "submitter,run_date,provider,instance_type,system,accelerator_model,accelerator_count,workload,metric,unit,value\nA,2025-06-01,aws,p5.48xlarge,AWS p5,nvidia-h200-sxm-141gb,4,mlperf-llama2-70b,throughput,tokens/s,1\n",
			[]string{
				`p.csv:2: accelerator_count 4 is not the 8 GPUs of p5.48xlarge`,
				`p.csv:2: accelerator_model nvidia-h200-sxm-141gb is not the nvidia-h100-sxm-80gb of p5.48xlarge`,
			}},
		{"UsedMoreThanTheSystemHas", "p.csv", "submitter,run_date,system,accelerator_model,accelerator_count,gpu_count_used,workload,metric,unit,value\nA,2025-06-01,S,nvidia-h100-sxm-80gb,4,8,mlperf-llama2-70b,throughput,tokens/s,1\n",
			[]string{`p.csv:2: gpu_count_used 8 is more than the system's accelerator_count 4`}},
		{"DuplicateNeedsSameScenario", "p.csv", sysHeader +
			"A,2025-06-01,R,b,Offline,S,nvidia-h100-sxm-80gb,8,,mlperf-llama2-70b,throughput,tokens/s,100\n" +
			"A,2025-06-01,R,b,Server,S,nvidia-h100-sxm-80gb,8,,mlperf-llama2-70b,throughput,tokens/s,100\n" +
			"A,2025-06-01,R,b,Server,S,nvidia-h100-sxm-80gb,8,,mlperf-llama2-70b,throughput,tokens/s,100.0\n",
			[]string{`p.csv:4: duplicate of the run at p.csv:3`}},
		{"PublishedResultsAreNotOutliers", "p.csv", sysHeader +
			"A,2025-06-01,R,b,Offline,S1,nvidia-h100-sxm-80gb,8,,mlperf-llama2-70b,throughput,tokens/s,1000\n" +
			"A,2025-06-01,R,b,Offline,S2,nvidia-h100-sxm-80gb,8,,mlperf-llama2-70b,throughput,tokens/s,1000\n" +
			"A,2025-06-01,R,b,Offline,S3,nvidia-h100-sxm-80gb,8,,mlperf-llama2-70b,throughput,tokens/s,1000\n" +
			"A,2025-06-01,R,b,Interactive,S4,nvidia-h100-sxm-80gb,8,,mlperf-llama2-70b,throughput,tokens/s,10\n", nil},
	}
	checkUploadCases(t, tests)
}

func TestValidateBenchmarks_SystemRunFields(t *testing.T) {
	data := sysHeader + "NVIDIA,2025-09-04,MLPerf Inference v5.1,llama2-70b-99,Offline,DGX H100,nvidia-h100-sxm-80gb,8,true,mlperf-llama2-70b,throughput,tokens/s,24525.6\n"
	recs, probs := ParseBenchmarksCSV("p.csv", []byte(data))
	runs, more := ValidateBenchmarks(recs, benchSnapshot(), testWorkloads(t), testNow)
	if len(probs)+len(more) > 0 || len(runs) != 1 {
		t.Fatalf("problems: %v %v, %d runs", probs, more, len(runs))
	}
	want := BenchmarkRun{File: "p.csv", Line: 2, Submitter: "NVIDIA", RunDate: "2025-09-04", GPUCountUsed: 8,
		Workload: "mlperf-llama2-70b", Metric: "throughput", Unit: "tokens/s", Value: Dec("24525.6"), HigherIsBetter: true,
		Round: "MLPerf Inference v5.1", Benchmark: "llama2-70b-99", Scenario: "Offline", System: "DGX H100",
		AcceleratorModel: "nvidia-h100-sxm-80gb", AcceleratorCount: 8, VendorTuned: true}
	if diff := cmp.Diff(want, runs[0]); diff != "" {
		t.Errorf("run (-want +got):\n%s", diff)
	}
	if runs[0].OnInstance() || !runs[0].Published() {
		t.Errorf("OnInstance %v, Published %v: want a published result on another system", runs[0].OnInstance(), runs[0].Published())
	}
}
