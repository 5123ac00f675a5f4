package main

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gpuatlas/gpuatlas/internal/browsertest"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/sitegen"
)

// TestBrowser_WhatChangedLastWeek: the buyer's question "what changed in
// prices last week", in both languages, on a desktop and a phone, answered in
// two interactions from the overview: Changes in the menu, then the last seven
// days' page, whose price table has the one offer whose price moved in the
// week, from its figure a week ago to today's (two crawl-to-crawl changes,
// 100 → 105 → 110, read as one) and nothing from before the week.
func TestBrowser_WhatChangedLastWeek(t *testing.T) {
	t.Parallel()
	snap, h := datatest.WeekOfCrawls(t, testSnapshot(t), "aws/p5.48xlarge/us-west-2//on_demand")
	site := serveSite(t, buildSiteWith(t, sitegen.Options{Snapshot: snap, History: h}))
	rows := `[...document.querySelectorAll('table.changes tbody tr')].map(r => r.getAttribute('data-key') + ' ' + r.innerText.replace(/\s+/g, ' ').trim())`
	forLangsAndSizes(t, func(t *testing.T, ctx context.Context, prefix string) {
		browsertest.Do(t, ctx, "open the overview", chromedp.Navigate(site+prefix+"index.html"), chromedp.WaitReady(chromedp.CSS("footer")))
		interactions := 0
		click := func(what, sel string) {
			t.Helper()
			interactions++
			browsertest.Follow(t, ctx, what, sel)
		}
		click("open the changes", `nav a[href$="/changes/"], nav a[href$="/changes/index.html"]`)
		click("open the last seven days", `#week ~ p.summary a`)
		if url := browsertest.Eval[string](t, ctx, `location.pathname`); url != prefix+"changes/week.html" {
			t.Fatalf("at %s, want %schanges/week.html", url, prefix)
		}
		got := browsertest.Eval[[]string](t, ctx, rows)
		if len(got) != 1 || !strings.HasPrefix(got[0], "aws/p5.48xlarge/us-west-2//on_demand ") {
			t.Fatalf("the week's changes: %q, want the p5.48xlarge in us-west-2 alone", got)
		}
		for _, w := range []string{"100 USD", "110 USD", "+10.00 %"} {
			if !strings.Contains(got[0], w) {
				t.Errorf("the p5 row %q lacks %q", got[0], w)
			}
		}
		if strings.Contains(got[0], "105 USD") || strings.Contains(got[0], "90 USD") {
			t.Errorf("the p5 row %q shows a figure from inside or before the week", got[0])
		}
		heading := browsertest.Eval[string](t, ctx, `document.querySelector('h1').textContent`)
		if want := map[string]string{"/": "Changes in the last 7 days", "/zh/": "最近 7 天的变化"}[prefix]; heading != want {
			t.Errorf("heading %q, want %q", heading, want)
		}
		t.Logf("answer in %d interactions: %s", interactions, got[0])
		if interactions > 3 {
			t.Errorf("%d interactions", interactions)
		}
		browsertest.Screenshot(t, ctx, "question-last-week.png")
	})
}
