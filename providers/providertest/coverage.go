package providertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// CrawlOK crawls the unlimited adapter against srv (only the given regions,
// all when none) and fails t unless the provider's coverage is ok, over as
// many regions as were named. It returns the snapshot and the target.
func (h Harness) CrawlOK(t testing.TB, srv *replay.Server, only ...string) (*catalog.Snapshot, providers.Target) {
	t.Helper()
	snap, target := h.Crawl(t, h.Unlimited(), h.Config(srv), only...)
	cov := CoverageOf(snap, h.Factory.ID)
	if cov.Status != catalog.CoverageOK || (len(only) > 0 && cov.Regions != len(only)) {
		t.Fatalf("coverage = %+v, want ok over %d regions", cov, len(only))
	}
	return snap, target
}

// CheckPartial fails t unless the snapshot's coverage of the provider is
// partial: okRegions regions crawled, failed the one failed region, for a
// reason that holds each of reasonHas and none of Env's credentials.
func (h Harness) CheckPartial(t testing.TB, snap *catalog.Snapshot, okRegions int, failed string, reasonHas ...string) {
	t.Helper()
	cov := CoverageOf(snap, h.Factory.ID)
	if cov.Status != catalog.CoveragePartial || cov.Regions != okRegions || len(cov.FailedRegions) != 1 || cov.FailedRegions[0].Region != failed {
		t.Fatalf("coverage = %+v, want partial over %d regions with %s failed", cov, okRegions, failed)
	}
	reason := cov.FailedRegions[0].Reason
	for _, s := range reasonHas {
		if !strings.Contains(reason, s) {
			t.Errorf("reason = %q, want it to hold %q", reason, s)
		}
	}
	for _, s := range h.credentialValues() {
		if strings.Contains(reason, s) {
			t.Errorf("reason leaks a credential: %q", reason)
		}
	}
}

// CheckAuthRefused answers every request with refusal, asks the adapter for
// its regions, and fails t unless that fails with providers.ErrAuth after one
// request (refused credentials are not retried) and without any of Env's
// credentials in its text.
func (h Harness) CheckAuthRefused(t *testing.T, refusal *replay.Response) {
	t.Helper()
	srv := h.Start(t)
	srv.Fault = func(replay.Request, int) *replay.Response { return refusal }
	p, err := h.Factory.New(h.Config(srv))
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Regions(context.Background())
	if !errors.Is(err, providers.ErrAuth) {
		t.Fatalf("err = %v, want ErrAuth", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("requests = %d, want 1 (auth failures are not retried)", n)
	}
	for _, s := range h.credentialValues() {
		if strings.Contains(err.Error(), s) {
			t.Errorf("error leaks a credential: %v", err)
		}
	}
}

// RegionsRequests prepares the unlimited adapter against srv, asks it for its
// regions, and returns the requests the server saw; it fails t when the call
// fails or sent none.
func (h Harness) RegionsRequests(t *testing.T, srv *replay.Server) []replay.Request {
	t.Helper()
	target := h.Prepare(t, srv)
	if _, err := target.Provider.Regions(context.Background()); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no requests")
	}
	return reqs
}

// TokenFile writes an OIDC token file (the token and a newline, as a CI
// runner writes it) and returns its path.
func TokenFile(t *testing.T, token string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// PrepareRefused prepares the unlimited adapter against srv, whose answer
// refuses the role's OIDC token, and returns the error: it fails t unless
// there is one, not ErrNoCredentials (the credentials are configured), and
// without the token's first 16 characters in its text.
func (h Harness) PrepareRefused(t *testing.T, srv *replay.Server, token string) error {
	t.Helper()
	err := providers.Prepare(h.Unlimited(), h.Config(srv)).Err
	if err == nil || errors.Is(err, providers.ErrNoCredentials) {
		t.Fatalf("err = %v, want the provider failed", err)
	}
	if strings.Contains(err.Error(), token[:16]) {
		t.Errorf("the error shows the OIDC token: %v", err)
	}
	return err
}

// Failure is a fault of the replay and what the provider's coverage must
// then say: its message or a failed region's reason holds Want.
type Failure struct {
	Name  string
	Fault func(replay.Request, int) *replay.Response
	Want  string
}

// CheckFailures crawls the unlimited adapter, one attempt a call, against the
// replay in dir ("" for the harness's) with each failure's fault, a subtest
// each, and fails t unless the coverage is not ok and says Want, without any
// of secrets (the credentials' secret values: not all of Env is secret, a
// project id is named in a refusal).
func (h Harness) CheckFailures(t *testing.T, dir string, secrets []string, failures []Failure) {
	t.Helper()
	if dir == "" {
		dir = h.dir()
	}
	for _, f := range failures {
		t.Run(f.Name, func(t *testing.T) {
			srv := h.StartDir(t, dir)
			srv.Fault = f.Fault
			cfg := h.Config(srv)
			cfg.MaxAttempts = 1
			snap, _ := h.Crawl(t, h.Unlimited(), cfg)
			cov := CoverageOf(snap, h.Factory.ID)
			msg := fmt.Sprintf("%s %+v", cov.Message, cov.FailedRegions)
			if cov.Status == catalog.CoverageOK || !strings.Contains(msg, f.Want) {
				t.Errorf("coverage = %+v, want a failure saying %q", cov, f.Want)
			}
			for _, s := range secrets {
				if strings.Contains(msg, s) {
					t.Errorf("the coverage shows a secret: %s", msg)
				}
			}
		})
	}
}
