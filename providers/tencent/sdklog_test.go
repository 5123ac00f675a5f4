package tencent

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// The SDK's own log output (here its debug dump of a request and its
// answer, many lines, the signed Authorization header among them) reaches
// Config.Log as single, safe, redacted lines named after the provider, not
// standard error as it is (issue 32.8).
func TestSDKLog_ThroughTheReporter(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, _ int) *replay.Response {
		return &replay.Response{Status: 200, ContentType: "application/json",
			Header: http.Header{"X-Note": {"ok\r\n::error::forged"}},
			Body:   `{"Response":{"TotalCount":1,"RegionSet":[{"Region":"ap-guangzhou","RegionState":"AVAILABLE"}],"RequestId":"r1"}}`}
	}
	var mu sync.Mutex
	var lines []string
	cfg := harness.Config(srv)
	cfg.Log = func(line string) { mu.Lock(); lines = append(lines, line); mu.Unlock() }
	target := providers.Prepare(harness.Unlimited(), cfg)
	if target.Err != nil {
		t.Fatal(target.Err)
	}
	target.Provider.(*Adapter).debugSDK = true
	if _, err := target.Provider.Regions(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(lines) == 0 {
		t.Fatal("no SDK log line reached Config.Log")
	}
	t.Logf("%d lines, the first: %s", len(lines), lines[0])
	for _, l := range lines {
		if !strings.HasPrefix(l, "tencent sdk: ") || strings.ContainsAny(l, "\r\n\x1b") {
			t.Errorf("log line %q: want one line starting with the provider", l)
		}
		if strings.Contains(l, testSecretID) || strings.Contains(l, "Signature=") && !strings.Contains(l, "Signature=[redacted]") {
			t.Errorf("log line shows a credential: %q", l)
		}
	}
}
