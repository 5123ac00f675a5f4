package faulttest

import (
	"context"
	"encoding/json"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// AnswerFuzzer feeds arbitrary bytes to an adapter as one API action's answer,
// through the real SDK client, and crawls a region: the adapter must not panic,
// and the crawl ends with the region crawled or failed with a reason that names
// the provider. Build it once (outside f.Fuzz) and call Check for each input.
type AnswerFuzzer struct {
	Provider    catalog.Provider
	Action      string
	ContentType string
	Region      string
	Reference   *catalog.GPUReference
	// Target builds a fresh adapter against srv (adapters cache answers).
	Target func(srv *replay.Server) providers.Target

	srv  *replay.Server
	mu   sync.Mutex
	body []byte
}

// Start serves dir in dialect d, answering Action with the current input.
func (a *AnswerFuzzer) Start(f *testing.F, dir fs.FS, d replay.Dialect) {
	srv, err := replay.Start(dir, d)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(srv.Close)
	srv.Fault = func(req replay.Request, _ int) *replay.Response {
		if req.Action != a.Action {
			return nil
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		return &replay.Response{Status: 200, ContentType: a.ContentType, Body: string(a.body)}
	}
	a.srv = srv
}

// Server is the replay server Start started.
func (a *AnswerFuzzer) Server() *replay.Server { return a.srv }

// Seeds adds the recorded answers of Action as seed inputs, whole and cut.
func (a *AnswerFuzzer) Seeds(f *testing.F, dir fs.FS) {
	n := 0
	for _, e := range a.srv.Manifest.Exchanges {
		if e.Action != a.Action || n >= 3 {
			continue
		}
		b, err := fs.ReadFile(dir, e.Body)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
		n++
	}
	f.Add([]byte{})
	f.Add([]byte("null"))
	f.Add([]byte("{}"))
	f.Add([]byte("<html>502</html>"))
}

// Check crawls the region with body as the action's answer.
func (a *AnswerFuzzer) Check(t *testing.T, body []byte) {
	a.mu.Lock()
	a.body = body
	a.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	snap, err := providers.Crawl(ctx, []providers.Target{a.Target(a.srv)}, providers.Options{
		Reference: a.Reference, OnlyRegions: []string{a.Region},
	})
	if err != nil {
		t.Fatalf("crawl did not end: %v", err)
	}
	c := snap.Coverage[0]
	for _, f := range c.FailedRegions {
		if !strings.HasPrefix(f.Reason, string(a.Provider)+":") {
			t.Errorf("failed region %s: reason %q does not name the provider", f.Region, f.Reason)
		}
	}
	if err := snap.Validate(); err != nil {
		t.Errorf("the crawl gave an invalid snapshot: %v", err)
	}
	for _, o := range snap.Offers {
		if o.Price.Amount.IsNegative() || o.Price.Currency == "" {
			t.Errorf("offer %s: price %+v", o.Key(), o.Price)
		}
	}
}

// CheckInstance reports what no converted instance type may have, whatever the
// API said: negative counts, shares, sizes or prices of its parts.
func CheckInstance(t *testing.T, it catalog.InstanceType) {
	t.Helper()
	if it.VCPUs < 0 || it.MemoryGiB.IsNegative() || it.LocalStorageGB < 0 || (it.NetworkGbps != nil && it.NetworkGbps.IsNegative()) {
		t.Errorf("instance type %q: negative size: %+v", it.ID, it)
	}
	for _, a := range it.Accelerators {
		if a.Count < 0 || a.Share.IsNegative() || a.MemoryGiB.IsNegative() {
			t.Errorf("instance type %q: accelerator %+v", it.ID, a)
		}
	}
}

// CheckConversion decodes input as JSON into a fresh In (an SDK record) and,
// when it decodes, converts it: the conversion must not panic, and the
// instance type the runner would keep (providers.SaneInstanceType) must pass
// CheckInstance. It returns the record and whether the input decoded, for
// checks of the adapter's own.
func CheckConversion[In any](t *testing.T, input []byte, convert func(*In) (catalog.InstanceType, bool)) (*In, bool) {
	t.Helper()
	rec := new(In)
	if json.Unmarshal(input, rec) != nil {
		return nil, false
	}
	if it, ok := convert(rec); ok {
		if it, _, ok := providers.SaneInstanceType(it); ok {
			CheckInstance(t, it)
		}
	}
	return rec, true
}
