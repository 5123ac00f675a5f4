package faulttest

import (
	"context"
	"encoding/json"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// AnswerFuzzer feeds arbitrary bytes to an adapter as one API action's answer,
// through the real SDK client, and crawls a region: the adapter must not panic,
// and the crawl ends with the region crawled or failed with a reason that names
// the provider. Build it once (outside f.Fuzz) and call Check for each input.
//
// Each fuzzing process runs thousands of inputs a second, so nothing is paid per
// input that can be paid once: the replay's answers are held in memory and
// served in process (the SDK client's transport is the server, no connection),
// the adapter and its SDK clients are built on the first input and crawl again
// for every later one (an adapter forgets the previous crawl's answers when
// Regions starts the next), and no call is retried, waited for or timed out.
// With no connection, dial or timer between client and server there is also
// less scheduling to make one input's coverage differ from run to run, which
// the fuzzing engine would take for new inputs.
type AnswerFuzzer struct {
	Provider    catalog.Provider
	Action      string
	ContentType string
	Region      string
	Reference   *catalog.GPUReference
	// Target builds the adapter against srv, with srv as its HTTP transport
	// (Config.Transport) and one attempt per call; it is called once.
	Target func(srv *replay.Server) providers.Target

	srv    *replay.Server
	bodies fs.FS
	target *providers.Target
	mu     sync.Mutex
	body   []byte
	// recorded answers Action as recorded instead of with body.
	recorded bool
}

// Start serves dir in dialect d, answering Action with the current input.
func (a *AnswerFuzzer) Start(tb testing.TB, dir fs.FS, d replay.Dialect) {
	tb.Helper()
	mem, err := inMemory(dir)
	if err != nil {
		tb.Fatal(err)
	}
	srv, err := replay.Start(mem, d, replay.WithoutRequestLog())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Close)
	srv.Fault = func(req replay.Request, _ int) *replay.Response {
		if req.Action != a.Action {
			return nil
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.recorded {
			return nil
		}
		return &replay.Response{Status: 200, ContentType: a.ContentType, Body: string(a.body)}
	}
	a.srv, a.bodies = srv, mem
}

// inMemory reads every file of dir into memory: the replay then answers
// without a file system call.
func inMemory(dir fs.FS) (fstest.MapFS, error) {
	mem := fstest.MapFS{}
	err := fs.WalkDir(dir, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(dir, p)
		if err != nil {
			return err
		}
		mem[p] = &fstest.MapFile{Data: b}
		return nil
	})
	return mem, err
}

// Server is the replay server Start started.
func (a *AnswerFuzzer) Server() *replay.Server { return a.srv }

// Seeds are the recorded answers of Action, whole and cut, and a few that
// are no answer at all.
func (a *AnswerFuzzer) Seeds(tb testing.TB) [][]byte {
	tb.Helper()
	var seeds [][]byte
	n := 0
	for _, e := range a.srv.Manifest.Exchanges {
		if e.Action != a.Action || n >= 3 {
			continue
		}
		b, err := fs.ReadFile(a.bodies, e.Body)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, b, b[:len(b)/2])
		n++
	}
	return append(seeds, []byte{}, []byte("null"), []byte("{}"), []byte("<html>502</html>"))
}

// CheckRecorded crawls the region with the recorded answers: it must be
// crawled whole, with offers, or the fuzz inputs (mutations of those
// answers) would explore an empty world.
func (a *AnswerFuzzer) CheckRecorded(tb testing.TB) {
	tb.Helper()
	a.mu.Lock()
	a.recorded = true
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.recorded = false
		a.mu.Unlock()
	}()
	snap := a.crawl(tb)
	if c := snap.Coverage[0]; c.Status != catalog.CoverageOK || len(snap.Offers) == 0 {
		tb.Fatalf("the recorded answers of %s crawl to coverage %+v and %d offers, want ok with offers", a.Region, c, len(snap.Offers))
	}
}

func (a *AnswerFuzzer) crawl(tb testing.TB) *catalog.Snapshot {
	tb.Helper()
	if a.target == nil {
		target := a.Target(a.srv)
		if target.Err != nil {
			tb.Fatalf("build the adapter: %v", target.Err)
		}
		a.target = &target
	}
	snap, err := providers.Crawl(context.Background(), []providers.Target{*a.target}, providers.Options{
		Reference: a.Reference, OnlyRegions: []string{a.Region},
	})
	if err != nil {
		tb.Fatalf("crawl did not end: %v", err)
	}
	return snap
}

// Check crawls the region with body as the action's answer.
func (a *AnswerFuzzer) Check(t testing.TB, body []byte) {
	t.Helper()
	a.mu.Lock()
	a.body = body
	a.mu.Unlock()
	snap := a.crawl(t)
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
