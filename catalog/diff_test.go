package catalog

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/gpuatlas/gpuatlas/internal/golden"
)

func usdHour(amount string) Price { return Price{Amount: Dec(amount), Currency: USD, Unit: PerHour} }

// diffBase is a small catalog of two providers.
func diffBase() *Snapshot {
	at := day(0)
	return &Snapshot{
		Schema: SchemaVersion, TakenAt: at,
		Coverage: []Coverage{{Provider: AWS, Status: CoverageOK, Regions: 2, LastOK: at}, {Provider: Alibaba, Status: CoverageOK, Regions: 1, LastOK: at}},
		Regions: []Region{
			{Provider: AWS, ID: "us-east-1", NameEN: "US East (N. Virginia)"},
			{Provider: AWS, ID: "eu-west-1", NameEN: "Europe (Ireland)"},
			{Provider: Alibaba, ID: "cn-shanghai", NameEN: "China (Shanghai)", NameZH: "华东2（上海）"},
		},
		Instances: []InstanceType{
			{Provider: AWS, ID: "p5.48xlarge", Family: "p5", VCPUs: 192, MemoryGiB: Dec("2048"), Generation: "current", Source: "test",
				Accelerators: []Accelerator{{Kind: KindGPU, Model: "nvidia-h100-sxm-80gb", Name: "H100", Count: 8, Share: Dec("1"), MemoryGiB: Dec("80")}}},
			{Provider: AWS, ID: "g6.xlarge", Family: "g6", VCPUs: 4, MemoryGiB: Dec("16"), Generation: "current", Source: "test",
				Accelerators: []Accelerator{{Kind: KindGPU, Model: "nvidia-l4-24gb", Name: "L4", Count: 1, Share: Dec("1"), MemoryGiB: Dec("22.375")}}},
			{Provider: Alibaba, ID: "ecs.gn7i-c8g1.2xlarge", Family: "ecs.gn7i", VCPUs: 8, MemoryGiB: Dec("30"), Generation: "current", Source: "test",
				Accelerators: []Accelerator{{Kind: KindGPU, Model: "nvidia-a10-24gb", Name: "NVIDIA A10", Count: 1, Share: Dec("1"), MemoryGiB: Dec("24")}}},
		},
		Offers: []Offer{
			{Provider: AWS, InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: OnDemand, Price: usdHour("55.04"), Availability: Available, Source: "test", FetchedAt: at},
			{Provider: AWS, InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: Reserved1yAllUpfront,
				Price: Price{Amount: Dec("0"), Currency: USD, Unit: PerHour, Upfront: DecPtr("59724.99672")}, Availability: Available, Source: "test", FetchedAt: at},
			{Provider: AWS, InstanceType: "g6.xlarge", Region: "us-east-1", Billing: OnDemand, Price: usdHour("0.8048"), Availability: Available, Source: "test", FetchedAt: at},
			{Provider: AWS, InstanceType: "g6.xlarge", Region: "eu-west-1", Billing: OnDemand, Price: usdHour("0.8850"), Availability: Available, Source: "test", FetchedAt: at},
			{Provider: AWS, InstanceType: "g6.xlarge", Region: "us-east-1", Zone: "us-east-1a", Billing: Spot, Price: usdHour("0.3012"), Availability: Available, Source: "test", FetchedAt: at},
			{Provider: Alibaba, InstanceType: "ecs.gn7i-c8g1.2xlarge", Region: "cn-shanghai", Billing: OnDemand,
				Price: Price{Amount: Dec("10.58"), Currency: CNY, Unit: PerHour}, Availability: Available, Source: "test", FetchedAt: at},
			{Provider: Alibaba, InstanceType: "ecs.gn7i-c8g1.2xlarge", Region: "cn-shanghai", Billing: SubscriptionMonth,
				Price: Price{Amount: Dec("4800"), Currency: CNY, Unit: PerMonth, List: DecPtr("5000")}, Availability: Available, Source: "test", FetchedAt: at},
		},
	}
}

