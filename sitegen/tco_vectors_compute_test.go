package sitegen

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// The TCO inputs of TestTCOJS_Vectors: a base input of three instance types
// billed every way the model knows (on-demand, spot with a band, with an
// entered rate and with a flat overhead, reserved all and partial upfront, a
// monthly subscription, a commitment with a spot burst), and the same input
// changed at each rule's edge.

func tcoSpeed(s string) compare.Speed {
	return compare.Speed{WorkPerHour: catalog.Dec(s), Basis: compare.Estimated, From: "specs"}
}

func tcoOD(id, inst, rate, speed string) compare.TCOOption {
	return compare.TCOOption{ID: id, Label: id, Instance: inst, Hardware: "8x " + inst, Speed: tcoSpeed(speed),
		PayAsYouGo: &compare.TCOPayAsYouGo{Billing: catalog.OnDemand, USDPerHour: catalog.Dec(rate)}}
}

func tcoRisk(band catalog.InterruptionBand, rate, ckpt, restart string) *compare.TCOSpotRisk {
	r := &compare.TCOSpotRisk{Band: band, CheckpointMinutes: catalog.Dec(ckpt), RestartMinutes: catalog.Dec(restart)}
	if band != "" {
		r.BandObservedAt = "2026-11-30"
	}
	if rate != "" {
		d := catalog.Dec(rate)
		r.InterruptionsPerMonth = &d
	}
	return r
}

func tcoSpot(id, inst, rate, speed string, risk *compare.TCOSpotRisk, overhead string) compare.TCOOption {
	o := tcoOD(id, inst, rate, speed)
	o.PayAsYouGo.Billing, o.PayAsYouGo.Risk, o.PayAsYouGo.InterruptionOverhead = catalog.Spot, risk, catalog.Dec(overhead)
	return o
}

func tcoCommit(id, inst string, b catalog.BillingKind, monthly, upfront string, term, n int, speed string) compare.TCOOption {
	return compare.TCOOption{ID: id, Label: id, Instance: inst, Hardware: "8x " + inst, Speed: tcoSpeed(speed),
		Commitment: &compare.TCOCommitment{Billing: b, USDPerMonth: catalog.Dec(monthly), UpfrontUSD: catalog.Dec(upfront), TermMonths: term, Instances: n}}
}

// tcoBase is the base input: 500 hours a month on aws/a at 90 % for a year.
func tcoBase() compare.TCOInput {
	burst := tcoCommit("a/burst", "aws/a", catalog.Reserved1yAllUpfront, "0", "52000", 12, 0, "1")
	burst.PayAsYouGo = &compare.TCOPayAsYouGo{Billing: catalog.Spot, USDPerHour: catalog.Dec("3.6721"), Risk: tcoRisk(catalog.Band5To10, "0.1", "60", "10")}
	return compare.TCOInput{Schema: compare.TCOSchema,
		Workload: compare.TCOWorkload{WorkUnit: compare.WorkUnitHour + "aws/a", JobSize: catalog.Dec("500"), JobsPerMonth: catalog.Dec("1"),
			Utilisation: catalog.Dec("0.9"), IdleHoursPerMonth: catalog.Dec("0"), HorizonMonths: 12},
		Options: []compare.TCOOption{
			tcoOD("a/od", "aws/a", "12.24", "1"),
			tcoSpot("a/spot", "aws/a", "3.6721", "1", tcoRisk(catalog.BandUnder5, "0.05", "60", "10"), "0"),
			tcoCommit("a/r1y", "aws/a", catalog.Reserved1yAllUpfront, "0", "63000", 12, 0, "1"),
			tcoCommit("a/r3y", "aws/a", catalog.Reserved3yNoUpfront, "4321.5", "0", 36, 0, "1"),
			burst,
			tcoOD("b/od", "gcp/b", "30.5", "2.6"),
			tcoSpot("b/spot", "gcp/b", "9.1", "2.6", tcoRisk("", "0.3", "45", "12.5"), "0"),
			tcoOD("c/od", "azure/c", "3.06", "0.31"),
			tcoSpot("c/spot", "azure/c", "0.918", "0.31", nil, "0.1"),
			tcoCommit("c/sub", "azure/c", catalog.SubscriptionMonth, "2000", "0", 1, 0, "0.31"),
		}}
}

// tcoWith is a copy of in (its options too) changed by f.
func tcoWith(in compare.TCOInput, f func(in *compare.TCOInput)) compare.TCOInput {
	var out compare.TCOInput
	b, _ := json.Marshal(in)
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	f(&out)
	return out
}

