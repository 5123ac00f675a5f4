package compare

import (
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The rows here are the embedded catalog's: p5.48xlarge spot in ap-southeast-3
// (7.59552 USD an hour against 75.9552 on demand, flagged by the plausibility
// rules) and in us-east-1 (28.106467, plausible). A suspect offer must never
// rank, lead a TCO preset or be a cheapest cost.

// suspectFleet is scFleet with both p5.48xlarge spot offers, flagged as the
// crawl flags them.
func suspectFleet() *catalog.Snapshot {
	s := scFleet()
	h := catalog.PerHour
	od := scOffer(catalog.AWS, "p5.48xlarge", "ap-southeast-3", catalog.OnDemand, "75.9552", catalog.USD, h)
	jakarta := scOffer(catalog.AWS, "p5.48xlarge", "ap-southeast-3", catalog.Spot, "7.59552", catalog.USD, h)
	jakarta.Zone = "ap-southeast-3a"
	virginia := scOffer(catalog.AWS, "p5.48xlarge", "us-east-1", catalog.Spot, "28.106467", catalog.USD, h)
	virginia.Zone = "us-east-1a"
	s.Offers = append(s.Offers, od, jakarta, virginia)
	s.Sort()
	catalog.FlagImplausibleSnapshot(s)
	return s
}

func TestBuildMatrix_SuspectNeverRanks(t *testing.T) {
	snap := suspectFleet()
	for _, o := range snap.Offers {
		if o.Zone == "ap-southeast-3a" && o.Plausible() {
			t.Fatal("the ap-southeast-3 spot offer is not flagged: the fixture does not test what it says")
		}
	}
	r := RankScenario(scScenario(t, "llm-training"), snap, scGPUs(t), MatrixOptions{Billing: catalog.Spot})
	f, ok := fitsByKey(r)["aws/p5.48xlarge"]
	if !ok {
		t.Fatal("p5.48xlarge is not ranked on spot")
	}
	if f.Offer.Region != "us-east-1" || f.USDPerHour == nil || !f.USDPerHour.Equal(catalog.Dec("28.106467")) {
		t.Errorf("p5.48xlarge spot is represented by %s at %v, want the plausible us-east-1 offer at 28.106467", f.OfferKey, f.USDPerHour)
	}
	// With the plausible offer gone the type is not ranked at all.
	only := suspectFleet()
	var kept []catalog.Offer
	for _, o := range only.Offers {
		if o.Billing != catalog.Spot || o.Region != "us-east-1" || o.InstanceType != "p5.48xlarge" {
			kept = append(kept, o)
		}
	}
	only.Offers = kept
	r = RankScenario(scScenario(t, "llm-training"), only, scGPUs(t), MatrixOptions{Billing: catalog.Spot})
	if f, ok := fitsByKey(r)["aws/p5.48xlarge"]; ok {
		t.Errorf("p5.48xlarge ranked on its suspect spot offer %s", f.OfferKey)
	}
}

func TestNewTCOInput_NeverPicksSuspect(t *testing.T) {
	snap := suspectFleet()
	_, err := NewTCOInput(snap, scGPUs(t), TCORequest{Instances: []string{"aws/p5.48xlarge"}, Region: "ap-southeast-3",
		Billing: []string{"spot"}, Workload: TCOWorkload{JobSize: catalog.Dec("1"), JobsPerMonth: catalog.Dec("1"), Utilisation: catalog.Dec("1"), HorizonMonths: 1}})
	if err == nil || !strings.Contains(err.Error(), "has no spot offer in region ap-southeast-3 that passes the plausibility check (suspect: spot price 7.59552 is at or below 10% of the on-demand price") {
		t.Errorf("err = %v, want no plausible spot offer, naming the suspect one", err)
	}
	// Billing kinds by default: the suspect spot offer is no option.
	in, err := NewTCOInput(snap, scGPUs(t), TCORequest{Instances: []string{"aws/p5.48xlarge"}, Region: "ap-southeast-3",
		Workload: TCOWorkload{JobSize: catalog.Dec("1"), JobsPerMonth: catalog.Dec("1"), Utilisation: catalog.Dec("1"), HorizonMonths: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range in.Options {
		if o.PayAsYouGo != nil && o.PayAsYouGo.Billing == catalog.Spot {
			t.Errorf("option %s uses the suspect spot offer", o.ID)
		}
	}
}

func TestTCOPresets_NeverUseSuspect(t *testing.T) {
	snap, gpus := suspectFleet(), scGPUs(t)
	m := BuildMatrix(scScenarios(t).Scenarios, snap, gpus, MatrixOptions{Billing: catalog.Spot})
	for _, r := range m.Scenarios {
		for _, f := range r.Ranked {
			if !f.Offer.Plausible() {
				t.Errorf("%s: ranked suspect offer %s", r.Scenario.ID, f.OfferKey)
			}
		}
	}
	set, err := TCOPresets(BuildMatrix(scScenarios(t).Scenarios, snap, gpus, MatrixOptions{}), snap, gpus)
	if err != nil {
		t.Fatal(err)
	}
	suspect := map[string]bool{}
	for _, o := range snap.Offers {
		if !o.Plausible() {
			suspect[o.Key()] = true
		}
	}
	n := 0
	for _, sc := range set.Scenarios {
		for _, o := range sc.Offers {
			for _, g := range o.Options {
				n++
				for _, key := range optionOffers(g.Option) {
					if suspect[key] {
						t.Errorf("%s: preset option %s uses the suspect offer %s", sc.ID, g.Option.ID, key)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no preset options: the test checks nothing")
	}
}

func optionOffers(o TCOOption) []string {
	var out []string
	if o.PayAsYouGo != nil {
		out = append(out, o.PayAsYouGo.Offer)
	}
	if o.Commitment != nil {
		out = append(out, o.Commitment.Offer)
	}
	return out
}

func TestCheapestWorkCosts_NeverSuspect(t *testing.T) {
	costs := []WorkCost{
		{OfferKey: "aws/p5.48xlarge/ap-southeast-3/ap-southeast-3a/spot", Provider: catalog.AWS, InstanceType: "p5.48xlarge", Workload: "w",
			CostPerUnit: catalog.Dec("0.5"), Suspect: "spot price 7.59552 is at or below 10% of the on-demand price 75.9552 USD/hour"},
		{OfferKey: "aws/p5.48xlarge/us-east-1/us-east-1a/spot", Provider: catalog.AWS, InstanceType: "p5.48xlarge", Workload: "w", CostPerUnit: catalog.Dec("1.85")},
		{OfferKey: "alibaba/ecs.gn5i-c12g1.6xlarge/cn-beijing/cn-beijing-k/on_demand", Provider: catalog.Alibaba, InstanceType: "ecs.gn5i-c12g1.6xlarge", Workload: "w",
			CostPerUnit: catalog.Dec("0.01"), Suspect: "price per GPU 0.042 CNY/hour is below 10% of the median"},
	}
	got := CheapestPerInstanceType(costs)
	if len(got) != 1 || got[0].OfferKey != "aws/p5.48xlarge/us-east-1/us-east-1a/spot" {
		t.Errorf("cheapest per type = %+v, want only the plausible us-east-1 cost", got)
	}
}
