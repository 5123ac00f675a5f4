package volcengine

import (
	"os"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// The standard fault cases (providers/faulttest.Suite) through the ECS and
// billing clients: AccountFlowLimitExceeded 429, InternalError 500, resets,
// stalls past the request timeout, cut and non-JSON bodies (retried: see
// jsonAnswers), a region that never answers, and a DescribeInstanceTypes token
// that repeats.
func TestFaults(t *testing.T) {
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	start := func(t testing.TB) *replay.Server {
		srv, err := replay.Start(os.DirFS("testdata/replay"), replay.Volcengine)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Close)
		return srv
	}
	faulttest.Suite{
		Provider: catalog.Volcengine,
		Start:    start,
		Target: func(t testing.TB, srv *replay.Server, timeout time.Duration, attempts int) providers.Target {
			cfg := testConfig(srv)
			cfg.Timeout, cfg.MaxAttempts = timeout, attempts
			return providers.Prepare(unlimited(), cfg)
		},
		Regions:   []string{"cn-guangzhou", "cn-shanghai"},
		Reference: ref,
		Clock:     func() time.Time { return fixedNow },
		RepeatToken: func(t testing.TB, srv *replay.Server) func(replay.Request, int) *replay.Response {
			return faulttest.RepeatNextToken(os.DirFS("testdata/replay"), srv.Manifest, "DescribeInstanceTypes")
		},
	}.Run(t)
}
