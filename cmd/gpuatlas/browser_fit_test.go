package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/browsertest"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/sitegen"
)

// fitCase is one case of compare/testdata/fit_cases.json: an estimate's input
// (MemoryInput JSON) with the billing kind, currency, GPU filter and limit of
// its offers.
type fitCase struct {
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	Billing  string          `json:"billing"`
	Currency string          `json:"currency"`
	GPU      string          `json:"gpu,omitempty"`
	Limit    int             `json:"limit,omitempty"`
}

func readFitCases(t *testing.T) []fitCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "compare", "testdata", "fit_cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []fitCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// fitWorld is the embedded catalog, GPU reference and models, as `gpuatlas
// build` and `gpuatlas fit` read them.
type fitWorld struct {
	snap   *catalog.Snapshot
	ref    *catalog.GPUReference
	models *compare.ModelSet
}

func loadFitWorld(t *testing.T) fitWorld {
	t.Helper()
	testlane.Long(t, "builds a whole site")
	snap := datatest.Snapshot(t)
	ref := datatest.Load(t, catalog.LoadGPUReference)
	models := datatest.Load(t, compare.LoadModels)
	return fitWorld{snap: snap, ref: ref, models: models}
}

// buildFitSite is the embedded catalog's site with the scenarios and the known
// models (embeddedSite's, shared by the package's tests: never change it): the
// estimator page with real offers, and the pages that link to it. Its catalog,
// reference and models are those loadFitWorld gives.
func buildFitSite(t *testing.T) string {
	site, _, _, _ := embeddedSite(t)
	return site
}

