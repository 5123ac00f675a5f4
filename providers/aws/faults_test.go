package aws

import (
	"os"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// The standard fault cases (providers/faulttest.Suite) through the EC2 and
// Price List clients: RequestLimitExceeded 503 and ThrottlingException 429,
// 5xx, resets, stalls past the request timeout, cut and non-XML bodies, a
// region that never answers, and a DescribeInstanceTypes token that repeats.
func TestFaults(t *testing.T) {
	faulttest.Suite{
		Provider: "aws",
		Start:    func(t testing.TB) *replay.Server { return startReplay(t, "testdata/replay") },
		Target: func(t testing.TB, srv *replay.Server, timeout time.Duration, attempts int) providers.Target {
			cfg := testConfig(t, srv)
			cfg.Timeout, cfg.MaxAttempts = timeout, attempts
			target := providers.Prepare(testFactory(), cfg)
			if target.Err != nil {
				t.Fatal(target.Err)
			}
			return target
		},
		Regions:   []string{"us-west-2", "cn-north-1"},
		Reference: reference(t),
		Clock:     func() time.Time { return testNow },
		// Price List calls are signed for us-east-1 (cn-northwest-1 for China)
		// and name the region they price in a filter.
		InRegion: func(req replay.Request, region string) bool {
			return req.Region == region || req.Params["filter.regionCode"] == region
		},
		RepeatToken: func(t testing.TB, srv *replay.Server) func(replay.Request, int) *replay.Response {
			return faulttest.RepeatNextToken(os.DirFS("testdata/replay"), srv.Manifest, "DescribeInstanceTypes")
		},
	}.Run(t)
}
