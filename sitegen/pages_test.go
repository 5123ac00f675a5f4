package sitegen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

func readPage(t *testing.T, out, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantContains fails the test for each of wants that s (what, in words) lacks.
func wantContains(t *testing.T, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %s", what, w)
		}
	}
}

// pagePart returns the part of page from the first from up to the first to
// after it (to the end when to is ""), and fails the test when either is missing.
func pagePart(t *testing.T, page, from, to string) string {
	t.Helper()
	i := strings.Index(page, from)
	if i < 0 {
		t.Fatalf("the page lacks %s", from)
	}
	part := page[i:]
	if to == "" {
		return part
	}
	j := strings.Index(part, to)
	if j < 0 {
		t.Fatalf("the page lacks %s after %s", to, from)
	}
	return part[:j]
}

func TestBuild_SiteURLCanonicalSitemapRobots(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	opts := testOptions(t, out)
	opts.BaseURL, opts.SiteURL = "/gpuatlas/", "https://example.github.io/"
	build(t, opts)

	page := readPage(t, out, "zh/gpus/nvidia-h100-sxm-80gb.html")
	wantContains(t, "zh GPU page", page,
		`<link rel="canonical" href="https://example.github.io/gpuatlas/zh/gpus/nvidia-h100-sxm-80gb.html">`,
		`<link rel="alternate" hreflang="en" href="https://example.github.io/gpuatlas/gpus/nvidia-h100-sxm-80gb.html">`,
		`<meta property="og:url" content="https://example.github.io/gpuatlas/zh/gpus/nvidia-h100-sxm-80gb.html">`,
		`<meta property="og:locale" content="zh_CN">`,
		`<meta property="og:title" content="NVIDIA H100 SXM5 80GB">`,
	)
	if idx := readPage(t, out, "index.html"); !strings.Contains(idx, `<link rel="canonical" href="https://example.github.io/gpuatlas/">`) {
		t.Error("the overview's canonical URL is not the folder")
	}
	sitemap := readPage(t, out, "sitemap.xml")
	locs := regexp.MustCompile(`<loc>([^<]*)</loc>`).FindAllStringSubmatch(sitemap, -1)
	snap := testSnapshot(t)
	// Every page of both languages but the 404 pages.
	if want := 2*(11+5) + 2*len(snap.Instances); len(locs) != want {
		t.Errorf("sitemap has %d URLs, want %d", len(locs), want)
	}
	for _, l := range locs {
		rel := strings.TrimPrefix(l[1], "https://example.github.io/gpuatlas/")
		if rel == l[1] || strings.Contains(rel, "404") {
			t.Errorf("sitemap URL %s is not a page under the site", l[1])
			continue
		}
		if rel == "" || strings.HasSuffix(rel, "/") {
			rel += "index.html"
		}
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(rel))); err != nil {
			t.Errorf("sitemap URL %s has no page", l[1])
		}
	}
	if !strings.Contains(sitemap, "<lastmod>2026-11-30</lastmod>") {
		t.Error("sitemap lacks the data's date")
	}
	if got, want := readPage(t, out, "robots.txt"), "User-agent: *\nAllow: /\nSitemap: https://example.github.io/gpuatlas/sitemap.xml\n"; got != want {
		t.Errorf("robots.txt = %q, want %q", got, want)
	}

	for _, bad := range []string{"example.github.io", "https://example.github.io/gpuatlas/", "ftp://x", "https://x/?q", "javascript:alert(1)"} {
		opts := testOptions(t, filepath.Join(t.TempDir(), "site"))
		opts.SiteURL = bad
		if _, err := Build(opts); err == nil {
			t.Errorf("Build accepted site URL %q", bad)
		}
	}
}

func TestBuild_WithoutSiteURLNoSitemap(t *testing.T) {
	out := buildSite(t)
	if _, err := os.Stat(filepath.Join(out, "sitemap.xml")); err == nil {
		t.Error("sitemap.xml written without a site URL")
	}
	if strings.Contains(readPage(t, out, "index.html"), `rel="canonical"`) {
		t.Error("a canonical URL without a site URL")
	}
}

