package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/browsertest"
	"github.com/gpuatlas/gpuatlas/internal/cli"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/sitegen"
	"github.com/gpuatlas/gpuatlas/words"
)

// buildScenarioSite renders sitegen's test snapshot with the project's scenarios
// (data/scenarios.yaml): the scenario pages and the TCO page; once for the
// package's tests (a shared site: never change it).
func buildScenarioSite(t *testing.T) string {
	return sites.Get(t, "scenarios", func(t *testing.T, out string) {
		set := datatest.Load(t, compare.LoadScenarios)
		snap := testSnapshot(t)
		ref, err := catalog.LoadGPUReference(os.DirFS(testdata))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := compare.NewScenarioReport(set.Scenarios, snap, ref, nil)
		if err != nil {
			t.Fatal(err)
		}
		renderSite(t, out, sitegen.Options{Snapshot: snap, Reference: ref, Scenarios: rep})
	})
}

// cliTCO runs `gpuatlas tco --input FILE --format json` on an input JSON.
func cliTCO(t *testing.T, input string) compare.TCOResult {
	t.Helper()
	var res compare.TCOResult
	runTCOInput(t, input, &res)
	return res
}

// runTCOInput runs `gpuatlas tco --input FILE --format json` and more args
// on an input JSON, and decodes the output into v.
func runTCOInput(t *testing.T, input string, v any, more ...string) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "input.json")
	if err := os.WriteFile(f, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	env := cli.Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	args := append([]string{"tco", "--input", f, "--format", "json"}, more...)
	if code := cli.Main(env, args); code != 0 {
		t.Fatalf("gpuatlas %v: exit %d: %s\ninput: %s", args, code, stderr.String(), input)
	}
	if err := json.Unmarshal(stdout.Bytes(), v); err != nil {
		t.Fatalf("gpuatlas tco output: %v", err)
	}
}

// readJSONFile decodes the JSON file at path into v.
func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// sameOptions fails t for each option the script (got) computed otherwise
// than Go (want, from the source named by from), but for the steps in words,
// which the script does not write.
func sameOptions(t *testing.T, what, from string, want, got []compare.TCOOptionResult) {
	t.Helper()
	for j, o := range want {
		s := got[j]
		s.Steps = o.Steps
		wb, _ := json.Marshal(o)
		gb, _ := json.Marshal(s)
		if !bytes.Equal(wb, gb) {
			t.Errorf("%s: option %s:\n script %s\n %-6s %s", what, o.ID, gb, from, wb)
		}
	}
}

// cliTCOIn runs `gpuatlas tco --input FILE --format json --currency CUR
// --catalog <the test snapshot>`: the result and its money in the currency.
func cliTCOIn(t *testing.T, input, currency string) (compare.TCOResult, compare.TCOInCurrency) {
	t.Helper()
	var res struct {
		compare.TCOResult
		InCurrency *compare.TCOInCurrency `json:"in_currency"`
	}
	runTCOInput(t, input, &res, "--currency", currency, "--catalog", filepath.Join(testdata, "snapshot.json"))
	if res.InCurrency == nil || string(res.InCurrency.Currency) != currency {
		t.Fatalf("gpuatlas tco --currency %s gave no figures in it", currency)
	}
	return res.TCOResult, *res.InCurrency
}

// tcoTables are the body cells of a result table, a cumulative table and a
// break-even table, as text.
type tcoTables struct {
	Res [][]string `json:"res"`
	Cum [][]string `json:"cum"`
	BE  [][]string `json:"be"`
}

func readTCOTables(t *testing.T, ctx context.Context, res, cum, be string) tcoTables {
	t.Helper()
	return browsertest.Eval[tcoTables](t, ctx, fmt.Sprintf(`(() => {
		const rows = sel => [...document.querySelectorAll(sel + ' tbody tr')].map(r => [...r.children].map(c => {
			const k = c.cloneNode(true); k.querySelectorAll('small').forEach(s => s.remove()); return k.textContent.trim(); }));
		return {res: rows(%s), cum: rows(%s), be: rows(%s)};
	})()`, browsertest.JSString(res), browsertest.JSString(cum), browsertest.JSString(be)))
}

