package compare

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// selectCost is a cost figure with just what the choosing reads.
func selectCost(offer, workload string, billing catalog.BillingKind, cost string, basis Basis, run string) WorkCost {
	return WorkCost{OfferKey: offer, Workload: workload, Billing: billing, CostPerUnit: catalog.Dec(cost), Basis: basis, RunRef: run}
}

func runs(cs []WorkCost) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.RunRef)
	}
	return out
}

func TestBestWorkCostPerOffer_MeasuredThenLowest(t *testing.T) {
	got := BestWorkCostPerOffer([]WorkCost{
		selectCost("b", "w1", catalog.OnDemand, "1", Estimated, "est-cheap"),
		selectCost("b", "w1", catalog.OnDemand, "3", Measured, "measured-dear"),
		selectCost("b", "w1", catalog.OnDemand, "2", Measured, "measured-cheap"),
		selectCost("a", "w1", catalog.OnDemand, "5", Estimated, "a-first"),
		selectCost("a", "w1", catalog.OnDemand, "5", Estimated, "a-equal"),
		selectCost("a", "w0", catalog.OnDemand, "9", Estimated, "w0"),
	})
	// By workload, then offer; a measurement beats a cheaper estimate; the first
	// of equal figures stays.
	if diff := cmp.Diff([]string{"w0", "a-first", "measured-cheap"}, runs(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCheapestPerWorkloadAndBilling_Order(t *testing.T) {
	got := CheapestPerWorkloadAndBilling([]WorkCost{
		selectCost("x/spot", "w1", catalog.Spot, "1", Estimated, "w1-spot"),
		selectCost("x/od", "w1", catalog.OnDemand, "4", Estimated, "w1-od-est"),
		selectCost("y/od", "w1", catalog.OnDemand, "4", Measured, "w1-od-measured"),
		selectCost("z/od", "w1", catalog.OnDemand, "6", Measured, "w1-od-dear"),
		selectCost("x/od", "w0", catalog.OnDemand, "8", Measured, "w0-od"),
	})
	// By workload, then billing kind in catalog order (on-demand before spot);
	// on a tie the measurement wins.
	if diff := cmp.Diff([]string{"w0-od", "w1-od-measured", "w1-spot"}, runs(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
