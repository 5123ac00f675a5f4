package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/internal/browsertest"
)

// cellText is the text of a column's cell in the row with the given key.
func cellText(key, col string) string {
	return `(() => { const c = document.querySelector('tr[data-key="` + key + `"] td.c-` + col + `'); return c ? c.innerText.replace(/\s+/g, ' ').trim() : 'no cell'; })()`
}

// The default explorer is the instance view: one row per instance type in its
// cheapest region, each billing kind's price in its own column with its saving
// against on-demand in the same region, partial GPUs and suspect prices left
// out. The figures are the test snapshot's (sitegen/testdata/snapshot.json).
func TestBrowser_ExplorerInstanceView(t *testing.T) {
	t.Parallel()
	site, ctx, exceptions := browse(t, buildTestSite(t))

	browsertest.Do(t, ctx, "open explorer", chromedp.Navigate(site+"/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
	// Cheapest on-demand USD first: g5.xlarge 1.006 (its 0.0101 in us-west-2 is
	// suspect), 8.5 CNY = 1.1972, 30.2 CNY = 4.2535, 98.32; then the prices
	// that may not lead, however cheap: 9.1 CNY = 1.2817 (made up), 12.4 CNY =
	// 1.7465 (reported). The g6f.large L4 slice (0.125 GPU) is hidden.
	wantRows := []string{"aws/g5.xlarge", "alibaba/ecs.gn7i-c8g1.2xlarge", "alibaba/ecs.gn8is.4xlarge", "aws/p5.48xlarge",
		"volcengine/ecs.gni2.3xlarge", "huawei/pi2.2xlarge.4"}
	if diff := cmp.Diff(wantRows, browsertest.Eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("default rows (-want +got):\n%s", diff)
	}
	if got := browsertest.Eval[string](t, ctx, rowCount); got != "6 of 7 instance types" {
		t.Errorf("row count = %q", got)
	}
	// The server rendered the same rows before the script ran.
	wantHead := []string{"type", "gpu", "gpus", "gpu_memory", "on_demand", "gpu_price", "spot",
		"reserved_1y", "subscription_month", "region", "availability", "vcpus", "memory"}
	if diff := cmp.Diff(wantHead, browsertest.Eval[[]string](t, ctx, headers)); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	for _, c := range []struct{ key, col, want string }{
		{"aws/p5.48xlarge", "on_demand", "98.32"},
		// 39.33 / 98.32 = 0.40: 60% less; observed 2025-11-30, a year before the snapshot.
		{"aws/p5.48xlarge", "spot", "39.33 −60% stale"},
		// 530000 / 8760 = 60.50 an hour: 38% less.
		{"aws/p5.48xlarge", "reserved_1y", "60.50 −38%"},
		{"aws/p5.48xlarge", "gpu_price", "12.29"},
		{"aws/p5.48xlarge", "gpu_memory", "80"},
		{"aws/p5.48xlarge", "region", "US East (N. Virginia) us-east-1 · cheapest of 2 regions"},
		// 3500 CNY a month / 730 = 4.7945 CNY = 0.6753 USD an hour, 44% less than 1.1972.
		{"alibaba/ecs.gn7i-c8g1.2xlarge", "subscription_month", "0.6753 −44% date unknown"},
		{"alibaba/ecs.gn7i-c8g1.2xlarge", "on_demand", "1.1972 date unknown"},
		// The test snapshot has no nominal memory class: the usable 22.36 GiB.
		{"aws/g5.xlarge", "gpu_memory", "22.36"},
	} {
		if got := browsertest.Eval[string](t, ctx, cellText(c.key, c.col)); got != c.want {
			t.Errorf("%s %s = %q, want %q", c.key, c.col, got, c.want)
		}
	}
	if got := browsertest.Eval[string](t, ctx, `document.querySelector('th[data-sort="spot"]').innerText`); got != "Spot (USD/hour) ↕" && got != "Spot (USD/hour)" {
		t.Errorf("spot heading = %q", got)
	}

	// Every region: p5.48xlarge in each of its two regions.
	browsertest.SetControl(t, ctx, "filter-by", "region")
	browsertest.WaitFor(t, ctx, rowCount+` === '7 instance types × regions'`)
	if got := browsertest.Eval[[]string](t, ctx, rowKeys); len(got) != 7 || got[3] != "aws/p5.48xlarge/us-east-1" || got[4] != "aws/p5.48xlarge/us-west-2" {
		t.Errorf("rows per region = %v", got)
	}
	if got := browsertest.Eval[string](t, ctx, cellText("aws/p5.48xlarge/us-west-2", "spot")); got != "" {
		t.Errorf("us-west-2 has no spot offer, its cell = %q", got)
	}
	browsertest.SetControl(t, ctx, "filter-by", "cheapest")

	// Partial GPUs and suspect prices on request.
	browsertest.Do(t, ctx, "show partial GPUs", chromedp.Click(chromedp.CSS(`#filter-partial`)))
	browsertest.WaitFor(t, ctx, rowCount+` === '7 of 7 instance types'`)
	if got := browsertest.Eval[[]string](t, ctx, rowKeys); got[0] != "aws/g6f.large" {
		t.Errorf("with partial GPUs the first row is %q, want the 0.2417 g6f.large slice", got[0])
	}
	browsertest.Do(t, ctx, "show suspect", chromedp.Click(chromedp.CSS(`#filter-suspect`)))
	browsertest.WaitFor(t, ctx, `location.search.includes('sus=1')`)
	// Shown, a suspect price still never leads a type that has a plausible
	// one: g5.xlarge's row keeps 1.006 (the offer view lists the 0.0101).
	if got := browsertest.Eval[string](t, ctx, cellText("aws/g5.xlarge", "on_demand")); got != "1.0060" {
		t.Errorf("g5.xlarge with suspect prices = %q, want its plausible 1.0060", got)
	}
	browsertest.Do(t, ctx, "hide suspect", chromedp.Click(chromedp.CSS(`#filter-suspect`)), chromedp.Click(chromedp.CSS(`#filter-partial`)))

	// billing: chooses the price columns; a row needs a price in one of them.
	browsertest.SetControl(t, ctx, "filter-x", "billing:spot,reserved")
	browsertest.WaitFor(t, ctx, rowCount+` === '1 of 7 instance types'`)
	if diff := cmp.Diff([]string{"type", "gpu", "gpus", "gpu_memory", "gpu_price", "spot", "reserved_1y", "region", "availability", "vcpus", "memory"},
		browsertest.Eval[[]string](t, ctx, headers)); diff != "" {
		t.Errorf("columns with billing:spot,reserved (-want +got):\n%s", diff)
	}
	// The saving still compares with on-demand, which is not shown.
	if got := browsertest.Eval[string](t, ctx, cellText("aws/p5.48xlarge", "spot")); got != "39.33 −60% stale" {
		t.Errorf("spot cell = %q", got)
	}

	// Country, kind and scenario terms; a bad term names its column.
	for _, c := range []struct {
		expr string
		want []string
	}{
		{"country:cn", []string{"alibaba/ecs.gn7i-c8g1.2xlarge", "alibaba/ecs.gn8is.4xlarge", "volcengine/ecs.gni2.3xlarge", "huawei/pi2.2xlarge.4"}},
		{"country:us gpu_memory>=22", []string{"aws/g5.xlarge", "aws/p5.48xlarge"}},
		{"kind:gpu -country:cn,us", nil},
		{"spot<50 saving>=50", []string{"aws/p5.48xlarge"}},
		{"price>=4 price<5", []string{"alibaba/ecs.gn8is.4xlarge"}},
		{`region:"US West" on_demand>1`, []string{"aws/p5.48xlarge"}},
	} {
		browsertest.SetControl(t, ctx, "filter-x", c.expr)
		browsertest.WaitFor(t, ctx, `new URLSearchParams(location.search).get('x') === `+browsertest.JSString(c.expr))
		got := browsertest.Eval[[]string](t, ctx, rowKeys)
		if diff := cmp.Diff(c.want, got); diff != "" && (len(c.want) > 0 || len(got) > 0) {
			t.Errorf("%s (-want +got):\n%s", c.expr, diff)
		}
	}
	browsertest.SetControl(t, ctx, "filter-x", "gpus>=x country:china")
	browsertest.WaitFor(t, ctx, `document.getElementById('filter-x-error').textContent !== ''`)
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('filter-x-error').textContent`); got !=
		"gpus>=x: at column 7: expected a number · country:china: at column 17: expected a two-letter country code" {
		t.Errorf("expression errors = %q", got)
	}

	// Currency: the Chinese explorer opens in CNY; a choice is kept in the URL
	// and across the language switch.
	browsertest.Do(t, ctx, "zh explorer", chromedp.Navigate(site+"/zh/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
	if got := browsertest.Eval[string](t, ctx, cellText("aws/p5.48xlarge", "on_demand")); got != "698.07" {
		t.Errorf("p5.48xlarge on demand on the Chinese page = %q, want 98.32 × 7.1 = 698.07 (CNY)", got)
	}
	if got := browsertest.Eval[string](t, ctx, `document.querySelector('th[data-sort="on_demand"]').innerText`); !strings.Contains(got, "CNY") {
		t.Errorf("Chinese on-demand heading = %q, want CNY", got)
	}
	browsertest.SetControl(t, ctx, "filter-currency", "USD")
	browsertest.WaitFor(t, ctx, `location.search.includes('cur=USD')`)
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('lang-switch').getAttribute('href')`); got != "/offers.html?cur=USD" {
		t.Errorf("language switch = %q", got)
	}
	browsertest.Do(t, ctx, "en explorer in CNY", chromedp.Navigate(site+"/offers.html?cur=CNY"), chromedp.WaitReady(chromedp.CSS(ready)))
	if got := browsertest.Eval[string](t, ctx, cellText("aws/p5.48xlarge", "on_demand")); got != "698.07" {
		t.Errorf("p5.48xlarge on demand in CNY = %q", got)
	}
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('lang-switch').getAttribute('href')`); got != "/zh/offers.html?cur=CNY" {
		t.Errorf("language switch = %q, want the choice kept", got)
	}

	// The offer view is one switch away and keeps the filters.
	browsertest.SetControl(t, ctx, "filter-x", "gpu:h100")
	browsertest.SetControl(t, ctx, "filter-view", "offers")
	browsertest.WaitFor(t, ctx, `location.search.includes('view=offers')`)
	browsertest.WaitFor(t, ctx, rowCount+` === '2 of 12 offers'`)
	if got := browsertest.Eval[string](t, ctx, `location.search`); !strings.Contains(got, "view=offers") {
		t.Errorf("URL %q lacks the view", got)
	}
	exceptions.Check(t)
}

// grammarVector is one filter expression and what the grammar reads from it
// (sitegen/testdata/filter_parse.json).
type grammarVector struct {
	Expr      string   `json:"expr"`
	Note      string   `json:"note,omitempty"`
	Scenarios []string `json:"scenarios,omitempty"`
	Terms     []struct {
		Field  string   `json:"field"`
		Neg    bool     `json:"neg"`
		Op     string   `json:"op"`
		Values []string `json:"values"`
	} `json:"terms"`
	Words []struct {
		Text string `json:"text"`
		Neg  bool   `json:"neg"`
	} `json:"words"`
	Errors []struct {
		Code    string `json:"code"`
		Col     int    `json:"col"`
		Message string `json:"message"`
	} `json:"errors"`
}

// TestBrowser_FilterGrammar runs the grammar's vectors through static/filter.js
// in Chromium, and checks the explorer's help lists the script's fields.
func TestBrowser_FilterGrammar(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(testdata, "filter_parse.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []grammarVector `json:"vectors"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) < 30 {
		t.Fatalf("only %d vectors", len(file.Vectors))
	}
	site, ctx, exceptions := browse(t, buildTestSite(t))
	browsertest.Do(t, ctx, "open explorer", chromedp.Navigate(site+"/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
	for _, v := range file.Vectors {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		in, _ := json.Marshal(map[string]any{"expr": v.Expr, "scenarios": v.Scenarios})
		got := browsertest.Eval[string](t, ctx, `(() => {
			const v = `+string(in)+`;
			const p = GPUAtlasFilter.parse(v.expr, v.scenarios ? {scenarios: v.scenarios} : {});
			return JSON.stringify({
				expr: v.expr,
				terms: p.terms.map(x => ({field: x.field, neg: x.neg, op: x.op, values: x.values.map(y => y.text)})),
				words: p.words.map(w => ({text: w.text, neg: w.neg})),
				errors: p.errors.map(e => ({code: e.code, col: e.col, message: GPUAtlasFilter.message(e)})),
			});
		})()`)
		var g grammarVector
		if err := json.Unmarshal([]byte(got), &g); err != nil {
			t.Fatal(err)
		}
		g.Note, g.Scenarios = v.Note, v.Scenarios
		var w grammarVector
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("%q (-want +got):\n%s", v.Expr, diff)
		}
	}

	// The help on the page lists every field of the script, with its aliases,
	// type and level, and no other.
	help := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#grammar-fields tbody tr')].map(tr =>
		tr.querySelector('code.field').textContent + ' [' + [...tr.children[1].querySelectorAll('code')].map(c => c.textContent).join(',') + ']')`)
	script := browsertest.Eval[[]string](t, ctx, `Object.keys(GPUAtlasFilter.FIELDS).map(f => f + ' [' + (GPUAtlasFilter.FIELDS[f].aliases || []).join(',') + ']')`)
	if diff := cmp.Diff(script, help); diff != "" {
		t.Errorf("fields in the help (-script +help):\n%s", diff)
	}
	types := browsertest.Eval[[]string](t, ctx, `Object.keys(GPUAtlasFilter.FIELDS).map(f => GPUAtlasFilter.FIELDS[f].type + ' · ' + GPUAtlasFilter.FIELDS[f].level)`)
	shown := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#grammar-fields tbody tr')].map(tr => tr.children[2].dataset.kind)`)
	if diff := cmp.Diff(types, shown); diff != "" {
		t.Errorf("field types in the help (-script +help):\n%s", diff)
	}
	exceptions.Check(t)
}
