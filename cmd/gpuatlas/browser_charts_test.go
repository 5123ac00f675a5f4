package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gpuatlas/gpuatlas/internal/browsertest"
)

// chartLabel is one label of a chart as the browser draws it.
type chartLabel struct {
	Text       string
	X, Y, W, H float64
}

// chartLabels measures the labels of the SVG drawing on the tab's page at
// selector: their boxes in CSS pixels as shown.
const chartLabels = `((sel) => [...document.querySelectorAll(sel + ' text')].filter(e => e.textContent.trim() !== '').map(e => {
	const r = e.getBoundingClientRect();
	return {Text: e.textContent.trim(), X: r.x, Y: r.y, W: r.width, H: r.height};
}))`

// checkLabels fails labels under 10 pixels high and labels drawn over each
// other (a legend over an axis label, two ticks on one spot).
func checkLabels(t *testing.T, where string, labels []chartLabel) {
	t.Helper()
	if len(labels) == 0 {
		t.Errorf("%s: no labels measured", where)
	}
	for i, a := range labels {
		if a.H < 10 {
			t.Errorf("%s: label %q is %.1f pixels high", where, a.Text, a.H)
		}
		for _, b := range labels[i+1:] {
			// A pixel of slack: glyph boxes of neighbouring lines touch.
			if a.X+a.W-1 > b.X && b.X+b.W-1 > a.X && a.Y+a.H-1 > b.Y && b.Y+b.H-1 > a.Y {
				t.Errorf("%s: labels %q and %q overlap", where, a.Text, b.Text)
			}
		}
	}
}

// TestBrowser_ChartsAtAnyWidth: on the embedded site, in both languages, at
// 1280 and 390 pixels, every chart's labels are at least 10 pixels high as
// shown and none is drawn over another (a phone gets a drawing of its own,
// not the desktop one scaled down to 5-pixel labels), the calculator's charts
// too; and no page scrolls sideways.
func TestBrowser_ChartsAtAnyWidth(t *testing.T) {
	t.Parallel()
	dir, _, _, _ := embeddedSite(t)
	site := serveSite(t, dir)
	pages := []string{"index.html", "offers.html", "gpus/nvidia-h100-sxm-80gb.html", "gpus/nvidia-l4-24gb.html", "tco.html",
		"scenarios/llm-finetune.html", "instances/aws/p5.48xlarge.html", "compare.html"}
	forLangsAndSizes(t, func(t *testing.T, ctx context.Context, prefix string) {
		charts := 0
		for _, path := range pages {
			ready := "footer"
			if path == "tco.html" {
				ready = `#calc-form[data-state="ok"]`
			}
			browsertest.Do(t, ctx, "open "+path, chromedp.Navigate(site+prefix+path), chromedp.WaitReady(chromedp.CSS(ready)))
			if w, inner := browsertest.Eval[int](t, ctx, `document.scrollingElement.scrollWidth`), browsertest.Eval[int](t, ctx, `innerWidth`); w > inner {
				t.Errorf("%s%s scrolls sideways: %d pixels wide on a %d-pixel screen", prefix, path, w, inner)
			}
			// The calculator's charts are inline SVG: measured where they are.
			for _, id := range browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('figure.chart svg')].map((s, i) => (s.id = s.id || 'chart-svg-' + i))`) {
				charts++
				checkLabels(t, prefix+path+" #"+id, browsertest.Eval[[]chartLabel](t, ctx, chartLabels+`('#`+id+`')`))
			}
			// The others are images: each drawing the page chose is shown
			// alone at the width the page shows it, and measured there (the
			// list is taken first, so the page is not opened again per image).
			var imgs []struct {
				Src string
				W   float64
			}
			raw := browsertest.EvalAsync[json.RawMessage](t, ctx, `Promise.all([...document.querySelectorAll('figure.chart img')].map(i =>
				(i.complete ? Promise.resolve() : new Promise(r => i.addEventListener('load', r, {once: true}))).then(() => ({Src: i.currentSrc, W: i.getBoundingClientRect().width}))))`)
			if err := json.Unmarshal(raw, &imgs); err != nil {
				t.Fatal(err)
			}
			for _, img := range imgs {
				charts++
				svg := fetchText(t, img.Src)
				browsertest.Do(t, ctx, "show "+img.Src, chromedp.Navigate("about:blank"), chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
					const d = document.createElement('div');
					d.id = 'c';
					d.style.width = '%fpx';
					d.innerHTML = %s;
					const s = d.querySelector('svg');
					s.setAttribute('width', '100%%');
					s.removeAttribute('height');
					document.body.style.margin = '0';
					document.body.appendChild(d);
				})()`, img.W, mustJSON(t, svg))))
				checkLabels(t, prefix+path+" "+img.Src, browsertest.Eval[[]chartLabel](t, ctx, chartLabels+`('#c')`))
			}
		}
		if charts < 4 {
			t.Errorf("only %d charts measured", charts)
		}
	})
}

// fetchText reads a served file.
func fetchText(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close() // read to the end: nothing to lose
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %v %s", url, err, resp.Status)
	}
	return string(b)
}
