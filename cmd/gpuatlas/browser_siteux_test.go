package main

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/browsertest"
)

// uxSizes are the screens the buyer-question tests open each page on: a
// 1280-pixel desktop and a 390-pixel phone.
var uxSizes = []browsertest.Size{{Name: "desktop-1280", Width: 1280, Height: 900}, browsertest.Phone}

// forLangsAndSizes runs f for the English and the Chinese page on each of
// uxSizes, with a tab of that size.
func forLangsAndSizes(t *testing.T, f func(t *testing.T, ctx context.Context, prefix string)) {
	for _, prefix := range []string{"/", "/zh/"} {
		for _, size := range uxSizes {
			name := strings.Trim(prefix, "/")
			if name == "" {
				name = "en"
			}
			t.Run(name+"-"+size.Name, func(t *testing.T) {
				ctx := browsertest.StartSized(t, size)
				exceptions := browsertest.CollectExceptions(ctx)
				defer exceptions.Check(t)
				f(t, ctx, prefix)
			})
		}
	}
}

// TestBrowser_ExplorerWholeGPUsAndWholeWords: on the embedded catalog, in
// both languages, on a desktop and a phone, the explorer's first page holds
// whole GPUs only (no slice, none of Alibaba's sgn8ia vGPU types, whose 2 GB
// slice was the cheapest "GPU"); gpu:h20 is the H20 and not the H200,
// gpu:h20* both; a filter that matches nothing says why (no interconnect data
// for the A10 types).
func TestBrowser_ExplorerWholeGPUsAndWholeWords(t *testing.T) {
	t.Parallel()
	dir, snap, _, _ := embeddedSite(t)
	site := serveSite(t, dir)
	gpus := `[...document.querySelectorAll('tbody#offers-body tr td.c-gpu')].map(c => c.textContent.replace(/\s+/g, ' ').trim())`
	// Buyer question 2 of issue 30, worked out by hand from the catalog:
	// Alibaba Cloud types with 48 GB or more per GPU in mainland China.
	large := func(it catalog.InstanceType, r catalog.Region) bool {
		a, ok := it.PrimaryAccelerator()
		return it.Provider == catalog.Alibaba && ok && a.Kind == catalog.KindGPU && r.Mainland() &&
			a.RuleMemoryGiB().Round(2).GreaterThanOrEqual(decimal.NewFromInt(48))
	}
	_, largeAt := cheapest(plausibleOffers(t, snap, catalog.OnDemand, large))
	if len(largeAt) == 0 {
		t.Fatal("the catalog has no Alibaba Cloud type with 48 GB per GPU in mainland China")
	}
	forLangsAndSizes(t, func(t *testing.T, ctx context.Context, prefix string) {
		browsertest.Do(t, ctx, "open explorer", chromedp.Navigate(site+prefix+"offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
		keys := browsertest.Eval[[]string](t, ctx, rowKeys)
		if len(keys) < 10 {
			t.Fatalf("the first page has %d rows", len(keys))
		}
		for _, k := range keys {
			if strings.HasPrefix(k, "alibaba/ecs.sgn8ia-") {
				t.Errorf("the default view shows the vGPU slice %s (first rows %v)", k, keys[:3])
			}
		}
		if parts := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('tbody#offers-body tr')].filter(r => !(parseFloat(r.querySelector('td.c-gpus').textContent) >= 1)).map(r => r.dataset.key)`); len(parts) > 0 {
			t.Errorf("the default view shows slices of a GPU: %v", parts)
		}
		setExpr := func(x string) {
			before := browsertest.Eval[string](t, ctx, rowCount)
			browsertest.SetControl(t, ctx, "filter-x", x)
			browsertest.WaitFor(t, ctx, rowCount+` !== `+browsertest.JSString(before))
		}
		setExpr("gpu:h20")
		got := browsertest.Eval[[]string](t, ctx, gpus)
		if len(got) == 0 {
			t.Fatal("gpu:h20 finds nothing")
		}
		for _, g := range got {
			if !strings.Contains(g, "H20") || strings.Contains(g, "H200") {
				t.Errorf("gpu:h20 shows a row of %q", g)
			}
		}
		setExpr("gpu:h20*")
		if got := browsertest.Eval[[]string](t, ctx, gpus); !strings.Contains(strings.Join(got, "|"), "H200") {
			t.Errorf("gpu:h20* finds no H200: %q", got)
		}
		setExpr("gpu:a10 interconnect:nvlink")
		if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('tbody#offers-body tr').length`); n != 0 {
			t.Errorf("gpu:a10 interconnect:nvlink shows %d rows", n)
		}
		why := browsertest.Eval[string](t, ctx, `(document.getElementById('why-empty') || {}).textContent || ''`)
		field := map[string]string{"/": "no Interconnect data", "/zh/": "没有GPU 互联数据"}[prefix]
		if !strings.Contains(why, "interconnect:nvlink") || !strings.Contains(why, field) {
			t.Errorf("an empty result says %q, want the term and %q", why, field)
		}
		if w := browsertest.Eval[int](t, ctx, `document.scrollingElement.scrollWidth`); w > browsertest.Eval[int](t, ctx, `innerWidth`) {
			t.Errorf("the explorer scrolls sideways: %d pixels wide", w)
		}
		// Question 2, one typed filter after opening the explorer: the first
		// row is the cheapest such type, in the page's currency.
		setExpr("provider:alibaba gpu_memory>=48 country:cn kind:gpu")
		cur := browsertest.Eval[string](t, ctx, `document.getElementById('filter-currency').value`)
		o := largeAt[0].o
		h, err := o.Price.Hourly(o.Billing.TermHours())
		if err != nil {
			t.Fatal(err)
		}
		want, err := snap.FX.Convert(h, o.Price.Currency, catalog.Currency(cur))
		if err != nil {
			t.Fatal(err)
		}
		key := browsertest.Eval[string](t, ctx, `document.querySelector('#offers-body tr').dataset.key`)
		price := browsertest.Eval[string](t, ctx, cellText(key, "on_demand")+`.split(' ')[0]`)
		if !hasType(largeAt, key) || price != handMoney(want) {
			t.Errorf("48 GB per GPU on Alibaba Cloud in mainland China: first row %s at %s %s; want %v at %s %s", key, price, cur, keysOf(largeAt), handMoney(want), cur)
		}
		for _, p := range browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#offers-body tr')].map(r => r.dataset.key)`) {
			if !strings.HasPrefix(p, "alibaba/") {
				t.Errorf("the Alibaba Cloud filter shows %s", p)
			}
		}
		t.Logf("48 GB per GPU on Alibaba Cloud in mainland China, 2 interactions: %s at %s %s an hour", key, price, cur)
		browsertest.Screenshot(t, ctx, "question-alibaba-48gb-cn.png")
	})
}

