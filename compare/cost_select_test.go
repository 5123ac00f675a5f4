package compare

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func TestCostChoice(t *testing.T) {
	// Each cost is named by its run; offers are provider/type/billing.
	type c struct {
		run, workload, provider, typ string
		billing                      catalog.BillingKind
		cost                         string
		basis                        Basis
	}
	od, spot := catalog.OnDemand, catalog.Spot
	for _, tc := range []struct {
		name   string
		choose func([]WorkCost) []WorkCost
		in     []c
		want   []string
	}{
		{
			// By workload, then offer; a measurement beats a cheaper estimate; the
			// first of equal figures stays.
			name: "best per offer", choose: BestWorkCostPerOffer,
			in: []c{
				{"est-cheap", "w1", "aws", "b", od, "1", Estimated}, {"measured-dear", "w1", "aws", "b", od, "3", Measured},
				{"measured-cheap", "w1", "aws", "b", od, "2", Measured}, {"a-first", "w1", "aws", "a", od, "5", Estimated},
				{"a-equal", "w1", "aws", "a", od, "5", Estimated}, {"w0", "w0", "aws", "a", od, "9", Estimated},
			},
			want: []string{"w0", "a-first", "measured-cheap"},
		},
		{
			// By workload, then billing kind in catalog order (on-demand before
			// spot); on a tie the measurement wins.
			name: "cheapest per workload and billing", choose: CheapestPerWorkloadAndBilling,
			in: []c{
				{"w1-spot", "w1", "aws", "x", spot, "1", Estimated}, {"w1-od-est", "w1", "aws", "x", od, "4", Estimated},
				{"w1-od-measured", "w1", "aws", "y", od, "4", Measured}, {"w1-od-dear", "w1", "aws", "z", od, "6", Measured},
				{"w0-od", "w0", "aws", "x", od, "8", Measured},
			},
			want: []string{"w0-od", "w1-od-measured", "w1-spot"},
		},
		{
			// Cheapest first, then provider and type.
			name: "cheapest per instance type", choose: CheapestPerInstanceType,
			in: []c{
				{"x-dear", "w", "aws", "x", od, "3", Measured}, {"x-cheap", "w", "aws", "x", spot, "1", Estimated},
				{"y", "w", "aws", "y", od, "2", Measured}, {"ali", "w", "alibaba", "z", od, "2", Measured},
			},
			want: []string{"x-cheap", "ali", "y"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in []WorkCost
			for _, x := range tc.in {
				in = append(in, WorkCost{OfferKey: x.provider + "/" + x.typ + "/" + string(x.billing), Provider: catalog.Provider(x.provider),
					InstanceType: x.typ, Workload: x.workload, Billing: x.billing, CostPerUnit: catalog.Dec(x.cost), Basis: x.basis, RunRef: x.run})
			}
			var got []string
			for _, w := range tc.choose(in) {
				got = append(got, w.RunRef)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
