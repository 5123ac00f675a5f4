package volcengine

import (
	"strings"
	"testing"
)

// The SDK's logger (its default writes to standard output as it is; New
// gives every session sdkLogger) is the reporter's: a line with a workflow command in it reaches Config.Log as one
// safe line named after the provider (issue 32.8).
func TestSDKLog_ThroughTheReporter(t *testing.T) {
	srv := harness.Start(t)
	var lines []string
	cfg := harness.Config(srv)
	cfg.Log = func(line string) { lines = append(lines, line) }
	sdkLogger(cfg, []string{testAK, testSK}).Log("answer", "bad\n::error::forged", testSK)
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "volcengine sdk: answer") || strings.ContainsAny(lines[0], "\n") || strings.Contains(lines[0], testSK) {
		t.Errorf("log lines %q, want one safe, redacted line from the SDK", lines)
	}
}
