package catalog

import (
	"strings"
	"testing"
	"time"
)

func TestMergeCrawl_FailedProviderKeepsDataMarkedStale(t *testing.T) {
	prev := testSnapshot()
	next := &Snapshot{Schema: SchemaVersion, TakenAt: time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC),
		Coverage: []Coverage{{Provider: AWS, Status: CoverageFailed, Message: "list regions: aws: authentication failed"}}}
	got := MergeCrawl(prev, next, []Provider{AWS})
	if len(got.Offers) != len(prev.Offers) || len(got.Instances) != len(prev.Instances) {
		t.Fatalf("data lost: %d offers, %d types; want %d, %d", len(got.Offers), len(got.Instances), len(prev.Offers), len(prev.Instances))
	}
	var cov Coverage
	for _, c := range got.Coverage {
		if c.Provider == AWS {
			cov = c
		}
	}
	if cov.Status != CoverageStale || !cov.LastOK.Equal(prev.Coverage[1].LastOK) || !strings.Contains(cov.Message, "keeping data last confirmed 2025-11-30") {
		t.Errorf("coverage = %+v, want stale with the previous LastOK", cov)
	}
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestMergeCrawl_UncrawledProviderKept(t *testing.T) {
	prev := testSnapshot()
	next := &Snapshot{Schema: SchemaVersion, Coverage: []Coverage{{Provider: Tencent, Status: CoverageOK}}}
	got := MergeCrawl(prev, next, []Provider{Tencent})
	if len(got.Offers) != len(prev.Offers) {
		t.Fatalf("got %d offers, want %d", len(got.Offers), len(prev.Offers))
	}
	for _, c := range got.Coverage {
		if c.Provider == AWS && c.Status != CoveragePartial {
			t.Errorf("uncrawled provider's coverage changed: %+v", c)
		}
	}
}

func TestMergeCrawl_FailedRegionKeepsItsOffers(t *testing.T) {
	prev := testSnapshot()
	next := testSnapshot()
	next.Offers = next.Offers[:0]
	next.Placements = nil
	next.Coverage = []Coverage{{Provider: AWS, Status: CoveragePartial, Regions: 0, FailedRegions: []RegionFailure{{Region: "us-east-1", Reason: "timeout"}}}}
	got := MergeCrawl(prev, next, []Provider{AWS})
	if len(got.Offers) != 3 || len(got.Placements) != 1 {
		t.Fatalf("failed region lost data: %d offers, %d placements", len(got.Offers), len(got.Placements))
	}
	if !strings.Contains(got.Coverage[0].FailedRegions[0].Reason, "keeping data") {
		t.Errorf("failed region reason does not say data was kept: %q", got.Coverage[0].FailedRegions[0].Reason)
	}
}

func TestMergeCrawl_NothingToKeep(t *testing.T) {
	next := &Snapshot{Schema: SchemaVersion, Coverage: []Coverage{{Provider: AWS, Status: CoverageSkipped, Message: "no credentials configured"}}}
	got := MergeCrawl(nil, next, []Provider{AWS})
	if got.Coverage[0].Status != CoverageSkipped {
		t.Errorf("status = %s, want skipped", got.Coverage[0].Status)
	}
}
