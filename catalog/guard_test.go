package catalog

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// guardSnapshot has, for each provider given, one instance type with n on-demand
// offers (one per region r0…) priced 1.00 USD an hour.
func guardSnapshot(at time.Time, counts map[Provider]int) *Snapshot {
	s := &Snapshot{Schema: SchemaVersion, TakenAt: at}
	for _, p := range Providers {
		n, ok := counts[p]
		if !ok {
			continue
		}
		s.Coverage = append(s.Coverage, Coverage{Provider: p, Status: CoverageOK, Regions: n, LastOK: at})
		if n == 0 {
			continue
		}
		s.Instances = append(s.Instances, InstanceType{Provider: p, ID: "gpu.large", VCPUs: 8, MemoryGiB: Dec("32"), Generation: "current", Source: "test"})
		for i := 0; i < n; i++ {
			s.Offers = append(s.Offers, Offer{Provider: p, InstanceType: "gpu.large", Region: fmt.Sprintf("r%02d", i), Billing: OnDemand,
				Price: Price{Amount: Dec("1.00"), Currency: USD, Unit: PerHour}, Availability: Available, Source: "test", FetchedAt: at})
		}
	}
	s.Sort()
	return s
}

func TestGuard_DropBlocks(t *testing.T) {
	prev := guardSnapshot(day(0), map[Provider]int{AWS: 10, Alibaba: 10})
	next := guardSnapshot(day(1), map[Provider]int{AWS: 2, Alibaba: 10})
	r := Guard(prev, next, GuardOptions{})
	if !r.Blocked() {
		t.Fatalf("losing 80%% of aws's offers was not blocked:\n%s", r.Text())
	}
	want := "blocked: aws: lost 8 of 10 offers (80.00%), more than the 30% allowed; the new snapshot has 2 (coverage: ok)\n"
	if diff := cmp.Diff(want, r.Text()); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	if got := r.Kinds(); len(got) != 1 || got[0] != GuardDrop {
		t.Errorf("Kinds = %v, want [drop]", got)
	}

	r = Guard(prev, next, GuardOptions{AcceptDrop: true})
	if r.Blocked() {
		t.Errorf("an accepted drop blocked the update:\n%s", r.Text())
	}
	if !strings.HasPrefix(r.Text(), "accepted: aws: lost 8 of 10 offers") {
		t.Errorf("an accepted drop is not reported as accepted:\n%s", r.Text())
	}
}

func TestGuard_DropBounds(t *testing.T) {
	tests := []struct {
		name    string
		kept    int
		opts    GuardOptions
		blocked bool
	}{
		{"20% lost, default bound", 8, GuardOptions{}, false},
		{"30% lost, exactly the bound", 7, GuardOptions{}, false},
		{"40% lost", 6, GuardOptions{}, true},
		{"20% lost, 10% bound", 8, GuardOptions{MaxDrop: Dec("10")}, true},
		{"nothing lost", 10, GuardOptions{MaxDrop: Dec("0.01")}, false},
	}
	prev := guardSnapshot(day(0), map[Provider]int{Tencent: 10})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Guard(prev, guardSnapshot(day(1), map[Provider]int{Tencent: tt.kept}), tt.opts)
			if r.Blocked() != tt.blocked {
				t.Errorf("Blocked() = %v, want %v\n%s", r.Blocked(), tt.blocked, r.Text())
			}
		})
	}
}

func TestGuard_NoData(t *testing.T) {
	prev := guardSnapshot(day(0), map[Provider]int{AWS: 3, Huawei: 4})
	next := guardSnapshot(day(1), map[Provider]int{AWS: 3, Huawei: 0})
	next.Coverage[1].Status = CoverageOK // an API that answered with nothing
	r := Guard(prev, next, GuardOptions{})
	want := "blocked: huawei: no data in the new snapshot (it had 1 instance type and 4 offers) (coverage: ok)\n"
	if diff := cmp.Diff(want, r.Text()); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	if r.Problems[0].Kind != GuardNoData || r.Problems[0].Provider != Huawei {
		t.Errorf("problem = %+v", r.Problems[0])
	}
	if Guard(prev, next, GuardOptions{AcceptDrop: true}).Blocked() {
		t.Error("AcceptDrop does not accept a provider without data")
	}
}