// diffKnown is diffBase crawled again a day later with known changes: a new
// instance type with an offer, a removed offer, a price up 10%, an offer sold out.
func diffKnown() (old, new *Snapshot) {
	old, new = diffBase(), diffBase()
	new.TakenAt = day(1)
	for i := range new.Offers {
		new.Offers[i].FetchedAt = day(1)
	}
	new.Instances = append(new.Instances, InstanceType{Provider: AWS, ID: "p5e.48xlarge", Family: "p5e", VCPUs: 192, MemoryGiB: Dec("2048"),
		Generation: "current", Source: "test",
		Accelerators: []Accelerator{{Kind: KindGPU, Model: "nvidia-h200-sxm-141gb", Name: "H200", Count: 8, Share: Dec("1"), MemoryGiB: Dec("141")}}})
	new.Offers = append(new.Offers, Offer{Provider: AWS, InstanceType: "p5e.48xlarge", Region: "us-east-1", Billing: OnDemand,
		Price: usdHour("63.296"), Availability: Available, Source: "test", FetchedAt: day(1)})
	new.Offers = append(new.Offers[:3], new.Offers[4:]...)       // g6.xlarge eu-west-1 on-demand removed
	new.Offers[0].Price.Amount = Dec("60.544")                   // p5 on-demand +10%
	new.Offers[3].Availability = SoldOut                         // g6.xlarge spot sold out
	new.Offers[5].Price.List = DecPtr("5200")                    // a list price change only: not a change
	new.Coverage[0].Requests, new.Coverage[0].LastOK = 9, day(1) // coverage is not a change
	return old, new
}

func TestDiff_KnownChanges(t *testing.T) {
	old, new := diffKnown()
	got := Diff(old, new)
	ten := Dec("10.00")
	want := DiffReport{
		OldTakenAt: day(0), NewTakenAt: day(1),
		Providers: []ProviderDiff{{
			Provider:            AWS,
			Counts:              DiffCounts{InstanceTypesAdded: 1, OffersAdded: 1, OffersRemoved: 1, PriceChanges: 1, PriceIncreases: 1, AvailabilityChanges: 1},
			InstanceTypesAdded:  []InstanceType{new.Instances[3]},
			OffersAdded:         []Offer{new.Offers[6]},
			OffersRemoved:       []Offer{old.Offers[3]},
			PriceChanges:        []PriceChange{{Offer: new.Offers[0], Old: usdHour("55.04"), New: usdHour("60.544"), Percent: &ten}},
			AvailabilityChanges: []AvailabilityChange{{Offer: new.Offers[3], Old: Available, New: SoldOut}},
		}},
		Total: DiffCounts{InstanceTypesAdded: 1, OffersAdded: 1, OffersRemoved: 1, PriceChanges: 1, PriceIncreases: 1, AvailabilityChanges: 1},
	}
	if diff := cmp.Diff(want, got, decimalEqual, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Diff (-want +got):\n%s", diff)
	}
	if got.Total.Changes() != 5 || got.Empty() {
		t.Errorf("Changes() = %d, Empty() = %v; want 5, false", got.Total.Changes(), got.Empty())
	}
}

