package sitegen

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/words"
)

// tcoVector is one call of static/tco.js and compare's answer to it: a value
// (compared as JSON), or the error the script must throw as a ModelError (a
// refused input, in compare's words).
type tcoVector struct {
	kind, note string
	call       jsCall
	want       any
	wantErr    string
}

// TestTCOJS_Vectors holds the TCO calculator's script to compare and words: the
// number formats of its tables (words.Format*), every TCOBounds range
// (Bound.Check), compare.TCO on inputs across the model's edges (hours,
// utilisation, idle hours, horizon against commitment terms, spot risk bands,
// rates, checkpoint and restart minutes, commitments with and without a burst,
// storage, egress, comparisons, numbers written as decimal reads them) with
// every refusal of TCOInput.Validate in its words, TCOResult.InCurrency, and
// ScenarioTCO.Input (the calculator's controls to an input).
func TestTCOJS_Vectors(t *testing.T) {
	testlane.Long(t, "runs the TCO calculator's script under node")
	nodeOrSkip(t)
	var vs []tcoVector
	vs = append(vs, tcoFormatVectors()...)
	vs = append(vs, tcoBoundVectors(t)...)
	vs = append(vs, tcoComputeVectors(t)...)
	vs = append(vs, tcoCurrencyVectors(t)...)
	vs = append(vs, tcoInputVectors(t)...)
	counts := map[string]int{}
	for _, v := range vs {
		counts[v.kind]++
	}
	t.Logf("%d vectors: %v", len(vs), counts)
	if len(vs) < 200 {
		t.Fatalf("only %d vectors", len(vs))
	}
	calls := make([]jsCall, len(vs))
	for i, v := range vs {
		calls[i] = v.call
	}
	got := runScript(t, "tco.js", "GPUAtlasTCO", calls)
	for i, v := range vs {
		name, g := vectorName(v.kind, i, v.note), got[i]
		switch {
		case v.wantErr != "":
			if g.Kind != "ModelError" || g.Error != v.wantErr {
				t.Errorf("%s: script %s %q %s, compare refuses it: %q", name, g.Kind, g.Error, g.OK, v.wantErr)
			}
		case g.Error != "":
			t.Errorf("%s: script throws %s %q, compare answers %s", name, g.Kind, g.Error, mustMarshal(t, v.want))
		default:
			if diff := sameJSON(t, v.want, g.OK); diff != "" {
				t.Errorf("%s: script and compare differ (-compare +script):\n%s", name, diff)
			}
		}
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tcoFormatVectors: the tables' number rules on figures at each rule's edges:
// grouping, halves at each rounding, whole numbers written with decimals, four
// significant digits below 1, negatives, exponents.
func tcoFormatVectors() []tcoVector {
	values := []string{"0", "1", "-1", "0.5", "0.05", "0.0123456", "0.099996", "0.2", "0.00000123", "0.99995", "0.999949", "1.005",
		"1.05", "1.045", "12.345", "999.95", "999.994", "999.995", "1000", "1234.5", "1432.4921875", "22.3515625", "12345678.905",
		"-46.5", "-0.4", "-0.5", "-0.005", "-0.00004", "55.96", "2.000", "100.0000001", "0.1", "0.09999", "0.0001", "0.00005",
		"1e3", "1.5e-3", "123456789012345678901234.5", "-1234567.891", "0.000", "999999.99", "0.99999999"}
	kinds := []struct {
		name string
		f    func(decimal.Decimal) string
	}{{"money", words.FormatMoney}, {"rate", words.FormatRate}, {"qty", words.FormatQuantity}, {"pct", words.FormatPercent}}
	var out []tcoVector
	for _, k := range kinds {
		for _, v := range values {
			out = append(out, tcoVector{kind: "format", note: k.name + " " + v, call: jsCall{Fn: "format", Args: []any{k.name, v}},
				want: k.f(decimal.RequireFromString(v))})
		}
	}
	return out
}

// tcoBoundVectors: every TCOBounds row on figures at its ends and beyond, and
// at the limits of size and precision, written as decimal reads them.
func tcoBoundVectors(t *testing.T) []tcoVector {
	var out []tcoVector
	for _, b := range compare.TCOBounds {
		lo, hi := b.Min.String(), b.Max.String()
		values := []string{lo, hi, b.Min.Sub(decimal.New(1, -6)).String(), b.Min.Add(decimal.New(1, -18)).String(),
			b.Max.Add(decimal.New(5, -1)).String(), b.Max.Add(decimal.New(1, -18)).String(), b.Max.Sub(decimal.New(1, -18)).String(),
			"2.5", "1", "0.000", "-0", "1e41", "1e40", "1e-59", "1e-58", "0.0000000000000000001", "1.000000000000000000000",
			"1" + strings.Repeat("0", 40), "12345678901234567890123456789012345678901", "1E2", "\u22121", "+3", ".5", "5.", "0.1e1"}
		for _, v := range values {
			d, err := decimal.NewFromString(v)
			if err != nil {
				t.Fatalf("%s: %v", v, err)
			}
			want := ""
			if err := b.Check(d); err != nil {
				want = err.Error()
			}
			out = append(out, tcoVector{kind: "bound", note: b.Field + " " + v, call: jsCall{Fn: "check", Args: []any{b.Field, v}}, want: want})
		}
	}
	return out
}

// tcoCurrencyVectors: compute's answers converted at rates that hit the
// roundings (halves of a cent, of 8 places), as TCOResult.InCurrency does.
func tcoCurrencyVectors(t *testing.T) []tcoVector {
	var out []tcoVector
	inputs := []compare.TCOInput{tcoBase(), tcoWith(tcoBase(), func(in *compare.TCOInput) { in.Workload.HorizonMonths = 37 }),
		tcoWith(tcoBase(), func(in *compare.TCOInput) {
			in.Workload.JobSize = catalog.Dec("12345.678901")
			in.Workload.Utilisation = catalog.Dec("0.3333")
		})}
	for i, in := range inputs {
		res, err := compare.TCO(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, rate := range []string{"7.1234", "0.5", "1", "6.99999999", "0.00000001", "1234.56789", "7.12345678"} {
			fx := catalog.FXTable{Base: catalog.USD, Date: "2026-12-01", Source: "vectors", Rates: map[catalog.Currency]decimal.Decimal{catalog.CNY: catalog.Dec(rate)}}
			c, err := res.InCurrency(fx, catalog.CNY)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, tcoVector{kind: "currency", note: fmt.Sprintf("input %d at %s", i, rate),
				call: jsCall{Fn: "inCurrency", Args: []any{json.RawMessage(mustMarshal(t, in)), c.Rate.String()}}, want: c.Options})
		}
	}
	return out
}

// tcoInputVectors: the calculator's controls to an input (ScenarioTCO.Input)
// on a scenario of the page's configuration (calcOptions: offers whose
// options share a speed carry it once): offers and billing groups chosen, spot
// risk with and without a band, an entered rate or none.
func tcoInputVectors(t *testing.T) []tcoVector {
	st := tcoVectorScenario()
	cs := tcoCalcScenario{ID: st.ID, WorkUnit: st.WorkUnit, Base: st.Base, BaseSpeed: st.BaseSpeed, Source: st.Source}
	for _, o := range st.Offers {
		co := tcoCalcOffer{Key: o.Key(), Instance: o.Instance, Type: o.Type, Region: o.Region, Hardware: o.Hardware, Preset: o.Preset}
		co.Options, co.Speed = calcOptions(o.Options)
		cs.Offers = append(cs.Offers, co)
	}
	scen := json.RawMessage(mustMarshal(t, cs))
	rate := func(s string) *decimal.Decimal { d := catalog.Dec(s); return &d }
	all := map[string]bool{}
	for _, o := range st.Offers {
		all[o.Key()] = true
	}
	groups := map[string]bool{}
	for _, g := range compare.TCOGroups {
		groups[g] = true
	}
	var out []tcoVector
	add := func(note string, f func(ch *compare.TCOChoice)) {
		ch := st.PresetChoice()
		f(&ch)
		in := st.Input(ch)
		if len(in.Options) == 0 {
			t.Fatalf("input vector %s chooses no option", note)
		}
		jc := map[string]any{"hours": ch.Hours.String(), "utilisation": ch.Utilisation.String(), "idle": ch.Idle.String(),
			"checkpoint_minutes": ch.CheckpointMinutes.String(), "restart_minutes": ch.RestartMinutes.String(), "months": ch.Months,
			"offers": ch.Offers, "groups": ch.Groups, "spot_rate": nil}
		if ch.SpotRate != nil {
			jc["spot_rate"] = ch.SpotRate.String()
		}
		out = append(out, tcoVector{kind: "input", note: note, call: jsCall{Fn: "inputOf", Args: []any{scen, jc}},
			want: in})
	}
	add("preset", func(*compare.TCOChoice) {})
	for _, h := range []string{"0.5", "333.3", "7440000", "0.000001", "1e3", "730.0000005"} {
		add("hours "+h, func(ch *compare.TCOChoice) { ch.Hours = catalog.Dec(h) })
	}
	for _, u := range []string{"0.735", "1", "0.0001", "0.5"} {
		add("utilisation "+u, func(ch *compare.TCOChoice) { ch.Utilisation = catalog.Dec(u) })
	}
	for _, m := range []int{1, 15, 600} {
		add(fmt.Sprint("months ", m), func(ch *compare.TCOChoice) { ch.Months = m })
	}
	add("idle 12.25", func(ch *compare.TCOChoice) { ch.Idle = catalog.Dec("12.25") })
	for _, r := range []*decimal.Decimal{nil, rate("0"), rate("0.3"), rate("100")} {
		for _, ck := range []string{"60", "0.5", "10080"} {
			add(fmt.Sprintf("every offer and group, rate %v, checkpoint %s", r, ck), func(ch *compare.TCOChoice) {
				ch.Offers, ch.Groups, ch.SpotRate, ch.CheckpointMinutes, ch.RestartMinutes = all, groups, r, catalog.Dec(ck), catalog.Dec("12.5")
			})
		}
	}
	for _, g := range compare.TCOGroups {
		add("group "+g, func(ch *compare.TCOChoice) {
			ch.Offers, ch.Groups, ch.SpotRate = all, map[string]bool{g: true, compare.TCOGroupOnDemand: true}, rate("0.2")
		})
	}
	return out
}
