package main

import (
	"context"
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

// newBrowser starts Debian's Chromium headless. Without it the test is skipped,
// except in CI, where a missing browser is a failure.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("chromium is not installed (CI must install Debian's chromium package): %v", err)
		}
		t.Skipf("chromium is not installed: %v", err)
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
		chromedp.Flag("window-size", "1400,900"),
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

const (
	rowKeys  = `[...document.querySelectorAll('tbody#offers-body tr')].map(r => r.dataset.key)`
	rowCount = `document.getElementById('row-count').textContent`
	ready    = `table#offers[data-ready]`
)

func TestBrowser_OffersExplorer(t *testing.T) {
	dir := buildTestSite(t)
	srv := httptest.NewServer(newServeHandler(dir))
	defer srv.Close()
	ctx := newBrowser(t)

	exceptions := collectExceptions(ctx)

	do(t, ctx, "open offers", chromedp.Navigate(srv.URL+"/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
	if got := eval[string](t, ctx, rowCount); got != "9 of 12 offers" {
		t.Errorf("row count = %q, want %q", got, "9 of 12 offers")
	}
	if shown := eval[bool](t, ctx, `getComputedStyle(document.getElementById('filters')).display !== 'none'`); !shown {
		t.Error("the filter form is not shown once the explorer has loaded")
	}
	if n := len(eval[[]string](t, ctx, rowKeys)); n != 9 {
		t.Errorf("%d rows shown, want the 9 on-demand offers", n)
	}

	// Filter: one GPU model, every billing kind.
	setControl(t, ctx, "filter-gpu", "nvidia-h100-sxm-80gb")
	setControl(t, ctx, "filter-billing", "all")
	want := []string{
		"aws/p5.48xlarge/us-east-1//on_demand",
		"aws/p5.48xlarge/us-east-1//reserved_1y_all_upfront",
		"aws/p5.48xlarge/us-east-1/us-east-1a/spot",
		"aws/p5.48xlarge/us-west-2//on_demand",
	}
	if diff := cmp.Diff(want, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows after filtering H100, all billing (-want +got):\n%s", diff)
	}
	if got := eval[string](t, ctx, rowCount); got != "4 of 12 offers" {
		t.Errorf("row count = %q, want %q", got, "4 of 12 offers")
	}

	// Sort by USD per hour, ascending then descending.
	do(t, ctx, "sort by price", chromedp.Click(chromedp.CSS(`th[data-sort="usd"] button`)))
	ascending := []string{
		"aws/p5.48xlarge/us-east-1/us-east-1a/spot",          // 39.33
		"aws/p5.48xlarge/us-east-1//reserved_1y_all_upfront", // 530000 / 8760 = 60.50
		"aws/p5.48xlarge/us-east-1//on_demand",               // 98.32
		"aws/p5.48xlarge/us-west-2//on_demand",               // 98.32
	}
	if diff := cmp.Diff(ascending, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows sorted by USD/hour ascending (-want +got):\n%s", diff)
	}
	do(t, ctx, "sort by price again", chromedp.Click(chromedp.CSS(`th[data-sort="usd"] button`)))
	descending := []string{ascending[2], ascending[3], ascending[1], ascending[0]}
	if diff := cmp.Diff(descending, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows sorted by USD/hour descending (-want +got):\n%s", diff)
	}

	// The whole view is in the URL and survives a reload.
	search := eval[string](t, ctx, `location.search`)
	for _, part := range []string{"gpu=nvidia-h100-sxm-80gb", "billing=all", "sort=usd", "dir=desc"} {
		if !strings.Contains(search, part) {
			t.Errorf("URL query %q lacks %q", search, part)
		}
	}
	do(t, ctx, "reload", chromedp.Reload(), chromedp.WaitReady(chromedp.CSS(ready)))
	if diff := cmp.Diff(descending, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows after reload (-want +got):\n%s", diff)
	}
	if got := eval[string](t, ctx, `document.getElementById('filter-gpu').value + ' ' + document.getElementById('filter-billing').value`); got != "nvidia-h100-sxm-80gb all" {
		t.Errorf("controls after reload = %q", got)
	}
	screenshot(t, ctx, "offers-h100-all-billing.png")

	// Minimum GPU count and region.
	do(t, ctx, "reset", chromedp.Navigate(srv.URL+"/offers.html?region=us-east-1"), chromedp.WaitReady(chromedp.CSS(ready)))
	setControl(t, ctx, "filter-min-gpus", "1")
	waitFor(t, ctx, rowCount+` === '2 of 12 offers'`)
	if diff := cmp.Diff([]string{"aws/g5.xlarge/us-east-1//on_demand", "aws/p5.48xlarge/us-east-1//on_demand"}, eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows in us-east-1 with at least 1 GPU (-want +got):\n%s", diff)
	}

	// Currency: a CNY-priced row shows USD by default and CNY in native mode.
	const cnyRow = `document.querySelector('tr[data-key="alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand"] td.usd-hour').textContent`
	do(t, ctx, "alibaba offers", chromedp.Navigate(srv.URL+"/offers.html?provider=alibaba&billing=all"), chromedp.WaitReady(chromedp.CSS(ready)))
	if got := eval[string](t, ctx, cnyRow); got != "1.1972 USD" {
		t.Errorf("CNY row in USD = %q, want %q", got, "1.1972 USD")
	}
	setControl(t, ctx, "filter-currency", "native")
	if got := eval[string](t, ctx, cnyRow); got != "8.5000 CNY" {
		t.Errorf("CNY row in its native currency = %q, want %q", got, "8.5000 CNY")
	}
	if got := eval[string](t, ctx, `document.getElementById('fx-note').textContent`); !strings.Contains(got, "2026-11-28") || !strings.Contains(got, "1 USD = 7.1 CNY") {
		t.Errorf("FX note = %q, want the rate and its date", got)
	}
	setControl(t, ctx, "filter-currency", "usd")
	if got := eval[string](t, ctx, cnyRow); got != "1.1972 USD" {
		t.Errorf("CNY row back in USD = %q, want %q", got, "1.1972 USD")
	}

	do(t, ctx, "default view", chromedp.Navigate(srv.URL+"/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
	screenshot(t, ctx, "offers.png")
	do(t, ctx, "overview", chromedp.Navigate(srv.URL+"/"), chromedp.WaitReady(chromedp.CSS("footer")))
	screenshot(t, ctx, "index.png")
	do(t, ctx, "instance page", chromedp.Navigate(srv.URL+"/instances/aws/p5.48xlarge.html"), chromedp.WaitReady(chromedp.CSS("footer")))
	screenshot(t, ctx, "instance-p5.48xlarge.png")
	do(t, ctx, "chinese offers", chromedp.Navigate(srv.URL+"/zh/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
	if got := eval[string](t, ctx, rowCount); got != "12 条报价中的 9 条" {
		t.Errorf("Chinese row count = %q", got)
	}
	screenshot(t, ctx, "zh-offers.png")

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
	if len(keys) != 9 || keys[0] != "alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand" {
		t.Errorf("server-rendered rows = %v, want the 9 on-demand offers", keys)
	}
	if got := eval[string](t, ctx, rowCount); got != "9 of 12 offers" {
		t.Errorf("row count = %q", got)
	}
	if hidden := eval[bool](t, ctx, `getComputedStyle(document.getElementById('filters')).display === 'none'`); !hidden {
		t.Error("the filter form shows although it cannot work without JavaScript")
	}
	screenshot(t, ctx, "offers-nojs.png")
}
