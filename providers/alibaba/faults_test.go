package alibaba

import "testing"

// The standard fault cases (providers/faulttest.Suite) through the ECS client:
// Throttling 400, ServiceUnavailable 503, resets, stalls past the request
// timeout, cut and non-JSON bodies, a region that never answers, and a
// DescribeInstanceTypes token that repeats.
func TestFaults(t *testing.T) {
	s := harness.Faults(t, "cn-nanjing", "ap-northeast-2")
	s.RepeatToken = harness.RepeatNextToken("DescribeInstanceTypes")
	s.Run(t)
}
