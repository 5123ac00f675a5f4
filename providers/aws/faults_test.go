package aws

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// The standard fault cases (providers/faulttest.Suite) through the EC2 and
// Price List clients: RequestLimitExceeded 503 and ThrottlingException 429,
// 5xx, resets, stalls past the request timeout, cut and non-XML bodies, a
// region that never answers, and a DescribeInstanceTypes token that repeats.
func TestFaults(t *testing.T) {
	s := harness.Faults(t, "us-west-2", "cn-north-1")
	// Price List calls are signed for us-east-1 (cn-northwest-1 for China)
	// and name the region they price in a filter.
	s.InRegion = func(req replay.Request, region string) bool {
		return req.Region == region || req.Params["filter.regionCode"] == region
	}
	s.RepeatToken = harness.RepeatNextToken("DescribeInstanceTypes")
	s.Run(t)
}
