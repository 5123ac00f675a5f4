package main

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

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
				f(t, ctx, prefix)
				exceptions.Check(t)
			})
		}
	}
}

// TestBrowser_ExplorerWholeGPUsAndWholeWords: on the embedded catalog, in
// both languages, on a desktop and a phone, the explorer's first page holds
// whole GPUs only (no type of a vGPU family such as Alibaba's sgn8ia, whose
// 2 GB slice was the cheapest "GPU"); gpu:h20 is the H20 and not the H200,
// gpu:h20* both; a filter that matches nothing says why (no interconnect data
// for the A10 types).
func TestBrowser_ExplorerWholeGPUsAndWholeWords(t *testing.T) {
	t.Parallel()
	dir, _, _, _ := embeddedSite(t)
	site := serveSite(t, dir)
	gpus := `[...document.querySelectorAll('tbody#offers-body tr td.c-gpu')].map(c => c.textContent.replace(/\s+/g, ' ').trim())`
	forLangsAndSizes(t, func(t *testing.T, ctx context.Context, prefix string) {
		browsertest.Do(t, ctx, "open explorer", chromedp.Navigate(site+prefix+"offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
		keys := browsertest.Eval[[]string](t, ctx, rowKeys)
		if len(keys) < 10 {
			t.Fatalf("the first page has %d rows", len(keys))
		}
		for _, k := range keys {
			if strings.HasPrefix(k, "alibaba/ecs.sgn") || strings.HasPrefix(k, "alibaba/ecs.vgn") {
				t.Errorf("the default view shows the vGPU slice %s (first rows %v)", k, keys[:3])
			}
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
	})
}
