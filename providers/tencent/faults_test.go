package tencent

import "testing"

// The standard fault cases (providers/faulttest.Suite) through the CVM client:
// RequestLimitExceeded in an HTTP 200 body, a gateway's 502 page, resets,
// stalls past the request timeout, cut and non-JSON bodies and a region that
// never answers. The adapter's calls are not paginated (DescribeRegions and
// DescribeZoneInstanceConfigInfos answer in one piece), so there is no token
// to repeat.
func TestFaults(t *testing.T) {
	harness.Faults(t, "ap-seoul", "ap-bangkok").Run(t)
}
