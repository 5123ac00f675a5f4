package main

import (
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gpuatlas/gpuatlas/internal/browsertest"
)

// Under the headers gpuatlas serve sends (a strict Content-Security-Policy
// among them) every kind of page still works: no script, style or image is
// blocked (a violation is an exception, see browsertest.CollectExceptions),
// every chart image loads, the scripted pages get ready, and a chart opened on
// its own keeps its inline styles.
func TestBrowser_PagesWorkUnderServeHeaders(t *testing.T) {
	t.Parallel()
	dir := buildBenchSite(t)
	site, ctx, exceptions := browse(t, dir)
	pages := []string{"instances/aws/g5.xlarge.html", "zh/instances/aws/g5.xlarge.html"}
	for _, glob := range []string{"*.html", "zh/*.html", "gpus/*.html"} {
		names, err := fs.Glob(os.DirFS(dir), glob)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, names...)
	}
	ready := map[string]string{
		"offers.html":     `table#offers[data-ready]`,
		"benchmarks.html": `table.bench[data-ready]`,
	}
	charts := 0
	for _, p := range pages {
		if p == "404.html" || p == "zh/404.html" {
			continue
		}
		wait := "footer"
		if sel, ok := ready[strings.TrimPrefix(p, "zh/")]; ok {
			wait = sel
		}
		browsertest.Do(t, ctx, "open "+p, chromedp.Navigate(site+"/"+p), chromedp.WaitReady(chromedp.CSS(wait)))
		browsertest.WaitFor(t, ctx, `[...document.images].every(i => i.complete)`)
		if broken := browsertest.Eval[[]string](t, ctx, `[...document.images].filter(i => i.naturalWidth === 0).map(i => i.getAttribute('src'))`); len(broken) > 0 {
			t.Errorf("%s: images that did not load: %v", p, broken)
		}
		charts += browsertest.Eval[int](t, ctx, `document.images.length`)
	}
	if charts == 0 {
		t.Error("no page showed a chart: the test checks nothing of the SVG charts")
	}
	svgs, err := fs.Glob(os.DirFS(dir), "gpus/*.svg")
	if err != nil || len(svgs) == 0 {
		t.Fatalf("no GPU chart to open on its own (%v)", err)
	}
	browsertest.Do(t, ctx, "open a chart", chromedp.Navigate(site+"/"+svgs[0]), chromedp.WaitReady(chromedp.CSS("svg")))
	if fill := browsertest.Eval[string](t, ctx, `getComputedStyle(document.querySelector('svg > path')).fill`); fill != "rgb(255, 255, 255)" {
		t.Errorf("%s opened on its own: background fill %q, want its inline style's white", svgs[0], fill)
	}
	time.Sleep(300 * time.Millisecond) // violations are reported after a tick
	exceptions.Check(t)
	t.Logf("%d pages, %d chart images", len(pages), charts)
}