// tcoOpt changes the option with the given id.
func tcoOpt(id string, f func(o *compare.TCOOption)) func(in *compare.TCOInput) {
	return func(in *compare.TCOInput) {
		for i := range in.Options {
			if in.Options[i].ID == id {
				f(&in.Options[i])
				return
			}
		}
		panic("no option " + id)
	}
}

// tcoOnly keeps the options with the given ids.
func tcoOnly(ids ...string) func(in *compare.TCOInput) {
	return func(in *compare.TCOInput) {
		var keep []compare.TCOOption
		for _, o := range in.Options {
			for _, id := range ids {
				if o.ID == id {
					keep = append(keep, o)
				}
			}
		}
		in.Options = keep
	}
}

// tcoComputeVectors: compare.TCO on the base input changed at each edge, and
// on inputs it refuses. Each input goes to the script as the JSON text compare
// reads, and compare's answer is computed from that text; a few have numbers
// written as decimal reads them but never writes them (1.50, 5e2, +3).
func tcoComputeVectors(t *testing.T) []tcoVector {
	var out []tcoVector
	add := func(note string, in compare.TCOInput, raw ...string) {
		text := mustMarshal(t, in)
		for i := 0; i+1 < len(raw); i += 2 {
			if !strings.Contains(text, raw[i]) {
				t.Fatalf("%s: %s is not in the input", note, raw[i])
			}
			text = strings.Replace(text, raw[i], raw[i+1], 1)
		}
		out = append(out, tcoComputeVector(t, note, text))
	}
	w := func(f func(w *compare.TCOWorkload)) func(in *compare.TCOInput) {
		return func(in *compare.TCOInput) { f(&in.Workload) }
	}
	base := tcoBase()
	add("base", base)
	for _, m := range []int{1, 2, 11, 12, 13, 23, 24, 25, 35, 36, 37, 59, 60, 61, 119, 120, 121, 599, 600, 0, 601} {
		add(fmt.Sprint("months ", m), tcoWith(base, w(func(w *compare.TCOWorkload) { w.HorizonMonths = m })))
	}
	for _, h := range []string{"0.0000005", "0.000001", "1", "100", "729.9999995", "730", "730.000001", "1459.999999", "1460", "2190", "5000", "100000", "7440000", "7440000.000001", "0", "-5"} {
		add("hours "+h, tcoWith(base, w(func(w *compare.TCOWorkload) { w.JobSize = catalog.Dec(h) })))
	}
	for _, u := range []string{"0.0001", "0.01", "0.3333", "0.5", "0.73", "0.99995", "1", "0", "1.0001", "0.0000000000000000001"} {
		add("utilisation "+u, tcoWith(base, w(func(w *compare.TCOWorkload) { w.Utilisation = catalog.Dec(u) })))
	}
	for _, i := range []string{"0.0000005", "12.25", "100", "744", "744.01", "-1"} {
		add("idle "+i, tcoWith(base, w(func(w *compare.TCOWorkload) { w.IdleHoursPerMonth = catalog.Dec(i) })))
	}
	for _, j := range []string{"0", "0.5", "3", "1000000", "1000001", "-1"} {
		add("jobs "+j, tcoWith(base, w(func(w *compare.TCOWorkload) { w.JobsPerMonth = catalog.Dec(j) })))
	}
	for _, u := range []string{"gpu_hour:nvidia-a100", "tokens", ""} {
		for _, h := range []string{"999999", "1000000", "1000001", "7440001"} {
			add("unit "+u+" job "+h, tcoWith(base, w(func(w *compare.TCOWorkload) { w.WorkUnit, w.JobSize = u, catalog.Dec(h) })))
		}
	}
	extras := []struct {
		note string
		s    *compare.TCOStorage
		e    *compare.TCOEgress
	}{
		{"storage", &compare.TCOStorage{GB: catalog.Dec("2048"), USDPerGBMonth: catalog.Dec("0.023")}, nil},
		{"egress", nil, &compare.TCOEgress{GBPerMonth: catalog.Dec("500.5"), USDPerGB: catalog.Dec("0.085")}},
		{"both at a half cent", &compare.TCOStorage{GB: catalog.Dec("1"), USDPerGBMonth: catalog.Dec("0.005")}, &compare.TCOEgress{GBPerMonth: catalog.Dec("1"), USDPerGB: catalog.Dec("0.0049")}},
		{"storage too large", &compare.TCOStorage{GB: catalog.Dec("1000000001"), USDPerGBMonth: catalog.Dec("0")}, nil},
		{"storage price too large", &compare.TCOStorage{GB: catalog.Dec("1"), USDPerGBMonth: catalog.Dec("1000.01")}, nil},
		{"egress negative", nil, &compare.TCOEgress{GBPerMonth: catalog.Dec("-1"), USDPerGB: catalog.Dec("0")}},
		{"egress price too large", nil, &compare.TCOEgress{GBPerMonth: catalog.Dec("0"), USDPerGB: catalog.Dec("1000.5")}},
	}
	for _, x := range extras {
		add(x.note, tcoWith(base, func(in *compare.TCOInput) { in.Storage, in.Egress = x.s, x.e }))
	}
	// Each option alone, and pairs for the comparisons.
	for _, o := range base.Options {
		add("only "+o.ID, tcoWith(base, tcoOnly(o.ID)))
	}
	for _, ids := range [][]string{{"a/od", "b/od"}, {"b/od", "a/od"}, {"a/r1y", "c/sub"}, {"a/spot", "b/spot", "c/spot"}} {
		add("only "+strings.Join(ids, " "), tcoWith(base, tcoOnly(ids...)))
	}
	add("equal hourly prices", tcoWith(base, func(in *compare.TCOInput) {
		tcoOnly("a/od", "b/od", "c/od")(in)
		for i := range in.Options {
			in.Options[i].PayAsYouGo.USDPerHour = catalog.Dec("5")
		}
	}))
	add("free on-demand", tcoWith(base, tcoOpt("a/od", func(o *compare.TCOOption) { o.PayAsYouGo.USDPerHour = catalog.Dec("0") })))
	add("on-demand at the most", tcoWith(base, tcoOpt("a/od", func(o *compare.TCOOption) { o.PayAsYouGo.USDPerHour = catalog.Dec("1000000") })))
	add("on-demand over the most", tcoWith(base, tcoOpt("a/od", func(o *compare.TCOOption) { o.PayAsYouGo.USDPerHour = catalog.Dec("1000000.01") })))
	for _, sp := range []string{"0.000001", "3.7", "1000000000000", "0", "1000000000001"} {
		add("speed "+sp, tcoWith(base, tcoOpt("b/od", func(o *compare.TCOOption) { o.Speed.WorkPerHour = catalog.Dec(sp) })))
	}
	out = append(out, tcoSpotVectors(t, base)...)
	out = append(out, tcoCommitVectors(t, base)...)
	out = append(out, tcoRefusalVectors(t, base)...)
	// Numbers as decimal reads them: trailing zeros, exponents, a plus sign,
	// the Unicode minus, a bare point.
	add("job 5.00e2", base, `"job_size":"500"`, `"job_size":"5.00e2"`)
	add("utilisation 0.90", base, `"utilisation":"0.9"`, `"utilisation":"0.90"`)
	add("utilisation 9E-1", base, `"utilisation":"0.9"`, `"utilisation":"9E-1"`)
	add("rate +12.24", base, `"usd_per_hour":"12.24"`, `"usd_per_hour":"+12.24"`)
	add("idle .5", base, `"idle_hours_per_month":"0"`, `"idle_hours_per_month":".5"`)
	add("idle 5.", base, `"idle_hours_per_month":"0"`, `"idle_hours_per_month":"5."`)
	add("idle minus", base, `"idle_hours_per_month":"0"`, "\"idle_hours_per_month\":\"\u22121\"")
	add("job 1e41", base, `"job_size":"500"`, `"job_size":"1e41"`)
	add("job 41 digits", base, `"job_size":"500"`, `"job_size":"`+"1"+strings.Repeat("0", 40)+`"`)
	add("job 1e-59", base, `"job_size":"500"`, `"job_size":"1e-59"`)
	add("job 19 places", base, `"job_size":"500"`, `"job_size":"500.0000000000000000001"`)
	add("job 20 zero places", base, `"job_size":"500"`, `"job_size":"500.00000000000000000000"`)
	add("utilisation 0.000", base, `"utilisation":"0.9"`, `"utilisation":"0.000"`)
	add("jobs as a number", base, `"jobs_per_month":"1"`, `"jobs_per_month":2`)
	add("utilisation as a number", base, `"utilisation":"0.9"`, `"utilisation":0.9`)
	add("job as a number with places", base, `"job_size":"500"`, `"job_size":500.25`)
	add("job as a number 1e50", base, `"job_size":"500"`, `"job_size":1e50`)
	add("rate as a number 1E-7", base, `"usd_per_hour":"12.24"`, `"usd_per_hour":1E-7`)
	add("overhead absent", base, `,"interruption_overhead":"0.1"`, ``)
	return out
}

