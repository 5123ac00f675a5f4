package aws

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/smithy-go/logging"
)

// The SDK's logger (its default writes to standard error as it is) is the
// reporter's: a line with a workflow command in it reaches Config.Log as one
// safe line named after the provider (issue 32.8).
func TestSDKLog_ThroughTheReporter(t *testing.T) {
	srv := harness.Start(t)
	var lines []string
	cfg := harness.Config(srv)
	cfg.Log = func(line string) { lines = append(lines, line) }
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	client := p.(*Adapter).ec2.(retryingEC2).api.(*ec2.Client)
	client.Options().Logger.Logf(logging.Warn, "checksum %s", "missing\n::error::forged\x1b[2J")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "aws sdk: WARN checksum missing") || strings.ContainsAny(lines[0], "\n\x1b") {
		t.Errorf("log lines %q, want one safe line from the SDK", lines)
	}
}
