package volcengine

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

	"github.com/volcengine/volcengine-go-sdk/service/ecs"
)

// FuzzDescribeInstanceTypesAnswer feeds arbitrary bytes to the ECS client as a
// DescribeInstanceTypes answer and crawls a region.
func FuzzDescribeInstanceTypesAnswer(f *testing.F) { fuzzVolcengine(f, "DescribeInstanceTypes") }

// FuzzPayAsYouGoPriceAnswer does the same with the billing price inquiry.
func FuzzPayAsYouGoPriceAnswer(f *testing.F) { fuzzVolcengine(f, "QueryPriceForPayAsYouGo") }

func fuzzVolcengine(f *testing.F, action string) {
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		f.Fatal(err)
	}
	dir := os.DirFS("testdata/replay")
	a := &faulttest.AnswerFuzzer{Provider: catalog.Volcengine, Action: action, ContentType: "application/json",
		Region: "cn-guangzhou", Reference: ref,
		Target: func(srv *replay.Server) providers.Target {
			cfg := testConfig(srv)
			cfg.Timeout, cfg.MaxAttempts = 2*time.Second, 1
			return providers.Prepare(unlimited(), cfg)
		}}
	a.Start(f, dir, replay.Volcengine)
	a.Seeds(f, dir)
	f.Fuzz(a.Check)
}

// FuzzConvertInstanceType feeds arbitrary JSON as one DescribeInstanceTypes
// record to the conversion (fast: no HTTP).
func FuzzConvertInstanceType(f *testing.F) {
	f.Add([]byte(`{"InstanceTypeId":"ecs.gni2.3xlarge","Processor":{"Cpus":12},"Memory":{"Size":49152},"Gpu":{"GpuDevices":[{"ProductName":"NVIDIA A10","Count":1,"Memory":{"Size":24576}}]}}`))
	f.Add([]byte(`{"InstanceTypeId":"x","Memory":{"Size":-1},"Gpu":{"GpuDevices":[{"ProductName":"X","Count":2,"Memory":{"Size":-5}}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var it ecs.InstanceTypeForDescribeInstanceTypesOutput
		if json.Unmarshal(b, &it) != nil {
			return
		}
		if out, ok := convertInstanceType(&it); ok {
			if it, _, ok := providers.SaneInstanceType(out); ok {
				faulttest.CheckInstance(t, it)
			}
		}
	})
}
