package volcengine

import "testing"

// The standard fault cases (providers/faulttest.Suite) through the ECS and
// billing clients: AccountFlowLimitExceeded 429, InternalError 500, resets,
// stalls past the request timeout, cut and non-JSON bodies (retried: see
// jsonAnswers), a region that never answers, and a DescribeInstanceTypes token
// that repeats.
func TestFaults(t *testing.T) {
	s := harness.Faults(t, "cn-guangzhou", "cn-shanghai")
	s.RepeatToken = harness.RepeatNextToken("DescribeInstanceTypes")
	s.Run(t)
}
