package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/benchrow"
	"github.com/gpuatlas/gpuatlas/internal/synth"
	"github.com/gpuatlas/gpuatlas/sitegen"
	"github.com/gpuatlas/gpuatlas/templates"
)

// buildTestSite renders sitegen's test snapshot (the same one its golden tests
// use) into a temporary folder.
func buildTestSite(t *testing.T) string {
	t.Helper()
	testdata := filepath.Join("..", "..", "sitegen", "testdata")
	snap, err := catalog.ReadSnapshot(filepath.Join(testdata, "snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	return buildSite(t, snap)
}

func buildSite(t *testing.T, snap *catalog.Snapshot) string {
	t.Helper()
	testdata := filepath.Join("..", "..", "sitegen", "testdata")
	ref, err := catalog.LoadGPUReference(os.DirFS(testdata))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if _, err := sitegen.Build(sitegen.Options{Snapshot: snap, Reference: ref, Templates: templates.FS, OutDir: dir, BaseURL: "/"}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// chromiumPath is the browser the tests drive: $GPUATLAS_CHROMIUM when set, else
// Debian's chromium from PATH.
func chromiumPath() (string, error) {
	if p := os.Getenv("GPUATLAS_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("GPUATLAS_CHROMIUM: %w", err)
		}
		return p, nil
	}
	return exec.LookPath("chromium")
}

// newBrowser starts Chromium headless with a 1400×900 window. Without it the test
// is skipped, except in CI, where a missing browser is a failure.
func newBrowser(t *testing.T) context.Context { return newBrowserSized(t, 1400, 900) }

func newBrowserSized(t *testing.T, width, height int) context.Context {
	t.Helper()
	path, err := chromiumPath()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("chromium is not installed (CI must install Debian's chromium package, or set GPUATLAS_CHROMIUM): %v", err)
		}
		t.Skipf("chromium is not installed (set GPUATLAS_CHROMIUM to a browser binary): %v", err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(width, height),
		chromedp.UserDataDir(t.TempDir()),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancelTimeout := context.WithTimeout(alloc, 90*time.Second)
	t.Cleanup(cancelTimeout)
	ctx, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	return ctx
}

func artifactsDir(t *testing.T) string {
	if d := os.Getenv("GPUATLAS_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(artifactsDir(t), name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// evalAsync evaluates an expression that gives a promise, and waits for it.
func evalAsync[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript condition; the explorer debounces text inputs.
func waitFor(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v", cond, err)
	}
}

// setControl sets a filter control as a person would and fires its event.
func setControl(t *testing.T, ctx context.Context, id, value string) {
	t.Helper()
	do(t, ctx, "set "+id, chromedp.Evaluate[chromedp.Void](`(() => {
		const c = document.getElementById(`+jsString(id)+`);
		c.value = `+jsString(value)+`;
		c.dispatchEvent(new Event(c.tagName === 'SELECT' ? 'change' : 'input', {bubbles: true}));
	})()`))
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// check ticks or unticks one value of an explorer drop-down (a details.ms
// holding checkboxes) as a person would, and fires its change event.
func check(t *testing.T, ctx context.Context, id, value string, on bool) {
	t.Helper()
	do(t, ctx, "check "+id+" "+value, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const box = document.querySelector('#%s input[value="%s"]');
		if (!box) throw new Error('no option %s in %s');
		box.checked = %t;
		box.dispatchEvent(new Event('change', {bubbles: true}));
	})()`, id, value, value, id, on)))
}

const (
	rowKeys  = `[...document.querySelectorAll('tbody#offers-body tr')].map(r => r.dataset.key)`
	rowCount = `document.getElementById('row-count').textContent`
	ready    = `table#offers[data-ready]`
	headers  = `[...document.querySelectorAll('#offers-head th[data-sort]')].map(th => th.dataset.sort)`
)

// captureDownloads makes the page record every Blob it offers as a download and
// every text it copies, instead of saving or copying them.
const captureDownloads = `(() => {
	window.__downloads = [];
	window.__copied = [];
	const create = URL.createObjectURL;
	URL.createObjectURL = (b) => { window.__downloads.push(b); return create(b); };
	HTMLAnchorElement.prototype.click = function () { window.__lastDownloadName = this.download; };
	Object.defineProperty(navigator, 'clipboard', {value: {writeText: (s) => { window.__copied.push(s); return Promise.resolve(); }}});
})()`

func TestBrowser_OffersExplorer(t *testing.T) {
	dir := buildTestSite(t)
	srv := httptest.NewServer(newServeHandler(dir))
	defer srv.Close()
	ctx := newBrowser(t)
	exceptions := collectExceptions(ctx)

	// The default view: on-demand offers, cheapest first, as the server rendered
	// them; the suspect price (g5.xlarge in us-west-2) only on request.
	do(t, ctx, "open offers", chromedp.Navigate(srv.URL+"/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
	if got := eval[string](t, ctx, rowCount); got != "8 of 12 offers" {
		t.Errorf("row count = %q, want %q", got, "8 of 12 offers")
	}
	if shown := eval[bool](t, ctx, `getComputedStyle(document.getElementById('filters')).display !== 'none'`); !shown {
		t.Error("the filter panel is not shown once the explorer has loaded")
	}
	defaultRows := []string{
		"aws/g6f.large/us-east-1//on_demand",
		"aws/g5.xlarge/us-east-1//on_demand",
		"alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand",
		"volcengine/ecs.gni2.3xlarge/cn-beijing//on_demand",
		"huawei/pi2.2xlarge.4/cn-north-4//on_demand",
		"alibaba/ecs.gn8is.4xlarge/cn-hangzhou//on_demand",
		"aws/p5.48xlarge/us-east-1//on_demand",
		"aws/p5.48xlarge/us-west-2//on_demand",
	}
	if diff := cmp.Diff(defaultRows, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("default rows (-want +got):\n%s", diff)
	}
	do(t, ctx, "show suspect", chromedp.Click(chromedp.CSS(`#filter-suspect`)))
	waitFor(t, ctx, rowCount+` === '9 of 12 offers'`)
	if keys := eval[[]string](t, ctx, rowKeys); len(keys) == 0 || keys[0] != "aws/g5.xlarge/us-west-2//on_demand" {
		t.Errorf("with suspect prices shown, rows = %v; want the suspect g5.xlarge first", keys)
	}
	if got := eval[string](t, ctx, `document.querySelector('tr[data-key="aws/g5.xlarge/us-west-2//on_demand"] .badge.suspect').textContent`); got == "" {
		t.Error("the suspect offer has no suspect badge")
	}
	if got := eval[string](t, ctx, `location.search`); !strings.Contains(got, "sus=1") {
		t.Errorf("URL %q does not keep the suspect choice", got)
	}
	do(t, ctx, "hide suspect", chromedp.Click(chromedp.CSS(`#filter-suspect`)))
	waitFor(t, ctx, rowCount+` === '8 of 12 offers'`)
	// Every control the script built has a label.
	if unlabelled := eval[[]string](t, ctx, `[...document.querySelectorAll('main input, main select, main button')]
		.filter(c => !(c.labels && c.labels.length) && !c.getAttribute('aria-label') && !c.textContent.trim())
		.map(c => c.outerHTML)`); len(unlabelled) > 0 {
		t.Errorf("controls without a label: %v", unlabelled)
	}

	// Filter: one GPU model, every billing kind.
	check(t, ctx, "f-gpu", "nvidia-h100-sxm-80gb", true)
	check(t, ctx, "f-billing", "on_demand", false)
	want := []string{
		"aws/p5.48xlarge/us-east-1/us-east-1a/spot",          // 39.33
		"aws/p5.48xlarge/us-east-1//reserved_1y_all_upfront", // 530000 / 8760 = 60.50
		"aws/p5.48xlarge/us-east-1//on_demand",               // 98.32
		"aws/p5.48xlarge/us-west-2//on_demand",               // 98.32
	}
	if diff := cmp.Diff(want, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows after filtering H100, all billing (-want +got):\n%s", diff)
	}
	if got := eval[string](t, ctx, rowCount); got != "4 of 12 offers" {
		t.Errorf("row count = %q, want %q", got, "4 of 12 offers")
	}

	// Sort by price: the default is ascending; one press on another column and
	// two on price give descending.
	do(t, ctx, "sort by billing", chromedp.Click(chromedp.CSS(`th[data-sort="billing"] button`)))
	do(t, ctx, "sort by price", chromedp.Click(chromedp.CSS(`th[data-sort="price"] button`)))
	if diff := cmp.Diff(want, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows sorted by price ascending (-want +got):\n%s", diff)
	}
	do(t, ctx, "sort by price again", chromedp.Click(chromedp.CSS(`th[data-sort="price"] button`)))
	descending := []string{want[2], want[3], want[1], want[0]}
	if diff := cmp.Diff(descending, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows sorted by price descending (-want +got):\n%s", diff)
	}
	if got := eval[string](t, ctx, `document.querySelector('th[data-sort="price"]').getAttribute('aria-sort')`); got != "descending" {
		t.Errorf("aria-sort of the price column = %q", got)
	}
	// The sort buttons work from the keyboard.
	do(t, ctx, "sort by keyboard", chromedp.Focus(chromedp.CSS(`th[data-sort="gpus"] button`)), chromedp.KeyEvent("\r"))
	if got := eval[string](t, ctx, `new URLSearchParams(location.search).get('sort')`); got != "gpus" {
		t.Errorf("Enter on the GPUs header sorted by %q", got)
	}
	do(t, ctx, "back to price", chromedp.Click(chromedp.CSS(`th[data-sort="price"] button`)), chromedp.Click(chromedp.CSS(`th[data-sort="price"] button`)))

	// Columns: add the family and the price per GPU GiB, drop the marks.
	check(t, ctx, "choose-columns", "family", true)
	check(t, ctx, "choose-columns", "gib_price", true)
	check(t, ctx, "choose-columns", "marks", false)
	cols := eval[[]string](t, ctx, headers)
	if diff := cmp.Diff([]string{"provider", "type", "family", "gpu", "gpus", "gpu_memory_total", "vcpus", "memory", "price", "gpu_price", "gib_price", "billing", "region", "availability"}, cols); diff != "" {
		t.Errorf("columns after choosing (-want +got):\n%s", diff)
	}
	if got := eval[string](t, ctx, `document.querySelector('tr[data-key="aws/p5.48xlarge/us-east-1//on_demand"] td.c-gib_price').textContent`); got != "0.1536 USD" {
		t.Errorf("USD per GPU GiB-hour of p5.48xlarge = %q, want 98.32 / 640 = 0.1536 USD", got)
	}

	// The whole view is in the URL and survives a reload.
	search := eval[string](t, ctx, `location.search`)
	for _, part := range []string{"gpu=nvidia-h100-sxm-80gb", "billing=&", "dir=desc", "cols=provider%2Ctype%2Cfamily"} {
		if !strings.Contains(search+"&", part) {
			t.Errorf("URL query %q lacks %q", search, part)
		}
	}
	do(t, ctx, "reload", chromedp.Reload(), chromedp.WaitReady(chromedp.CSS(ready)))
	if diff := cmp.Diff(descending, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows after reload (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(cols, eval[[]string](t, ctx, headers)); diff != "" {
		t.Errorf("columns after reload (-want +got):\n%s", diff)
	}
	if got := eval[bool](t, ctx, `document.querySelector('#f-gpu input[value="nvidia-h100-sxm-80gb"]').checked && !document.querySelector('#f-billing input[value="on_demand"]').checked`); !got {
		t.Error("the GPU and billing choices are not restored after a reload")
	}
	screenshot(t, ctx, "offers-h100-all-billing.png")

	// Number ranges and the region selector.
	do(t, ctx, "region", chromedp.Navigate(srv.URL+"/offers.html?region=us-east-1"), chromedp.WaitReady(chromedp.CSS(ready)))
	setControl(t, ctx, "f-gpus-min", "1")
	waitFor(t, ctx, rowCount+` === '2 of 12 offers'`)
	if diff := cmp.Diff([]string{"aws/g5.xlarge/us-east-1//on_demand", "aws/p5.48xlarge/us-east-1//on_demand"}, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows in us-east-1 with at least 1 GPU (-want +got):\n%s", diff)
	}
	if got := eval[string](t, ctx, `new URLSearchParams(location.search).get('gpus')`); got != "1~" {
		t.Errorf("the URL's GPU range = %q, want 1~", got)
	}

	// The filter expression.
	do(t, ctx, "expression", chromedp.Navigate(srv.URL+"/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
	setControl(t, ctx, "filter-x", "gpu_memory>=80 gpus>=8 provider:aws,alibaba -region:west")
	waitFor(t, ctx, rowCount+` === '1 of 12 offers'`)
	if diff := cmp.Diff([]string{"aws/p5.48xlarge/us-east-1//on_demand"}, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows for the expression (-want +got):\n%s", diff)
	}
	setControl(t, ctx, "filter-x", "gpus>=x nonsense:1 a10")
	waitFor(t, ctx, `document.getElementById('filter-x-error').textContent.includes('gpus>=x')`)
	if got := eval[string](t, ctx, `document.getElementById('filter-x-error').textContent`); !strings.Contains(got, "nonsense:1") {
		t.Errorf("expression error = %q, want both bad terms named", got)
	}
	// The bare word a10 matches the A10 and A10G offers.
	if diff := cmp.Diff([]string{"aws/g5.xlarge/us-east-1//on_demand",
		"alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand", "volcengine/ecs.gni2.3xlarge/cn-beijing//on_demand"}, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows for the bare word a10 (-want +got):\n%s", diff)
	}
	parsed := eval[[]int](t, ctx, `(() => { const p = GPUAtlasExplorer.parse('provider:aws gpus>=8 price<1 x'); return [p.tests.length, p.errors.length]; })()`)
	if diff := cmp.Diff([]int{4, 0}, parsed); diff != "" {
		t.Errorf("parse: tests, errors (-want +got):\n%s", diff)
	}

	// Synthetic offers carry a badge and can be hidden.
	do(t, ctx, "synthetic", chromedp.Navigate(srv.URL+"/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
	if got := eval[string](t, ctx, `document.querySelector('tr[data-key="volcengine/ecs.gni2.3xlarge/cn-beijing//on_demand"] .badge.synthetic').textContent`); got != "synthetic" {
		t.Errorf("synthetic badge = %q", got)
	}
	do(t, ctx, "hide synthetic", chromedp.Click(chromedp.CSS(`#filter-synthetic`)))
	if got := eval[string](t, ctx, rowCount); got != "7 of 12 offers" {
		t.Errorf("row count without synthetic offers = %q", got)
	}
	if got := eval[string](t, ctx, `location.search`); !strings.Contains(got, "syn=0") {
		t.Errorf("URL query %q lacks syn=0", got)
	}

	// Currency and period: a CNY-priced row in USD, CNY and as published.
	const cnyRow = `document.querySelector('tr[data-key="alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand"] td.c-price').textContent`
	const usdRow = `document.querySelector('tr[data-key="aws/g5.xlarge/us-east-1//on_demand"] td.c-price').textContent`
	do(t, ctx, "alibaba offers", chromedp.Navigate(srv.URL+"/offers.html?provider=alibaba,aws&billing="), chromedp.WaitReady(chromedp.CSS(ready)))
	if got := eval[string](t, ctx, cnyRow); got != "1.1972 USD" {
		t.Errorf("CNY row in USD = %q, want %q", got, "1.1972 USD")
	}
	setControl(t, ctx, "filter-currency", "CNY")
	if got := eval[string](t, ctx, cnyRow); got != "8.5000 CNY" {
		t.Errorf("CNY row in CNY = %q, want %q", got, "8.5000 CNY")
	}
	if got := eval[string](t, ctx, usdRow); got != "7.1426 CNY" {
		t.Errorf("USD row in CNY = %q, want 1.006 × 7.1 = %q", got, "7.1426 CNY")
	}
	if got := eval[string](t, ctx, `document.querySelector('th[data-sort="price"]').textContent`); got != "Price (CNY/hour)" {
		t.Errorf("price header in CNY = %q", got)
	}
	setControl(t, ctx, "filter-per", "month")
	if got := eval[string](t, ctx, cnyRow); got != "6205.00 CNY" {
		t.Errorf("CNY row per month = %q, want 8.5 × 730 = %q", got, "6205.00 CNY")
	}
	setControl(t, ctx, "filter-currency", "native")
	if got := eval[string](t, ctx, usdRow); got != "734.38 USD" {
		t.Errorf("USD row per month as published = %q, want 1.006 × 730 = %q", got, "734.38 USD")
	}
	if got := eval[string](t, ctx, `document.getElementById('fx-note').textContent`); !strings.Contains(got, "2026-11-28") || !strings.Contains(got, "1 USD = 7.1 CNY") {
		t.Errorf("FX note = %q, want the rate and its date", got)
	}
	if got := eval[string](t, ctx, `location.search`); !strings.Contains(got, "cur=native") || !strings.Contains(got, "per=month") {
		t.Errorf("URL query %q lacks the currency and period", got)
	}

	// The language switch keeps the view.
	href := eval[string](t, ctx, `document.getElementById('lang-switch').getAttribute('href')`)
	if !strings.HasPrefix(href, "/zh/offers.html?") || !strings.Contains(href, "cur=native") {
		t.Errorf("language switch = %q, want the Chinese explorer with the same query", href)
	}
	// The old page matches the ready selector too: wait for the Chinese page's
	// explorer, then for its script to have applied the view from the URL.
	do(t, ctx, "switch language", chromedp.Click(chromedp.CSS(`#lang-switch`)), chromedp.WaitReady(chromedp.CSS(`html[lang="zh-Hans"] `+ready)))
	waitFor(t, ctx, `(`+usdRow+`) === '734.38 USD'`)
	if got := eval[string](t, ctx, usdRow); got != "734.38 USD" {
		t.Errorf("the Chinese explorer does not show the same view: %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('tr[data-key="alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand"] td.c-provider').textContent`); got != "阿里云" {
		t.Errorf("provider name on the Chinese page = %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('tr[data-key="aws/g5.xlarge/us-east-1//on_demand"] td.c-region').textContent`); !strings.HasPrefix(got, "美国东部") {
		t.Errorf("region name on the Chinese page = %q", got)
	}
	screenshot(t, ctx, "zh-offers-month-native.png")

	// Download and copy the current view as CSV and Markdown.
	do(t, ctx, "view to export", chromedp.Navigate(srv.URL+"/offers.html?gpu=nvidia-h100-sxm-80gb&billing=&cols=provider,type,price,billing"), chromedp.WaitReady(chromedp.CSS(ready)))
	do(t, ctx, "capture downloads", chromedp.Evaluate[chromedp.Void](captureDownloads))
	do(t, ctx, "download csv", chromedp.Click(chromedp.CSS(`#download-csv`)))
	csv := evalAsync[string](t, ctx, `window.__downloads[0].text()`)
	wantLines := []string{
		"Provider,Instance type,Price (USD/hour),Billing",
		"AWS,p5.48xlarge,39.33,Spot",
		"AWS,p5.48xlarge,60.50,\"Reserved 1y, all upfront\"",
		"AWS,p5.48xlarge,98.32,On-demand",
		"AWS,p5.48xlarge,98.32,On-demand",
	}
	if diff := cmp.Diff(strings.Join(wantLines, "\r\n")+"\r\n", csv); diff != "" {
		t.Errorf("downloaded CSV (-want +got):\n%s", diff)
	}
	if got := eval[string](t, ctx, `window.__lastDownloadName + ' ' + window.__downloads[0].type`); got != "gpuatlas-offers.csv text/csv;charset=utf-8" {
		t.Errorf("download name and type = %q", got)
	}
	do(t, ctx, "download markdown", chromedp.Click(chromedp.CSS(`#download-md`)))
	md := evalAsync[string](t, ctx, `window.__downloads[1].text()`)
	wantMD := "| Provider | Instance type | Price (USD/hour) | Billing |\n| --- | --- | --- | --- |\n" +
		"| AWS | p5.48xlarge | 39.33 | Spot |\n| AWS | p5.48xlarge | 60.50 | Reserved 1y, all upfront |\n" +
		"| AWS | p5.48xlarge | 98.32 | On-demand |\n| AWS | p5.48xlarge | 98.32 | On-demand |\n"
	if diff := cmp.Diff(wantMD, md); diff != "" {
		t.Errorf("downloaded Markdown (-want +got):\n%s", diff)
	}
	do(t, ctx, "copy csv", chromedp.Click(chromedp.CSS(`#copy-csv`)))
	waitFor(t, ctx, `window.__copied.length === 1`)
	if got := eval[string](t, ctx, `window.__copied[0]`); got != csv {
		t.Errorf("copied CSV differs from the download: %q", got)
	}
	do(t, ctx, "copy markdown", chromedp.Click(chromedp.CSS(`#copy-md`)))
	waitFor(t, ctx, `window.__copied.length === 2`)
	if got := eval[string](t, ctx, `window.__copied[1]`); got != md {
		t.Errorf("copied Markdown differs from the download: %q", got)
	}
	waitFor(t, ctx, `document.getElementById('action-status').textContent.includes('4 rows')`)

	// Select rows and compare them.
	do(t, ctx, "select two", chromedp.Click(chromedp.CSS(`tr[data-key="aws/p5.48xlarge/us-east-1/us-east-1a/spot"] input`)),
		chromedp.Click(chromedp.CSS(`tr[data-key="aws/p5.48xlarge/us-west-2//on_demand"] input`)))
	link := eval[string](t, ctx, `document.getElementById('compare-link').getAttribute('href')`)
	if link != "/compare.html?o=aws%2Fp5.48xlarge%2Fus-east-1%2Fus-east-1a%2Fspot&o=aws%2Fp5.48xlarge%2Fus-west-2%2F%2Fon_demand" {
		t.Errorf("compare link = %q", link)
	}
	if got := eval[string](t, ctx, `location.search`); !strings.Contains(got, "o=aws%2Fp5.48xlarge%2Fus-east-1%2Fus-east-1a%2Fspot") {
		t.Errorf("the selection is not in the URL: %q", got)
	}
	do(t, ctx, "compare", chromedp.Click(chromedp.CSS(`#compare-link`)), chromedp.WaitReady(chromedp.CSS(`#compare[data-ready]`)))
	if got := eval[[]string](t, ctx, `[...document.querySelectorAll('#compare-table thead th[data-key]')].map(th => th.dataset.key)`); len(got) != 2 {
		t.Errorf("compare page columns = %v, want the two offers", got)
	}
	screenshot(t, ctx, "compare.png")

	for _, e := range exceptions() {
		t.Errorf("uncaught script exception: %s", e)
	}
}

func TestBrowser_Compare(t *testing.T) {
	dir := buildTestSite(t)
	srv := httptest.NewServer(newServeHandler(dir))
	defer srv.Close()
	ctx := newBrowser(t)
	exceptions := collectExceptions(ctx)

	q := "?o=alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand&o=volcengine/ecs.gni2.3xlarge/cn-beijing//on_demand&o=aws/g5.xlarge/us-east-1//on_demand&o=no/such/offer//x"
	do(t, ctx, "compare", chromedp.Navigate(srv.URL+"/zh/compare.html"+q), chromedp.WaitReady(chromedp.CSS(`#compare[data-ready]`)))
	cell := func(row, col int) string {
		return eval[string](t, ctx, fmt.Sprintf(`document.querySelectorAll('#compare-table tbody tr')[%d].children[%d].textContent`, row, col))
	}
	rows := eval[[]string](t, ctx, `[...document.querySelectorAll('#compare-table tbody th')].map(th => th.textContent)`)
	idx := map[string]int{}
	for i, r := range rows {
		idx[r] = i
	}
	if got := cell(idx["云厂商"], 1); got != "阿里云" {
		t.Errorf("provider of the first offer = %q", got)
	}
	if got := cell(idx["USD / 小时"], 3); !strings.HasPrefix(got, "1.0060 USD") || !strings.Contains(got, "最低") {
		t.Errorf("USD per hour of g5.xlarge = %q, want the lowest marked", got)
	}
	if got := cell(idx["CNY / 小时"], 2); got != "9.1000 CNY" {
		t.Errorf("CNY per hour of the Volcano Engine offer = %q", got)
	}
	if got := cell(idx["包含"], 1); got != "40 GiB ESSD system disk" {
		t.Errorf("what the Alibaba price includes = %q", got)
	}
	if got := eval[string](t, ctx, `document.getElementById('compare-status').textContent`); !strings.Contains(got, "no/such/offer//x") {
		t.Errorf("status = %q, want the unknown key named", got)
	}
	if got := eval[string](t, ctx, `document.getElementById('lang-switch').getAttribute('href')`); !strings.HasPrefix(got, "/compare.html?o=") {
		t.Errorf("language switch = %q, want the English compare page with the same offers", got)
	}
	screenshot(t, ctx, "zh-compare.png")

	// Without offers the page explains what to do.
	do(t, ctx, "empty compare", chromedp.Navigate(srv.URL+"/compare.html"), chromedp.WaitReady(chromedp.CSS("footer")))
	if hidden := eval[bool](t, ctx, `document.getElementById('compare-help').hidden`); hidden {
		t.Error("the instructions are hidden on an empty compare page")
	}
	for _, e := range exceptions() {
		t.Errorf("uncaught script exception: %s", e)
	}
}

// collectExceptions records the tab's uncaught script exceptions from now on.
func collectExceptions(ctx context.Context) func() []string {
	var mu sync.Mutex
	var got []string
	events := chromedp.Events(ctx, runtime.ExceptionThrown)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			text := "exception"
			if d := ev.ExceptionDetails; d != nil {
				text = d.Text
				if d.Exception != nil {
					text += " " + d.Exception.Description
				}
			}
			mu.Lock()
			got = append(got, text)
			mu.Unlock()
		}
	}()
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

func TestBrowser_OffersWithoutJavaScript(t *testing.T) {
	dir := buildTestSite(t)
	srv := httptest.NewServer(newServeHandler(dir))
	defer srv.Close()
	ctx := newBrowser(t)

	do(t, ctx, "open tab", chromedp.Navigate("about:blank"))
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatalf("disable JavaScript: %v", err)
	}
	do(t, ctx, "open offers", chromedp.Navigate(srv.URL+"/offers.html"), chromedp.WaitReady(chromedp.CSS("footer")))
	// Evaluate runs through the protocol, which works with page scripts disabled.
	if got := eval[bool](t, ctx, `document.querySelector('table#offers').hasAttribute('data-ready')`); got {
		t.Fatal("the explorer script ran although JavaScript is disabled")
	}
	keys := eval[[]string](t, ctx, rowKeys)
	if len(keys) != 8 || keys[0] != "aws/g6f.large/us-east-1//on_demand" {
		t.Errorf("server-rendered rows = %v, want the 8 on-demand offers without a suspect price, cheapest first", keys)
	}
	if got := eval[string](t, ctx, rowCount); got != "8 of 12 offers" {
		t.Errorf("row count = %q", got)
	}
	for _, id := range []string{"filters", "actions"} {
		if hidden := eval[bool](t, ctx, `getComputedStyle(document.getElementById('`+id+`')).display === 'none'`); !hidden {
			t.Errorf("#%s shows although it cannot work without JavaScript", id)
		}
	}
	screenshot(t, ctx, "offers-nojs.png")

	// Every other page reads without JavaScript.
	for _, p := range []string{"/gpus/nvidia-h100-sxm-80gb.html", "/regions.html", "/methodology.html", "/compare.html"} {
		do(t, ctx, "open "+p, chromedp.Navigate(srv.URL+p), chromedp.WaitReady(chromedp.CSS("footer")))
		if got := eval[string](t, ctx, `document.querySelector('main h1').textContent`); got == "" {
			t.Errorf("%s has no heading without JavaScript", p)
		}
	}
	if got := eval[string](t, ctx, `document.querySelector('#compare-help').textContent`); !strings.Contains(got, "compare.html?o=") {
		t.Errorf("the compare page without JavaScript does not explain its address: %q", got)
	}
}

// TestBrowser_Screenshots saves the main pages, on a desktop and on a 390-pixel
// phone screen, for a person to look at, and checks that no page is wider than a
// phone's screen (tables scroll inside their box).
func TestBrowser_Screenshots(t *testing.T) {
	dir := buildTestSite(t)
	srv := httptest.NewServer(newServeHandler(dir))
	defer srv.Close()
	pages := []struct{ name, path, wait string }{
		{"index", "/", "footer"},
		{"offers", "/offers.html", ready},
		{"instance-p5.48xlarge", "/instances/aws/p5.48xlarge.html", "footer"},
		{"gpus", "/gpus/", "footer"},
		{"gpu-h100", "/gpus/nvidia-h100-sxm-80gb.html", "footer"},
		{"regions", "/regions.html", "footer"},
		{"downloads", "/downloads.html", "footer"},
		{"methodology", "/methodology.html", "footer"},
		{"zh-index", "/zh/", "footer"},
		{"zh-gpu-a10", "/zh/gpus/nvidia-a10-24gb.html", "footer"},
	}
	for _, size := range []struct {
		name          string
		width, height int
	}{{"desktop", 1400, 900}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			ctx := newBrowserSized(t, size.width, size.height)
			if size.name == "phone" {
				// A window cannot be narrower than 500 pixels; a phone is emulated.
				do(t, ctx, "emulate a phone", chromedp.EmulateViewport(int64(size.width), int64(size.height),
					chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
			}
			for _, p := range pages {
				do(t, ctx, "open "+p.path, chromedp.Navigate(srv.URL+p.path), chromedp.WaitReady(chromedp.CSS(p.wait)))
				if size.name == "phone" {
					if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > size.width {
						t.Errorf("%s is %d pixels wide on a %d-pixel screen", p.path, w, size.width)
					}
				}
				screenshot(t, ctx, size.name+"-"+p.name+".png")
			}
		})
	}
}

// TestBrowser_Explorer10kRows loads a generated catalog of 10,000 offers and times
// the explorer's filter and render of the visible page with performance.now(), for
// a series of filters a person would set. The target is under 16 ms (one frame);
// as a speed target it is reported by make bench (bench/run.sh) and enforced only with GPUATLAS_PERF_TARGETS=1,
// never in the ordinary test run, where a loaded machine would make it flaky.
func TestBrowser_Explorer10kRows(t *testing.T) {
	snap := synth.Snapshot(10_000, 1)
	dir := buildSite(t, snap)
	srv := httptest.NewServer(newServeHandler(dir))
	defer srv.Close()
	ctx := newBrowser(t)
	exceptions := collectExceptions(ctx)

	do(t, ctx, "open offers", chromedp.Navigate(srv.URL+"/offers.html?billing="), chromedp.WaitReady(chromedp.CSS(ready)))
	if n := eval[int](t, ctx, `GPUAtlasExplorer.rows().length`); n != len(snap.Offers) {
		t.Fatalf("the explorer loaded %d rows, want %d", n, len(snap.Offers))
	}
	// Each step changes the filters as a control would and times apply(): the
	// filter over every row, and the render of the page of rows.
	timings := eval[map[string]float64](t, ctx, `(() => {
		const E = GPUAtlasExplorer, s = E.state();
		const steps = [
			['all rows', () => {}],
			['provider', () => { s.f.provider = {in: ['aws', 'alibaba']}; }],
			['gpu memory range', () => { s.f.gpu_memory = {min: '40', max: ''}; }],
			['expression', () => { s.x = 'gpu_memory>=80 gpus>=8 provider:aws,alibaba'; }],
			['text search', () => { s.x = ''; s.q = 'h100 tokyo'; }],
			['billing', () => { s.q = ''; s.f.billing = {in: ['on_demand', 'spot']}; }],
			['clear', () => { s.f = {}; }],
			['currency CNY', () => { s.cur = 'CNY'; }],
			['sort by GPU price', () => { s.sort = 'gpu_price'; }],
			['filter after sort', () => { s.f.gpus = {min: '2', max: ''}; }],
		];
		const out = {}, best = [], layout = [];
		for (const [name, change] of steps) {
			change();
			const runs = [], withLayout = [];
			for (let i = 0; i < 7; i++) {
				const t0 = performance.now();
				E.apply();
				runs.push(performance.now() - t0);
				document.body.offsetHeight; // the browser lays the page out
				withLayout.push(performance.now() - t0);
			}
			runs.sort((a, b) => a - b);
			withLayout.sort((a, b) => a - b);
			out[name] = runs[0];
			if (name !== 'currency CNY' && name !== 'sort by GPU price') { best.push(runs[0]); layout.push(withLayout[0]); }
		}
		const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
		out['median'] = median(best);
		out['max'] = best[best.length - 1];
		out['median with layout'] = median(layout);
		return out;
	})()`)
	// Each figure is the best of seven runs: the machine running the tests is
	// shared, and the best run is the one least disturbed.
	t.Logf("filter + render of the visible page with %d offers (ms, best of 7): %v", len(snap.Offers), timings)
	if m := timings["median"]; m > 16 && os.Getenv("GPUATLAS_PERF_TARGETS") == "1" {
		t.Errorf("filtering and rendering took %.1f ms (median over the steps), over the 16 ms target", m)
	}
	if rows := os.Getenv("GPUATLAS_BENCH_ROWS"); rows != "" {
		m := timings["median"]
		row := benchrow.Row{Stage: "page", Name: fmt.Sprintf("explorer, %d offers", len(snap.Offers)),
			Measure: "filter + render, headless Chromium", Value: fmt.Sprintf("%.1f ms", m), Target: "< 16 ms", Met: benchrow.Check(m < 16),
			Note: fmt.Sprintf("median over 8 filter steps, each the best of 7 runs; slowest step %.1f ms; with layout %.1f ms",
				timings["max"], timings["median with layout"])}
		if err := benchrow.Append(rows, row); err != nil {
			t.Fatal(err)
		}
	}
	screenshot(t, ctx, "offers-10k.png")
	for _, e := range exceptions() {
		t.Errorf("uncaught script exception: %s", e)
	}
}
