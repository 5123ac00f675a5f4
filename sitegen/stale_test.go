package sitegen

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Offers kept from an earlier crawl are marked stale, one by one: those of a
// stale provider, of a failed region, and of an instance type whose price calls
// failed (fetched no later than its last confirmation); the new crawl's offers
// of that type and every other offer are not. The explorer's data carries the
// mark per offer where the provider as a whole is not stale.
func TestSiteModel_StaleOffers(t *testing.T) {
	snap := testSnapshot(t)
	kept := time.Date(2026, 11, 29, 1, 30, 0, 0, time.UTC)
	for i, o := range snap.Offers {
		// p5.48xlarge's reserved price in us-east-1 failed and was kept from
		// the day before; its other offers there are the new crawl's.
		if o.Provider == catalog.AWS && o.InstanceType == "p5.48xlarge" && o.Region == "us-east-1" && o.Billing == catalog.Reserved1yAllUpfront {
			snap.Offers[i].FetchedAt = kept
		}
	}
	for i, c := range snap.Coverage {
		if c.Provider == catalog.AWS {
			snap.Coverage[i].Status = catalog.CoveragePartial
			snap.Coverage[i].FailedTypes = []catalog.TypeFailure{{Region: "us-east-1", InstanceType: "p5.48xlarge", Reason: "throttled", LastConfirmed: kept}}
			snap.Coverage[i].FailedRegions = []catalog.RegionFailure{{Region: "us-west-2", Reason: "unavailable"}}
		}
	}
	m, err := newSiteModel(snap, testReference(t), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, o := range snap.Offers {
		want[o.Key()] = o.Provider == catalog.Huawei || // stale provider
			(o.Provider == catalog.AWS && o.Region == "us-west-2") || // failed region
			(o.Provider == catalog.AWS && o.Billing == catalog.Reserved1yAllUpfront && o.InstanceType == "p5.48xlarge" && o.Region == "us-east-1")
	}
	marked := 0
	index := map[string]int{}
	for i, v := range m.offers {
		index[v.Key] = i
		if v.Stale != want[v.Key] {
			t.Errorf("%s: stale %v, want %v", v.Key, v.Stale, want[v.Key])
		}
		if v.Stale {
			marked++
		}
	}
	if marked < 4 {
		t.Fatalf("only %d offers stale; the test does not exercise the marks", marked)
	}
	b, err := m.offersJSON()
	if err != nil {
		t.Fatal(err)
	}
	var f offersFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	for key, stale := range want {
		i := index[key]
		provider := m.offers[i].Offer.Provider
		if flagged := f.Offers.Flags[i]&flagStale != 0; flagged != (stale && provider != catalog.Huawei) {
			t.Errorf("%s: offers.json stale flag %v", key, flagged)
		}
	}
}
