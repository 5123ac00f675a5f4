package compare

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The report ranks the interruptible scenarios, and only those, on spot: an
// offer with a band at its risk-adjusted price, one without at its list price
// with the status saying why.
//
// tcoFleet's spot rows are AWS's: p4d.24xlarge in us-east-1 at 9.8318 USD with
// the advisor's band 10-15% (copy of 2025-06-28), and p3.8xlarge at 3.672 USD,
// which the advisor has no row for; an Alibaba spot row is added (Alibaba
// publishes no interruption rate). By hand, with the default 60-minute
// checkpoint and 10-minute restart: loss = (60 / 2 + 10) / 60 = 0.666667 h;
// p4d: 9.8318 × 0.15 × 0.666667 / 730 = 0.00134682… → 9.8318 + 0.00134682 =
// 9.83314682 USD an hour.
func TestNewScenarioReport_SpotRanksInterruptibleScenarios(t *testing.T) {
	snap, gpus := tcoFleet(), scGPUs(t)
	snap.Offers = append(snap.Offers, scOffer(catalog.Alibaba, "ecs.gn7i-c8g1.2xlarge", "cn-hangzhou", catalog.Spot, "2.13", catalog.CNY, catalog.PerHour))
	scs := scScenarios(t).Scenarios
	r, err := NewScenarioReport(scs, snap, gpus, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wantIDs, gotIDs []string
	var interruptible []Scenario
	for _, s := range scs {
		if s.Interruptible {
			wantIDs = append(wantIDs, s.ID)
			interruptible = append(interruptible, s)
		}
	}
	for _, s := range r.Spot.Scenarios {
		gotIDs = append(gotIDs, s.Scenario.ID)
	}
	if diff := cmp.Diff([]string{"llm-training", "llm-finetune", "cv-training", "batch-inference", "rendering-3d"}, gotIDs); diff != "" || r.Spot.Billing != catalog.Spot {
		t.Errorf("spot ranking of %s, scenarios (-want +got):\n%s", r.Spot.Billing, diff)
	}
	if diff := cmp.Diff(wantIDs, gotIDs); diff != "" {
		t.Errorf("spot scenarios are not the interruptible ones (-want +got):\n%s", diff)
	}
	want := BuildMatrix(interruptible, snap, gpus, MatrixOptions{Billing: catalog.Spot, PerCell: ReportPerCell})
	if diff := cmp.Diff(want, r.Spot, decEq); diff != "" {
		t.Errorf("spot matrix (-want +got):\n%s", diff)
	}
	// The on-demand matrix and the TCO presets are as before: every scenario.
	if len(r.Matrix.Scenarios) != len(scs) || r.Matrix.Billing != catalog.OnDemand {
		t.Errorf("on-demand matrix of %d scenarios on %s", len(r.Matrix.Scenarios), r.Matrix.Billing)
	}
	for _, id := range []string{"online-inference", "llm-inference-large", "video-transcoding", "hpc-fp64", "dev-test", "no-such"} {
		if _, ok := r.SpotRanking(id); ok {
			t.Errorf("%s has a spot ranking", id)
		}
	}

	train, ok := r.SpotRanking("llm-training")
	if !ok {
		t.Fatal("llm-training has no spot ranking")
	}
	if diff := cmp.Diff([]string{"aws/p4d.24xlarge"}, keys(train.Ranked)); diff != "" {
		t.Fatalf("llm-training spot ranked (-want +got):\n%s", diff)
	}
	p4d := train.Ranked[0]
	if p4d.Offer.Billing != catalog.Spot || p4d.USDPerHour == nil || p4d.USDPerHour.String() != "9.83314682" {
		t.Errorf("p4d spot ranks on %v %s, want 9.83314682", p4d.USDPerHour, p4d.Offer.Billing)
	}
	if sr := p4d.SpotRisk; sr == nil || sr.Status != catalog.InterruptionHasBand || sr.Band != catalog.Band10To15 ||
		sr.Rate.String() != "0.15" || sr.LossHours.String() != "0.666667" || sr.ListUSDPerHour.String() != "9.8318" {
		t.Errorf("p4d spot risk %+v", sr)
	}
	// The same factor on the native amount (USD here): what a page shows in the
	// offer's own currency.
	if adj := p4d.SpotRisk.Adjusted(catalog.Dec("9.8318")); adj == nil || !adj.Equal(*p4d.USDPerHour) {
		t.Errorf("Adjusted(9.8318) = %v, want %s", adj, p4d.USDPerHour)
	}

	// Without a band: the list price, and the status. p3.8xlarge (AWS, no
	// advisor row) and the Alibaba A10 (not published) are in the
	// fine-tuning and CV rankings or their rejects.
	found := map[string]string{}
	for _, rk := range r.Spot.Scenarios {
		for _, f := range append(append([]OfferFit{}, rk.Ranked...), rk.Rejected...) {
			if f.SpotRisk == nil {
				t.Errorf("%s %s: no spot risk in a spot ranking", rk.Scenario.ID, f.InstanceKey)
				continue
			}
			found[f.InstanceKey] = f.SpotRisk.Status + " " + f.USDPerHour.String() + " " + f.SpotRisk.ListUSDPerHour.String()
			if f.SpotRisk.Status != catalog.InterruptionHasBand && (f.SpotRisk.USDPerHour != nil || f.SpotRisk.Adjusted(f.SpotRisk.ListUSDPerHour) != nil) {
				t.Errorf("%s %s: an adjusted price without a band", rk.Scenario.ID, f.InstanceKey)
			}
		}
	}
	// 2.13 CNY / 7.1 = 0.3 USD.
	for k, w := range map[string]string{"aws/p3.8xlarge": "no_data 3.672 3.672", "alibaba/ecs.gn7i-c8g1.2xlarge": "not_published 0.3 0.3",
		"aws/p4d.24xlarge": "band 9.83314682 9.8318"} {
		if found[k] != w {
			t.Errorf("%s: %q, want %q", k, found[k], w)
		}
	}
}
