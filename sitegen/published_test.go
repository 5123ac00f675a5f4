package sitegen

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/templates"
)

// pubTestRuns are published results (made up for this test, as a fixture) on
// the test snapshot's GPU models: 8x H100 for p5.48xlarge, with a hostile
// system name; Llama 2 70B on 8x A10 where the catalog's A10 types have one
// GPU; ResNet-50 on 1x A10, the count of Alibaba's gn7i and of Volcano Engine's
// gni2, whose prices are synthetic.
func pubTestRuns() []catalog.BenchmarkRun {
	r := func(line int, system, model string, count int, value string) catalog.BenchmarkRun {
		return catalog.BenchmarkRun{File: "data/benchmarks/published/test.csv", Line: line, Submitter: "NVIDIA", RunDate: "2025-09-04",
			Workload: "mlperf-llama2-70b", Metric: "throughput", Unit: "tokens/s", Value: catalog.Dec(value), HigherIsBetter: true,
			GPUCountUsed: count, Round: "MLPerf Inference v5.1", Benchmark: "llama2-70b-99", Scenario: "Offline", System: system,
			AcceleratorModel: model, AcceleratorCount: count, VendorTuned: true,
			SourceURL: "https://github.com/mlcommons/inference_results_v5.1/tree/x/closed/NVIDIA", Notes: "test fixture"}
	}
	resnet := r(4, "1x A10 box", "nvidia-a10-24gb", 1, "3000")
	resnet.Workload, resnet.Unit, resnet.Benchmark = "mlperf-resnet50", "images/s", "resnet50"
	return []catalog.BenchmarkRun{
		r(2, `<script>alert("sys")</script> DGX H100`, "nvidia-h100-sxm-80gb", 8, "24000"),
		r(3, "8x A10 box", "nvidia-a10-24gb", 8, "2000"),
		resnet,
	}
}

func withPublished(t testing.TB, opts *Options) {
	t.Helper()
	w := datatest.Load(t, catalog.LoadWorkloads)
	opts.Benchmarks, opts.Workloads = append(testRuns(), pubTestRuns()...), w
	opts.BenchmarkCosts = compare.CostPerWork(opts.Snapshot, opts.Benchmarks, w)
}

var tagText = regexp.MustCompile(`<[^>]*>`)

// visible is a page's text without its tags, spaces collapsed.
func visible(html string) string {
	return strings.Join(strings.Fields(tagText.ReplaceAllString(html, " ")), " ")
}

