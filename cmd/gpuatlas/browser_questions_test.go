package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/browsertest"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/sitegen"
)

// embeddedSite builds the site of the embedded catalog (data/catalog.json) with
// the committed GPU reference and the scenarios ranked over it, as `gpuatlas
// build` does (without history and benchmarks), and returns the folder, the
// snapshot in its canonical order, the reference and the scenario report. The
// site is built once for the package's tests (a shared site: never change it);
// the snapshot, reference and report are each caller's own.
func embeddedSite(t *testing.T) (string, *catalog.Snapshot, *catalog.GPUReference, *compare.ScenarioReport) {
	t.Helper()
	testlane.Long(t, "builds a whole site")
	snap := datatest.Snapshot(t)
	snap.Sort()
	ref := datatest.Load(t, catalog.LoadGPUReference)
	set := datatest.Load(t, compare.LoadScenarios)
	report, err := compare.NewScenarioReport(set.Scenarios, snap, ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := sites.Get(t, "embedded-scenarios", func(t *testing.T, out string) {
		renderSite(t, out, sitegen.Options{Snapshot: snap, Reference: ref, CatalogJSON: datatest.CatalogBytes(t), Scenarios: report,
			Models: datatest.Load(t, compare.LoadModels)})
	})
	return out, snap, ref, report
}

// handOffer is an offer with the figures the questions compare, worked out
// here from the catalog.
type handOffer struct {
	o   catalog.Offer
	usd decimal.Decimal // effective price per hour in USD
}

// handMoney formats a price as the site does: 4 decimals below 10, 2 from 10.
func handMoney(d decimal.Decimal) string {
	if r := d.Round(4); r.Abs().LessThan(decimal.NewFromInt(10)) {
		return r.StringFixed(4)
	}
	return d.Round(2).StringFixed(2)
}

// plausibleOffers are the snapshot's offers of a billing kind without a suspect
// price, on types that are not slices of a GPU, with their USD price per hour,
// in the snapshot's order.
func plausibleOffers(t *testing.T, snap *catalog.Snapshot, billing catalog.BillingKind, keep func(catalog.InstanceType, catalog.Region) bool) []handOffer {
	t.Helper()
	types := map[string]catalog.InstanceType{}
	for _, it := range snap.Instances {
		types[it.Key()] = it
	}
	regions := map[string]catalog.Region{}
	for _, r := range snap.Regions {
		regions[r.Key()] = r
	}
	var out []handOffer
	for _, o := range snap.Offers {
		it := types[o.InstanceKey()]
		if o.Billing != billing || o.Suspect != "" || slice(it) || !keep(it, regions[string(o.Provider)+"/"+o.Region]) {
			continue
		}
		h, err := o.Price.Hourly(o.Billing.TermHours())
		if err != nil {
			continue
		}
		usd, err := snap.FX.Convert(h, o.Price.Currency, catalog.USD)
		if err != nil {
			continue
		}
		out = append(out, handOffer{o: o, usd: usd})
	}
	return out
}

// slice reports a type sold as a share of a GPU.
func slice(it catalog.InstanceType) bool {
	for _, a := range it.Accelerators {
		if a.Share.LessThan(decimal.NewFromInt(1)) {
			return true
		}
	}
	return false
}

// cheapest is the lowest USD price of the offers and every offer at it.
func cheapest(offers []handOffer) (decimal.Decimal, []handOffer) {
	var low decimal.Decimal
	var at []handOffer
	for _, h := range offers {
		switch {
		case len(at) == 0 || h.usd.LessThan(low):
			low, at = h.usd, []handOffer{h}
		case h.usd.Equal(low):
			at = append(at, h)
		}
	}
	return low, at
}

// gpuNamed reports whether the type's primary accelerator is the named GPU by
// its canonical id, the reference's name or the provider's.
func gpuNamed(ref *catalog.GPUReference, it catalog.InstanceType, name string) bool {
	a, ok := it.PrimaryAccelerator()
	if !ok {
		return false
	}
	names := []string{a.Model}
	if g, ok := ref.Model(a.Model); ok && a.Model != "" {
		names = append(names, g.Name)
	} else {
		names = append(names, a.Name)
	}
	for _, n := range names {
		if strings.Contains(strings.ToLower(n), name) {
			return true
		}
	}
	return false
}

// interactions counts what a person does in the explorer: each is one
// control set or clicked.
type interactions struct {
	t   *testing.T
	ctx context.Context
	n   int
}

func (in *interactions) set(id, value string) {
	in.t.Helper()
	in.n++
	browsertest.SetControl(in.t, in.ctx, id, value)
}

// The buyer's questions of issue 18, each answered from the default explorer
// in at most three interactions and checked against the answer worked out
// here from the embedded catalog.
func TestBrowser_ExplorerAnswersBuyersQuestions(t *testing.T) {
	t.Parallel()
	dir, snap, ref, report := embeddedSite(t)
	site, ctx, exceptions := browse(t, dir)
	open := func() *interactions {
		browsertest.Do(t, ctx, "open the explorer", chromedp.Navigate(site+"/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
		return &interactions{t: t, ctx: ctx}
	}
	firstRow := func() (string, string) {
		key := browsertest.Eval[string](t, ctx, `document.querySelector('#offers-body tr').dataset.key`)
		return key, browsertest.Eval[string](t, ctx, cellText(key, "on_demand")+`.split(' ')[0]`)
	}

	t.Run("cheapest 8x H100 on demand", func(t *testing.T) {
		in := open()
		in.set("filter-x", "gpu:h100 gpus=8")
		browsertest.WaitFor(t, ctx, `new URLSearchParams(location.search).get('x') === 'gpu:h100 gpus=8'`)
		low, at := cheapest(plausibleOffers(t, snap, catalog.OnDemand, func(it catalog.InstanceType, _ catalog.Region) bool {
			return gpuNamed(ref, it, "h100") && it.GPUUnits().Equal(decimal.NewFromInt(8))
		}))
		if len(at) == 0 {
			t.Fatal("the catalog has no 8x H100 on demand")
		}
		key, price := firstRow()
		if price != handMoney(low) || !hasType(at, key) {
			t.Errorf("first row %s at %s USD; want %s at %s USD (%v)", key, price, at[0].o.InstanceKey(), handMoney(low), keysOf(at))
		}
		t.Logf("answer in %d interactions: %s at %s USD an hour in %s", in.n, key, price, at[0].o.Region)
		if in.n > 3 {
			t.Errorf("%d interactions", in.n)
		}
		browsertest.Screenshot(t, ctx, "question-h100.png")
	})

	t.Run("cheapest 24 GB GPU in mainland China in CNY", func(t *testing.T) {
		in := open()
		in.set("filter-x", "kind:gpu gpu_memory>=24 country:cn")
		in.set("filter-currency", "CNY")
		browsertest.WaitFor(t, ctx, `location.search.includes('cur=CNY') && location.search.includes('country')`)
		low, at := cheapest(plausibleOffers(t, snap, catalog.OnDemand, func(it catalog.InstanceType, r catalog.Region) bool {
			a, ok := it.PrimaryAccelerator()
			return ok && a.Kind == catalog.KindGPU && a.RuleMemoryGiB().Round(2).GreaterThanOrEqual(decimal.NewFromInt(24)) && r.Mainland()
		}))
		if len(at) == 0 {
			t.Fatal("the catalog has no 24 GB GPU in mainland China")
		}
		h, err := at[0].o.Price.Hourly(at[0].o.Billing.TermHours())
		if err != nil {
			t.Fatal(err)
		}
		cny, err := snap.FX.Convert(h, at[0].o.Price.Currency, catalog.CNY)
		if err != nil {
			t.Fatal(err)
		}
		key, price := firstRow()
		if price != handMoney(cny) || !hasType(at, key) {
			t.Errorf("first row %s at %s CNY; want %s at %s CNY (%v, %s USD)", key, price, at[0].o.InstanceKey(), handMoney(cny), keysOf(at), low)
		}
		if got := browsertest.Eval[string](t, ctx, `document.querySelector('th[data-sort="on_demand"]').innerText`); !strings.Contains(got, "CNY") {
			t.Errorf("on-demand heading %q is not in CNY", got)
		}
		if got := browsertest.Eval[string](t, ctx, `document.getElementById('fx-note').textContent`); !strings.Contains(got, snap.FX.Date) || !strings.Contains(got, "CNY") {
			t.Errorf("FX note %q lacks the rate's date", got)
		}
		t.Logf("answer in %d interactions: %s at %s CNY an hour in %s", in.n, key, price, at[0].o.Region)
		browsertest.Screenshot(t, ctx, "question-24gb-cn.png")
	})

	t.Run("A100 spot saving", func(t *testing.T) {
		in := open()
		in.set("filter-x", "gpu:a100")
		browsertest.WaitFor(t, ctx, `new URLSearchParams(location.search).get('x') === 'gpu:a100'`)
		// The first row with a spot price, its saving as the cell shows it.
		row := browsertest.Eval[[]string](t, ctx, `(() => {
			const tr = [...document.querySelectorAll('#offers-body tr')].find(tr => tr.querySelector('td.c-spot .save'));
			return tr ? [tr.dataset.key, tr.querySelector('td.c-spot .p').textContent, tr.querySelector('td.c-spot .save').textContent] : [];
		})()`)
		if len(row) != 3 {
			t.Fatal("no A100 row shows a spot saving")
		}
		key := row[0]
		isType := func(it catalog.InstanceType, _ catalog.Region) bool { return it.Key() == key }
		// The row's spot price is the type's cheapest spot offer (the first in
		// the catalog among equals); its saving compares it with the cheapest
		// on-demand offer in the same region.
		var spot *handOffer
		for _, h := range plausibleOffers(t, snap, catalog.Spot, isType) {
			if spot == nil || h.usd.LessThan(spot.usd) {
				spot = &h
			}
		}
		var od *handOffer
		for _, h := range plausibleOffers(t, snap, catalog.OnDemand, isType) {
			if h.o.Region == spot.o.Region && (od == nil || h.usd.LessThan(od.usd)) {
				od = &h
			}
		}
		if od == nil {
			t.Fatalf("%s has no on-demand offer in %s", key, spot.o.Region)
		}
		pct := decimal.NewFromInt(1).Sub(spot.usd.Div(od.usd)).Mul(decimal.NewFromInt(100)).Round(0)
		want := []string{key, handMoney(spot.usd), "−" + pct.String() + "%"}
		if pct.Sign() <= 0 {
			want[2] = "+" + pct.Abs().String() + "%"
		}
		if diff := cmp.Diff(want, row); diff != "" {
			t.Errorf("A100 spot saving (-want +got):\n%s", diff)
		}
		t.Logf("answer in %d interactions: %s spot %s USD in %s against %s on demand: %s", in.n, key, row[1], spot.o.Region, handMoney(od.usd), row[2])
		browsertest.Screenshot(t, ctx, "question-a100-spot.png")
	})

	t.Run("region selector", func(t *testing.T) {
		open()
		// Grouped by provider, then country, in the page's language.
		groups := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#f-region .ms-group.depth-0')].map(g => g.querySelector('.ms-head').textContent)`)
		if diff := cmp.Diff([]string{"AWS", "Alibaba Cloud", "Tencent Cloud", "Huawei Cloud", "Microsoft Azure", "Google Cloud"}, groups); diff != "" {
			t.Errorf("region groups (-want +got):\n%s", diff)
		}
		if got := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#f-region .ms-group.depth-0')][0].querySelectorAll('.ms-group.depth-1 > .ms-head').length > 5 ? ['ok'] : []`); len(got) == 0 {
			t.Error("the AWS regions are not grouped by country")
		}
		// From the keyboard: open the list, type into its search box, tick.
		browsertest.Do(t, ctx, "open the region list", chromedp.Focus(chromedp.CSS(`#f-region > summary`)), chromedp.KeyEvent("\r"))
		browsertest.WaitFor(t, ctx, `document.activeElement && document.activeElement.id === 'f-region-find'`)
		browsertest.Do(t, ctx, "type", chromedp.KeyEvent("virginia"))
		shown := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#f-region label')].filter(l => !l.hidden).map(l => l.textContent.trim())`)
		// AWS and Alibaba Cloud both call a Virginia region us-east-1: two
		// options; Google Cloud's us-east4 is named Northern Virginia.
		if diff := cmp.Diff([]string{"US East (N. Virginia) · us-east-1", "US (Virginia) · us-east-1", "U.S. East Coast (Virginia) · na-ashburn",
			"Northern Virginia · us-east4"}, shown); diff != "" {
			t.Errorf("regions matching virginia (-want +got):\n%s", diff)
		}
		browsertest.Tick(t, ctx, "f-region", "aws/us-east-1", true)
		browsertest.WaitFor(t, ctx, `location.search.includes('region=aws%2Fus-east-1')`)
		if got := browsertest.Eval[[]string](t, ctx, `[...new Set(GPUAtlasExplorer.shown().map(v => v.t.p + '/' + v.g.first.region))]`); !cmp.Equal(got, []string{"aws/us-east-1"}) {
			t.Errorf("regions of the rows = %v", got)
		}
		// In Chinese the names are Chinese.
		browsertest.Do(t, ctx, "zh", chromedp.Navigate(site+"/zh/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
		if got := browsertest.Eval[string](t, ctx, `document.querySelector('#f-region input[value="alibaba/cn-hangzhou"]').parentElement.textContent.trim()`); got != "华东1（杭州） · cn-hangzhou" {
			t.Errorf("cn-hangzhou in Chinese = %q", got)
		}
	})

	t.Run("scenario", func(t *testing.T) {
		sc := report.Matrix.Scenarios[0]
		var want []string
		for _, f := range sc.Ranked {
			if f.Verdict == compare.Fits && !slice(f.Instance) {
				want = append(want, f.InstanceKey)
			}
		}
		in := open()
		in.set("filter-x", "scenario:"+sc.Scenario.ID)
		browsertest.WaitFor(t, ctx, `new URLSearchParams(location.search).get('x') === `+browsertest.JSString("scenario:"+sc.Scenario.ID))
		got := browsertest.Eval[[]string](t, ctx, `GPUAtlasExplorer.shown().map(v => v.key).sort()`)
		if diff := cmp.Diff(sortedCopy(want), got); diff != "" || len(want) == 0 {
			t.Errorf("types that fit %s (-compare +explorer):\n%s", sc.Scenario.ID, diff)
		}
	})
	exceptions.Check(t)

	// The explorer on a desktop and a 390-pixel phone, in both languages, in
	// both views, for a person to look at. On the phone each row is a card that
	// shows the instance, its GPUs, a price and the region, and nothing is
	// wider than the screen.
	browsertest.Shots{NoExceptions: true, Pages: []browsertest.Page{
		{Name: "explorer", Path: "/offers.html", Wait: ready},
		{Name: "explorer-h100", Path: "/offers.html?x=gpu%3Ah100", Wait: ready},
		{Name: "explorer-offers", Path: "/offers.html?view=offers", Wait: ready},
		{Name: "zh-explorer", Path: "/zh/offers.html", Wait: ready},
		{Name: "zh-explorer-cn-24gb", Path: "/zh/offers.html?x=gpu_memory%3E%3D24+country%3Acn", Wait: ready},
		{Name: "zh-explorer-offers", Path: "/zh/offers.html?view=offers", Wait: ready},
	}, Check: func(t *testing.T, ctx context.Context, p browsertest.Page) {
		shown := browsertest.Eval[[]string](t, ctx, `(() => {
			const tr = document.querySelector('#offers-body tr');
			const w = document.documentElement.clientWidth;
			return [...tr.children].filter(td => getComputedStyle(td).display !== 'none')
				.filter(td => { const r = td.getBoundingClientRect(); return r.width > 0 && r.right <= w + 1; })
				.map(td => [...td.classList].find(c => c.startsWith('c-')));
		})()`)
		for _, c := range []string{"c-type", "c-gpus", "c-region"} {
			if !slices.Contains(shown, c) {
				t.Errorf("%s: the first row does not show %s within the screen: %v", p.Path, c, shown)
			}
		}
		if !slices.Contains(shown, "c-on_demand") && !slices.Contains(shown, "c-price") {
			t.Errorf("%s: the first row shows no price within the screen: %v", p.Path, shown)
		}
	}}.Save(t, site)
}

func hasType(at []handOffer, key string) bool {
	for _, h := range at {
		if h.o.InstanceKey() == key {
			return true
		}
	}
	return false
}

func keysOf(at []handOffer) []string {
	var out []string
	for _, h := range at {
		out = append(out, fmt.Sprintf("%s/%s", h.o.InstanceKey(), h.o.Region))
	}
	return out
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
