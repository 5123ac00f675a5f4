package sitegen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
)

// testRuns are benchmark runs on the test snapshot's types: a measured H100 run, an
// A10 run (which gives the other A10 type an estimate) from a hostile submitter
// with a javascript: source, and an A10G run with an ftp source.
func testRuns() []catalog.BenchmarkRun {
	return []catalog.BenchmarkRun{
		{File: "data/benchmarks/example.csv", Line: 2, Submitter: "Example Lab", RunDate: "2026-10-01", Provider: catalog.AWS,
			InstanceType: "p5.48xlarge", Region: "us-east-1", GPUCountUsed: 8, Workload: "llm-inference-70b", Metric: "throughput",
			Unit: "tokens/s", Value: catalog.Dec("2400"), HigherIsBetter: true, Driver: "550.54.15", CUDA: "12.4",
			Framework: "vLLM 0.6.3", Image: "vllm/vllm-openai:v0.6.3", SourceURL: "https://example.com/runs/1?a=1&b=2",
			Notes: "Llama 3.1 70B, batch 64."},
		{File: "data/benchmarks/example.csv", Line: 3, Submitter: `<script>alert("x")</script> Lab`, RunDate: "2026-09-15",
			Provider: catalog.Alibaba, InstanceType: "ecs.gn7i-c8g1.2xlarge", Workload: "llm-inference-8b", Metric: "throughput",
			Unit: "tokens/s", Value: catalog.Dec("45.5"), HigherIsBetter: true, Framework: "<b>TGI</b> 2.0",
			SourceURL: "javascript:alert(1)", Notes: `<img src=x onerror=alert(5)>`},
		{File: "data/benchmarks/other.yaml", Line: 7, Submitter: "Someone", RunDate: "2026-08-01", Provider: catalog.AWS,
			InstanceType: "g5.xlarge", Workload: "resnet50-inference", Metric: "throughput", Unit: "images/s",
			Value: catalog.Dec("2100"), HigherIsBetter: true, SourceURL: "ftp://example.org/results.txt"},
	}
}

// withBenchmarks adds the test runs, the workloads and their costs to opts.
func withBenchmarks(t testing.TB, opts *Options) {
	t.Helper()
	w := datatest.Load(t, catalog.LoadWorkloads)
	opts.Benchmarks, opts.Workloads = testRuns(), w
	opts.BenchmarkCosts = compare.CostPerWork(opts.Snapshot, opts.Benchmarks, w)
}

// withExtras gives opts everything of the benchmarks and changes pages: the two
// crawls' history (and the second as the snapshot) and the test runs.
func withExtras(t testing.TB, opts *Options) {
	t.Helper()
	opts.Snapshot, opts.History = twoCrawls(t)
	withBenchmarks(t, opts)
}

func TestBenchmarksAndChanges_Golden(t *testing.T) {
	out := buildSite(t, withExtras)
	goldenChecks(t, out, map[string]string{
		"benchmarks.html":         "benchmarks.html",
		"zh/benchmarks.html":      "benchmarks.zh.html",
		"changes/index.html":      "changes_index.html",
		"changes/2026-11-30.html": "changes_2026-11-30.html",
		"zh/changes/index.html":   "changes_index.zh.html",
		"changes/feed.atom":       "changes_feed.atom",
	})
}

