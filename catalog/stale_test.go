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

// An instance type whose price calls failed in a region that was otherwise
// crawled keeps its previous offers there, and only its: the other types'
// offers are the new crawl's, a type's offer the new crawl did fetch is kept
// as fetched, and the failure records when the kept offers were confirmed.
func TestMergeCrawl_FailedTypeKeepsOnlyItsOffers(t *testing.T) {
	prev := testSnapshot()
	prev.Coverage = []Coverage{{Provider: AWS, Status: CoverageOK, Regions: 1, LastOK: prev.TakenAt}}
	taken := time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)
	next := testSnapshot()
	next.TakenAt = taken
	// The new crawl found g6f.large's spot offer at a new price, and of
	// p5.48xlarge only the on-demand offer: its reserved price call failed.
	next.Offers = []Offer{prev.Offers[1], prev.Offers[2]}
	next.Offers[0].FetchedAt, next.Offers[1].FetchedAt = taken, taken
	next.Offers[1].Price.Amount = Dec("0.2")
	next.Coverage = []Coverage{{Provider: AWS, Status: CoveragePartial, Regions: 1, LastOK: taken,
		FailedTypes: []TypeFailure{{Region: "us-east-1", InstanceType: "p5.48xlarge", Reason: "aws: get products: throttled"}}}}
	got := MergeCrawl(prev, next, []Provider{AWS})
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
	byKey := map[string]Offer{}
	for _, o := range got.Offers {
		byKey[o.Key()] = o
	}
	if len(got.Offers) != 3 {
		t.Fatalf("%d offers, want 3: %v", len(got.Offers), byKey)
	}
	if o := byKey[prev.Offers[0].Key()]; !o.FetchedAt.Equal(prev.TakenAt) {
		t.Errorf("the failed type's reserved offer was not kept from the previous crawl: %+v", o)
	}
	if o := byKey[prev.Offers[1].Key()]; !o.FetchedAt.Equal(taken) {
		t.Errorf("the failed type's offer the new crawl fetched was replaced by the old one: %+v", o)
	}
	if o := byKey[prev.Offers[2].Key()]; !o.Price.Amount.Equal(Dec("0.2")) {
		t.Errorf("another type's offer is not the new crawl's: %+v", o)
	}
	f := got.Coverage[0].FailedTypes
	if len(f) != 1 || !f[0].LastConfirmed.Equal(prev.TakenAt) || got.Coverage[0].Status != CoveragePartial {
		t.Errorf("coverage %+v, want p5.48xlarge failed, last confirmed %s", got.Coverage[0], prev.TakenAt)
	}
	if next.Coverage[0].FailedTypes[0].LastConfirmed != (time.Time{}) {
		t.Error("MergeCrawl modified its input")
	}
}

// A failed type whose earlier offers were themselves kept keeps their date,
// and a failed type with no earlier offers records no date.
func TestMergeCrawl_FailedTypeKeepsTheOriginalDate(t *testing.T) {
	prev := testSnapshot()
	prev.Coverage = []Coverage{{Provider: AWS, Status: CoverageOK, Regions: 1, LastOK: prev.TakenAt}}
	first := MergeCrawl(nil, prev, []Provider{AWS})
	last := first
	for day := 1; day <= 2; day++ {
		next := testSnapshot()
		next.TakenAt = prev.TakenAt.AddDate(0, 0, day)
		next.Offers = next.Offers[2:] // p5.48xlarge's price calls fail each day
		next.Coverage = []Coverage{{Provider: AWS, Status: CoveragePartial, Regions: 1, LastOK: next.TakenAt,
			FailedTypes: []TypeFailure{{Region: "us-east-1", InstanceType: "p5.48xlarge", Reason: "throttled"},
				{Region: "us-east-1", InstanceType: "g5.xlarge", Reason: "throttled"}}}}
		last = MergeCrawl(last, next, []Provider{AWS})
	}
	f := last.Coverage[0].FailedTypes
	if len(f) != 2 || f[0].InstanceType != "g5.xlarge" || !f[0].LastConfirmed.IsZero() || !f[1].LastConfirmed.Equal(prev.TakenAt) {
		t.Errorf("failed types %+v, want g5.xlarge without a date and p5.48xlarge confirmed %s", f, prev.TakenAt)
	}
	if len(last.Offers) != 3 {
		t.Errorf("%d offers, want 3", len(last.Offers))
	}
}

func TestCoverage_KeptStale(t *testing.T) {
	confirmed := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	kept := Offer{Provider: AWS, InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: OnDemand, FetchedAt: confirmed}
	fresh := kept
	fresh.FetchedAt = confirmed.Add(24 * time.Hour)
	other := kept
	other.InstanceType = "g5.xlarge"
	inFailed := kept
	inFailed.Region = "ap-south-1"
	partial := Coverage{Provider: AWS, Status: CoveragePartial,
		FailedRegions: []RegionFailure{{Region: "ap-south-1"}},
		FailedTypes:   []TypeFailure{{Region: "us-east-1", InstanceType: "p5.48xlarge", LastConfirmed: confirmed}}}
	for _, c := range []struct {
		name string
		cov  Coverage
		o    Offer
		want bool
	}{
		{"stale provider", Coverage{Provider: AWS, Status: CoverageStale}, fresh, true},
		{"ok provider", Coverage{Provider: AWS, Status: CoverageOK}, kept, false},
		{"failed region", partial, inFailed, true},
		{"failed type, kept offer", partial, kept, true},
		{"failed type, offer fetched after it was last confirmed", partial, fresh, false},
		{"another type in the region", partial, other, false},
	} {
		if got := c.cov.KeptStale(c.o); got != c.want {
			t.Errorf("%s: KeptStale = %v, want %v", c.name, got, c.want)
		}
	}
}