// tcoComputeVector is compare.TCO's answer to an input's JSON text: the
// options without their steps in words, the break-evens and comparisons
// without their reasons (the script does not write words), or its refusal
// without the leading "tco: ".
func tcoComputeVector(t *testing.T, note, text string) tcoVector {
	t.Helper()
	v := tcoVector{kind: "compute", note: note, call: jsCall{Fn: "compute", Args: []any{json.RawMessage(text)}}}
	var in compare.TCOInput
	if err := json.Unmarshal([]byte(text), &in); err != nil {
		t.Fatalf("%s: %v", note, err)
	}
	res, err := compare.TCO(in)
	if err != nil {
		v.wantErr = strings.TrimPrefix(err.Error(), "tco: ")
		if v.wantErr == err.Error() {
			t.Fatalf("%s: %v does not start with tco:", note, err)
		}
		return v
	}
	var tree map[string]any
	if err := json.Unmarshal([]byte(mustMarshal(t, res)), &tree); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"options", "break_evens", "comparisons"} {
		for _, x := range tree[k].([]any) {
			delete(x.(map[string]any), "steps")
			delete(x.(map[string]any), "reason")
		}
	}
	v.want = map[string]any{"options": tree["options"], "break_evens": tree["break_evens"], "comparisons": tree["comparisons"]}
	return v
}

