package compare

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// TestPriceRatios: PerUnitHourly (a price over its units) and SavingPercent
// (a price against the on-demand one), each without an answer when what it
// divides by is zero or less.
func TestPriceRatios(t *testing.T) {
	d := decimal.RequireFromString
	perUnit, saving := "PerUnitHourly", "SavingPercent"
	funcs := map[string]func(a, b decimal.Decimal) (decimal.Decimal, bool){perUnit: PerUnitHourly, saving: SavingPercent}
	for _, c := range []struct {
		f, a, b, want string
		ok            bool
	}{
		{perUnit, "98.32", "8", "12.29", true},   // p4d.24xlarge-like: 8 GPUs
		{perUnit, "1.006", "0.5", "2.012", true}, // fractional GPU
		{perUnit, "10", "3", "3.33333333", true}, // rounded to 8 places
		{perUnit, "10", "0", "", false},          // no GPUs
		{perUnit, "10", "-1", "", false},         // nonsense units
		{saving, "4", "10", "60", true},
		{saving, "12", "10", "-20", true}, // dearer than on-demand
		{saving, "10", "10", "0", true},
		{saving, "1", "0", "", false}, // no reference
	} {
		got, ok := funcs[c.f](d(c.a), d(c.b))
		if ok != c.ok || (ok && !got.Equal(d(c.want))) {
			t.Errorf("%s(%s, %s) = %s, %v; want %s, %v", c.f, c.a, c.b, got, ok, c.want, c.ok)
		}
	}
}

// TestOfferFactTable works one type's offers by hand: 4 GPUs of 80 GiB, an
// on-demand price of 10 USD an hour (a suspect 1 USD and a reported 9 USD
// beside it), a reserved price of 6, spot at 3 with the advisor's 10-15% band,
// and one in CNY in a region without on-demand.
//
//	per GPU-hour  10 / 4 = 2.5; per GiB-hour 10 / 320 = 0.03125
//	saving        reserved 1 - 6/10 = 40%; spot 70% (the suspect 1 USD and the
//	              reported 9 USD are not the reference: it must lead)
//	risk          rate 0.15 a month, loss (60/2 + 10)/60 = 0.666667 h:
//	              3 × (1 + 0.15 × 0.666667 / 730) = 3.00041096 (8 places)
func TestOfferFactTable(t *testing.T) {
	d := catalog.Dec
	typ := catalog.InstanceType{Provider: catalog.AWS, ID: "g.4x", Accelerators: []catalog.Accelerator{
		{Kind: catalog.KindGPU, Model: "m", Count: 4, Share: d("1"), MemoryGiB: d("80")}}}
	offer := func(region string, b catalog.BillingKind, price string, cur catalog.Currency) catalog.Offer {
		return catalog.Offer{Provider: catalog.AWS, InstanceType: "g.4x", Region: region, Billing: b,
			Price: catalog.Price{Amount: d(price), Currency: cur, Unit: catalog.PerHour}}
	}
	suspect := offer("r1", catalog.OnDemand, "1", catalog.USD)
	suspect.Zone, suspect.Suspect = "r1a", "too cheap"
	reported := offer("r1", catalog.OnDemand, "9", catalog.USD)
	reported.Zone, reported.Reported = "r1b", true
	spot := offer("r1", catalog.Spot, "3", catalog.USD)
	spot.Interruption = &catalog.Interruption{Band: catalog.Band10To15, SavingsPct: 70, ObservedAt: time.Date(2025, 6, 28, 0, 0, 0, 0, time.UTC), Source: "advisor"}
	snap := &catalog.Snapshot{FX: catalog.FXTable{Base: catalog.USD, Rates: map[catalog.Currency]decimal.Decimal{catalog.CNY: d("7.1")}},
		Instances: []catalog.InstanceType{typ},
		Offers: []catalog.Offer{suspect, reported, offer("r1", catalog.OnDemand, "10", catalog.USD),
			offer("r1", catalog.Reserved1yNoUpfront, "6", catalog.USD), spot, offer("r2", catalog.Spot, "7.1", catalog.CNY)}}
	tb := NewOfferFactTable(snap, []WorkCost{{OfferKey: spot.Key(), Workload: "w", CostPerUnit: d("0.5")}})
	str := func(p *decimal.Decimal) string {
		if p == nil {
			return "-"
		}
		return p.String()
	}
	var got []string
	for _, f := range tb.Facts {
		got = append(got, strings.Join([]string{f.Key, str(f.GPUHour), str(f.GiBHour), str(f.SavingPct), f.OnDemandKey,
			f.SpotStatus, string(f.SpotBand), str(f.RiskHour), str(f.USDGPUHour), fmt.Sprint(len(f.Work))}, " "))
	}
	want := []string{
		"aws/g.4x/r1/r1a/on_demand 0.25 0.003125 -    - 0.25 0",
		"aws/g.4x/r1/r1b/on_demand 2.25 0.028125 -    - 2.25 0",
		"aws/g.4x/r1//on_demand 2.5 0.03125 -    - 2.5 0",
		"aws/g.4x/r1//reserved_1y_no_upfront 1.5 0.01875 40 aws/g.4x/r1//on_demand   - 1.5 0",
		"aws/g.4x/r1//spot 0.75 0.009375 70 aws/g.4x/r1//on_demand band 10-15% 3.00041096 0.75 1",
		"aws/g.4x/r2//spot 1.775 0.0221875 -  no_data  - 0.25 0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("facts (-want +got):\n%s", diff)
	}
	if f, ok := tb.Of(spot.Key()); !ok || str(f.SpotRisk.USDPerHour) != "3.00041096" {
		t.Errorf("Of(%s) = %+v, %v; want the spot offer's facts", spot.Key(), f, ok)
	}
	// In: the amount in its own currency, the USD figure in USD, else converted.
	cny, _ := tb.Of("aws/g.4x/r2//spot")
	if a, u, o := cny.In(snap.FX, cny.GPUHour, cny.USDGPUHour, "CNY"), cny.In(snap.FX, cny.GPUHour, cny.USDGPUHour, "USD"),
		cny.In(snap.FX, cny.GPUHour, cny.USDGPUHour, "EUR"); str(a) != "1.775" || str(u) != "0.25" || o != nil {
		t.Errorf("In: CNY %s, USD %s, EUR %s; want 1.775, 0.25, -", str(a), str(u), str(o))
	}
}