// goFitAnswer is compare's answer to a case as JSON (or {"error": …} for a bad
// input), encoded as `gpuatlas fit --format json` encodes it; indent "" is
// compact.
func goFitAnswer(t *testing.T, w fitWorld, c fitCase, indent string) string {
	t.Helper()
	var in compare.MemoryInput
	dec := json.NewDecoder(bytes.NewReader(c.Input))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	var v any
	est, err := compare.EstimateMemory(in, w.models)
	var ie *compare.InputError
	switch {
	case errors.As(err, &ie):
		v = map[string]any{"error": ie}
	case err != nil:
		t.Fatalf("%s: %v", c.Name, err)
	default:
		cs, err := compare.MemoryCandidates(w.snap, w.ref, compare.CandidateOptions{Billing: catalog.BillingKind(c.Billing), Currency: catalog.Currency(c.Currency)})
		if err != nil {
			t.Fatal(err)
		}
		v = compare.MemoryAnswer{Schema: compare.MemorySchema, Estimate: est, Offers: compare.FitMemory(est, cs, compare.FitOptions{Limit: c.Limit, GPU: c.GPU})}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// jsFitAnswer runs the page's estimator on a case.
func jsFitAnswer(t *testing.T, ctx context.Context, c fitCase) string {
	t.Helper()
	opts, err := json.Marshal(map[string]any{"billing": c.Billing, "currency": c.Currency, "gpu": c.GPU, "limit": c.Limit})
	if err != nil {
		t.Fatal(err)
	}
	return browsertest.Eval[string](t, ctx, fmt.Sprintf(`window.GPUAtlasFit.compute(JSON.parse(%s), %s)`, browsertest.JSString(string(c.Input)), opts))
}

// firstDiff shows where two strings part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-80)
	return fmt.Sprintf("at byte %d:\n  go: …%s\n  js: …%s", i, a[lo:min(len(a), i+80)], b[lo:min(len(b), i+80)])
}

const fitReady = `#fit-out[data-state="ok"]`

// TestBrowser_FitAgreesWithGo is the estimator's agreement test: every case of
// compare/testdata/fit_cases.json gives the same JSON, to the byte, from
// compare (as `gpuatlas fit --format json`) and from the page's script in
// headless Chromium, on the embedded catalog: estimates, offers and input
// errors, in both languages.
func TestBrowser_FitAgreesWithGo(t *testing.T) {
	t.Parallel()
	w := loadFitWorld(t)
	site, ctx, exceptions := browse(t, buildFitSite(t))
	cases := readFitCases(t)
	for _, path := range []string{"/fit.html", "/zh/fit.html"} {
		browsertest.Do(t, ctx, "open "+path, chromedp.Navigate(site+path), chromedp.WaitReady(chromedp.CSS(fitReady)))
		for _, c := range cases {
			want := goFitAnswer(t, w, c, "")
			if got := jsFitAnswer(t, ctx, c); got != want {
				t.Errorf("%s %s: the script's answer differs from compare's %s", path, c.Name, firstDiff(want, got))
			}
		}
	}
	// The cases cover what they claim: every task, formula and error code.
	var all strings.Builder
	for _, c := range cases {
		all.WriteString(goFitAnswer(t, w, c, ""))
	}
	for _, s := range []string{`"formula":"kv"`, `"formula":"kv_mla"`, `"formula":"window"`, `"formula":"act_none_fp32"`, `"formula":"act_selective"`,
		`"formula":"act_full"`, `"formula":"act_selective_fp32"`, `"formula":"lora_rank"`, `"formula":"lora_share"`, `"formula":"weights_lora_frozen"`,
		`"formula":"weights_frozen"`, `"formula":"adamw_fp32"`, `"formula":"adamw_mixed"`, `"status":"needs_architecture"`, `"status":"not_estimated"`,
		`"verdict":"may_fit"`, `"reason":"split_nvlink"`, `"reason":"split_pcie"`, `"reason":"single"`, `"other_types":`, `"fits_from":`,
		`"code":"unknown_model"`, `"code":"not_one_of"`, `"code":"missing"`, `"code":"out_of_range"`, `"code":"not_applicable"`, `"code":"conflict"`} {
		if !strings.Contains(all.String(), s) {
			t.Errorf("no case exercises %s", s)
		}
	}
	exceptions.Check(t)
}

// TestBrowser_FitPage drives the estimator page as a person would: the default
// question (Llama 3.1 70B inference in BF16 at 8,192 tokens) shows its
// arithmetic and the offers the issue names; the form's answer is compare's;
// every input goes into the URL and comes back from it; bad input says what
// and where; without JavaScript the page shows the same default answer; the
// scenario and GPU pages link to it with their figures filled in.
func TestBrowser_FitPage(t *testing.T) {
	t.Parallel()
	w := loadFitWorld(t)
	dir := buildFitSite(t)
	site, ctx, exceptions := browse(t, dir)
	browsertest.Do(t, ctx, "open fit", chromedp.Navigate(site+"/fit.html"), chromedp.WaitReady(chromedp.CSS(fitReady)))

	rowText := func(sel string) string {
		return browsertest.Eval[string](t, ctx, fmt.Sprintf(`(() => { const r = document.querySelector(%s); return r ? r.textContent : ''; })()`, browsertest.JSString(sel)))
	}
	for _, c := range []struct{ sel, want string }{
		{`#fit-estimate tr[data-component="weights"]`, "141.11"},
		{`#fit-estimate tr[data-component="weights"]`, "70,553,706,496 parameters × 2 bytes = 141,107,412,992 B"},
		{`#fit-estimate tr[data-component="kv_cache"]`, "2.68"},
		{`#fit-estimate tr[data-component="kv_cache"]`, "2 × 80 layers × 8 KV heads × 128 head dim × 8,192 tokens × 1 sequences × 2 bytes = 2,684,354,560 B"},
		{`#fit-fits tr[data-instance="aws/p4de.24xlarge"]`, "8x NVIDIA A100 SXM4 80GB"},
		{`#fit-fits tr[data-instance="aws/p4de.24xlarge"]`, "NVLink"},
		{`#fit-fits tr[data-instance="aws/p5.48xlarge"]`, "8x NVIDIA H100 SXM5 80GB"},
		{`#fit-misses tr[data-instance="aws/g5.12xlarge"]`, "4x NVIDIA A10G give 96.00 GB"},
	} {
		if got := rowText(c.sel); !strings.Contains(got, c.want) {
			t.Errorf("%s: %q does not contain %q", c.sel, got, c.want)
		}
	}
	// Each fitting instance links its page.
	if href := browsertest.Eval[string](t, ctx, `document.querySelector('#fit-fits tr[data-instance="aws/p5.48xlarge"] a').getAttribute('href')`); href != "/instances/aws/p5.48xlarge.html" {
		t.Errorf("p5.48xlarge links %q", href)
	}
	// The page's JSON is compare's answer to the same question.
	def := fitCase{Name: "default", Input: json.RawMessage(`{"model":"llama-3.1-70b"}`), Billing: "on_demand", Currency: "USD"}
	if got, want := browsertest.Eval[string](t, ctx, `document.getElementById('fit-json-text').textContent`), goFitAnswer(t, w, def, "  "); got != want {
		t.Errorf("default page JSON differs from compare's %s", firstDiff(want, got))
	}
	scriptTables := browsertest.Eval[[]string](t, ctx, `['#fit-estimate', '#fit-fits', '#fit-misses'].map(s => document.querySelector(s).innerText)`)

	// Every input, set through the form, goes into the URL; the form's answer
	// is compare's; opening the URL gives the same answer.
	for _, c := range [][2]string{{"fit-model", "mixtral-8x7b"}, {"fit-task", "lora"}, {"fit-context", "4096"}, {"fit-batch", "2"},
		{"fit-ckpt", "selective"}, {"fit-rank", "32"}, {"fit-overhead", "10"}, {"fit-billing", "spot"}, {"fit-currency", "CNY"}} {
		browsertest.SetControl(t, ctx, c[0], c[1])
	}
	want := goFitAnswer(t, w, fitCase{Name: "form", Billing: "spot", Currency: "CNY", Input: json.RawMessage(
		`{"model":"mixtral-8x7b","task":"lora","precision":"bf16","context":4096,"batch":2,"checkpointing":"selective","lora_rank":32,"overhead_share":"0.1"}`)}, "  ")
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('fit-json-text').textContent`); got != want {
		t.Errorf("form answer differs from compare's %s", firstDiff(want, got))
	}
	search := browsertest.Eval[string](t, ctx, `location.search`)
	for _, p := range []string{"model=mixtral-8x7b", "task=lora", "precision=bf16", "context=4096", "batch=2", "ckpt=selective", "rank=32", "overhead=10", "billing=spot", "currency=CNY"} {
		if !strings.Contains(search, p) {
			t.Errorf("URL %q does not keep %s", search, p)
		}
	}
	browsertest.Do(t, ctx, "reopen", chromedp.Navigate(site+"/fit.html"+search), chromedp.WaitReady(chromedp.CSS(fitReady)))
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('fit-json-text').textContent`); got != want {
		t.Errorf("the URL %s does not bring the same answer back %s", search, firstDiff(want, got))
	}
	// Another model by its parameters.
	browsertest.Do(t, ctx, "custom", chromedp.Navigate(site+"/fit.html?model=&params=70e9&layers=80&hidden=8192&heads=64&kvheads=8"), chromedp.WaitReady(chromedp.CSS(fitReady)))
	want = goFitAnswer(t, w, fitCase{Name: "custom", Billing: "on_demand", Currency: "USD", Input: json.RawMessage(
		`{"params":70000000000,"architecture":{"layers":80,"hidden_size":8192,"attention_heads":64,"kv_heads":8},"task":"inference","precision":"bf16"}`)}, "  ")
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('fit-json-text').textContent`); got != want {
		t.Errorf("custom model answer differs from compare's %s", firstDiff(want, got))
	}
	// Bad input says what and where, and shows no figures.
	browsertest.SetControl(t, ctx, "fit-context", "0")
	if msg := browsertest.Eval[string](t, ctx, `document.getElementById('fit-error').textContent`); !strings.Contains(msg, "Context") || !strings.Contains(msg, "10000000") {
		t.Errorf("context 0: error %q", msg)
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('#fit-out table').length`); n != 0 {
		t.Errorf("figures shown for a bad input: %d tables", n)
	}
	browsertest.SetControl(t, ctx, "fit-context", "8192")
	browsertest.SetControl(t, ctx, "fit-model", "deepseek-v3")
	browsertest.SetControl(t, ctx, "fit-task", "lora")
	if msg := browsertest.Eval[string](t, ctx, `document.getElementById('fit-error').textContent`); !strings.Contains(msg, "trainable share") {
		t.Errorf("DeepSeek-V3 LoRA by rank: error %q", msg)
	}

	// The scenario and GPU pages link to the estimator with their figures.
	browsertest.Do(t, ctx, "scenario", chromedp.Navigate(site+"/scenarios/llm-inference-large.html"), chromedp.WaitReady(chromedp.CSS("footer")))
	link := browsertest.Eval[string](t, ctx, `(() => { const a = document.querySelector('a.fit-link'); return a ? a.getAttribute('href') : ''; })()`)
	if !strings.Contains(link, "model=llama-3.1-70b") || !strings.Contains(link, "task=inference") || !strings.Contains(link, "context=8192") {
		t.Errorf("scenario page links the estimator as %q", link)
	}
	browsertest.Do(t, ctx, "follow", chromedp.Navigate(site+link), chromedp.WaitReady(chromedp.CSS(fitReady)))
	browsertest.Do(t, ctx, "gpu page", chromedp.Navigate(site+"/gpus/nvidia-a10g-24gb.html"), chromedp.WaitReady(chromedp.CSS("footer")))
	link = browsertest.Eval[string](t, ctx, `(() => { const a = document.querySelector('a.fit-link'); return a ? a.getAttribute('href') : ''; })()`)
	if !strings.Contains(link, "gpu=nvidia-a10g-24gb") {
		t.Errorf("GPU page links the estimator as %q", link)
	}
	browsertest.Do(t, ctx, "follow", chromedp.Navigate(site+link), chromedp.WaitReady(chromedp.CSS(fitReady)))
	if n := browsertest.Eval[int](t, ctx, `[...document.querySelectorAll('#fit-out tbody tr[data-instance]')].filter(r => !r.textContent.includes('NVIDIA A10G')).length`); n != 0 {
		t.Errorf("with gpu=nvidia-a10g-24gb, %d rows of other GPUs", n)
	}
	exceptions.Check(t)

	// Without JavaScript the page reads the same default answer.
	browsertest.DisableJavaScript(t, ctx)
	browsertest.Do(t, ctx, "open fit without js", chromedp.Navigate(site+"/fit.html"), chromedp.WaitReady(chromedp.CSS("footer")))
	static := browsertest.Eval[[]string](t, ctx, `['#fit-estimate', '#fit-fits', '#fit-misses'].map(s => document.querySelector(s).innerText)`)
	for i := range static {
		if static[i] != scriptTables[i] {
			t.Errorf("table %d without JavaScript differs from the script's %s", i, firstDiff(static[i], scriptTables[i]))
		}
	}
}

