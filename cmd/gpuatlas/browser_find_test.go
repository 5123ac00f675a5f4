package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/browsertest"
)

// findVectorsFile is compare/testdata/find_vectors.json: filter expressions
// over a small catalog with the rows the explorer's default view keeps
// (compare's TestFind_Vectors runs them through the Go evaluator that
// `gpuatlas find` uses).
type findVectorsFile struct {
	Catalog   string               `json:"catalog"`
	Providers map[string][2]string `json:"providers"`
	Scenarios []string             `json:"scenarios"`
	Fits      map[string][]string  `json:"fits"`
	Vectors   []struct {
		Expr     string   `json:"expr"`
		Billing  []string `json:"billing,omitempty"`
		Currency string   `json:"currency,omitempty"`
		Sort     string   `json:"sort,omitempty"`
		Desc     bool     `json:"desc,omitempty"`
		findAnswer
	} `json:"vectors"`
}

// findAnswer is what a filter expression gives: the columns and rows of the
// explorer's table.
type findAnswer struct {
	Columns []string `json:"columns"`
	Rows    []struct {
		Key    string            `json:"key"`
		Region string            `json:"region"`
		Prices map[string]string `json:"prices"`
	} `json:"rows"`
}

// findInPage runs every vector through the explorer's own scripts
// (GPUAtlasFilter.parse, GPUAtlasView.compile, run, sortRows) on the page's
// data, with the vectors' provider names and scenario verdicts, in the
// default view: instances in their cheapest region, partial GPUs and suspect
// prices left out. A billing list is a billing term's values; a billing
// column the billing choice hides sorts by the first shown, as the page does.
const findInPage = `(async (cfg) => {
	const A = GPUAtlas, F = GPUAtlasFilter, W = GPUAtlasView;
	const d = await A.load('/data/offers.json');
	d.providerNames = cfg.providers;
	d.types.forEach(t => { t.fits = cfg.fits[t.p + '/' + t.id] || []; });
	const V = W.prepare(d);
	return JSON.stringify(cfg.vectors.map(v => {
		W.reprice(V, v.currency || 'USD', 'hour', -1);
		const tests = W.compile(V, F.parse(v.expr, {scenarios: cfg.scenarios}));
		if (v.billing) tests.billing = tests.billing.concat(W.compile(V, F.parse('billing:' + v.billing.join(','))).billing);
		const res = W.run(V, {view: 'instances', by: 'cheapest', tests: tests, typeOK: t => !t.partial, offerOK: r => !r.suspect});
		let sc = v.sort || 'price';
		const c = W.byId[sc];
		if (c && c.billing !== undefined && !res.shown[c.billing]) sc = W.BILLING_COLS.filter((b, i) => res.shown[i])[0] || sc;
		const rows = W.sortRows(V, res.rows, sc, !!v.desc, 'instances');
		return {
			columns: W.BILLING_COLS.filter((b, i) => res.shown[i]),
			rows: rows.map(r => {
				const prices = {};
				r.cells.forEach((o, i) => { if (o && r.v[i] !== null) prices[W.BILLING_COLS[i]] = r.v[i].toFixed(4); });
				return {key: r.t.p + '/' + r.t.id, region: r.g.first.region, prices: prices};
			}),
		};
	}));
})`

// TestBrowser_FindVectors runs the shared evaluation vectors through the
// explorer's script in Chromium: the same rows, regions, prices and order as
// the Go evaluator of gpuatlas find (compare.TestFind_Vectors), so the two can
// never disagree.
func TestBrowser_FindVectors(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "compare", "testdata")
	b, err := os.ReadFile(filepath.Join(dir, "find_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file findVectorsFile
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) < 15 {
		t.Fatalf("only %d vectors", len(file.Vectors))
	}
	snap, err := catalog.ReadSnapshot(filepath.Join(dir, file.Catalog))
	if err != nil {
		t.Fatal(err)
	}
	site, ctx, exceptions := browse(t, buildSite(t, snap))
	browsertest.Do(t, ctx, "open explorer", chromedp.Navigate(site+"/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
	got := browsertest.EvalAsync[string](t, ctx, findInPage+`(`+string(b)+`)`)
	var answers []findAnswer
	if err := json.Unmarshal([]byte(got), &answers); err != nil {
		t.Fatal(err)
	}
	if len(answers) != len(file.Vectors) {
		t.Fatalf("%d answers for %d vectors", len(answers), len(file.Vectors))
	}
	for i, v := range file.Vectors {
		if diff := cmp.Diff(v.Columns, answers[i].Columns); diff != "" {
			t.Errorf("%q: columns (-want +script):\n%s", v.Expr, diff)
		}
		want, _ := json.Marshal(v.Rows)
		have, _ := json.Marshal(answers[i].Rows)
		if string(want) != string(have) {
			t.Errorf("%q: rows\nwant   %s\nscript %s", v.Expr, want, have)
		}
	}
	exceptions.Check(t)
}