func TestDiff_Categories(t *testing.T) {
	pct := DecPtr
	tests := []struct {
		name   string
		change func(s *Snapshot)
		want   ProviderDiff
	}{
		{"instance type added", func(s *Snapshot) {
			s.Instances = append(s.Instances, InstanceType{Provider: Alibaba, ID: "ecs.gn8is.2xlarge", VCPUs: 8, Generation: "current", Source: "test"})
		}, ProviderDiff{Provider: Alibaba, Counts: DiffCounts{InstanceTypesAdded: 1},
			InstanceTypesAdded: []InstanceType{{Provider: Alibaba, ID: "ecs.gn8is.2xlarge", VCPUs: 8, Generation: "current", Source: "test"}}}},
		{"instance type removed", func(s *Snapshot) {
			s.Instances = s.Instances[:2]
			s.Offers = s.Offers[:5]
		}, ProviderDiff{Provider: Alibaba, Counts: DiffCounts{InstanceTypesRemoved: 1, OffersRemoved: 2},
			InstanceTypesRemoved: []InstanceType{diffBase().Instances[2]}, OffersRemoved: diffBase().Offers[5:]}},
		{"region added", func(s *Snapshot) {
			s.Regions = append(s.Regions, Region{Provider: AWS, ID: "ap-northeast-1", NameEN: "Asia Pacific (Tokyo)"})
		}, ProviderDiff{Provider: AWS, Counts: DiffCounts{RegionsAdded: 1},
			RegionsAdded: []Region{{Provider: AWS, ID: "ap-northeast-1", NameEN: "Asia Pacific (Tokyo)"}}}},
		{"region removed", func(s *Snapshot) { s.Regions = append(s.Regions[:1], s.Regions[2]) }, ProviderDiff{Provider: AWS, Counts: DiffCounts{RegionsRemoved: 1},
			RegionsRemoved: []Region{diffBase().Regions[1]}}},
		{"offer added", func(s *Snapshot) {
			s.Offers = append(s.Offers, Offer{Provider: AWS, InstanceType: "g6.xlarge", Region: "eu-west-1", Billing: Spot, Price: usdHour("0.2"), Availability: Available, Source: "test"})
		}, ProviderDiff{Provider: AWS, Counts: DiffCounts{OffersAdded: 1},
			OffersAdded: []Offer{{Provider: AWS, InstanceType: "g6.xlarge", Region: "eu-west-1", Billing: Spot, Price: usdHour("0.2"), Availability: Available, Source: "test"}}}},
		{"offer removed", func(s *Snapshot) { s.Offers = s.Offers[1:] }, ProviderDiff{Provider: AWS, Counts: DiffCounts{OffersRemoved: 1},
			OffersRemoved: diffBase().Offers[:1]}},
		{"price decrease", func(s *Snapshot) { s.Offers[2].Price.Amount = Dec("0.7") }, ProviderDiff{Provider: AWS,
			Counts:       DiffCounts{PriceChanges: 1, PriceDecreases: 1},
			PriceChanges: []PriceChange{{Offer: offerWith(2, func(o *Offer) { o.Price.Amount = Dec("0.7") }), Old: usdHour("0.8048"), New: usdHour("0.7"), Percent: pct("-13.02")}}}},
		{"upfront change", func(s *Snapshot) { s.Offers[1].Price.Upfront = DecPtr("53752.497048") }, ProviderDiff{Provider: AWS,
			Counts: DiffCounts{PriceChanges: 1, PriceDecreases: 1},
			PriceChanges: []PriceChange{{Offer: offerWith(1, func(o *Offer) { o.Price.Upfront = DecPtr("53752.497048") }),
				Old: diffBase().Offers[1].Price, New: Price{Amount: Dec("0"), Currency: USD, Unit: PerHour, Upfront: DecPtr("53752.497048")}, Percent: pct("-10.00")}}}},
		{"currency change", func(s *Snapshot) { s.Offers[6].Price = Price{Amount: Dec("700"), Currency: USD, Unit: PerMonth} }, ProviderDiff{Provider: Alibaba,
			Counts: DiffCounts{PriceChanges: 1},
			PriceChanges: []PriceChange{{Offer: offerWith(6, func(o *Offer) { o.Price = Price{Amount: Dec("700"), Currency: USD, Unit: PerMonth} }),
				Old: diffBase().Offers[6].Price, New: Price{Amount: Dec("700"), Currency: USD, Unit: PerMonth}}}}},
		{"same price quoted by the month", func(s *Snapshot) { s.Offers[2].Price = Price{Amount: Dec("587.504"), Currency: USD, Unit: PerMonth} }, ProviderDiff{Provider: AWS,
			Counts: DiffCounts{PriceChanges: 1},
			PriceChanges: []PriceChange{{Offer: offerWith(2, func(o *Offer) { o.Price = Price{Amount: Dec("587.504"), Currency: USD, Unit: PerMonth} }),
				Old: usdHour("0.8048"), New: Price{Amount: Dec("587.504"), Currency: USD, Unit: PerMonth}, Percent: pct("0")}}}},
		{"availability change", func(s *Snapshot) { s.Offers[5].Availability = SoldOut }, ProviderDiff{Provider: Alibaba,
			Counts:              DiffCounts{AvailabilityChanges: 1},
			AvailabilityChanges: []AvailabilityChange{{Offer: offerWith(5, func(o *Offer) { o.Availability = SoldOut }), Old: Available, New: SoldOut}}}},
		{"price and availability change", func(s *Snapshot) {
			s.Offers[4].Price.Amount = Dec("0.6024")
			s.Offers[4].Availability = Unknown
		}, ProviderDiff{Provider: AWS, Counts: DiffCounts{PriceChanges: 1, PriceIncreases: 1, AvailabilityChanges: 1},
			PriceChanges: []PriceChange{{Offer: offerWith(4, func(o *Offer) { o.Price.Amount, o.Availability = Dec("0.6024"), Unknown }),
				Old: usdHour("0.3012"), New: usdHour("0.6024"), Percent: pct("100.00")}},
			AvailabilityChanges: []AvailabilityChange{{Offer: offerWith(4, func(o *Offer) { o.Price.Amount, o.Availability = Dec("0.6024"), Unknown }), Old: Available, New: Unknown}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			new := diffBase()
			tt.change(new)
			got := Diff(diffBase(), new)
			want := DiffReport{OldTakenAt: day(0), NewTakenAt: day(0), Providers: []ProviderDiff{tt.want}, Total: tt.want.Counts}
			if diff := cmp.Diff(want, got, decimalEqual, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Diff (-want +got):\n%s", diff)
			}
		})
	}
}

// offerWith is diffBase's offer i after change.
func offerWith(i int, change func(o *Offer)) Offer {
	o := diffBase().Offers[i]
	change(&o)
	return o
}

func TestDiff_NoChanges(t *testing.T) {
	old, new := diffBase(), diffBase()
	new.TakenAt = day(1)
	for i := range new.Offers {
		new.Offers[i].FetchedAt = day(1)
	}
	new.Offers[0].Price.Amount = Dec("55.0400") // the same amount, written differently
	if r := Diff(old, new); !r.Empty() || r.Total.Changes() != 0 {
		t.Errorf("Diff of the same catalog: %+v", r)
	}
	if r := Diff(nil, nil); !r.Empty() {
		t.Errorf("Diff(nil, nil) = %+v", r)
	}
}

func TestPriceChangePercent(t *testing.T) {
	tests := []struct {
		name     string
		old, new Price
		billing  BillingKind
		want     string // "" when not comparable
	}{
		{"up 10%", usdHour("1.00"), usdHour("1.10"), OnDemand, "10.00"},
		{"down a third", usdHour("3"), usdHour("1"), OnDemand, "-66.67"},
		{"half a hundredth rounds away from zero", usdHour("200"), usdHour("200.01"), OnDemand, "0.01"},
		{"below half a hundredth", usdHour("200000"), usdHour("200009.99"), OnDemand, "0.00"},
		{"tripled", usdHour("1"), usdHour("3"), OnDemand, "200.00"},
		{"monthly vs hourly, the same", Price{Amount: Dec("730"), Currency: USD, Unit: PerMonth}, usdHour("1"), SubscriptionMonth, "0.00"},
		{"monthly, exact where hourly would not be", Price{Amount: Dec("1000"), Currency: CNY, Unit: PerMonth}, Price{Amount: Dec("1001"), Currency: CNY, Unit: PerMonth}, SubscriptionMonth, "0.10"},
		{"yearly", Price{Amount: Dec("8760"), Currency: USD, Unit: PerYear}, usdHour("1.5"), SubscriptionYear, "50.00"},
		{"all upfront", Price{Amount: Dec("0"), Currency: USD, Unit: PerHour, Upfront: DecPtr("100")}, Price{Amount: Dec("0"), Currency: USD, Unit: PerHour, Upfront: DecPtr("110")}, Reserved1yAllUpfront, "10.00"},
		{"upfront and recurring", Price{Amount: Dec("1"), Currency: USD, Unit: PerHour, Upfront: DecPtr("8760")}, usdHour("2"), Reserved1yNoUpfront, "0.00"},
		{"another currency", usdHour("1"), Price{Amount: Dec("7"), Currency: CNY, Unit: PerHour}, OnDemand, ""},
		{"from zero", usdHour("0"), usdHour("1"), OnDemand, ""},
		{"unknown unit", usdHour("1"), Price{Amount: Dec("1"), Currency: USD, Unit: "week"}, OnDemand, ""},
		{"upfront without a term", Price{Amount: Dec("1"), Currency: USD, Unit: PerHour, Upfront: DecPtr("5")}, usdHour("1"), OnDemand, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := PriceChangePercent(tt.old, tt.new, tt.billing)
			switch {
			case tt.want == "" && ok:
				t.Errorf("got %s, want not comparable", got)
			case tt.want != "" && !ok:
				t.Errorf("not comparable, want %s", tt.want)
			case ok && got.StringFixed(2) != tt.want:
				t.Errorf("got %s, want %s", got.StringFixed(2), tt.want)
			}
		})
	}
}