func TestGPUPage_TypesCheapestPerGPUHourFirst(t *testing.T) {
	out := buildSite(t)
	page := readPage(t, out, "gpus/nvidia-a10-24gb.html")
	// A row per instance type, cheapest on-demand per GPU-hour first, with
	// its cheapest price of each billing group; every offer is in the
	// explorer behind a link.
	types := regexp.MustCompile(`<tr data-type="([^"]*)">`).FindAllStringSubmatch(page, -1)
	var got []string
	for _, m := range types {
		got = append(got, m[1])
	}
	want := []string{"alibaba/ecs.gn7i-c8g1.2xlarge", "volcengine/ecs.gni2.3xlarge"} // on-demand 1.1972, 1.2817 USD
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("instance types of the A10 (-want +got):\n%s", diff)
	}
	row := pagePart(t, page, `<tr data-type="alibaba/ecs.gn7i-c8g1.2xlarge">`, `</tr>`)
	wantContains(t, "the Alibaba row", row, `data-label="On-demand" data-v="1.197`, "1.1972 <small>USD/hour</small>", `data-label="Subscription" data-v="0.675`, "0.6753 <small>USD/hour</small>", "3500 CNY/month", `data-label="Regions" data-v="1">1</td>`)
	if strings.Count(page, "<tr data-key=") != 0 {
		t.Error("the GPU page still lists every offer")
	}
	wantContains(t, "the A10 page", page, `<a href="/offers.html?billing=all&amp;gpu=nvidia-a10-24gb">All 3 offers in the explorer</a>`)
	svg, err := os.ReadFile(filepath.Join(out, "zh", "gpus", "nvidia-a10-24gb.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(svg), "<svg") || !strings.Contains(string(svg), "阿里云") || !strings.Contains(string(svg), ">8.5000<") || !strings.Contains(string(svg), "人民币") {
		// In CNY on the Chinese page: 8.5 CNY published, 1.1972 USD, back at 7.1.
		t.Errorf("the Chinese chart lacks the provider's Chinese name, the price in CNY or its currency: %q", regexp.MustCompile(`>[^<>]+<`).FindAllString(string(svg), -1))
	}
	if !strings.Contains(page, `<img src="/gpus/nvidia-a10-24gb.svg"`) || !strings.Contains(page, `<span translate="no" lang="en">NVIDIA A10 datasheet</span> (2021-04)`) {
		t.Error("the GPU page lacks its chart or the spec source")
	}
	idx := readPage(t, out, "gpus/index.html")
	if !strings.Contains(idx, `<a href="/gpus/nvidia-h100-sxm-80gb.html">NVIDIA H100 SXM5 80GB</a>`) {
		t.Error("the GPU index does not link the H100 page")
	}
}

func TestRegionsPage_ByCountryAndCity(t *testing.T) {
	out := buildSite(t)
	en := readPage(t, out, "regions.html")
	wantContains(t, "regions.html", en, `<h2 id="country-CN">Chinese mainland`, `<h2 id="country-US">United States`, "US West (Oregon)", `<a href="/gpus/nvidia-t4-16gb.html">NVIDIA T4</a>`)
	zh := readPage(t, out, "zh/regions.html")
	wantContains(t, "zh/regions.html", zh, "中国内地", "华北-北京四", "<th scope=\"row\">北京</th>", "美国西部（俄勒冈）", "AWS（亚马逊云科技）")
}

