package main

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gpuatlas/gpuatlas/internal/browsertest"
)

// buildArchiveSite is the site of the embedded catalog with the committed
// history (data/history.jsonl: its crawl and the prices imported from public
// archives) and the real GPU reference: the site `gpuatlas build` publishes,
// built once for the package's tests (buildEmbeddedSite).
func buildArchiveSite(t *testing.T) string {
	t.Helper()
	return buildEmbeddedSite(t)
}

// TestBrowser_PriceHistoryFromArchives opens the pages that show the imported
// price history: the p5.48xlarge cut of 2025-06-05, Tencent's GN7 list prices of
// 2016-2021, a type only the archives know, the archives' changes and the GPU
// trend; each chart loads and the tables hold the real figures.
func TestBrowser_PriceHistoryFromArchives(t *testing.T) {
	t.Parallel()
	site := serveSite(t, buildArchiveSite(t))
	rows := `[...document.querySelectorAll('.price-history tbody tr')].map(r => r.innerText.replace(/\s+/g, ' '))`
	browsertest.Shots{
		Pages: []browsertest.Page{
			{Name: "history-p5", Path: "/instances/aws/p5.48xlarge.html#history"},
			{Name: "history-tencent-gn7", Path: "/instances/tencent/gn7.2xlarge32.html#history"},
			{Name: "zh-history-tencent-gn7", Path: "/zh/instances/tencent/gn7.2xlarge32.html#history"},
			{Name: "history-tencent-gn2-archived", Path: "/instances/tencent/gn2.7xlarge56.html"},
			{Name: "changes-archives", Path: "/changes/archives.html"},
			{Name: "zh-changes-archives", Path: "/zh/changes/archives.html"},
			{Name: "gpu-h100-trend", Path: "/gpus/nvidia-h100-sxm-80gb.html#price-trend"},
		},
		NoExceptions: true,
		Check: func(t *testing.T, ctx context.Context, p browsertest.Page) {
			if broken := browsertest.Eval[[]string](t, ctx, `[...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)`); len(broken) > 0 {
				t.Errorf("%s: images that do not load: %v", p.Path, broken)
			}
			var want []string
			switch p.Name {
			case "history-p5":
				want = []string{"98.32 USD/hour", "55.04 USD/hour", "github.com/amorton45/aws-gpu-price-tracker"}
			case "history-tencent-gn7":
				want = []string{"Mainland China (list price)", "2500 CNY/month", "2250 – 2500 CNY/month", "github.com/ZoeyYann/qcloud-documents"}
			case "zh-history-tencent-gn7":
				want = []string{"中国大陆（刊例价）", "2250 – 2500 CNY/月"}
			case "history-tencent-gn2-archived":
				want = []string{"2928 CNY/month", "4248 CNY/month"}
			}
			got := strings.Join(browsertest.Eval[[]string](t, ctx, rows), "\n")
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("%s: the price history lacks %q:\n%s", p.Path, w, got)
				}
			}
			if p.Name == "changes-archives" {
				text := browsertest.Eval[string](t, ctx, `document.getElementById('d-2025-06-05').innerText`)
				for _, w := range []string{"p5.48xlarge", "98.32 USD/hour", "55.04 USD/hour", "-44.02 %", "aws-gpu-price-tracker"} {
					if !strings.Contains(text, w) {
						t.Errorf("the archives' change of 2025-06-05 lacks %q: %s", w, text)
					}
				}
			}
			if strings.HasPrefix(p.Name, "history-") || strings.HasPrefix(p.Name, "zh-history-") {
				browsertest.Do(t, ctx, "scroll to the history", chromedp.ScrollIntoView(".price-history"))
				size := "desktop"
				if browsertest.Eval[int](t, ctx, `window.innerWidth`) < 600 {
					size = "phone"
				}
				browsertest.ElementShot(t, ctx, ".price-history", size+"-section-"+p.Name+".png")
			}
		},
	}.Save(t, site)
}