func TestBenchmarksPage(t *testing.T) {
	out := buildSite(t, withBenchmarks)
	page := readPage(t, out, "benchmarks.html")

	// Every run, with its stack and provenance.
	for _, w := range []string{
		`<tr data-workload="llm-inference-70b" data-provider="aws" data-gpu="nvidia-h100-sxm-80gb">`,
		`<tr data-workload="llm-inference-8b" data-provider="alibaba" data-gpu="nvidia-a10-24gb">`,
		`<tr data-workload="resnet50-inference" data-provider="aws" data-gpu="nvidia-a10g-24gb">`,
		`<span>driver 550.54.15</span><span>CUDA 12.4</span><span lang="en" translate="no">vLLM 0.6.3</span><code>vllm/vllm-openai:v0.6.3</code>`,
		`<a href="https://example.com/runs/1?a=1&amp;b=2" rel="nofollow noopener" class="src">https://example.com/runs/1?a=1&amp;b=2</a>`,
		`<code>data/benchmarks/example.csv:2</code>`, `<code>data/benchmarks/other.yaml:7</code>`,
		`<td class="when">2026-10-01</td>`,
		`<span class="src" lang="en">javascript:alert(1)</span>`,           // not a link
		`<span class="src" lang="en">ftp://example.org/results.txt</span>`, // not http(s): not a link
		`&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; Lab`, `&lt;b&gt;TGI&lt;/b&gt; 2.0`, `&lt;img src=x onerror=alert(5)&gt;`,
		`<p id="bench-count" class="count" role="status" aria-live="polite" data-fmt="{n} of {m} runs" data-total="3">3 of 3 runs</p>`,
		`<option value="nvidia-h100-sxm-80gb">NVIDIA H100 SXM5 80GB</option>`,
		`<script src="/static/benchmarks.js?v=`,
	} {
		if !strings.Contains(page, w) {
			t.Errorf("benchmarks.html lacks %s", w)
		}
	}
	for _, bad := range []string{`href="javascript`, `href="ftp:`, "<script>alert", "<b>TGI", "<img src=x"} {
		if strings.Contains(page, bad) {
			t.Errorf("benchmarks.html contains %s", bad)
		}
	}
	// The 8B section: the measured A10 type, then the Volcano Engine A10 type
	// estimated from it, labelled so, charted in its own series.
	sec := pagePart(t, page, `<section class="workload" id="cost-llm-inference-8b"`, "</section>")
	wantContains(t, "the llm-inference-8b section", sec,
		`<img src="/benchmarks/llm-inference-8b.svg"`,
		`<span class="badge measured" title="From a benchmark run on this very instance type.">measured</span>`,
		`<tr data-provider="volcengine" data-gpu="nvidia-a10-24gb" class="est">`,
		`<span class="badge estimated" title="Not measured: scaled from a run on another instance type with the same GPU model.">estimated</span>`,
		`estimated, not measured: from run <span translate="no" lang="en">data/benchmarks/example.csv:3</span> on <span translate="no" lang="en">ecs.gn7i-c8g1.2xlarge</span>`,
	)
	if i, j := strings.Index(sec, `data-provider="alibaba"`), strings.Index(sec, `data-provider="volcengine"`); i < 0 || j < i {
		t.Error("the cheaper measured Alibaba figure is not first")
	}
	svg, err := os.ReadFile(filepath.Join(out, "benchmarks", "llm-inference-8b.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(svg); !strings.HasPrefix(s, "<svg") || !strings.Contains(s, ">measured<") || !strings.Contains(s, ">estimated<") || !strings.Contains(s, "Volcano Engine ecs.gni2.3xlarge") {
		t.Errorf("the chart lacks its two series or categories: %.400s", s)
	}
	if zh, err := os.ReadFile(filepath.Join(out, "zh", "benchmarks", "llm-inference-8b.svg")); err != nil || !strings.Contains(string(zh), ">估算<") {
		t.Errorf("the Chinese chart lacks the Chinese series names (%v)", err)
	}
	if zh := readPage(t, out, "zh/benchmarks.html"); !strings.Contains(zh, `<span class="badge estimated" title="非实测：由相同 GPU 型号的其他实例规格的测试换算。">估算</span>`) {
		t.Error("the Chinese page does not label estimates in Chinese")
	}
	if !strings.Contains(readPage(t, out, "index.html"), `<a href="/benchmarks.html">Benchmarks</a>`) {
		t.Error("the navigation does not link the benchmarks")
	}
}

func TestBenchmarks_InstanceAndGPUPages(t *testing.T) {
	out := buildSite(t, withBenchmarks)

	p5 := readPage(t, out, "instances/aws/p5.48xlarge.html")
	sec := pagePart(t, p5, `<h2 id="benchmarks">`, `<h2 id="similar">`)
	// One row per workload and billing kind: on-demand (cheapest region), spot,
	// reserved; every figure measured.
	for _, w := range []string{
		`<tr data-workload="llm-inference-70b" data-basis="measured"><td>LLM inference 70B <small class="id" translate="no">llm-inference-70b</small></td><td>On-demand</td>`,
		`<td>Spot</td>`, `<td>Reserved 1y, all upfront</td>`,
		`measured: 2,400 <span translate="no" lang="en">tokens/s</span> on 8 GPUs (run <span translate="no" lang="en">data/benchmarks/example.csv:2</span>, <span translate="no" lang="en">Example Lab, 2026-10-01</span>)`,
		`<caption id="type-runs-caption">Benchmark runs on this instance type</caption>`,
		`<a href="/benchmarks.html">All benchmark results</a>`,
	} {
		if !strings.Contains(sec, w) {
			t.Errorf("p5.48xlarge benchmarks lack %s", w)
		}
	}
	if strings.Contains(sec, "estimated") {
		t.Error("a measured type shows an estimate")
	}
	vol := readPage(t, out, "instances/volcengine/ecs.gni2.3xlarge.html")
	sec = pagePart(t, vol, `<h2 id="benchmarks">`, `<h2 id="similar">`)
	for _, w := range []string{`data-basis="estimated"`, `<span class="badge estimated"`, "No run was measured on this instance type", "estimated, not measured"} {
		if !strings.Contains(sec, w) {
			t.Errorf("the estimated type's benchmarks lack %s", w)
		}
	}
	if strings.Contains(sec, `class="badge measured"`) || strings.Contains(sec, "type-runs-caption") {
		t.Error("an estimated type shows a measurement or runs")
	}
	if g6 := readPage(t, out, "instances/aws/g6f.large.html"); !strings.Contains(g6, "No benchmark result for this instance type yet.") {
		t.Error("a type without results does not say so")
	}
	a10 := readPage(t, out, "gpus/nvidia-a10-24gb.html")
	wantContains(t, "the A10 page", a10, `<caption id="gpu-runs-caption">`, `data-basis="measured"`, `data-basis="estimated"`, `<a href="/instances/volcengine/ecs.gni2.3xlarge.html">ecs.gni2.3xlarge</a>`)
	// The explorer's cost column gets the figures, with their basis.
	var f struct {
		Work struct {
			Workloads [][2]string `json:"workloads"`
		} `json:"work"`
	}
	if err := json.Unmarshal([]byte(readPage(t, out, "data/offers.json")), &f); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, w := range f.Work.Workloads {
		ids = append(ids, w[0])
	}
	if diff := cmp.Diff([]string{"llm-inference-70b", "llm-inference-8b", "resnet50-inference"}, ids); diff != "" {
		t.Errorf("explorer workloads (-want +got):\n%s", diff)
	}
}

func TestBenchmarks_NoneGivesNoPage(t *testing.T) {
	out := buildSite(t)
	tree := readTree(t, out)
	for name := range tree {
		if strings.HasPrefix(name, "benchmarks") {
			t.Errorf("a site without benchmarks has %s", name)
		}
	}
	if strings.Contains(string(tree["index.html"]), "benchmarks.html") || strings.Contains(string(tree["instances/aws/p5.48xlarge.html"]), `id="benchmarks"`) {
		t.Error("a site without benchmarks links or shows them")
	}
}

func TestIsHTTPURL(t *testing.T) {
	for s, want := range map[string]bool{
		"https://example.com/x": true, "http://example.com": true, "HTTPS://EXAMPLE.COM/": true,
		"javascript:alert(1)": false, "//example.com/x": false, "/local": false, "ftp://x/y": false,
		"https://": false, "https://user:pw@example.com/": false, "https://example.com/a b": false, "": false, "data:text/html,x": false,
	} {
		if got := isHTTPURL(s); got != want {
			t.Errorf("isHTTPURL(%q) = %v, want %v", s, got, want)
		}
	}
}

// benchSourceLink is a link to a benchmark run's published source: the one kind of
// link to another host the site has, always rel="nofollow noopener".
var benchSourceLink = regexp.MustCompile(`<a href="https?://[^"]*" rel="nofollow noopener"`)