func TestPublishedResults_Pages(t *testing.T) {
	out := buildSite(t, withPublished)

	p5 := readPage(t, out, "instances/aws/p5.48xlarge.html")
	for _, want := range []string{
		`<section class="published" id="published"`,
		`<span lang="en" translate="no">&lt;script&gt;alert(&#34;sys&#34;)&lt;/script&gt; DGX H100</span>`,
		`<span class="badge vendor">vendor-tuned</span>`,
		`static/published.css`,
	} {
		if !strings.Contains(p5, want) {
			t.Errorf("p5.48xlarge lacks %s", want)
		}
	}
	if strings.Contains(p5, `<script>alert("sys")`) {
		t.Error("p5.48xlarge: the system name is not escaped")
	}
	// 24000 tokens/s on 8x H100 at p5.48xlarge's cheapest on-demand price.
	if v := visible(p5); !strings.Contains(v, "MLPerf Llama 2 70B USD per 1M tokens, on demand") || !strings.Contains(v, "Offline:") ||
		!strings.Contains(v, "MLPerf Inference v5.1 · 8× NVIDIA H100 SXM5 80GB") || !strings.Contains(v, "submitter NVIDIA") {
		_, section, _ := strings.Cut(v, "Published results")
		t.Errorf("p5.48xlarge published row reads:\n%s", section)
	}

	// One A10 per type, results on 8: no result for this count, no figure.
	gn7i := readPage(t, out, "instances/alibaba/ecs.gn7i-c8g1.2xlarge.html")
	if v := visible(gn7i); !strings.Contains(v, "No result for this count") ||
		!strings.Contains(v, "MLPerf Llama 2 70B · Offline — published results for NVIDIA A10 exist only at GPU counts 8, none at 1") {
		t.Errorf("gn7i: no count gap:\n%s", v)
	}
	if strings.Contains(gn7i, `data-workload="mlperf-llama2-70b" data-basis`) || !strings.Contains(gn7i, `data-workload="mlperf-resnet50" data-basis="estimated"`) {
		t.Error("gn7i: want a ResNet-50 figure (1x A10) and no Llama 2 70B figure from another count")
	}
	// The same 1x A10 result matches Volcano Engine's gni2, whose prices are
	// synthetic: no figure from them.
	if strings.Contains(readPage(t, out, "instances/volcengine/ecs.gni2.3xlarge.html"), `<table class="data costs pub">`) {
		t.Error("gni2.3xlarge: a published cost from a synthetic price")
	}

	// A GPU that no source has: said so, in both languages.
	a10g := readPage(t, out, "gpus/nvidia-a10g-24gb.html")
	if !strings.Contains(visible(a10g), "No published result for NVIDIA A10G") {
		t.Errorf("A10G page does not say it has no published result")
	}
	if !strings.Contains(visible(readPage(t, out, "zh/gpus/nvidia-a10g-24gb.html")), "没有公开发布的结果") {
		t.Error("zh A10G page does not say it has no published result")
	}
	// The H100 page names the instance type the figure is for.
	if h := readPage(t, out, "gpus/nvidia-h100-sxm-80gb.html"); !strings.Contains(h, `<a href="/instances/aws/p5.48xlarge.html">p5.48xlarge</a> <small>AWS`) {
		t.Error("H100 page: the published row does not link p5.48xlarge")
	}

	// The workload's pages: costs, and its results with provenance.
	w := readPage(t, out, "benchmarks/mlperf-llama2-70b.html")
	if !strings.Contains(w, `href="/benchmarks/mlperf-llama2-70b/offline.html"`) {
		t.Error("workload page does not link its Offline results")
	}
	res := readPage(t, out, "benchmarks/mlperf-llama2-70b/offline.html")
	for _, want := range []string{`<code>data/benchmarks/published/test.csv:2</code>`, `<small class="id" translate="no">llama2-70b-99</small>`, `<strong>24000</strong> tokens/s`} {
		if !strings.Contains(res, want) {
			t.Errorf("results page lacks %s", want)
		}
	}
	bench := readPage(t, out, "benchmarks.html")
	if !strings.Contains(bench, `<a href="/benchmarks/mlperf-llama2-70b.html">MLPerf Llama 2 70B</a>`) {
		t.Error("benchmarks page does not list the published workload")
	}
	// The uploads' table stays the teams' runs: the published ones have their pages.
	if strings.Contains(bench, "test.csv:2") {
		t.Error("benchmarks page lists a published result in the uploads' table")
	}
	// The explorer's cost column takes no published figure.
	var offers struct {
		Work struct {
			Workloads [][2]string `json:"workloads"`
		} `json:"work"`
	}
	if err := json.Unmarshal([]byte(readPage(t, out, "data/offers.json")), &offers); err != nil {
		t.Fatal(err)
	}
	for _, w := range offers.Work.Workloads {
		if strings.HasPrefix(w[0], "mlperf-") {
			t.Errorf("offers.json carries published workload %s", w[0])
		}
	}
}

// Every workload of the registry has its name, description and cost unit in
// both languages, and the English name is the registry's.
func TestWorkloadMessages_BothLanguages(t *testing.T) {
	reg := datatest.Load(t, catalog.LoadWorkloads)
	langs := newLanguages()
	if err := loadMessages(templates.FS, langs); err != nil {
		t.Fatal(err)
	}
	for _, w := range reg.Workloads {
		for _, l := range langs {
			for _, k := range []string{"workload." + w.ID, "workload_desc." + w.ID, "workload_cost." + w.ID} {
				if l.messages[k] == "" {
					t.Errorf("i18n/%s: no %s", l.Tag, k)
				}
			}
		}
		if got := langs[0].messages["workload."+w.ID]; got != w.Name {
			t.Errorf("workload.%s is %q in English, the registry says %q", w.ID, got, w.Name)
		}
		if got := langs[0].messages["workload_cost."+w.ID]; got != w.CostLabel() {
			t.Errorf("workload_cost.%s is %q in English, the registry says %q", w.ID, got, w.CostLabel())
		}
		if langs[1].messages["workload_desc."+w.ID] == langs[0].messages["workload_desc."+w.ID] {
			t.Errorf("workload_desc.%s is not translated", w.ID)
		}
	}
}
