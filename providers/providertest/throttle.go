package providertest

import (
	"sync"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// CrawlThrottled crawls srv with the first request of each key in keys
// answered throttled (answer: a 429 asking, in its Retry-After, to wait 1 s),
// key being what keyOf says of a request (its page, say), and checks that
// the crawl kept both waits and counted the two throttles and retries. It
// returns the snapshot for the adapter's own checks.
func (h Harness) CrawlThrottled(t *testing.T, srv *replay.Server, keyOf func(replay.Request) string, keys [2]string,
	answer *replay.Response) *catalog.Snapshot {
	t.Helper()
	var mu sync.Mutex
	throttled := map[string]bool{}
	srv.Fault = func(req replay.Request, _ int) *replay.Response {
		key := keyOf(req)
		mu.Lock()
		defer mu.Unlock()
		if (key == keys[0] || key == keys[1]) && !throttled[key] {
			throttled[key] = true
			return answer
		}
		return nil
	}
	start := time.Now()
	snap, target := h.Crawl(t, h.Unlimited(), h.Config(srv))
	if d := time.Since(start); d < 2*time.Second {
		t.Errorf("crawl took %s: the two Retry-After waits of 1 s were not kept", d)
	}
	if f := target.Stats.Figures(); f.Throttled != 2 || f.Retries != 2 {
		t.Errorf("figures = %+v, want 2 throttled, 2 retries", f)
	}
	return snap
}
