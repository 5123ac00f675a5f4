package catalog

import (
	"strings"
	"testing"
	"time"
)

// The rows below are real (data/catalog.json, ../shared/realdata) unless a
// comment says otherwise: no source holds a reservation or subscription above
// on demand, so those cases change a real row and say how.

func awsOffer(typ, region, zone string, b BillingKind, amount string) Offer {
	return Offer{Provider: AWS, InstanceType: typ, Region: region, Zone: zone, Billing: b,
		Price: Price{Amount: Dec(amount), Currency: USD, Unit: PerHour}, Availability: Available, Source: "test",
		FetchedAt: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)}
}

func awsType(id string, gpus int, name string) InstanceType {
	return InstanceType{Provider: AWS, ID: id, Accelerators: []Accelerator{{Kind: KindGPU, Name: name, Count: gpus, Share: Dec("1"), MemoryGiB: Dec("80")}}}
}

// spotAgainst is an on-demand offer of typ in region and a spot offer of it
// in zone.
func spotAgainst(typ, region, zone, onDemand, spot string) []Offer {
	return []Offer{awsOffer(typ, region, "", OnDemand, onDemand), awsOffer(typ, region, zone, Spot, spot)}
}

// withOnDemand is o after an on-demand offer of its type and region.
func withOnDemand(onDemand string, o Offer) []Offer {
	return []Offer{awsOffer(o.InstanceType, o.Region, "", OnDemand, onDemand), o}
}

func TestFlagImplausible_Rules(t *testing.T) {
	types := []InstanceType{awsType("p5.48xlarge", 8, "H100"), awsType("p4d.24xlarge", 8, "A100"), awsType("inf2.24xlarge", 6, "Inferentia2"),
		awsType("g5.24xlarge", 4, "A10G"), awsType("p5.4xlarge", 1, "H100")}
	upfront := func(o Offer, u string) Offer { o.Price.Upfront = DecPtr(u); return o }
	month := func(o Offer) Offer { o.Price.Unit = PerMonth; return o }
	tests := []struct {
		name   string
		offers []Offer
		check  int    // index of the offer checked
		reason string // "" when it must pass
	}{
		{"spot at a tenth: p5.48xlarge ap-southeast-3", spotAgainst("p5.48xlarge", "ap-southeast-3", "ap-southeast-3a", "75.9552", "7.59552"), 1, "spot price 7.59552 is at or below 10% of the on-demand price 75.9552 USD/hour"},
		{"spot below a tenth: inf2.24xlarge sa-east-1", spotAgainst("inf2.24xlarge", "sa-east-1", "sa-east-1c", "11.03408", "1.1034"), 1, "at or below 10% of the on-demand price"},
		{"spot equal to on-demand: p4d.24xlarge ap-south-1", spotAgainst("p4d.24xlarge", "ap-south-1", "ap-south-1a", "26.3444", "26.3444"), 1, "spot price 26.3444 is at or above the on-demand price 26.3444 USD/hour"},
		{"spot above on-demand: g5.24xlarge eu-west-2", spotAgainst("g5.24xlarge", "eu-west-2", "eu-west-2a", "10.33786", "10.3379"), 1, "at or above the on-demand price"},
		{"plausible spot: p5.48xlarge us-east-1", spotAgainst("p5.48xlarge", "us-east-1", "us-east-1a", "55.04", "28.106467"), 1, ""},
		{"plausible reservation: p5.48xlarge us-east-1 3y all upfront", withOnDemand("55.04", upfront(awsOffer("p5.48xlarge", "us-east-1", "", Reserved3yAllUpfront, "0"), "543869.99284")), 1, ""},
		// The real 3y all-upfront rate of p5.48xlarge in us-east-1 is 20.695053 an
		// hour; here its upfront is three times too large (62.09 an hour).
		{"reservation above on-demand", withOnDemand("55.04", upfront(awsOffer("p5.48xlarge", "us-east-1", "", Reserved3yAllUpfront, "0"), "1631609.97852")), 1, "effective hourly price 62.085616 (upfront spread over the term) is above the on-demand price 55.04 USD/hour"},
		// The real 1y no-upfront p5.4xlarge ap-south-1 rate with the on-demand
		// price as its monthly amount: 8.256 a month would be plausible, 8.256 ×
		// 731 is not.
		{"subscription month above 730 hours", withOnDemand("8.256", month(awsOffer("p5.4xlarge", "ap-south-1", "", SubscriptionMonth, "6035.136"))), 1, "monthly price 6035.136 USD/month is above 730 hours of the on-demand price 8.256 USD/hour (6026.88 USD)"},
		{"subscription month at 730 hours", withOnDemand("8.256", month(awsOffer("p5.4xlarge", "ap-south-1", "", SubscriptionMonth, "6026.88"))), 1, ""},
		// Alibaba's 2024 price list quotes ecs.gn6v-c8g1.4xlarge in cn-beijing at 0
		// (../shared/realdata/alibaba/instance_prices_2024_two_snapshots.csv).
		{"zero: ecs.gn6v-c8g1.4xlarge", []Offer{
			{Provider: Alibaba, InstanceType: "ecs.gn6v-c8g1.4xlarge", Region: "cn-beijing", Billing: OnDemand,
				Price: Price{Amount: Dec("0"), Currency: CNY, Unit: PerHour}, Source: "test"},
		}, 0, "price is zero"},
		{"all upfront is not zero", []Offer{
			upfront(awsOffer("p5.48xlarge", "us-east-1", "", Reserved1yAllUpfront, "0"), "100"),
		}, 0, ""},
		// A regional offer against per-zone on-demand prices: suspect only
		// against every zone (Alibaba quotes on demand per zone).
		{"regional spot between zone prices", []Offer{
			awsOffer("p5.48xlarge", "r", "r-a", OnDemand, "10"),
			awsOffer("p5.48xlarge", "r", "r-b", OnDemand, "12"),
			awsOffer("p5.48xlarge", "r", "", Spot, "11"),
		}, 2, ""},
		{"regional spot above every zone price", []Offer{
			awsOffer("p5.48xlarge", "r", "r-a", OnDemand, "10"),
			awsOffer("p5.48xlarge", "r", "r-b", OnDemand, "12"),
			awsOffer("p5.48xlarge", "r", "", Spot, "12"),
		}, 2, "at or above the on-demand price 12 USD/hour"},
		{"another currency is not compared", []Offer{
			awsOffer("p5.48xlarge", "cn-north-1", "", OnDemand, "10"),
			{Provider: AWS, InstanceType: "p5.48xlarge", Region: "cn-north-1", Zone: "cn-north-1a", Billing: Spot,
				Price: Price{Amount: Dec("70"), Currency: CNY, Unit: PerHour}},
		}, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			FlagImplausible(types, tt.offers)
			got := tt.offers[tt.check].Suspect
			if tt.reason == "" && got != "" {
				t.Errorf("flagged: %q", got)
			}
			if tt.reason != "" && !strings.Contains(got, tt.reason) {
				t.Errorf("suspect = %q, want %q", got, tt.reason)
			}
			if tt.reason != "" && tt.offers[tt.check].Plausible() {
				t.Error("Plausible() = true for a flagged offer")
			}
		})
	}
}