// assertAgree checks every figure of the tables against the command line's result,
// to the cent, written as the site writes numbers for people (sitegen's
// FormatMoney, FormatRate, FormatQuantity, FormatShare): each month's cumulative
// cost, each option's total, USD per hour, needed hours and cost per unit of
// work, and each break-even.
func assertAgree(t *testing.T, what string, res compare.TCOResult, tb tcoTables) {
	t.Helper()
	months := res.Input.Workload.HorizonMonths
	if len(tb.Cum) != months {
		t.Fatalf("%s: %d months in the cumulative table, the command line has %d", what, len(tb.Cum), months)
	}
	for m, row := range tb.Cum {
		if len(row) != len(res.Options)+1 {
			t.Fatalf("%s: month %d has %d columns, want %d", what, m+1, len(row)-1, len(res.Options))
		}
		for i, o := range res.Options {
			if want := words.FormatMoney(o.CumulativeUSD[m]); row[i+1] != want {
				t.Errorf("%s: month %d %s: cumulative %s, command line %s", what, m+1, o.ID, row[i+1], want)
			}
		}
	}
	if len(tb.Res) != len(res.Options) {
		t.Fatalf("%s: %d result rows, command line %d options", what, len(tb.Res), len(res.Options))
	}
	for i, o := range res.Options {
		row := tb.Res[i]
		for _, c := range []struct {
			name, got, want string
		}{
			{"USD per hour", row[2], words.FormatRate(o.USDPerHour)},
			{"needed hours", row[3], words.FormatQuantity(o.NeededHoursPerMonth)},
			{"hours per job", row[5], words.FormatQuantity(o.HoursPerJob)},
			{"total", row[6], words.FormatMoney(o.TotalUSD)},
			{"cost per unit", row[7], words.FormatRate(o.CostPerUnitUSD)},
		} {
			if c.got != c.want {
				t.Errorf("%s: %s: %s %s, command line %s", what, o.ID, c.name, c.got, c.want)
			}
		}
	}
	if len(tb.BE) != len(res.BreakEvens) {
		t.Fatalf("%s: %d break-evens, command line %d", what, len(tb.BE), len(res.BreakEvens))
	}
	for i, b := range res.BreakEvens {
		if tb.BE[i][2] != words.FormatQuantity(b.HoursPerMonth) || !strings.HasPrefix(tb.BE[i][3], words.FormatShare(b.Utilisation)+" %") {
			t.Errorf("%s: break-even %v, command line %s hours, %s", what, tb.BE[i], b.HoursPerMonth, b.Utilisation)
		}
	}
}