// diffCapped has more changes of one kind than the Markdown shows.
func diffCapped() (old, new *Snapshot) {
	old, new = diffBase(), diffBase()
	new.TakenAt = day(1)
	for i := 0; i < 7; i++ {
		new.Offers = append(new.Offers, Offer{Provider: AWS, InstanceType: "g6.xlarge", Region: "us-east-1", Zone: fmt.Sprintf("us-east-1%c", 'b'+i),
			Billing: Spot, Price: usdHour(fmt.Sprintf("0.3%d", i)), Availability: Available, Source: "test", FetchedAt: day(1)})
	}
	return old, new
}

func TestDiff_Golden(t *testing.T) {
	same := func() (*Snapshot, *Snapshot) {
		n := diffBase()
		n.TakenAt = day(1)
		return diffBase(), n
	}
	tests := []struct {
		name    string
		pair    func() (*Snapshot, *Snapshot)
		maxRows int
	}{
		{"known", diffKnown, 0},
		{"none", same, 0},
		{"capped", diffCapped, 3},
		{"first", func() (*Snapshot, *Snapshot) { return nil, diffBase() }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Diff(tt.pair())
			js, err := r.JSON()
			if err != nil {
				t.Fatal(err)
			}
			var check map[string]any
			if err := json.Unmarshal(js, &check); err != nil {
				t.Fatalf("the JSON diff is not JSON: %v", err)
			}
			if check["schema_version"] != float64(DiffSchemaVersion) {
				t.Errorf("schema_version = %v", check["schema_version"])
			}
			golden.Check(t, filepath.Join("testdata", "diff", tt.name+".txt"), []byte(r.Text()))
			golden.Check(t, filepath.Join("testdata", "diff", tt.name+".md"), []byte(r.Markdown(tt.maxRows)))
			golden.Check(t, filepath.Join("testdata", "diff", tt.name+".json"), js)
		})
	}
}