// TestFlagImplausible_PeerMedian is Alibaba's P4 types in cn-beijing as
// crawled: ecs.gn5i-c12g1.6xlarge (2 GPUs) at 0.084 CNY an hour, on demand and
// spot, against its peers' 27.514 and 31.474 per GPU in three zones each.
func TestFlagImplausible_PeerMedian(t *testing.T) {
	p4 := func(id string, n int) InstanceType {
		return InstanceType{Provider: Alibaba, ID: id, Accelerators: []Accelerator{{Kind: KindGPU, Name: "P4", Count: n, Share: Dec("1"), MemoryGiB: Dec("8")}}}
	}
	offer := func(id, zone string, b BillingKind, amount string) Offer {
		return Offer{Provider: Alibaba, InstanceType: id, Region: "cn-beijing", Zone: zone, Billing: b,
			Price: Price{Amount: Dec(amount), Currency: CNY, Unit: PerHour}, Source: "alibaba:ecs:DescribePrice"}
	}
	types := []InstanceType{p4("ecs.gn5i-c12g1.6xlarge", 2), p4("ecs.gn5i-c40g1.10xlarge", 1), p4("ecs.gn5i-c48g1.12xlarge", 1)}
	offers := []Offer{
		offer("ecs.gn5i-c12g1.6xlarge", "cn-beijing-k", OnDemand, "0.084"),
		offer("ecs.gn5i-c12g1.6xlarge", "cn-beijing-k", Spot, "0.084"),
	}
	for _, z := range []string{"cn-beijing-e", "cn-beijing-g", "cn-beijing-k"} {
		offers = append(offers, offer("ecs.gn5i-c40g1.10xlarge", z, OnDemand, "27.514"), offer("ecs.gn5i-c48g1.12xlarge", z, OnDemand, "31.474"))
	}
	FlagImplausible(types, offers)
	if !strings.Contains(offers[0].Suspect, "price per GPU 0.042 CNY/hour is below 10% of the median 27.514 of 7 on_demand offers for P4 8 GiB") {
		t.Errorf("on-demand suspect = %q", offers[0].Suspect)
	}
	if !strings.Contains(offers[1].Suspect, "spot price 0.084 is at or above the on-demand price 0.084 CNY/hour") {
		t.Errorf("spot suspect = %q", offers[1].Suspect)
	}
	for _, o := range offers[2:] {
		if o.Suspect != "" {
			t.Errorf("%s flagged: %q", o.InstanceType, o.Suspect)
		}
	}
	before := offers[1].Suspect
	FlagImplausible(types, offers)
	if offers[1].Suspect != before {
		t.Errorf("flagging twice changed the reason:\n%s\n%s", before, offers[1].Suspect)
	}
}

// TestFlagImplausibleSnapshot checks providers separately: AWS prices are not
// Alibaba's peers.
func TestFlagImplausibleSnapshot(t *testing.T) {
	s := testSnapshot()
	s.Offers = append(s.Offers, awsOffer("p5.48xlarge", "us-east-1", "us-east-1a", Spot, "5.504"))
	s.Sort()
	got := s.ImplausibleReasons()
	n := 0
	for i, reasons := range got {
		n++
		if s.Offers[i].Billing != Spot || !strings.Contains(strings.Join(reasons, ";"), "at or below 10%") {
			t.Errorf("offer %s: %v", s.Offers[i].Key(), reasons)
		}
	}
	if n != 1 {
		t.Errorf("%d offers flagged, want 1: %v", n, got)
	}
	FlagImplausibleSnapshot(s)
	for _, o := range s.Offers {
		if (o.Suspect != "") != (o.Billing == Spot && o.InstanceType == "p5.48xlarge") {
			t.Errorf("%s suspect %q", o.Key(), o.Suspect)
		}
	}
}