// TestBrowser_TCOCalculatorAgreesWithCLI is the TCO's agreement test: for each
// scenario, the calculator's figures for its preset, the static tables of the
// page (compare.TCO at build time) and `gpuatlas tco --input` on the input the
// calculator shows agree to the cent; and again after changing hours, months,
// utilisation, idle hours, spot overhead, every billing group and every offer.
func TestBrowser_TCOCalculatorAgreesWithCLI(t *testing.T) {
	t.Parallel()
	site, ctx, exceptions := browse(t, buildScenarioSite(t))
	browsertest.Do(t, ctx, "open tco", chromedp.Navigate(site+"/tco.html"), chromedp.WaitReady(chromedp.CSS(`#calc-form[data-state="ok"]`)))
	ids := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#calc-scenario option')].map(o => o.value)`)
	if len(ids) < 5 {
		t.Fatalf("the calculator offers %d scenarios: %v", len(ids), ids)
	}
	browsertest.Screenshot(t, ctx, "tco-desktop.png")
	browsertest.ElementShot(t, ctx, "#tco-llm-finetune", "tco-section-llm-finetune.png")
	input := func() string {
		if st := browsertest.Eval[string](t, ctx, `document.getElementById('calc-form').dataset.state + ' ' + document.getElementById('calc-error').textContent`); st != "ok " {
			t.Fatalf("calculator state: %s", st)
		}
		return browsertest.Eval[string](t, ctx, `document.getElementById('calc-input').textContent`)
	}
	for _, id := range ids {
		browsertest.SetControl(t, ctx, "calc-scenario", id)
		// The preset: the page's billing groups.
		browsertest.Do(t, ctx, "preset groups", chromedp.Evaluate[chromedp.Void](`(() => {
			const cfg = JSON.parse(document.getElementById('tco-config').textContent);
			document.querySelectorAll('#calc-groups input').forEach(b => { b.checked = cfg.preset_groups.includes(b.value); });
			document.getElementById('calc-form').dispatchEvent(new Event('change'));
		})()`))
		in := input()
		res := cliTCO(t, in)
		assertAgree(t, id+" preset, calculator", res, readTCOTables(t, ctx, "#calc-res", "#calc-cum", "#calc-be"))
		a := "#tco-" + id
		assertAgree(t, id+" preset, static tables", res, readTCOTables(t, ctx, a+"-res", a+"-cum", a+"-be"))

		// Everything changed.
		for _, c := range [][2]string{{"calc-hours", "333.3"}, {"calc-months", "15"}, {"calc-util", "73.5"}, {"calc-idle", "12.25"},
			{"calc-ckpt", "45"}, {"calc-restart", "12.5"}, {"calc-rate", "0.3"}} {
			browsertest.SetControl(t, ctx, c[0], c[1])
		}
		browsertest.Do(t, ctx, "every offer and billing group", chromedp.Evaluate[chromedp.Void](`(() => {
			document.querySelectorAll('#calc-groups input, #calc-offers input').forEach(b => { b.checked = true; });
			document.getElementById('calc-form').dispatchEvent(new Event('change'));
		})()`))
		in = input()
		var parsed compare.TCOInput
		if err := json.Unmarshal([]byte(in), &parsed); err != nil {
			t.Fatal(err)
		}
		w := parsed.Workload
		if w.HorizonMonths != 15 || w.Utilisation.String() != "0.735" || w.IdleHoursPerMonth.String() != "12.25" {
			t.Errorf("%s: the calculator's input does not hold the entered figures: %+v", id, w)
		}
		for _, o := range parsed.Options {
			p := o.PayAsYouGo
			if p == nil || p.Billing != catalog.Spot {
				continue
			}
			r := p.Risk
			if r == nil || r.CheckpointMinutes.String() != "45" || r.RestartMinutes.String() != "12.5" || r.InterruptionsPerMonth == nil ||
				(r.Band == "" && r.InterruptionsPerMonth.String() != "0.3") || !p.InterruptionOverhead.IsZero() {
				t.Errorf("%s: %s: spot risk %+v, want 45 and 12.5 minutes and the entered rate 0.3 where no band", id, o.ID, r)
			}
		}
		res = cliTCO(t, in)
		assertAgree(t, id+" changed", res, readTCOTables(t, ctx, "#calc-res", "#calc-cum", "#calc-be"))
		// The model behind the tables, called directly, agrees too (every figure,
		// monthly costs and comparisons included).
		js := browsertest.Eval[map[string]any](t, ctx, `window.GPUAtlasTCO.compute(JSON.parse(document.getElementById('calc-input').textContent))`)
		var got struct {
			Options []struct {
				ID      string   `json:"id"`
				Monthly []string `json:"monthly_usd"`
				Total   string   `json:"total_usd"`
				PerJob  string   `json:"cost_per_job_usd"`
				Commit  int      `json:"committed_instances"`
				PaygH   string   `json:"pay_as_you_go_hours_per_month"`
			} `json:"options"`
		}
		b, _ := json.Marshal(js)
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		for i, o := range res.Options {
			g := got.Options[i]
			if g.ID != o.ID || g.Commit != o.CommittedInstances || g.PaygH != o.PayAsYouGoHoursPerMonth.String() || g.PerJob != o.CostPerJobUSD.String() {
				t.Errorf("%s: %s: script %+v, command line committed %d, pay-as-you-go hours %s, per job %s", id, o.ID, g, o.CommittedInstances, o.PayAsYouGoHoursPerMonth, o.CostPerJobUSD)
			}
			for m, v := range o.MonthlyUSD {
				if g.Monthly[m] != v.String() {
					t.Errorf("%s: %s month %d: script %s, command line %s", id, o.ID, m+1, g.Monthly[m], v)
				}
			}
		}
		var cmps []map[string]string
		b, _ = json.Marshal(js["comparisons"])
		if err := json.Unmarshal(b, &cmps); err != nil {
			t.Fatal(err)
		}
		if len(cmps) != len(res.Comparisons) {
			t.Fatalf("%s: script has %d comparisons, command line %d", id, len(cmps), len(res.Comparisons))
		}
		for i, c := range res.Comparisons {
			g := cmps[i]
			if g["a"] != c.A || g["b"] != c.B || g["hourly_more_pct"] != c.HourlyMorePct.String() || g["sooner_pct"] != c.SoonerPct.String() || g["total_more_pct"] != c.TotalMorePct.String() {
				t.Errorf("%s: comparison %v, command line %+v", id, g, c)
			}
		}
		if id == "llm-finetune" {
			browsertest.Screenshot(t, ctx, "tco-calculator-changed.png")
			browsertest.ElementShot(t, ctx, "#calculator", "tco-calculator.png")
		}
		// Back to the preset figures for the next scenario.
		for _, c := range [][2]string{{"calc-hours", "500"}, {"calc-months", "12"}, {"calc-util", "90"}, {"calc-idle", "0"},
			{"calc-ckpt", "60"}, {"calc-restart", "10"}, {"calc-rate", ""}} {
			browsertest.SetControl(t, ctx, c[0], c[1])
		}
	}
	// In CNY: the calculator's figures are the command line's, converted at
	// the snapshot's rate, to the fen; the charts are drawn; every input is in
	// the URL, and the URL brings them back.
	browsertest.SetControl(t, ctx, "calc-scenario", ids[0])
	browsertest.SetControl(t, ctx, "calc-months", "7")
	browsertest.SetControl(t, ctx, "calc-currency", "CNY")
	in := input()
	usd, cny := cliTCOIn(t, in, "CNY")
	tb := readTCOTables(t, ctx, "#calc-res", "#calc-cum", "#calc-be")
	if len(tb.Cum) != 7 || len(tb.Res) != len(cny.Options) {
		t.Fatalf("CNY tables: %d months, %d options; want 7 and %d", len(tb.Cum), len(tb.Res), len(cny.Options))
	}
	for i, o := range cny.Options {
		for m := range tb.Cum {
			if got, want := tb.Cum[m][i+1], words.FormatMoney(o.Cumulative[m]); got != want {
				t.Errorf("CNY: %s month %d: calculator %s, command line %s", o.ID, m+1, got, want)
			}
		}
		row := tb.Res[i]
		if row[2] != words.FormatRate(o.PerHour) || row[6] != words.FormatMoney(o.Total) || row[7] != words.FormatRate(o.CostPerUnit) {
			t.Errorf("CNY: %s: calculator %v; command line %s per hour, total %s, per unit %s", o.ID, row, o.PerHour, o.Total, o.CostPerUnit)
		}
		if usd.Options[i].TotalUSD.Equal(o.Total) {
			t.Errorf("CNY: %s: the total %s is the USD figure", o.ID, o.Total)
		}
	}
	if fx := browsertest.Eval[string](t, ctx, `document.getElementById('calc-fx').textContent`); !strings.Contains(fx, cny.Rate.String()) || !strings.Contains(fx, cny.FXDate) {
		t.Errorf("the rate %s and its date %s are not shown: %q", cny.Rate, cny.FXDate, fx)
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('#calc-chart-cum path.series').length`); n != len(cny.Options) {
		t.Errorf("the cumulative chart draws %d lines for %d options", n, len(cny.Options))
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('#calc-chart-unit rect.bar').length`); n != len(cny.Options) {
		t.Errorf("the cost per unit chart draws %d bars for %d options", n, len(cny.Options))
	}
	if noise := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#calc-charts text')].map(e => e.textContent).filter(s => /\d\.\d{7,}|0000000|9999999/.test(s))`); len(noise) > 0 {
		t.Errorf("chart labels with float noise: %q", noise)
	}
	browsertest.ElementShot(t, ctx, "#calculator", "tco-calculator-cny.png")
	search := browsertest.Eval[string](t, ctx, `location.search`)
	for _, want := range []string{"scenario=" + ids[0], "m=7", "cur=CNY", "h=", "u=", "i=", "c=", "r=", "x=", "g=", "o="} {
		if !strings.Contains(search, want) {
			t.Errorf("the URL %s lacks %s", search, want)
		}
	}
	browsertest.Do(t, ctx, "reopen from the URL", chromedp.Navigate(site+"/tco.html"+search), chromedp.WaitReady(chromedp.CSS(`#calc-form[data-state="ok"]`)))
	if again := input(); again != in {
		t.Errorf("the URL does not bring the inputs back:\n%s\nwant\n%s", again, in)
	}
	if cur := browsertest.Eval[string](t, ctx, `document.getElementById('calc-currency').value`); cur != "CNY" {
		t.Errorf("currency from the URL: %s", cur)
	}

	// Bad input says what is wrong and shows no figures.
	browsertest.SetControl(t, ctx, "calc-util", "120")
	if msg := browsertest.Eval[string](t, ctx, `document.getElementById('calc-error').textContent`); !strings.Contains(msg, "100") {
		t.Errorf("utilisation 120 %%: error %q", msg)
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('#calc-out table').length`); n != 0 {
		t.Errorf("figures shown for a bad input: %d tables", n)
	}
	exceptions.Check(t)
}

// TestBrowser_TCOSpotRiskCases runs the shared spot test set
// (compare/testdata/tco/spot_risk.cases.json, also run by compare's
// TestTCO_SpotRiskSharedCases) through the site's script and the command line:
// every figure of every option agrees, interruptions and lost hours included,
// and each total is the set's, to the cent.
func TestBrowser_TCOSpotRiskCases(t *testing.T) {
	t.Parallel()
	site, ctx, exceptions := browse(t, buildScenarioSite(t))
	browsertest.Do(t, ctx, "open tco", chromedp.Navigate(site+"/tco.html"), chromedp.WaitReady(chromedp.CSS(`#calc-form[data-state="ok"]`)))
	var cases []compare.SpotRiskCase
	readJSONFile(t, filepath.Join("..", "..", "compare", "testdata", "tco", "spot_risk.cases.json"), &cases)
	for _, c := range cases {
		in, _ := json.Marshal(c.Input)
		want := cliTCO(t, string(in))
		got := browsertest.Eval[json.RawMessage](t, ctx, `window.GPUAtlasTCO.compute(`+string(in)+`)`)
		var g struct {
			Options []compare.TCOOptionResult `json:"options"`
		}
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%s: %v: %s", c.Name, err, got)
		}
		if len(g.Options) != len(want.Options) {
			t.Fatalf("%s: script %d options, command line %d", c.Name, len(g.Options), len(want.Options))
		}
		sameOptions(t, c.Name, "CLI", want.Options, g.Options)
		for j, o := range want.Options {
			if s := g.Options[j]; j < len(c.WantTotalUSD) && s.TotalUSD.String() != c.WantTotalUSD[j] {
				t.Errorf("%s: option %s: script total %s, the set's %s", c.Name, o.ID, s.TotalUSD, c.WantTotalUSD[j])
			}
		}
	}
	exceptions.Check(t)
}