// TestBrowser_FitScreenshots saves the estimator in both languages on a desktop
// and a phone (no page wider than the phone's screen).
func TestBrowser_FitScreenshots(t *testing.T) {
	t.Parallel()
	site := serveSite(t, buildFitSite(t))
	browsertest.Shots{NoExceptions: true, Pages: []browsertest.Page{
		{Name: "fit", Path: "/fit.html", Wait: fitReady},
		{Name: "zh-fit", Path: "/zh/fit.html", Wait: fitReady},
		{Name: "fit-qlora", Path: "/fit.html?model=llama-3.1-70b&task=qlora&context=4096", Wait: fitReady},
		{Name: "zh-fit-deepseek", Path: "/zh/fit.html?model=deepseek-v3&precision=fp8&currency=CNY", Wait: fitReady},
	}}.Save(t, site)
}

// Provider strings reach the estimator as text: a hostile GPU name renders
// literally in the fits, the misses and the JSON, and runs nothing.
func TestBrowser_FitHostileStringsRunNothing(t *testing.T) {
	t.Parallel()
	snap := testSnapshot(t)
	for i := range snap.Instances {
		if snap.Instances[i].ID == "ecs.gn8is.4xlarge" || snap.Instances[i].ID == "g5.xlarge" {
			snap.Instances[i].Accelerators[0].Name = "GPU" + payload
			snap.Instances[i].Accelerators[0].Model = ""
		}
	}
	if err := snap.Validate(); err != nil {
		t.Fatal(err)
	}
	models := datatest.Load(t, compare.LoadModels)
	site, ctx, exceptions := browse(t, buildSiteWith(t, sitegen.Options{Snapshot: snap, Models: models}))
	for _, page := range []string{"/fit.html?model=&params=1e9", "/fit.html?model=llama-3.1-70b", "/zh/fit.html?model=&params=1e9"} {
		browsertest.Do(t, ctx, "open "+page, chromedp.Navigate(site+page), chromedp.WaitReady(chromedp.CSS(fitReady)))
		if !browsertest.Eval[bool](t, ctx, `document.getElementById('fit-out').innerText.includes('GPU"><img')`) {
			t.Errorf("%s: the hostile GPU name is not shown as text", page)
		}
		if browsertest.Eval[bool](t, ctx, `window.__pwned === 1`) {
			t.Errorf("%s: a provider string ran as script", page)
		}
	}
	// And without the script, from the server.
	browsertest.DisableJavaScript(t, ctx)
	browsertest.Do(t, ctx, "open fit without js", chromedp.Navigate(site+"/fit.html"), chromedp.WaitReady(chromedp.CSS("footer")))
	if browsertest.Eval[int](t, ctx, `document.querySelectorAll('#fit-out img').length`) != 0 {
		t.Error("the server-rendered estimator inserted a provider string as markup")
	}
	exceptions.Check(t)
}
