package huawei

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// FuzzListFlavorsAnswer feeds arbitrary bytes to the ECS client as a
// ListFlavors answer and crawls a region (flavor conversion, GPU name parsing,
// zone status): no panic, and the region is crawled or fails with a reason.
func FuzzListFlavorsAnswer(f *testing.F) {
	fuzzHuawei(f, "GET /v1/{project_id}/cloudservers/flavors")
}

// FuzzOnDemandRatingAnswer does the same with the BSS on-demand price answer.
func FuzzOnDemandRatingAnswer(f *testing.F) {
	fuzzHuawei(f, "POST /v2/bills/ratings/on-demand-resources")
}

func fuzzHuawei(f *testing.F, action string) {
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		f.Fatal(err)
	}
	dir := os.DirFS("testdata/replay")
	a := &faulttest.AnswerFuzzer{Provider: catalog.Huawei, Action: action, ContentType: "application/json",
		Region: "cn-north-4", Reference: ref,
		Target: func(srv *replay.Server) providers.Target {
			cfg := testConfig(srv, nil)
			cfg.Timeout, cfg.MaxAttempts = 2*time.Second, 1
			return providers.Prepare(unlimited(), cfg)
		}}
	a.Start(f, dir, replay.Huawei)
	a.Seeds(f, dir)
	f.Fuzz(a.Check)
}

// FuzzConvertFlavor feeds arbitrary JSON as one ListFlavors record to the
// conversion (GPU names, aliases, zone status; fast: no HTTP).
func FuzzConvertFlavor(f *testing.F) {
	f.Add([]byte(`{"id":"p2s.2xlarge.8","vcpus":"8","ram":65536,"os_extra_specs":{"ecs:performancetype":"gpu","pci_passthrough:alias":"nvidia-v100-pcie-32gb:1","info:gpu:name":"1 * NVIDIA V100 / 32 GiB","cond:operation:az":"cn-north-4a(normal),cn-north-4b(abandon)"}}`))
	f.Add([]byte(`{"id":"x","vcpus":"-8","ram":-1,"os_extra_specs":{"ecs:performancetype":"gpu","pci_passthrough:alias":"a:-3,b:99999999999999999999","info:gpu:name":"-2 * X / -4 GiB"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var fl flavor
		if json.Unmarshal(b, &fl) != nil {
			return
		}
		info, ok := convertFlavor(fl, "cn-north-4")
		if ok {
			if it, _, ok := providers.SaneInstanceType(info.instance); ok {
				faulttest.CheckInstance(t, it)
			}
		}
	})
}
