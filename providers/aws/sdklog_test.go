package aws

import (
	"strings"
	"testing"

	"github.com/aws/smithy-go/logging"
)

// The SDK's logger (its default writes to standard error as it is; New
// loads the configuration with sdkLogger) is the reporter's: a line with a workflow command in it reaches Config.Log as one
// safe line named after the provider (issue 32.8).
func TestSDKLog_ThroughTheReporter(t *testing.T) {
	srv := harness.Start(t)
	var lines []string
	cfg := harness.Config(srv)
	cfg.Log = func(line string) { lines = append(lines, line) }
	sdkLogger(cfg).Logf(logging.Warn, "checksum %s", "missing\n::error::forged\x1b[2J")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "aws sdk: WARN checksum missing") || strings.ContainsAny(lines[0], "\n\x1b") {
		t.Errorf("log lines %q, want one safe line from the SDK", lines)
	}
}