// tcoSpotVectors: the interruption model at each band, at entered rates from
// none to the most, at checkpoint and restart minutes at their ends, and a
// flat overhead.
func tcoSpotVectors(t *testing.T, base compare.TCOInput) []tcoVector {
	var out []tcoVector
	add := func(note string, in compare.TCOInput) {
		out = append(out, tcoComputeVector(t, note, mustMarshal(t, in)))
	}
	risk := func(f func(r *compare.TCOSpotRisk)) func(in *compare.TCOInput) {
		return tcoOpt("b/spot", func(o *compare.TCOOption) { f(o.PayAsYouGo.Risk) })
	}
	for _, b := range catalog.InterruptionBands {
		add("band "+string(b), tcoWith(base, tcoOpt("a/spot", func(o *compare.TCOOption) {
			m := b.MonthlyRate()
			o.PayAsYouGo.Risk.Band, o.PayAsYouGo.Risk.InterruptionsPerMonth = b, &m
		})))
	}
	for _, r := range []string{"0", "0.05", "0.3", "1", "7.77", "100", "100.01", "-0.1"} {
		add("rate "+r, tcoWith(base, risk(func(k *compare.TCOSpotRisk) { d := catalog.Dec(r); k.InterruptionsPerMonth = &d })))
	}
	for _, c := range []string{"0.001", "1", "15", "59.5", "10080", "0", "10080.5"} {
		add("checkpoint "+c, tcoWith(base, risk(func(k *compare.TCOSpotRisk) { k.CheckpointMinutes = catalog.Dec(c) })))
	}
	for _, r := range []string{"0", "0.25", "10", "10080", "10081", "-1"} {
		add("restart "+r, tcoWith(base, risk(func(k *compare.TCOSpotRisk) { k.RestartMinutes = catalog.Dec(r) })))
	}
	for _, o := range []string{"0", "0.05", "0.1", "1", "1.5", "-0.1"} {
		add("overhead "+o, tcoWith(base, tcoOpt("c/spot", func(op *compare.TCOOption) { op.PayAsYouGo.InterruptionOverhead = catalog.Dec(o) })))
	}
	add("spot alone, rate 100, hours 7440000", tcoWith(base, func(in *compare.TCOInput) {
		tcoOnly("b/spot")(in)
		in.Workload.JobSize = catalog.Dec("7440000")
		d := catalog.Dec("100")
		in.Options[0].PayAsYouGo.Risk.InterruptionsPerMonth = &d
	}))
	add("burst at 2,190 hours", tcoWith(base, func(in *compare.TCOInput) { in.Workload.JobSize = catalog.Dec("2190") }))
	return out
}