// TestBrowser_TCOAnyOffer: on the embedded site, in both languages, on a
// desktop and a phone, the TCO calculator is at the top of its page; an
// instance page's "cost over time" opens it with that type's cheapest
// on-demand offer chosen; the finder adds offers by type or GPU (up to four),
// whose figures are the command line's (gpuatlas tco --input) to the cent;
// the explorer's link carries the rows chosen there; and the buyer's question
// "the cheapest 8x H100 on demand anywhere" is one filter in the explorer.
func TestBrowser_TCOAnyOffer(t *testing.T) {
	t.Parallel()
	dir, _, _, _ := embeddedSite(t)
	site := serveSite(t, dir)
	const ok = `#calc-form[data-state="ok"]`
	chosen := `[...document.querySelectorAll('#calc-chosen li')].map(li => li.firstChild.textContent.trim())`
	forLangsAndSizes(t, func(t *testing.T, ctx context.Context, prefix string) {
		browsertest.Do(t, ctx, "open tco", chromedp.Navigate(site+prefix+"tco.html"), chromedp.WaitReady(chromedp.CSS(ok)))
		if top := browsertest.Eval[float64](t, ctx, `document.getElementById('calculator').getBoundingClientRect().top + scrollY`); top > 1200 {
			t.Errorf("the calculator starts %.0f pixels down its page", top)
		}
		// From an instance page.
		browsertest.Do(t, ctx, "open p5", chromedp.Navigate(site+prefix+"instances/aws/p5.48xlarge.html"), chromedp.WaitReady(chromedp.CSS("#tco-link")))
		href := browsertest.Eval[string](t, ctx, `document.getElementById('tco-link').href`)
		browsertest.Do(t, ctx, "follow cost over time", chromedp.Navigate(href), chromedp.WaitReady(chromedp.CSS(`#calc-pick[data-ready]`)), chromedp.WaitReady(chromedp.CSS(ok)))
		if got := browsertest.Eval[[]string](t, ctx, chosen); len(got) != 1 || !strings.HasPrefix(got[0], "p5.48xlarge · ") {
			t.Fatalf("from the p5.48xlarge page (%s) the calculator has %q chosen", href, got)
		}
		// Two H100 offers more from the finder.
		browsertest.SetControl(t, ctx, "calc-find", "h100")
		browsertest.WaitFor(t, ctx, `document.querySelectorAll('#calc-found button:not([disabled])').length >= 2`)
		browsertest.Do(t, ctx, "choose two", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('#calc-found button:not([disabled])')].slice(0, 1).forEach(b => b.click())`))
		browsertest.Do(t, ctx, "choose another", chromedp.Evaluate[chromedp.Void](`document.querySelector('#calc-found button:not([disabled])').click()`))
		browsertest.WaitFor(t, ctx, `document.querySelectorAll('#calc-res tbody tr').length === 3`)
		if got := browsertest.Eval[[]string](t, ctx, chosen); len(got) != 3 {
			t.Errorf("after choosing two more: %q", got)
		}
		if q := browsertest.Eval[string](t, ctx, `new URLSearchParams(location.search).get('offers') || ''`); len(strings.Split(q, ",")) != 3 {
			t.Errorf("the URL's offers are %q", q)
		}
		// The command line's figures are in USD (the Chinese page opens in CNY).
		browsertest.SetControl(t, ctx, "calc-currency", "USD")
		in := browsertest.Eval[string](t, ctx, `document.getElementById('calc-input').textContent`)
		assertAgree(t, prefix+" chosen offers", cliTCO(t, in), readTCOTables(t, ctx, "#calc-res", "#calc-cum", "#calc-be"))
		// A fifth is not offered.
		browsertest.Do(t, ctx, "choose a fourth", chromedp.Evaluate[chromedp.Void](`document.querySelector('#calc-found button:not([disabled])').click()`))
		browsertest.WaitFor(t, ctx, `document.querySelectorAll('#calc-chosen li').length === 4`)
		if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('#calc-found button:not([disabled])').length`); n != 0 {
			t.Errorf("with four chosen, %d more can be chosen", n)
		}
		// Removing them all goes back to a scenario.
		for i := 0; i < 4; i++ {
			browsertest.Do(t, ctx, "remove one", chromedp.Evaluate[chromedp.Void](`document.querySelector('#calc-chosen li button').click()`))
		}
		if st := browsertest.Eval[string](t, ctx, `document.getElementById('calc-scenario').value + ' ' + location.search`); strings.HasPrefix(st, "offers") || strings.Contains(st, "offers=") {
			t.Errorf("with none chosen the calculator stays on them: %s", st)
		}
		// From the explorer's chosen rows.
		browsertest.Do(t, ctx, "open explorer", chromedp.Navigate(site+prefix+"offers.html?o=aws/p5.48xlarge&o=aws/p4d.24xlarge"), chromedp.WaitReady(chromedp.CSS(ready)))
		href = browsertest.Eval[string](t, ctx, `document.getElementById('tco-link').href`)
		browsertest.Do(t, ctx, "follow the explorer's link", chromedp.Navigate(href), chromedp.WaitReady(chromedp.CSS(`#calc-pick[data-ready]`)), chromedp.WaitReady(chromedp.CSS(ok)))
		if got := browsertest.Eval[[]string](t, ctx, chosen); len(got) != 2 || !strings.HasPrefix(got[0], "p5.48xlarge · ") && !strings.HasPrefix(got[1], "p5.48xlarge · ") {
			t.Errorf("from the explorer (%s) the calculator has %q chosen", href, got)
		}
		// The buyer's question: one filter, the answer first.
		browsertest.Do(t, ctx, "open explorer", chromedp.Navigate(site+prefix+"offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
		browsertest.SetControl(t, ctx, "filter-x", "gpus=8 gpu:h100")
		browsertest.WaitFor(t, ctx, `[...document.querySelectorAll('tbody#offers-body tr td.c-gpus')].every(c => c.textContent.trim() === '8')`)
		first := browsertest.Eval[string](t, ctx, `(() => { const r = document.querySelector('tbody#offers-body tr'); return r.dataset.key + ' | ' + r.querySelector('td.c-gpu').textContent.trim() + ' | ' + r.querySelector('td.c-on_demand').innerText.replace(/\s+/g, ' ') + ' | ' + r.querySelector('td.c-region').innerText.replace(/\s+/g, ' '); })()`)
		t.Logf("gpus=8 gpu:h100, first row: %s", first)
		if !strings.Contains(first, "H100") {
			t.Errorf("the cheapest 8x H100 row is %s", first)
		}
	})
}
