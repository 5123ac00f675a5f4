package compare

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// tcoFleet is scFleet with commitment and spot offers for p3.8xlarge and an
// Alibaba monthly subscription.
func tcoFleet() *catalog.Snapshot {
	s := scFleet()
	up := catalog.PerHour
	res := scOffer(catalog.AWS, "p3.8xlarge", "us-east-1", catalog.Reserved1yAllUpfront, "0", catalog.USD, up)
	res.Price.Upfront = catalog.DecPtr("60000")
	p4dSpot := scOffer(catalog.AWS, "p4d.24xlarge", "us-east-1", catalog.Spot, "9.8318", catalog.USD, up)
	// The advisor's band of p4d.24xlarge in us-east-1 (2025-06-28 copy); p3.8xlarge has none here.
	p4dSpot.Interruption = &catalog.Interruption{Band: catalog.Band10To15, SavingsPct: 67, ObservedAt: time.Date(2025, 6, 28, 0, 0, 0, 0, time.UTC), Source: "advisor"}
	s.Offers = append(s.Offers, res,
		scOffer(catalog.AWS, "p3.8xlarge", "us-east-1", catalog.Spot, "3.672", catalog.USD, up),
		p4dSpot,
		scOffer(catalog.Alibaba, "ecs.gn7i-c8g1.2xlarge", "cn-hangzhou", catalog.SubscriptionMonth, "3500", catalog.CNY, catalog.PerMonth))
	return s
}