// TestBrowser_TCODecimalEdgeCases checks the script's arithmetic on inputs built
// to hit its rounding: halves at each rounding step, upfront terms running past
// the horizon, a burst above whole committed instances, fractional speeds; and the
// repository's golden TCO input. Each must equal compare.TCO exactly.
func TestBrowser_TCODecimalEdgeCases(t *testing.T) {
	t.Parallel()
	site, ctx, _ := browse(t, buildScenarioSite(t))
	browsertest.Do(t, ctx, "open tco", chromedp.Navigate(site+"/tco.html"), chromedp.WaitReady(chromedp.CSS(`#calc-form[data-state="ok"]`)))
	var base compare.TCOInput
	readJSONFile(t, filepath.Join("..", "..", "compare", "testdata", "tco", "mixed_billing.input.json"), &base)
	inputs := []compare.TCOInput{base}
	for i, w := range []struct {
		job, jobs, util, idle string
		months                int
	}{
		{"0.0000005", "1", "1", "0", 1}, {"1.0000005", "3", "0.3333", "0.0000015", 37}, {"2190", "1", "1", "0", 25},
		{"729.9999995", "1", "0.97", "0.0000005", 13}, {"12345.678901", "0.5", "0.0001", "7", 36}, {"0.125", "0.125", "0.125", "0.125", 600},
	} {
		in := base
		in.Workload = compare.TCOWorkload{WorkUnit: base.Workload.WorkUnit, JobSize: catalog.Dec(w.job), JobsPerMonth: catalog.Dec(w.jobs),
			Utilisation: catalog.Dec(w.util), IdleHoursPerMonth: catalog.Dec(w.idle), HorizonMonths: w.months}
		in.Options = append([]compare.TCOOption(nil), base.Options...)
		for j := range in.Options {
			o := in.Options[j]
			o.Speed.WorkPerHour = o.Speed.WorkPerHour.Add(catalog.Dec(fmt.Sprintf("0.%06d", (i*7919+j*104729)%1000000)))
			if o.PayAsYouGo != nil {
				p := *o.PayAsYouGo
				p.USDPerHour = p.USDPerHour.Add(catalog.Dec("0.00000005"))
				o.PayAsYouGo = &p
			}
			in.Options[j] = o
		}
		inputs = append(inputs, in)
	}
	for i, in := range inputs {
		want, err := compare.TCO(in)
		if err != nil {
			t.Fatalf("input %d: %v", i, err)
		}
		b, _ := json.Marshal(in)
		got := browsertest.Eval[json.RawMessage](t, ctx, `window.GPUAtlasTCO.compute(`+string(b)+`)`)
		var g struct {
			Options []compare.TCOOptionResult `json:"options"`
			BE      []compare.BreakEven       `json:"break_evens"`
			Cmp     []compare.Comparison      `json:"comparisons"`
		}
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("input %d: %v: %s", i, err, got)
		}
		sameOptions(t, fmt.Sprintf("input %d", i), "Go", want.Options, g.Options)
		for j, b := range want.BreakEvens {
			if j >= len(g.BE) || !g.BE[j].HoursPerMonth.Equal(b.HoursPerMonth) || !g.BE[j].Utilisation.Equal(b.Utilisation) || g.BE[j].Commitment != b.Commitment {
				t.Errorf("input %d break-even %d: script %+v, Go %+v", i, j, g.BE, b)
			}
		}
		for j, c := range want.Comparisons {
			if j >= len(g.Cmp) || !g.Cmp[j].HourlyMorePct.Equal(c.HourlyMorePct) || !g.Cmp[j].SoonerPct.Equal(c.SoonerPct) || !g.Cmp[j].TotalMorePct.Equal(c.TotalMorePct) {
				t.Errorf("input %d comparison %d: script %+v, Go %+v", i, j, g.Cmp, c)
			}
		}
	}
}

