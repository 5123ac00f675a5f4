package volcengine

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/providers/faulttest"
)

// fuzzWorld is the small replay the answer fuzzers crawl (cn-guangzhou).
const fuzzWorld = "testdata/cases/fuzz"

// FuzzDescribeInstanceTypesAnswer feeds arbitrary bytes to the ECS client as a
// DescribeInstanceTypes answer and crawls a region.
func FuzzDescribeInstanceTypesAnswer(f *testing.F) {
	harness.FuzzAnswer(f, fuzzWorld, "DescribeInstanceTypes", "cn-guangzhou")
}

// FuzzPayAsYouGoPriceAnswer does the same with the billing price inquiry, in
// a world of one type sold pay-as-you-go only: each input costs the crawl up
// to the inquiry, so the fewer other requests, the more inputs a second.
func FuzzPayAsYouGoPriceAnswer(f *testing.F) {
	harness.FuzzAnswer(f, "testdata/cases/fuzz-payg", "QueryPriceForPayAsYouGo", "cn-guangzhou")
}

// FuzzConvertInstanceType feeds arbitrary JSON as one DescribeInstanceTypes
// record to the conversion (fast: no HTTP).
func FuzzConvertInstanceType(f *testing.F) {
	f.Add([]byte(`{"InstanceTypeId":"ecs.gni2.3xlarge","Processor":{"Cpus":12},"Memory":{"Size":49152},"Gpu":{"GpuDevices":[{"ProductName":"NVIDIA A10","Count":1,"Memory":{"Size":24576}}]}}`))
	f.Add([]byte(`{"InstanceTypeId":"x","Memory":{"Size":-1},"Gpu":{"GpuDevices":[{"ProductName":"X","Count":2,"Memory":{"Size":-5}}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) { faulttest.CheckConversion(t, b, convertInstanceType) })
}