// tcoCommitVectors: commitments of every term against the horizon, with and
// without an upfront payment, instances worked out (at least one alone, the
// busy ones under a burst) or given, and a burst on demand.
func tcoCommitVectors(t *testing.T, base compare.TCOInput) []tcoVector {
	var out []tcoVector
	add := func(note string, in compare.TCOInput) {
		out = append(out, tcoComputeVector(t, note, mustMarshal(t, in)))
	}
	for _, term := range []int{1, 3, 12, 36, 120, 0, 121} {
		for _, months := range []int{1, 12, 37} {
			add(fmt.Sprintf("term %d over %d months", term, months), tcoWith(base, func(in *compare.TCOInput) {
				in.Workload.HorizonMonths = months
				tcoOpt("a/r3y", func(o *compare.TCOOption) {
					o.Commitment.TermMonths = term
					o.Commitment.UpfrontUSD = catalog.Dec("1000.005")
				})(in)
			}))
		}
	}
	for _, n := range []int{1, 3, 10000, 10001, -1} {
		add(fmt.Sprint("instances ", n), tcoWith(base, tcoOpt("a/r1y", func(o *compare.TCOOption) { o.Commitment.Instances = n })))
		add(fmt.Sprint("burst instances ", n), tcoWith(base, tcoOpt("a/burst", func(o *compare.TCOOption) { o.Commitment.Instances = n })))
	}
	for _, h := range []string{"656.999999", "657", "657.000001", "1313.999999", "1971", "6570"} {
		add("commitment alone, hours "+h, tcoWith(base, func(in *compare.TCOInput) {
			tcoOnly("a/r1y", "a/burst", "c/sub")(in)
			in.Workload.JobSize = catalog.Dec(h)
		}))
	}
	add("needed hours a hair under 730", tcoWith(base, func(in *compare.TCOInput) {
		tcoOnly("a/r1y", "a/burst")(in)
		in.Workload.JobSize, in.Workload.Utilisation, in.Workload.IdleHoursPerMonth = catalog.Dec("0.000000000000000001"), catalog.Dec("1"), catalog.Dec("729.99999999999999999")
	}))
	add("needed hours a hair under 1,460, burst", tcoWith(base, func(in *compare.TCOInput) {
		tcoOnly("a/burst")(in)
		in.Workload.JobSize, in.Workload.Utilisation, in.Workload.IdleHoursPerMonth = catalog.Dec("730"), catalog.Dec("1"), catalog.Dec("729.999999999999999999")
	}))
	add("given instances too few", tcoWith(base, func(in *compare.TCOInput) {
		tcoOpt("a/r1y", func(o *compare.TCOOption) { o.Commitment.Instances = 1 })(in)
		in.Workload.JobSize = catalog.Dec("5000")
	}))
	add("burst on demand", tcoWith(base, tcoOpt("a/burst", func(o *compare.TCOOption) {
		o.PayAsYouGo = &compare.TCOPayAsYouGo{Billing: catalog.OnDemand, USDPerHour: catalog.Dec("12.24")}
	})))
	add("burst with a flat overhead", tcoWith(base, tcoOpt("a/burst", func(o *compare.TCOOption) {
		o.PayAsYouGo.Risk, o.PayAsYouGo.InterruptionOverhead = nil, catalog.Dec("0.25")
	})))
	for _, m := range []string{"0", "0.01", "999999999.99", "1000000000", "1000000000.01"} {
		add("monthly "+m, tcoWith(base, tcoOpt("a/r3y", func(o *compare.TCOOption) { o.Commitment.USDPerMonth = catalog.Dec(m) })))
	}
	for _, u := range []string{"0", "0.005", "100000000000", "100000000000.01"} {
		add("upfront "+u, tcoWith(base, tcoOpt("a/r1y", func(o *compare.TCOOption) { o.Commitment.UpfrontUSD = catalog.Dec(u) })))
	}
	add("break-even never", tcoWith(base, tcoOpt("a/r1y", func(o *compare.TCOOption) { o.Commitment.UpfrontUSD = catalog.Dec("200000") })))
	return out
}