// TestBrowser_TCONumberFormats holds the calculator's number rules (tco.js) to
// sitegen's, on figures that hit each rule's edges: grouping, halves, whole
// numbers written with decimals, four significant digits below 1, negatives.
func TestBrowser_TCONumberFormats(t *testing.T) {
	t.Parallel()
	site, ctx, _ := browse(t, buildScenarioSite(t))
	browsertest.Do(t, ctx, "open tco", chromedp.Navigate(site+"/tco.html"), chromedp.WaitReady(chromedp.CSS(`#calc-form[data-state="ok"]`)))
	values := []string{"0", "1", "-1", "0.5", "0.05", "0.0123456", "0.099996", "0.2", "0.00000123", "0.99995", "1.005", "1.05", "12.345",
		"999.95", "1000", "1234.5", "1432.4921875", "22.3515625", "12345678.905", "-46.5", "-0.4", "55.96", "2.000", "100.0000001"}
	go2 := map[string]func(decimal.Decimal) string{"money": words.FormatMoney, "rate": words.FormatRate, "qty": words.FormatQuantity, "pct": words.FormatPercent}
	for kind, f := range go2 {
		got := browsertest.Eval[[]string](t, ctx, fmt.Sprintf(`%s.map(v => window.GPUAtlasTCO.format(%s, v))`, mustJSON(t, values), browsertest.JSString(kind)))
		for i, v := range values {
			if want := f(catalog.Dec(v)); got[i] != want {
				t.Errorf("%s(%s): script %q, Go %q", kind, v, got[i], want)
			}
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestBrowser_ScenarioScreenshots(t *testing.T) {
	t.Parallel()
	site := serveSite(t, buildScenarioSite(t))
	browsertest.Shots{
		Pages: []browsertest.Page{
			{Name: "scenarios", Path: "/scenarios/"},
			{Name: "scenario-llm-finetune", Path: "/scenarios/llm-finetune.html"},
			{Name: "zh-scenario-cv-training", Path: "/zh/scenarios/cv-training.html"},
			{Name: "zh-tco", Path: "/zh/tco.html"},
			{Name: "tco", Path: "/tco.html"},
			{Name: "zh-scenario-llm-finetune", Path: "/zh/scenarios/llm-finetune.html"},
		},
		NoExceptions: true,
	}.Save(t, site)
}

// TestBrowser_ChinesePagesDefaultToCNY: the Chinese TCO calculator and explorer
// open in CNY, with the rate and its date shown, the English ones in USD; a
// reader's choice is kept in the URL and across the language switch. (The
// compare page's are in TestBrowser_Compare.)
func TestBrowser_ChinesePagesDefaultToCNY(t *testing.T) {
	t.Parallel()
	site, ctx, exceptions := browse(t, buildScenarioSite(t))
	open := func(path, ready string) {
		browsertest.Do(t, ctx, "open "+path, chromedp.Navigate(site+path), chromedp.WaitReady(chromedp.CSS(ready)))
	}
	calcHead := `document.querySelector('#calc-res thead').textContent`
	open("/zh/tco.html", `#calc-form[data-state="ok"]`)
	if cur := browsertest.Eval[string](t, ctx, `document.getElementById('calc-currency').value`); cur != "CNY" {
		t.Errorf("the Chinese calculator opens in %s, want CNY", cur)
	}
	if head := browsertest.Eval[string](t, ctx, calcHead); !strings.Contains(head, "CNY") || strings.Contains(head, "USD") {
		t.Errorf("the Chinese calculator's table head %q, want CNY", head)
	}
	if fx := browsertest.Eval[string](t, ctx, `document.getElementById('calc-fx').textContent`); !regexp.MustCompile(`1 美元 = \d+\.\d+ CNY`).MatchString(fx) || !regexp.MustCompile(`\d{4}-\d\d-\d\d`).MatchString(fx) {
		t.Errorf("the Chinese calculator does not show the rate and its date: %q", fx)
	}
	if sw := browsertest.Eval[string](t, ctx, `document.getElementById('lang-switch').getAttribute('href')`); strings.Contains(sw, "cur=") {
		t.Errorf("the language switch %q names a currency the reader did not choose", sw)
	}
	// The reader chooses USD: the URL and the link to English keep it.
	browsertest.SetControl(t, ctx, "calc-currency", "USD")
	if head := browsertest.Eval[string](t, ctx, calcHead); !strings.Contains(head, "USD") {
		t.Errorf("after choosing USD the table head is %q", head)
	}
	sw := browsertest.Eval[string](t, ctx, `document.getElementById('lang-switch').getAttribute('href')`)
	if !strings.Contains(browsertest.Eval[string](t, ctx, `location.search`), "cur=USD") || !strings.Contains(sw, "cur=USD") {
		t.Errorf("the choice of USD is not in the URL or the language switch (%q)", sw)
	}
	open("/tco.html", `#calc-form[data-state="ok"]`)
	if cur := browsertest.Eval[string](t, ctx, `document.getElementById('calc-currency').value`); cur != "USD" {
		t.Errorf("the English calculator opens in %s, want USD", cur)
	}
	// A reader who chose CNY in English finds it on the Chinese page too.
	browsertest.SetControl(t, ctx, "calc-currency", "CNY")
	sw = browsertest.Eval[string](t, ctx, `document.getElementById('lang-switch').getAttribute('href')`)
	open(sw, `#calc-form[data-state="ok"]`)
	if cur := browsertest.Eval[string](t, ctx, `document.getElementById('calc-currency').value`); cur != "CNY" || !strings.Contains(sw, "cur=CNY") {
		t.Errorf("after the language switch (%s) the calculator is in %s, want CNY", sw, cur)
	}

	// The explorer: CNY in Chinese, USD in English.
	for _, c := range []struct{ path, want string }{{"/zh/offers.html", "CNY"}, {"/offers.html", "USD"}} {
		open(c.path, `table#offers[data-ready]`)
		if got := browsertest.Eval[string](t, ctx, `document.getElementById('filter-currency').value`); got != c.want {
			t.Errorf("%s opens in %s, want %s", c.path, got, c.want)
		}
	}
	exceptions.Check(t)
}
