package main

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gpuatlas/gpuatlas/internal/browsertest"
)

// TestBrowser_Consistency: on the embedded site, in both languages, on a
// desktop and a phone (issue 30, item 6):
//   - GPU memory is in GB wherever it is labelled (words/units.go): the
//     explorer's per-GPU and total columns, the compare page and an instance
//     page's similar types; an instance's memory in GiB;
//   - the calculator's utilisation error speaks in percent.
func TestBrowser_Consistency(t *testing.T) {
	t.Parallel()
	dir, _, _, _ := embeddedSite(t)
	site := serveSite(t, dir)
	th := func(ctx context.Context, id string) string {
		return browsertest.Eval[string](t, ctx, `(document.querySelector('th[data-sort="`+id+`"]') || {}).textContent || ''`)
	}
	keys := url.Values{"o": {"aws/p5.48xlarge/us-east-1//on_demand", "aws/p4d.24xlarge/us-east-1//on_demand"}}.Encode()
	forLangsAndSizes(t, func(t *testing.T, ctx context.Context, prefix string) {
		gb := func(where, s string) {
			if !strings.Contains(s, "GB") || strings.Contains(s, "GiB") {
				t.Errorf("%s: %q, want GPU memory in GB", where, s)
			}
		}
		// (a) The explorer's memory columns.
		browsertest.Do(t, ctx, "open explorer", chromedp.Navigate(site+prefix+"offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
		browsertest.Tick(t, ctx, "choose-columns", "gpu_memory_total", true)
		browsertest.Tick(t, ctx, "choose-columns", "gpu_memory", true)
		browsertest.Tick(t, ctx, "choose-columns", "memory", true)
		gb("explorer gpu_memory", th(ctx, "gpu_memory"))
		gb("explorer gpu_memory_total", th(ctx, "gpu_memory_total"))
		if h := th(ctx, "memory"); !strings.Contains(h, "GiB") {
			t.Errorf("explorer memory: %q, want an instance's memory in GiB", h)
		}
		// The compare page: the GPU memory rows' labels and figures.
		browsertest.Do(t, ctx, "open compare", chromedp.Navigate(site+prefix+"compare.html?"+keys), chromedp.WaitReady(chromedp.CSS(`#compare[data-ready]`)))
		rows := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#compare-table tbody tr')].map(r => r.textContent).filter(s => /GPU mem|GB per GPU|GiB per GPU|显存/.test(s))`)
		if len(rows) < 2 {
			t.Errorf("compare: GPU memory rows %q", rows)
		}
		for _, r := range rows {
			gb("compare row", r)
		}
		if s := browsertest.Eval[string](t, ctx, `document.getElementById('compare-table').textContent`); !strings.Contains(s, "640 GB") {
			t.Errorf("compare: no 640 GB for p5.48xlarge's 8 H100s")
		}
		// An instance page's similar types.
		browsertest.Do(t, ctx, "open p5", chromedp.Navigate(site+prefix+"instances/aws/p5.48xlarge.html"), chromedp.WaitReady(chromedp.CSS("main")))
		// A heading of GPU memory that names a unit names GB (the
		// accelerators' "Memory each" gives it in each cell: 80 GB).
		heads := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('main th')].map(h => h.textContent).filter(s => /GPU mem|per GPU|显存/.test(s) && /GB|GiB/.test(s))`)
		if len(heads) == 0 {
			t.Error("p5.48xlarge: no GPU memory heading with a unit")
		}
		for _, h := range heads {
			gb("p5.48xlarge heading", h)
		}

		// (c) The calculator's percentage error.
		browsertest.Do(t, ctx, "open tco", chromedp.Navigate(site+prefix+"tco.html"), chromedp.WaitReady(chromedp.CSS(`#calc-form[data-state="ok"]`)))
		browsertest.SetControl(t, ctx, "calc-util", "150")
		browsertest.WaitFor(t, ctx, `document.getElementById('calc-form').dataset.state === 'error'`)
		want := map[string]string{"/": "more than 0 % and at most 100 %", "/zh/": "大于 0 % 且不超过 100 %"}[prefix]
		if msg := browsertest.Eval[string](t, ctx, `document.getElementById('calc-error').textContent`); !strings.Contains(msg, want) {
			t.Errorf("utilisation 150 %%: %q, want %q", msg, want)
		}
	})
}

// TestBrowser_H100BenchmarksSayWhatTheyHave: with the committed published
// results, in both languages, on a desktop and a phone, the H100 page does
// not say "no benchmark result" above its list of published results: it says
// that no run has been uploaded and that the results below are published
// ones.
func TestBrowser_H100BenchmarksSayWhatTheyHave(t *testing.T) {
	t.Parallel()
	site := serveSite(t, publishedSite(t))
	forLangsAndSizes(t, func(t *testing.T, ctx context.Context, prefix string) {
		browsertest.Do(t, ctx, "open H100", chromedp.Navigate(site+prefix+"gpus/nvidia-h100-sxm-80gb.html"), chromedp.WaitReady(chromedp.CSS("footer")))
		if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('#published tbody tr').length`); n == 0 {
			t.Fatal("the H100 page lists no published result")
		}
		none := map[string]string{"/": "No benchmark result for this GPU", "/zh/": "该 GPU 暂无基准测试结果"}[prefix]
		want := map[string]string{"/": "the published results below", "/zh/": "下方是其他机构公布的测试结果"}[prefix]
		s := browsertest.Eval[string](t, ctx, `document.querySelector('main').textContent`)
		if strings.Contains(s, none) {
			t.Errorf("the H100 page says %q above its published results", none)
		}
		if !strings.Contains(s, want) {
			t.Errorf("the H100 page does not say %q", want)
		}
	})
}
