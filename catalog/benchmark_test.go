package catalog

import (
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testNow is the injected clock of these tests.
var testNow = time.Date(2025, 12, 1, 10, 0, 0, 0, time.UTC)

// benchSnapshot is a small catalog with the instance types the tests and the seed
// uploads refer to; GPU counts are AWS's (DescribeInstanceTypes).
func benchSnapshot() *Snapshot {
	gpu := func(model, name string, count int, kind AcceleratorKind) []Accelerator {
		return []Accelerator{{Kind: kind, Model: model, Name: name, Count: count, Share: Dec("1"), MemoryGiB: Dec("24")}}
	}
	it := func(p Provider, id string, acc []Accelerator) InstanceType {
		return InstanceType{Provider: p, ID: id, Accelerators: acc, Generation: "current", Source: "test"}
	}
	return &Snapshot{
		Schema:  SchemaVersion,
		Regions: []Region{{Provider: AWS, ID: "us-east-1"}, {Provider: AWS, ID: "us-west-2"}},
		Instances: []InstanceType{
			it(AWS, "g5.xlarge", gpu("nvidia-a10g-24gb", "A10G", 1, KindGPU)),
			it(AWS, "g5.2xlarge", gpu("nvidia-a10g-24gb", "A10G", 1, KindGPU)),
			it(AWS, "g5.4xlarge", gpu("nvidia-a10g-24gb", "A10G", 1, KindGPU)),
			it(AWS, "g5.12xlarge", gpu("nvidia-a10g-24gb", "A10G", 4, KindGPU)),
			it(AWS, "g5.48xlarge", gpu("nvidia-a10g-24gb", "A10G", 8, KindGPU)),
			it(AWS, "g4dn.xlarge", gpu("nvidia-t4-16gb", "T4", 1, KindGPU)),
			it(AWS, "p4d.24xlarge", gpu("nvidia-a100-sxm-40gb", "A100", 8, KindGPU)),
			it(AWS, "p5.48xlarge", gpu("nvidia-h100-sxm-80gb", "H100", 8, KindGPU)),
			it(AWS, "p5.4xlarge", gpu("nvidia-h100-sxm-80gb", "H100", 1, KindGPU)),
			it(AWS, "p5e.48xlarge", gpu("nvidia-h200-sxm-141gb", "H200", 8, KindGPU)),
			it(AWS, "inf2.xlarge", gpu("aws-inferentia2", "Inferentia2", 1, KindNPU)),
			it(AWS, "inf2.8xlarge", gpu("aws-inferentia2", "Inferentia2", 1, KindNPU)),
			it(AWS, "inf2.48xlarge", gpu("aws-inferentia2", "Inferentia2", 12, KindNPU)),
			it(AWS, "trn1.2xlarge", gpu("aws-trainium", "Trainium", 1, KindNPU)),
			it(AWS, "trn1.32xlarge", gpu("aws-trainium", "Trainium", 16, KindNPU)),
			it(Alibaba, "ecs.gn7i-c8g1.2xlarge", gpu("nvidia-a10-24gb", "NVIDIA A10", 1, KindGPU)),
		},
	}
}

func testWorkloads(t testing.TB) *WorkloadRegistry {
	t.Helper()
	f, err := os.Open("../data/workloads.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	r, err := ParseWorkloads("data/workloads.csv", f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// uploadCase is one upload file and the problems parsing and validating it
// against benchSnapshot and the test workloads give, sorted (nil: none).
type uploadCase struct {
	name string
	file string
	data string
	want []string
}

// checkUploadCases parses and validates each case's file as a subtest.
func checkUploadCases(t *testing.T, tests []uploadCase) {
	t.Helper()
	snap, wl := benchSnapshot(), testWorkloads(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, probs := ParseBenchmarkFile(tt.file, []byte(tt.data))
			_, more := ValidateBenchmarks(recs, snap, wl, testNow)
			probs = append(probs, more...)
			SortProblems(probs)
			if diff := cmp.Diff(tt.want, problemStrings(probs)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func problemStrings(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}

const benchHeader = "submitter,run_date,provider,instance_type,region,gpu_count_used,workload,metric,unit,value,higher_is_better\n"
