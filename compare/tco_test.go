package compare

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/golden"
)

// tcoRef is the speed of the base instance type: 1 hour of work per hour.
var tcoRef = Speed{WorkPerHour: catalog.Dec("1"), Basis: Reference, From: "reference", Reason: Reason{Code: ReasonSpeedReference}}

var decEq = cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })

func tcoWorkload(size, util, idle string, months int) TCOWorkload {
	return TCOWorkload{WorkUnit: WorkUnitHour + "aws/p3.8xlarge", JobSize: catalog.Dec(size), JobsPerMonth: catalog.Dec("1"),
		Utilisation: catalog.Dec(util), IdleHoursPerMonth: catalog.Dec(idle), HorizonMonths: months}
}

func tcoOD(id, rate string) TCOOption {
	return TCOOption{ID: id, Instance: "aws/p3.8xlarge", Speed: tcoRef,
		PayAsYouGo: &TCOPayAsYouGo{Billing: catalog.OnDemand, USDPerHour: catalog.Dec(rate)}}
}

func tcoSpot(id, rate, overhead string) TCOOption {
	o := tcoOD(id, rate)
	o.PayAsYouGo.Billing, o.PayAsYouGo.InterruptionOverhead = catalog.Spot, catalog.Dec(overhead)
	return o
}

func tcoCommit(id string, b catalog.BillingKind, monthly, upfront string, term, n int) TCOOption {
	return TCOOption{ID: id, Instance: "aws/p3.8xlarge", Speed: tcoRef,
		Commitment: &TCOCommitment{Billing: b, USDPerMonth: catalog.Dec(monthly), UpfrontUSD: catalog.Dec(upfront), TermMonths: term, Instances: n}}
}

func runTCO(t *testing.T, in TCOInput) TCOResult {
	t.Helper()
	in.Schema = TCOSchema
	r, err := TCO(in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func strs(ds []decimal.Decimal) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.StringFixed(2)
	}
	return out
}

type tcoSum struct {
	Needed, PAYG, PerJob, Total, After, PerUnit, Use string
	Instances                                        int
	Monthly, Cumulative                              []string
}

func summarise(r TCOOptionResult) tcoSum {
	return tcoSum{Needed: r.NeededHoursPerMonth.String(), PAYG: r.PayAsYouGoHoursPerMonth.String(), PerJob: r.HoursPerJob.String(),
		Total: r.TotalUSD.StringFixed(2), After: r.CommittedAfterHorizonUSD.StringFixed(2), PerUnit: r.CostPerUnitUSD.String(),
		Use: r.CommitmentUse.String(), Instances: r.CommittedInstances, Monthly: strs(r.MonthlyUSD), Cumulative: strs(r.CumulativeUSD)}
}