func TestGuard_StaleProviderIsNotADrop(t *testing.T) {
	prev := guardSnapshot(day(0), map[Provider]int{AWS: 5, Alibaba: 5})
	crawl := guardSnapshot(day(1), map[Provider]int{AWS: 5})
	crawl.Coverage = append(crawl.Coverage, Coverage{Provider: Alibaba, Status: CoverageFailed, Message: "alibaba: authentication failed"})
	merged := MergeCrawl(prev, crawl, []Provider{AWS, Alibaba})
	if r := Guard(prev, merged, GuardOptions{}); len(r.Problems) != 0 {
		t.Errorf("a stale provider was reported:\n%s", r.Text())
	}
	// Even a stale provider whose kept data is smaller is not a drop: the crawl
	// did not say the offers went away.
	var kept []Offer
	for _, o := range merged.Offers {
		if o.Provider == AWS || o.Region == "r00" {
			kept = append(kept, o)
		}
	}
	merged.Offers = kept
	if r := Guard(prev, merged, GuardOptions{}); len(r.Problems) != 0 {
		t.Errorf("a stale provider was reported:\n%s", r.Text())
	}
	// Without the merge, the failed provider has no data: blocked.
	if r := Guard(prev, crawl, GuardOptions{}); !r.Blocked() || r.Problems[0].Kind != GuardNoData {
		t.Errorf("a failed provider without kept data was not blocked:\n%s", r.Text())
	}
}

func TestGuard_PriceChange(t *testing.T) {
	prev := guardSnapshot(day(0), map[Provider]int{AWS: 3})
	next := guardSnapshot(day(1), map[Provider]int{AWS: 3})
	next.Offers[0].Price.Amount = Dec("3.00") // +200%
	next.Offers[1].Price.Amount = Dec("1.40") // +40%: within the bound
	r := Guard(prev, next, GuardOptions{})
	want := "blocked: aws/gpu.large/r00//on_demand: price 1 USD/hour → 3 USD/hour (+200.00%), beyond ±50%\n"
	if diff := cmp.Diff(want, r.Text()); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	if r.Problems[0].Offer != "aws/gpu.large/r00//on_demand" || r.Problems[0].Kind != GuardPriceChange {
		t.Errorf("problem = %+v", r.Problems[0])
	}
	if Guard(prev, next, GuardOptions{AcceptPriceChange: true}).Blocked() {
		t.Error("AcceptPriceChange does not accept the price change")
	}
	if Guard(prev, next, GuardOptions{AcceptDrop: true}).Blocked() == false {
		t.Error("AcceptDrop accepted a price change")
	}
	if !Guard(prev, next, GuardOptions{MaxPriceChange: Dec("30")}).Blocked() {
		t.Error("a 40% move passed a 30% bound")
	}
}

func TestGuard_PriceChangeEachReported(t *testing.T) {
	prev := guardSnapshot(day(0), map[Provider]int{AWS: 3})
	next := guardSnapshot(day(1), map[Provider]int{AWS: 3})
	next.Offers[0].Price.Amount = Dec("0.25")                                       // -75%
	next.Offers[1].Price = Price{Amount: Dec("7"), Currency: CNY, Unit: PerHour}    // another currency
	next.Offers[2].Price = Price{Amount: Dec("730"), Currency: USD, Unit: PerMonth} // the same price, monthly
	r := Guard(prev, next, GuardOptions{})
	want := "blocked: aws/gpu.large/r00//on_demand: price 1 USD/hour → 0.25 USD/hour (-75.00%), beyond ±50%\n" +
		"blocked: aws/gpu.large/r01//on_demand: price changed currency: 1 USD/hour → 7 CNY/hour\n"
	if diff := cmp.Diff(want, r.Text()); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
}

func TestGuard_ChangeOfBasisIsNoPriceChange(t *testing.T) {
	prev := guardSnapshot(day(0), map[Provider]int{AWS: 1})
	next := guardSnapshot(day(1), map[Provider]int{AWS: 1})
	next.Offers[0].Price.Amount = Dec("3.00") // +200%, but now with a disk
	next.Offers[0].Includes = "40 GiB ESSD system disk"
	if r := Guard(prev, next, GuardOptions{}); r.Blocked() {
		t.Errorf("a change of what the price includes was guarded as a price change: %s", r.Text())
	}
}

func TestGuard_NothingToCompare(t *testing.T) {
	if r := Guard(nil, guardSnapshot(day(0), map[Provider]int{AWS: 1}), GuardOptions{}); r.Blocked() || r.Text() != "" {
		t.Errorf("a first snapshot was reported:\n%s", r.Text())
	}
}

func TestGuardOptions_Validate(t *testing.T) {
	if err := (GuardOptions{MaxDrop: Dec("120")}).Validate(); err == nil {
		t.Error("a drop bound of 120% is valid")
	}
	if err := (GuardOptions{MaxPriceChange: Dec("-1")}).Validate(); err == nil {
		t.Error("a negative price bound is valid")
	}
	if err := (GuardOptions{MaxDrop: Dec("30"), MaxPriceChange: Dec("500")}).Validate(); err != nil {
		t.Error(err)
	}
}
