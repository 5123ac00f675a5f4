package azure

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// The standard fault cases (providers/faulttest.Suite) through armcompute and
// the Retail Prices calls: 429 TooManyRequests, 500, resets, stalls past the
// request timeout, cut and non-JSON bodies and a region that never answers.
// The identity calls are left alone: azidentity makes them and retries them
// on its own terms (TestCrawl_Errors covers a refused token).
func TestFaults(t *testing.T) {
	s := harness.Faults(t, "eastus", "westus3")
	s.Eligible = func(req replay.Request) bool { return req.Service != "login" }
	s.Run(t)
}