// TestDiff_OffersInOrderAgree: offers in canonical order are compared side by
// side, others through a map of keys; both must report the same.
func TestDiff_OffersInOrderAgree(t *testing.T) {
	for name, pair := range map[string]func() (*Snapshot, *Snapshot){"known": diffKnown, "capped": diffCapped} {
		old, new := pair()
		want := Diff(old, new)
		old.Sort()
		new.Sort()
		if !offersKeyedInOrder(old.Offers) || !offersKeyedInOrder(new.Offers) {
			t.Fatalf("%s: sorted offers not in order", name)
		}
		got := Diff(old, new)
		wantJSON, _ := want.JSON()
		gotJSON, _ := got.JSON()
		if diff := cmp.Diff(string(wantJSON), string(gotJSON)); diff != "" {
			t.Errorf("%s: in order (-by map +side by side):\n%s", name, diff)
		}
		if got.Text() != want.Text() || got.Markdown(0) != want.Markdown(0) {
			t.Errorf("%s: the text or markdown differs", name)
		}
	}
	// Offers with billing kinds Diff does not know compare through the map.
	old, new := diffBase(), diffBase()
	old.Sort()
	new.Sort()
	new.Offers[0].Billing = "weekly"
	if offersKeyedInOrder(new.Offers) {
		t.Error("an unknown billing kind passed as keyed in order")
	}
	if got := Diff(old, new).Total; got.OffersAdded != 1 || got.OffersRemoved != 1 {
		t.Errorf("an offer of another billing kind: %+v", got)
	}
}

func BenchmarkDiff(b *testing.B) {
	old := &Snapshot{Schema: SchemaVersion, TakenAt: day(0)}
	for i := 0; i < 500; i++ {
		old.Instances = append(old.Instances, InstanceType{Provider: AWS, ID: fmt.Sprintf("t%03d", i)})
		for r := 0; r < 40; r++ {
			old.Offers = append(old.Offers, Offer{Provider: AWS, InstanceType: fmt.Sprintf("t%03d", i), Region: fmt.Sprintf("r%02d", r),
				Billing: OnDemand, Price: usdHour("1.00"), Availability: Available, FetchedAt: day(0)})
		}
	}
	new := *old
	new.TakenAt = day(1)
	new.Offers = append([]Offer(nil), old.Offers...)
	for i := 0; i < len(new.Offers); i += 100 {
		new.Offers[i].Price.Amount = Dec("1.05")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = Diff(old, &new)
	}
}

func TestRowsLost(t *testing.T) {
	od := Offer{Provider: AWS, InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: OnDemand}
	spot := od
	spot.Billing, spot.Zone = Spot, "us-east-1a"
	base := &Snapshot{
		Instances:  []InstanceType{{Provider: AWS, ID: "p5.48xlarge"}},
		Offers:     []Offer{od, spot},
		Placements: []Placement{{Provider: AWS, InstanceType: "p5.48xlarge", Region: "us-east-1", Zone: "us-east-1a"}},
	}
	if n := RowsLost(base, base); n != 0 {
		t.Errorf("RowsLost of a snapshot against itself = %d", n)
	}
	// got keeps the type and the on-demand offer, loses the spot offer and the
	// placement, and adds an offer of its own (not a loss).
	extra := od
	extra.Region = "us-west-2"
	got := &Snapshot{Instances: base.Instances, Offers: []Offer{od, extra}}
	if n := RowsLost(base, got); n != 2 {
		t.Errorf("RowsLost = %d, want 2 (the spot offer and the placement)", n)
	}
}
