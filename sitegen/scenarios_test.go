package sitegen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/pagetext"
)

// testScenarios are the project's scenario definitions (data/scenarios.yaml).
func testScenarios(t testing.TB) *compare.ScenarioSet {
	t.Helper()
	set, err := compare.LoadScenarios(os.DirFS(filepath.Join("..", "data")))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// withScenarios gives opts the scenario and TCO pages: the project's scenarios
// ranked over opts' snapshot with its benchmark costs, as `gpuatlas build` does.
func withScenarios(t testing.TB, opts *Options) {
	t.Helper()
	r, err := compare.NewScenarioReport(testScenarios(t).Scenarios, opts.Snapshot, opts.Reference, opts.BenchmarkCosts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Scenarios = r
}

// scenarioOptions are the test options with the scenario and TCO pages.
func scenarioOptions(t testing.TB, out string) Options {
	opts := testOptions(t, out)
	withScenarios(t, &opts)
	return opts
}

func TestScenarios_Golden(t *testing.T) {
	out := buildSite(t, withScenarios)
	goldenChecks(t, out, map[string]string{
		"scenarios/index.html":          "scenarios_index.html",
		"scenarios/llm-finetune.html":   "scenarios_llm-finetune.html",
		"zh/scenarios/cv-training.html": "scenarios_zh_cv-training.html",
	})
}

func TestScenarios_OptionalPages(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	st := build(t, testOptions(t, out))
	if _, err := os.Stat(filepath.Join(out, "scenarios", "index.html")); err == nil {
		t.Error("scenario pages built without scenarios")
	}
	if strings.Contains(readPage(t, out, "index.html"), "tco.html") {
		t.Error("the navigation links the TCO page of a site without one")
	}
	out2 := filepath.Join(t.TempDir(), "site")
	st2 := build(t, scenarioOptions(t, out2))
	set := testScenarios(t)
	// Per language: the index, a page per scenario, the TCO page.
	if want := st.Pages + 2*(2+len(set.Scenarios)); st2.Pages != want {
		t.Errorf("Pages = %d, want %d", st2.Pages, want)
	}
	idx := readPage(t, out2, "index.html")
	wantContains(t, "the overview's navigation", idx, `<a href="/scenarios/">Scenarios</a>`, `<a href="/tco.html">TCO</a>`)
}

func TestScenarioPages_ContentAndLanguages(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	opts := scenarioOptions(t, out)
	opts.BaseURL = "/gpuatlas/"
	build(t, opts)
	set := testScenarios(t)
	for _, s := range set.Scenarios {
		en := readPage(t, out, "scenarios/"+s.ID+".html")
		zh := readPage(t, out, "zh/scenarios/"+s.ID+".html")
		if !strings.Contains(en, "<h1>"+s.Name+" ") {
			t.Errorf("%s: the English page lacks its name", s.ID)
		}
		if s.NameZH != "" && !strings.Contains(zh, "<h1>"+s.NameZH+" ") {
			t.Errorf("%s: the Chinese page lacks its Chinese name %q", s.ID, s.NameZH)
		}
		if !strings.Contains(zh, `<html lang="zh-CN">`) || !strings.Contains(zh, `href="/gpuatlas/zh/scenarios/"`) {
			t.Errorf("%s: the Chinese page is not in Chinese or does not link its index under the base", s.ID)
		}
	}
	// llm-finetune: p5 fits (with its instance and GPU links), the L4 slice does
	// not, and the page says why. (The T4 type's only price is reported, so it
	// is no candidate: an unverified price never enters a ranking.)
	page := readPage(t, out, "scenarios/llm-finetune.html")
	wantContains(t, "llm-finetune page", page,
		`<tr data-key="aws/p5.48xlarge">`,
		`<a href="/gpuatlas/instances/aws/p5.48xlarge.html">aws/p5.48xlarge</a>`,
		`<a href="/gpuatlas/gpus/nvidia-h100-sxm-80gb.html">8x NVIDIA H100 SXM5 80GB`,
		`<span class="badge verdict fits">Fits</span>`,
		`at least 24 GB per GPU`,
		`<a href="/gpuatlas/tco.html#tco-llm-finetune">`,
	)
	rejected := pagePart(t, page, `id="rejected"`, "")
	if !strings.Contains(rejected, "aws/g6f.large") || !strings.Contains(rejected, `<span class="badge check fail">fail</span>`) {
		t.Errorf("the rejected L4 slice is not listed with its failing check")
	}
	if strings.Contains(rejected, "huawei/pi2.2xlarge.4") {
		t.Errorf("the T4 type whose only price is reported is ranked among the rejected")
	}
	// The index: both matrices, a cell per provider and tier.
	idx := readPage(t, out, "zh/scenarios/index.html")
	wantContains(t, "zh/scenarios/index.html", idx, "大模型微调", "按云厂商", "按 GPU 档位", "单卡 80 GB 及以上", "阿里云")
}

// TestScenarioPages_Accessible applies TestBuild_AccessibleTables' checks to the
// scenario and TCO pages.
func TestScenarioPages_Accessible(t *testing.T) {
	out := buildSite(t, withScenarios)
	checkAccessible(t, out, func(name string) bool {
		return strings.Contains(name, "scenarios/") || strings.HasSuffix(name, "tco.html")
	})
}

// The Chinese scenario pages and TCO page are in Chinese and the English ones
// carry the same reasons in English. (No page holds the other language's
// words: TestSite_EveryPageInItsLanguage.)
func TestScenarios_PagesInTheirLanguage(t *testing.T) {
	out := buildSite(t, withScenarios)
	pages, err := filepath.Glob(filepath.Join(out, "zh", "scenarios", "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(out, "zh", "tco.html"))
	if len(pages) < 5 {
		t.Fatalf("only %d Chinese scenario pages", len(pages))
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if text := pagetext.Visible(string(b), "en"); !strings.ContainsRune(text, '的') {
			t.Errorf("%s: no Chinese in the visible text", p)
		}
	}
	// And the English pages carry the same reasons in English.
	en := pagetext.Visible(readPage(t, out, "scenarios/llm-finetune.html"), "")
	for _, want := range []string{"Requires", "GPU memory in all"} {
		if !strings.Contains(en, want) {
			t.Errorf("scenarios/llm-finetune.html lacks %q", want)
		}
	}
}