func TestNewTCOInput_FromCatalog(t *testing.T) {
	req := TCORequest{Instances: []string{"aws/p3.8xlarge", "aws/p4d.24xlarge"}, Region: "us-east-1",
		Billing: []string{"on_demand", "spot"}, SpotOverhead: catalog.Dec("0.1"),
		Workload: TCOWorkload{JobSize: catalog.Dec("100"), JobsPerMonth: catalog.Dec("2"), Utilisation: catalog.Dec("1"), HorizonMonths: 12}}
	in, err := NewTCOInput(tcoFleet(), scGPUs(t), req)
	if err != nil {
		t.Fatal(err)
	}
	var ids, speeds []string
	for _, o := range in.Options {
		ids = append(ids, o.ID)
		speeds = append(speeds, o.Speed.WorkPerHour.String())
	}
	wantIDs := []string{"aws/p3.8xlarge/us-east-1/on_demand", "aws/p3.8xlarge/us-east-1/spot", "aws/p4d.24xlarge/us-east-1/on_demand", "aws/p4d.24xlarge/us-east-1/spot"}
	if diff := cmp.Diff(wantIDs, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	// 8 × 312 FP16 / (4 × 125 FP16) = 4.992 (the V100 has no BF16 figure).
	if diff := cmp.Diff([]string{"1", "1", "4.992", "4.992"}, speeds); diff != "" {
		t.Errorf("speeds (-want +got):\n%s", diff)
	}
	if in.Workload.WorkUnit != "hour:aws/p3.8xlarge" || in.Options[3].PayAsYouGo.InterruptionOverhead.String() != "0.1" {
		t.Errorf("work unit %q, spot overhead %s", in.Workload.WorkUnit, in.Options[3].PayAsYouGo.InterruptionOverhead)
	}
	r, err := TCO(in)
	if err != nil {
		t.Fatal(err)
	}
	// p3 on-demand: 200 h × 12.24 = 2448 a month. p4d: 200 / 4.992 = 40.064103 h
	// × 32.7726 = 1313.004… → 1313.00 a month. A job: 100 h vs 100 / 4.992 = 20.032051 h.
	// (32.7726 − 12.24) / 12.24 = 167.75 % → 168 %; (100 − 20.032051) / 100 = 79.97 % → 80 %;
	// (15756.00 − 29376.00) / 29376.00 = −46.36 % → 46 % less.
	c := r.Comparisons[0]
	// (20.032051 − 100) / 100 = −79.97… → −80 % longer, i.e. 80 % sooner.
	want := "tco_comparison(a=8x NVIDIA A100 SXM4 40GB, b=4x NVIDIA Tesla V100 SXM2 16GB, hourly_more=168 percent, sooner=80 percent, " +
		"longer=-80 percent, a_hours=20.032051 h, b_hours=100 h, total_more=-46 percent, a_total=15756 USD, b_total=29376 USD, months=12 month)"
	if got := rs(c.Reason); got != want {
		t.Errorf("comparison\n got %s\nwant %s", got, want)
	}
}

func TestNewTCOInput_CommitmentsAndCurrency(t *testing.T) {
	snap := tcoFleet()
	in, err := NewTCOInput(snap, scGPUs(t), TCORequest{Instances: []string{"aws/p3.8xlarge"}, Region: "us-east-1",
		Billing: []string{"reserved_1y_all_upfront", "reserved_1y_all_upfront+spot"}, SpotRate: catalog.DecPtr("0.2"),
		Workload: TCOWorkload{JobSize: catalog.Dec("100"), JobsPerMonth: catalog.Dec("1"), Utilisation: catalog.Dec("1"), HorizonMonths: 12}})
	if err != nil {
		t.Fatal(err)
	}
	if r := in.Options[1].PayAsYouGo.Risk; r == nil || r.Band != "" || r.InterruptionsPerMonth.String() != "0.2" || r.CheckpointMinutes.String() != "60" || r.RestartMinutes.String() != "10" {
		t.Errorf("spot without a band: risk %+v, want the entered rate 0.2 and the default 60 and 10 minutes", r)
	}
	c := in.Options[0].Commitment
	if c == nil || c.TermMonths != 12 || !c.UpfrontUSD.Equal(catalog.Dec("60000")) || !c.USDPerMonth.IsZero() || in.Options[0].PayAsYouGo != nil {
		t.Errorf("reserved option = %+v", in.Options[0])
	}
	if in.Options[1].Commitment == nil || in.Options[1].PayAsYouGo == nil || in.Options[1].PayAsYouGo.Billing != catalog.Spot {
		t.Errorf("mix option = %+v", in.Options[1])
	}
	ali, err := NewTCOInput(snap, scGPUs(t), TCORequest{Instances: []string{"alibaba/ecs.gn7i-c8g1.2xlarge"}, Region: "cn-hangzhou",
		Workload: TCOWorkload{JobSize: catalog.Dec("730"), JobsPerMonth: catalog.Dec("1"), Utilisation: catalog.Dec("1"), HorizonMonths: 1}})
	if err != nil {
		t.Fatal(err)
	}
	// Every billing kind it has, in catalog order: on_demand, subscription_month.
	// 3500 CNY / 7.1 = 492.957746478… → 492.95774648 USD a month (FX to 8 places).
	if len(ali.Options) != 2 || ali.Options[1].Commitment == nil || ali.Options[1].Commitment.USDPerMonth.String() != "492.95774648" ||
		ali.Options[1].Commitment.TermMonths != 1 {
		t.Fatalf("alibaba options = %+v", ali.Options)
	}
	if n := ali.Options[1].Commitment.Native; n == nil || n.Price.String() != "3500 CNY/month" || n.USDRate == nil || n.USDRate.String() != "0.14084507" {
		t.Errorf("native = %+v", n)
	}
	for _, bad := range []struct {
		billing []string
		want    string
	}{
		{[]string{"spot+on_demand"}, "the part before + must be a commitment"},
		{[]string{"reserved_3y_all_upfront"}, "has no reserved_3y_all_upfront offer in region us-east-1"},
		{[]string{"weekly"}, `unknown billing kind "weekly"`},
		{[]string{"spot"}, "aws/p3.8xlarge spot in us-east-1: the Spot Instance Advisor has no interruption data for it; give the interruptions a month to assume (--interruptions-per-month)"},
	} {
		_, err := NewTCOInput(snap, scGPUs(t), TCORequest{Instances: []string{"aws/p3.8xlarge"}, Region: "us-east-1", Billing: bad.billing,
			Workload: TCOWorkload{JobSize: catalog.Dec("1"), JobsPerMonth: catalog.Dec("1"), Utilisation: catalog.Dec("1"), HorizonMonths: 1}})
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("billing %v: error = %v, want %q", bad.billing, err, bad.want)
		}
	}
}

func TestNewTCOInput_DefaultBillingSkipsMissingPlans(t *testing.T) {
	in, err := NewTCOInput(tcoFleet(), scGPUs(t), TCORequest{Instances: []string{"aws/p3.8xlarge", "aws/p4d.24xlarge"}, Region: "us-east-1",
		Workload: TCOWorkload{JobSize: catalog.Dec("100"), JobsPerMonth: catalog.Dec("1"), Utilisation: catalog.Dec("1"), HorizonMonths: 12}})
	if err != nil {
		t.Fatal(err)
	}
	// p3.8xlarge has on_demand, spot and reserved_1y_all_upfront; p4d no
	// reservation; p3.8xlarge's spot has no band and no rate was given.
	if len(in.Options) != 4 {
		t.Errorf("%d options, want 4", len(in.Options))
	}
	want := []string{"tco_spot_needs_rate(instance=aws/p3.8xlarge, region=us-east-1, status=no_data)",
		"tco_left_out(instance=aws/p4d.24xlarge, billing=reserved_1y_all_upfront, region=us-east-1)"}
	if diff := cmp.Diff(want, rsAll(in.Notes)); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}
