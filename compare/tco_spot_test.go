package compare

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The example: p4d.24xlarge spot in us-east-1, band 10-15%, a
// 30-minute checkpoint and the default 10-minute restart, busy all month.
//
//	rate          = 15% upper bound = 0.15 interruptions a month
//	loss          = (30 / 2 + 10) / 60 = 0.416667 h (6 places)
//	interruptions = 730 × 0.15 / 730 = 0.15
//	lost          = 0.15 × 0.416667 = 0.06250005 → 0.0625 h
//	spot hours    = 730.0625; cost = 730.0625 × 9.8318 = 7177.8284875 → 7177.83 USD
func TestTCO_SpotRiskFromBand(t *testing.T) {
	in, err := NewTCOInput(tcoFleet(), scGPUs(t), TCORequest{Instances: []string{"aws/p4d.24xlarge"}, Region: "us-east-1",
		Billing: []string{"spot"}, CheckpointMinutes: catalog.Dec("30"),
		Workload: TCOWorkload{JobSize: catalog.Dec("730"), JobsPerMonth: catalog.Dec("1"), Utilisation: catalog.Dec("1"), HorizonMonths: 1}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := TCO(in)
	if err != nil {
		t.Fatal(err)
	}
	o := res.Options[0]
	if o.SpotInterruptionsPerMonth == nil || o.SpotInterruptionsPerMonth.String() != "0.15" || o.SpotLostHoursPerMonth.String() != "0.0625" ||
		o.PayAsYouGoHoursPerMonth.String() != "730.0625" || o.TotalUSD.String() != "7177.83" {
		t.Errorf("interruptions %v, lost %v, hours %s, total %s; want 0.15, 0.0625, 730.0625, 7177.83",
			o.SpotInterruptionsPerMonth, o.SpotLostHoursPerMonth, o.PayAsYouGoHoursPerMonth, o.TotalUSD)
	}
	var steps []string
	for _, s := range o.Steps {
		if strings.Contains(string(s.Code), "spot") {
			steps = append(steps, rs(s))
		}
	}
	want := []string{
		"step_spot_risk_band(band=10-15%, observed=2025-06-28, upper=15 percent, rate=0.15, checkpoint=30, restart=10, loss=0.416667 h)",
		"step_hours_per_job_spot_risk(job_size=730, speed=1, utilisation=1 share, hours_before=730 h, rate=0.15, interruptions=0.15, loss=0.416667 h, lost=0.0625 h, hours=730.0625 h)",
		"step_payg_hours_spot_risk(billing=spot, hours_before=730 h, rate=0.15, interruptions=0.15, loss=0.416667 h, lost=0.0625 h, hours=730.0625 h)",
	}
	if diff := cmp.Diff(want, steps); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
}

func TestTCO_SpotRiskValidation(t *testing.T) {
	base := func() TCOInput {
		rate := catalog.Dec("0.2")
		return TCOInput{Schema: TCOSchema, Workload: TCOWorkload{JobSize: catalog.Dec("10"), JobsPerMonth: catalog.Dec("1"), Utilisation: catalog.Dec("1"), HorizonMonths: 1},
			Options: []TCOOption{{ID: "s", Speed: Speed{WorkPerHour: catalog.Dec("1")}, PayAsYouGo: &TCOPayAsYouGo{Billing: catalog.Spot, USDPerHour: catalog.Dec("1"),
				Risk: &TCOSpotRisk{InterruptionsPerMonth: &rate, CheckpointMinutes: catalog.Dec("60"), RestartMinutes: catalog.Dec("10")}}}}}
	}
	if _, err := TCO(base()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(in *TCOInput)
		want   string
	}{
		{"no rate, no band", func(in *TCOInput) { in.Options[0].PayAsYouGo.Risk.InterruptionsPerMonth = nil }, "give pay_as_you_go.risk.interruptions_per_month"},
		{"rate too high", func(in *TCOInput) { in.Options[0].PayAsYouGo.Risk.InterruptionsPerMonth = catalog.DecPtr("101") }, "0 to 100"},
		{"no checkpoint", func(in *TCOInput) { in.Options[0].PayAsYouGo.Risk.CheckpointMinutes = catalog.Dec("0") }, "checkpoint_minutes"},
		{"negative restart", func(in *TCOInput) { in.Options[0].PayAsYouGo.Risk.RestartMinutes = catalog.Dec("-1") }, "restart_minutes"},
		{"bad band", func(in *TCOInput) { in.Options[0].PayAsYouGo.Risk.Band = "7%" }, "interruption band"},
		{"both models", func(in *TCOInput) { in.Options[0].PayAsYouGo.InterruptionOverhead = catalog.Dec("0.1") }, "without an interruption_overhead"},
		{"on demand", func(in *TCOInput) { in.Options[0].PayAsYouGo.Billing = catalog.OnDemand }, "risk is for spot"},
	} {
		in := base()
		tc.change(&in)
		if _, err := TCO(in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestInterruptionBand_MonthlyRate(t *testing.T) {
	got := map[catalog.InterruptionBand]string{}
	for _, b := range catalog.InterruptionBands {
		got[b] = b.MonthlyRate().String()
	}
	want := map[catalog.InterruptionBand]string{"<5%": "0.05", "5-10%": "0.1", "10-15%": "0.15", "15-20%": "0.2", ">20%": "1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rates (-want +got):\n%s", diff)
	}
}

func TestTCO_SpotRiskSharedCases(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "tco", "spot_risk.cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []SpotRiskCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 5 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, c := range cases {
		res, err := TCO(c.Input)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		var got []string
		for _, o := range res.Options {
			got = append(got, o.TotalUSD.String())
			if o.SpotLostHoursPerMonth == nil {
				t.Errorf("%s: %s: no lost hours", c.Name, o.ID)
			}
		}
		if diff := cmp.Diff(c.WantTotalUSD, got); diff != "" {
			t.Errorf("%s: totals (-want +got):\n%s", c.Name, diff)
		}
	}
}

// A ranking of spot offers prices p4d.24xlarge (band 10-15%) at its
// risk-adjusted rate with the default 60 and 10 minutes (loss (30 + 10)/60 =
// 0.666667 h): 9.8318 × (1 + 0.15 × 0.666667 / 730) = 9.8318 +
// 0.00134682… → 9.83314682 USD an hour; p3.8xlarge (no band) keeps its
// published 3.672, marked no_data.
func TestRankScenario_SpotUsesRiskAdjustedPrice(t *testing.T) {
	set, err := LoadScenarios(os.DirFS(filepath.Join("..", "data")))
	if err != nil {
		t.Fatal(err)
	}
	var sc Scenario
	for _, s := range set.Scenarios {
		if s.Category == "training" {
			sc = s
			break
		}
	}
	rk := RankScenario(sc, tcoFleet(), scGPUs(t), MatrixOptions{Billing: catalog.Spot})
	got := map[string]string{}
	for _, f := range append(append([]OfferFit{}, rk.Ranked...), rk.Rejected...) {
		if f.SpotRisk == nil {
			t.Errorf("%s: no spot risk in a spot ranking", f.InstanceKey)
			continue
		}
		got[f.InstanceKey] = f.SpotRisk.Status + " " + f.USDPerHour.String()
	}
	want := map[string]string{"aws/p4d.24xlarge": "band 9.83314682", "aws/p3.8xlarge": "no_data 3.672"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q (all: %v)", k, got[k], w, got)
		}
	}
}