// tcoRefusalVectors: every refusal of TCOInput.Validate that the ranges do
// not cover, in its words; option ids quoted as catalog.Excerpt quotes them.
func tcoRefusalVectors(t *testing.T, base compare.TCOInput) []tcoVector {
	var out []tcoVector
	add := func(note string, in compare.TCOInput) {
		out = append(out, tcoComputeVector(t, note, mustMarshal(t, in)))
	}
	for _, s := range []int{0, 2} {
		add(fmt.Sprint("schema ", s), tcoWith(base, func(in *compare.TCOInput) { in.Schema = s }))
	}
	add("no options", tcoWith(base, func(in *compare.TCOInput) { in.Options = nil }))
	add("empty id", tcoWith(base, tcoOpt("b/od", func(o *compare.TCOOption) { o.ID = "" })))
	add("duplicate id", tcoWith(base, tcoOpt("b/od", func(o *compare.TCOOption) { o.ID = "a/od" })))
	for _, id := range []string{strings.Repeat("x", 40), strings.Repeat("y", 41), "naïve \"quoted\" \\ id\ttab", "中文的选项" + strings.Repeat("长", 40), "ctl\x01\x7f\u200b\u00a0end"} {
		add("no billing, id "+id, tcoWith(base, tcoOpt("c/sub", func(o *compare.TCOOption) { o.ID, o.Commitment = id, nil })))
	}
	add("risk on on-demand", tcoWith(base, tcoOpt("a/od", func(o *compare.TCOOption) { o.PayAsYouGo.Risk = tcoRisk("", "0.1", "60", "10") })))
	add("risk with an overhead", tcoWith(base, tcoOpt("a/spot", func(o *compare.TCOOption) { o.PayAsYouGo.InterruptionOverhead = catalog.Dec("0.1") })))
	add("no band, no rate", tcoWith(base, tcoOpt("b/spot", func(o *compare.TCOOption) { o.PayAsYouGo.Risk.InterruptionsPerMonth = nil })))
	add("band, no rate", tcoWith(base, tcoOpt("a/spot", func(o *compare.TCOOption) { o.PayAsYouGo.Risk.InterruptionsPerMonth = nil })))
	for _, b := range []string{"<6%", "", "5-10", "20%+"} {
		add("band "+b, tcoWith(base, tcoOpt("a/spot", func(o *compare.TCOOption) { o.PayAsYouGo.Risk.Band = catalog.InterruptionBand(b) })))
	}
	add("commitment alone exceeded", tcoWith(base, func(in *compare.TCOInput) {
		tcoOpt("c/sub", func(o *compare.TCOOption) { o.Commitment.Instances = 2 })(in)
		in.Workload.JobSize = catalog.Dec("1000")
	}))
	return out
}

// tcoVectorScenario is a scenario's comparison as compare.TCOPresets makes
// it, by hand: a base offer with every billing group, an offer whose spot has
// no band, and one whose options' speeds differ.
func tcoVectorScenario() *compare.ScenarioTCO {
	base := tcoBase()
	opt := func(id string) compare.TCOOption {
		for _, o := range base.Options {
			if o.ID == id {
				return o
			}
		}
		panic(id)
	}
	slow := opt("c/sub")
	slow.Speed = tcoSpeed("0.3")
	return &compare.ScenarioTCO{ID: "vectors", WorkUnit: compare.WorkUnitHour + "aws/a", BaseSpeed: catalog.Dec("1.25"), Base: "aws/a",
		Source: &compare.TCOSource{CatalogTakenAt: "2026-12-01T00:00:00Z", FXBase: catalog.USD, FXDate: "2026-12-01", FXSource: "vectors"},
		Offers: []compare.TCOOffer{
			{Instance: "aws/a", Type: "a", Region: "us-east-1", Provider: "aws", Hardware: "8x a", Preset: true, Options: []compare.TCOGroupOption{
				{Group: compare.TCOGroupOnDemand, Option: opt("a/od")}, {Group: compare.TCOGroupSpot, Option: opt("a/spot")},
				{Group: compare.TCOGroupCommit1y, Option: opt("a/r1y")}, {Group: compare.TCOGroupCommit3y, Option: opt("a/r3y")},
				{Group: compare.TCOGroupBurst, Option: opt("a/burst")}}},
			{Instance: "gcp/b", Type: "b", Region: "us-central1", Provider: "gcp", Hardware: "8x b", Preset: true, Options: []compare.TCOGroupOption{
				{Group: compare.TCOGroupOnDemand, Option: opt("b/od")}, {Group: compare.TCOGroupSpot, Option: opt("b/spot")}}},
			{Instance: "azure/c", Type: "c", Region: "eastus", Provider: "azure", Hardware: "8x c", Options: []compare.TCOGroupOption{
				{Group: compare.TCOGroupOnDemand, Option: opt("c/od")}, {Group: compare.TCOGroupSpot, Option: func() compare.TCOOption {
					o := opt("b/spot")
					o.ID, o.Instance, o.Speed = "c/spot-risk", "azure/c", tcoSpeed("0.31")
					return o
				}()}, {Group: compare.TCOGroupSubMonth, Option: slow}}},
		}}
}