func TestTCO_BillingOptionsExact(t *testing.T) {
	in := TCOInput{Workload: tcoWorkload("200", "0.8", "10", 3), Options: []TCOOption{
		tcoOD("od", "12.24"),
		tcoSpot("spot", "3.672", "0.1"),
		tcoCommit("r1", catalog.Reserved1yAllUpfront, "0", "60000", 12, 0),
	}}
	r := runTCO(t, in)
	got := map[string]tcoSum{}
	for _, o := range r.Options {
		got[o.ID] = summarise(o)
	}
	want := map[string]tcoSum{
		// needed = 200 / (1 × 0.8) + 10 idle = 260 h; 260 × 12.24 = 3182.40 a month;
		// 3 months = 9547.20; per hour of work 9547.20 / 600 = 15.912; a job takes
		// 200 / 0.8 = 250 h.
		"od": {Needed: "260", PAYG: "260", PerJob: "250", Total: "9547.20", After: "0.00", PerUnit: "15.912", Use: "0",
			Monthly: []string{"3182.40", "3182.40", "3182.40"}, Cumulative: []string{"3182.40", "6364.80", "9547.20"}},
		// spot: 260 × 1.1 = 286 h × 3.672 = 1050.192 → 1050.19 a month, 3150.57 in
		// all (sum of the cents); a job takes 250 × 1.1 = 275 h; 3150.57 / 600 = 5.25095.
		"spot": {Needed: "260", PAYG: "286", PerJob: "275", Total: "3150.57", After: "0.00", PerUnit: "5.25095", Use: "0",
			Monthly: []string{"1050.19", "1050.19", "1050.19"}, Cumulative: []string{"1050.19", "2100.38", "3150.57"}},
		// reserved: ceil(260 / 730) = 1 instance, 60000 upfront in month 1 and
		// nothing after; 260 / 730 = 0.35616… → 0.3562 of the commitment used.
		"r1": {Needed: "260", PAYG: "0", PerJob: "250", Total: "60000.00", After: "0.00", PerUnit: "100", Use: "0.3562", Instances: 1,
			Monthly: []string{"60000.00", "0.00", "0.00"}, Cumulative: []string{"60000.00", "60000.00", "60000.00"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
	// 60000 / (12 × 730) = 6.849315068… → 6.84931507 per committed hour.
	if got := r.Options[2].USDPerHour.String(); got != "6.84931507" {
		t.Errorf("reserved per hour = %s, want 6.84931507", got)
	}
	// Break-even: 60000 / (12 × 12.24) = 408.4967… h → 408.50; / 730 = 0.55958… → 0.5596.
	wantBE := []BreakEven{{Commitment: "r1", OnDemand: "od", HoursPerMonth: catalog.Dec("408.5"), Utilisation: catalog.Dec("0.5596")}}
	if diff := cmp.Diff(wantBE, r.BreakEvens, decEq, cmpopts.IgnoreFields(BreakEven{}, "Reason")); diff != "" {
		t.Errorf("break-even (-want +got):\n%s", diff)
	}
	if len(r.BreakEvens) == 1 {
		want := "breakeven_pays_off(billing=reserved_1y_all_upfront, rate=12.24 USD/h, hours=408.5 h, utilisation=55.96 percent)"
		if got := rs(r.BreakEvens[0].Reason); got != want {
			t.Errorf("break-even reason\n got %s\nwant %s", got, want)
		}
	}
	if len(r.Comparisons) != 0 {
		t.Errorf("comparisons between options of one instance type: %+v", r.Comparisons)
	}
}

func TestTCO_CommitmentPastHorizon(t *testing.T) {
	// 3-year no-upfront reservation at 5.2 USD/h = 3796 a month; a 12-month
	// horizon pays 12 × 3796 = 45552 and still owes 24 × 3796 = 91104.
	in := TCOInput{Workload: tcoWorkload("730", "1", "0", 12), Options: []TCOOption{
		tcoCommit("r3", catalog.Reserved3yNoUpfront, "3796", "0", 36, 1),
		tcoOD("od", "7.8"),
	}}
	r := runTCO(t, in)
	o := r.Options[0]
	if o.PaidInHorizonUSD.StringFixed(2) != "45552.00" || o.CommittedAfterHorizonUSD.StringFixed(2) != "91104.00" || o.TotalUSD.StringFixed(2) != "136656.00" {
		t.Errorf("paid %s, after %s, total %s; want 45552.00, 91104.00, 136656.00", o.PaidInHorizonUSD, o.CommittedAfterHorizonUSD, o.TotalUSD)
	}
	// Break-even: 3796 × 36 / (36 × 7.8) = 486.666… → 486.67 h; / 730 = 0.66666… → 0.6667.
	if len(r.BreakEvens) != 1 || r.BreakEvens[0].HoursPerMonth.StringFixed(2) != "486.67" || r.BreakEvens[0].Utilisation.String() != "0.6667" {
		t.Errorf("break-even = %+v", r.BreakEvens)
	}
}

func TestTCO_ReservedBaseSpotBurst(t *testing.T) {
	mix := tcoCommit("mix", catalog.Reserved1yNoUpfront, "5475", "0", 12, 0) // 7.5 USD/h × 730
	mix.PayAsYouGo = &TCOPayAsYouGo{Billing: catalog.Spot, USDPerHour: catalog.Dec("3.672"), InterruptionOverhead: catalog.Dec("0.1")}
	in := TCOInput{Workload: tcoWorkload("1000", "1", "0", 2), Options: []TCOOption{mix},
		Storage: &TCOStorage{GB: catalog.Dec("1000"), USDPerGBMonth: catalog.Dec("0.08")},
		Egress:  &TCOEgress{GBPerMonth: catalog.Dec("100"), USDPerGB: catalog.Dec("0.09")}}
	r := runTCO(t, in)
	got := summarise(r.Options[0])
	// base floor(1000 / 730) = 1 reserved instance (730 h); burst (1000 − 730) ×
	// 1.1 = 297 spot hours. Month = 5475 + 297 × 3.672 (1090.584) + 1000 × 0.08 +
	// 100 × 0.09 (89) = 6654.584 → 6654.58. Two months 13309.16; the reservation
	// still owes 10 × 5475 = 54750 → 68059.16. Per hour of work: 68059.16 / 2000 = 34.02958.
	want := tcoSum{Needed: "1000", PAYG: "297", PerJob: "1000", Total: "68059.16", After: "54750.00", PerUnit: "34.02958", Use: "1", Instances: 1,
		Monthly: []string{"6654.58", "6654.58"}, Cumulative: []string{"6654.58", "13309.16"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mix (-want +got):\n%s", diff)
	}
	if len(r.BreakEvens) != 0 {
		t.Errorf("a mix has no break-even of its own: %+v", r.BreakEvens)
	}
}

func TestTCO_SpeedVersusPriceSentence(t *testing.T) {
	a100 := TCOOption{ID: "a100", Instance: "aws/p4d.24xlarge", Hardware: "8x NVIDIA A100", Speed: Speed{WorkPerHour: catalog.Dec("2"), Basis: Estimated},
		PayAsYouGo: &TCOPayAsYouGo{Billing: catalog.OnDemand, USDPerHour: catalog.Dec("14")}}
	v100 := tcoOD("v100", "10")
	v100.Hardware = "4x NVIDIA V100"
	in := TCOInput{Workload: tcoWorkload("100", "1", "0", 1), Options: []TCOOption{v100, a100}}
	r := runTCO(t, in)
	// A100: 100 / 2 = 50 h × 14 = 700; V100: 100 h × 10 = 1000.
	// (14 − 10) / 10 = 40 % more per hour; (100 − 50) / 100 = 50 % sooner;
	// (700 − 1000) / 1000 = −30 % in total.
	want := []Comparison{{A: "a100", B: "v100", HourlyMorePct: catalog.Dec("40"), SoonerPct: catalog.Dec("50"), TotalMorePct: catalog.Dec("-30")}}
	if diff := cmp.Diff(want, r.Comparisons, decEq, cmpopts.IgnoreFields(Comparison{}, "Reason")); diff != "" {
		t.Errorf("comparisons (-want +got):\n%s", diff)
	}
	// (50 − 100) / 100 = −50 % longer: A is faster, so "longer" is negative.
	wantWhy := "tco_comparison(a=8x NVIDIA A100, b=4x NVIDIA V100, hourly_more=40 percent, sooner=50 percent, longer=-50 percent, " +
		"a_hours=50 h, b_hours=100 h, total_more=-30 percent, a_total=700 USD, b_total=1000 USD, months=1 month)"
	if len(r.Comparisons) == 1 && rs(r.Comparisons[0].Reason) != wantWhy {
		t.Errorf("comparison reason\n got %s\nwant %s", rs(r.Comparisons[0].Reason), wantWhy)
	}
}

func TestTCO_InputErrors(t *testing.T) {
	short := tcoCommit("r", catalog.Reserved1yNoUpfront, "100", "0", 12, 1)
	tests := []struct {
		name string
		in   TCOInput
		want string
	}{
		{"utilisation", TCOInput{Workload: tcoWorkload("1", "1.5", "0", 1), Options: []TCOOption{tcoOD("a", "1")}}, `workload.utilisation "1.5": out of range: want more than 0 % and at most 100 % (as a share: more than 0 and at most 1)`},
		{"horizon", TCOInput{Workload: tcoWorkload("1", "1", "0", 0), Options: []TCOOption{tcoOD("a", "1")}}, "horizon_months"},
		{"no options", TCOInput{Workload: tcoWorkload("1", "1", "0", 1)}, "no billing options"},
		{"duplicate", TCOInput{Workload: tcoWorkload("1", "1", "0", 1), Options: []TCOOption{tcoOD("a", "1"), tcoOD("a", "2")}}, `duplicate id "a"`},
		{"capacity", TCOInput{Workload: tcoWorkload("1000", "1", "0", 1), Options: []TCOOption{short}}, "1000 needed hours a month exceed the 730 committed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Schema = TCOSchema
			_, err := TCO(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := TCO(TCOInput{Schema: 2}); err == nil || !strings.Contains(err.Error(), "schema 2") {
		t.Errorf("schema error = %v", err)
	}
}

// The JSON files under testdata/tco are the contract with the site's calculator:
// it reads each *.input.json and must produce *.result.json to the cent. This
// test holds the Go side to the same files.
func TestTCO_GoldenJSON(t *testing.T) {
	mix := tcoCommit("aws/p3.8xlarge/us-east-1/reserved_1y_no_upfront+spot", catalog.Reserved1yNoUpfront, "5475", "0", 12, 0)
	mix.PayAsYouGo = &TCOPayAsYouGo{Billing: catalog.Spot, USDPerHour: catalog.Dec("3.672"), InterruptionOverhead: catalog.Dec("0.1")}
	a100 := TCOOption{ID: "aws/p4d.24xlarge/us-east-1/on_demand", Label: "8x NVIDIA A100 SXM4 40GB (aws/p4d.24xlarge), on_demand",
		Instance: "aws/p4d.24xlarge", Hardware: "8x NVIDIA A100 SXM4 40GB",
		Speed: Speed{WorkPerHour: catalog.Dec("4.992"), Basis: Estimated, From: SpeedFromSpecs, Figure: FigureFP16,
			Reason: reason(ReasonSpeedFromSpecs, codeList("figure", GroupFigure, "fp16"), quantity("target", catalog.Dec("2496"), UnitTFLOPS),
				quantity("base", catalog.Dec("500"), UnitTFLOPS), quantity("ratio", catalog.Dec("4.992"), UnitCount))},
		PayAsYouGo: &TCOPayAsYouGo{Billing: catalog.OnDemand, USDPerHour: catalog.Dec("32.7726")}}
	od := tcoOD("aws/p3.8xlarge/us-east-1/on_demand", "12.24")
	od.Hardware = "4x NVIDIA Tesla V100 SXM2 16GB"
	cases := map[string]TCOInput{
		"mixed_billing": {Schema: TCOSchema, Workload: tcoWorkload("900", "0.9", "20", 14), Options: []TCOOption{
			od,
			tcoSpot("aws/p3.8xlarge/us-east-1/spot", "3.672", "0.15"),
			tcoCommit("aws/p3.8xlarge/us-east-1/reserved_1y_all_upfront", catalog.Reserved1yAllUpfront, "0", "60000", 12, 0),
			mix, a100,
		}, Storage: &TCOStorage{GB: catalog.Dec("2000"), USDPerGBMonth: catalog.Dec("0.023")}, Source: &TCOSource{Note: "hand-made test input"}},
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			inPath := filepath.Join("testdata", "tco", name+".input.json")
			outPath := filepath.Join("testdata", "tco", name+".result.json")
			if golden.Updating() {
				golden.Write(t, inPath, marshalJSON(t, in))
			}
			raw, err := os.ReadFile(inPath)
			if err != nil {
				t.Fatalf("%v (run go test ./compare -update to create it)", err)
			}
			var fromFile TCOInput
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&fromFile); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(in, fromFile, decEq); diff != "" {
				t.Errorf("%s does not round-trip (-go +file):\n%s", inPath, diff)
			}
			r, err := TCO(fromFile)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, outPath, marshalJSON(t, r))
		})
	}
}

func marshalJSON(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
