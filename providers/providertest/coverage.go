package providertest

import (
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
