package huawei

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
)

// fuzzWorld is the small replay the answer fuzzers crawl (cn-east-3).
const fuzzWorld = "testdata/cases/fuzz"

// FuzzListFlavorsAnswer feeds arbitrary bytes to the ECS client as a
// ListFlavors answer and crawls a region (flavor conversion, GPU name parsing,
// zone status): no panic, and the region is crawled or fails with a reason.
func FuzzListFlavorsAnswer(f *testing.F) {
	harness.FuzzAnswer(f, fuzzWorld, "GET /v1/{project_id}/cloudservers/flavors", "cn-east-3")
}

// FuzzOnDemandRatingAnswer does the same with the BSS on-demand price answer.
func FuzzOnDemandRatingAnswer(f *testing.F) {
	harness.FuzzAnswer(f, fuzzWorld, "POST /v2/bills/ratings/on-demand-resources", "cn-east-3")
}

// FuzzConvertFlavor feeds arbitrary JSON as one ListFlavors record to the
// conversion (GPU names, aliases, zone status; fast: no HTTP).
func FuzzConvertFlavor(f *testing.F) {
	f.Add([]byte(`{"id":"p2s.2xlarge.8","vcpus":"8","ram":65536,"os_extra_specs":{"ecs:performancetype":"gpu","pci_passthrough:alias":"nvidia-v100-pcie-32gb:1","info:gpu:name":"1 * NVIDIA V100 / 32 GiB","cond:operation:az":"cn-north-4a(normal),cn-north-4b(abandon)"}}`))
	f.Add([]byte(`{"id":"x","vcpus":"-8","ram":-1,"os_extra_specs":{"ecs:performancetype":"gpu","pci_passthrough:alias":"a:-3,b:99999999999999999999","info:gpu:name":"-2 * X / -4 GiB"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		faulttest.CheckConversion(t, b, func(fl *flavor) (catalog.InstanceType, bool) {
			info, ok := convertFlavor(*fl, "cn-north-4")
			return info.instance, ok
		})
	})
}