func TestInstancePage_SimilarIncludesAndHistory(t *testing.T) {
	snap := testSnapshot(t)
	key := "alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand"
	d := func(s string) catalog.Price {
		return catalog.Price{Amount: catalog.Dec(s), Currency: catalog.CNY, Unit: catalog.PerHour}
	}
	day := func(n int) time.Time { return time.Date(2026, 11, n, 2, 0, 0, 0, time.UTC) }
	out := filepath.Join(t.TempDir(), "site")
	opts := testOptions(t, out)
	opts.Snapshot = snap
	opts.PriceHistory = map[string][]catalog.PricePoint{
		key: {
			{From: day(1), Last: day(14), Until: day(15), Price: d("9.2"), Availability: catalog.Available},
			{From: day(15), Last: day(30), Price: d("8.5"), Availability: catalog.Available},
		},
	}
	build(t, opts)
	page := readPage(t, out, "instances/alibaba/ecs.gn7i-c8g1.2xlarge.html")
	// Similar: Volcano Engine's A10 (same model and count); AWS g5.xlarge has an A10G.
	similar := pagePart(t, page, `id="similar"`, `id="specs"`)
	if !strings.Contains(similar, "ecs.gni2.3xlarge") || !strings.Contains(similar, "same GPU model and count") || !strings.Contains(similar, "1.2817 USD") {
		t.Errorf("similar types lack Volcano Engine's A10 type:\n%s", similar)
	}
	if strings.Contains(similar, "ecs.gn7i-c8g1.2xlarge</a>") {
		t.Error("a type is similar to itself")
	}
	if !strings.Contains(page, `<ul class="includes"><li><span lang="en">40 GiB ESSD system disk</span></li></ul>`) {
		t.Error("the page does not say what the price includes")
	}
	if !strings.Contains(page, `<img src="/instances/alibaba/ecs.gn7i-c8g1.2xlarge.history.svg"`) || !strings.Contains(page, "9.2 CNY/hour") {
		t.Error("the page lacks the price history chart or table")
	}
	if _, err := os.Stat(filepath.Join(out, "zh", "instances", "alibaba", "ecs.gn7i-c8g1.2xlarge.history.svg")); err != nil {
		t.Errorf("no Chinese history chart: %v", err)
	}
	if strings.Contains(readPage(t, out, "instances/aws/p5.48xlarge.html"), ".history.svg") {
		t.Error("a type without history has a history chart")
	}
}

func TestBuild_WorkCostsReachTheExplorer(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	opts := testOptions(t, out)
	key := "aws/p5.48xlarge/us-east-1//on_demand"
	opts.BenchmarkCosts = []compare.WorkCost{
		{OfferKey: key, Workload: "llm-inference-70b", UnitLabel: "USD per 1M tokens", CostPerUnit: catalog.Dec("4.2"), Basis: compare.Estimated},
		{OfferKey: key, Workload: "llm-inference-70b", UnitLabel: "USD per 1M tokens", CostPerUnit: catalog.Dec("5.1"), Basis: compare.Measured},
		{OfferKey: "no/such//offer", Workload: "x", UnitLabel: "USD per x", CostPerUnit: catalog.Dec("1"), Basis: compare.Measured},
	}
	build(t, opts)
	var f struct {
		Work struct {
			Workloads [][2]string        `json:"workloads"`
			Costs     map[string][][]any `json:"costs"`
		} `json:"work"`
		Offers struct {
			Type []int `json:"type"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(readPage(t, out, "data/offers.json")), &f); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][2]string{{"llm-inference-70b", "USD per 1M tokens"}}, f.Work.Workloads); diff != "" {
		t.Errorf("workloads (-want +got):\n%s", diff)
	}
	// The measured figure wins over the cheaper estimate; offer 6 is p5 us-east-1 on-demand.
	if diff := cmp.Diff(map[string][][]any{"6": {{0.0, 5.1, 1.0}}}, f.Work.Costs); diff != "" {
		t.Errorf("costs (-want +got):\n%s", diff)
	}
}

func TestMarkdownPages_LinksUnderBase(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	opts := testOptions(t, out)
	opts.BaseURL = "/gpuatlas/"
	build(t, opts)
	zh := readPage(t, out, "zh/methodology.html")
	wantContains(t, "zh/methodology.html", zh, `<h1>方法说明</h1>`, `<a href="/gpuatlas/zh/downloads.html">下载</a>`, `<caption class="visually-hidden">抓取内容</caption>`, `<th scope="col">云厂商</th>`, "730 小时")
	if en := readPage(t, out, "about.html"); !strings.Contains(en, `<a href="/gpuatlas/gpus/">GPU models</a>`) {
		t.Error("about.html does not link the GPU index under the base")
	}
}
