package tencent

import (
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// The standard fault cases (providers/faulttest.Suite) through the CVM client:
// RequestLimitExceeded in an HTTP 200 body, a gateway's 502 page, resets,
// stalls past the request timeout, cut and non-JSON bodies and a region that
// never answers. The adapter's calls are not paginated (DescribeRegions and
// DescribeZoneInstanceConfigInfos answer in one piece), so there is no token
// to repeat.
func TestFaults(t *testing.T) {
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	faulttest.Suite{
		Provider: catalog.Tencent,
		Start:    func(t testing.TB) *replay.Server { return startReplay(t, "testdata/replay") },
		Target: func(t testing.TB, srv *replay.Server, timeout time.Duration, attempts int) providers.Target {
			cfg := testConfig(srv)
			cfg.Timeout, cfg.MaxAttempts = timeout, attempts
			return providers.Prepare(unlimited(), cfg)
		},
		Regions:   []string{"ap-seoul", "ap-bangkok"},
		Reference: ref,
		Clock:     func() time.Time { return fixedNow },
	}.Run(t)
}
