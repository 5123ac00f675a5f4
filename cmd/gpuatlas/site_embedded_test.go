package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/apischema"
	"github.com/gpuatlas/gpuatlas/internal/browsertest"
	"github.com/gpuatlas/gpuatlas/internal/cli"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/internal/pagetext"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
)

// repoRoot is the repository, from this package's folder.
var repoRoot = filepath.Join("..", "..")

// maxPageBytes is the most HTML one page of the site may be: a reader on a
// phone downloads it whole (a GPU page listing every offer was 768 KB).
const maxPageBytes = 300_000

// floatNoise finds what a float printed without rounding leaves in a chart
// label: six or more fractional digits, or a run of zeros or nines
// ("0.20000000000000004", "2.9999999").
var floatNoise = regexp.MustCompile(`\d\.\d{6,}|0000000|9999999`)

// svgText is the text of an SVG text element.
var svgText = regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)

// buildEmbeddedSite builds the site of the embedded catalog as `gpuatlas build`
// does for the nightly job (benchmarks, scenarios, the committed history),
// once for the package's tests: a test only reads it.
func buildEmbeddedSite(t *testing.T) string {
	t.Helper()
	testlane.Long(t, "builds the whole embedded site")
	return sites.Get(t, "embedded", func(t *testing.T, out string) {
		testlane.Count("site-build", t.Name())
		var stdout, stderr bytes.Buffer
		env := cli.Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Site: site()}
		args := []string{"build", "--out", out, "--history", filepath.Join(repoRoot, "data", "history.jsonl")}
		if code := cli.Main(env, args); code != 0 {
			t.Fatalf("gpuatlas build: exit %d: %s", code, stderr.String())
		}
	})
}

// TestEmbeddedSite checks the site the nightly job publishes, built from the
// embedded catalog: no page over maxPageBytes, no chart label with float noise,
// the L4 page's scenarios as compare's verdicts give them, no WCAG 2 A/AA
// violation axe-core finds on the home, explorer, an instance, a GPU, a
// scenario and the TCO page in both languages, every page in its language
// (internal/pagetext); and screenshots of the pages a
// buyer opens, on a desktop and a phone.
func TestEmbeddedSite(t *testing.T) {
	t.Parallel()
	out := buildEmbeddedSite(t)
	t.Run("page sizes", func(t *testing.T) {
		var pages, big []string
		largest, largestPath := int64(0), ""
		err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(out, p)
			pages = append(pages, rel)
			if info.Size() > largest {
				largest, largestPath = info.Size(), rel
			}
			if info.Size() > maxPageBytes {
				big = append(big, rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(pages) < 100 {
			t.Fatalf("the embedded site has %d pages: the walk checks nothing", len(pages))
		}
		sort.Strings(big)
		for _, p := range big {
			t.Errorf("%s is over %d bytes of HTML", p, maxPageBytes)
		}
		t.Logf("%d pages; the largest is %s, %d bytes", len(pages), largestPath, largest)
	})
	t.Run("chart labels", func(t *testing.T) {
		charts, labels := 0, 0
		err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".svg") {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			charts++
			for _, m := range svgText.FindAllSubmatch(b, -1) {
				labels++
				if floatNoise.Match(m[1]) {
					rel, _ := filepath.Rel(out, p)
					t.Errorf("%s: label %q has float noise", rel, m[1])
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if charts < 50 || labels < 1000 {
			t.Fatalf("%d charts with %d labels: the walk checks nothing", charts, labels)
		}
	})
	t.Run("api", func(t *testing.T) { checkEmbeddedAPI(t, out) })
	t.Run("languages", func(t *testing.T) {
		// The language rules (internal/pagetext) on every page of the real
		// catalog: its source notes and provider strings are the outside text
		// the test site's fixtures only sample.
		zh, en, problems, err := pagetext.CheckSite(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Error(p)
		}
		if zh < 100 || en < 100 {
			t.Fatalf("%d Chinese and %d English pages: the walk checks nothing", zh, en)
		}
	})
	site := serveSite(t, out)
	t.Run("L4 scenarios", func(t *testing.T) {
		fits, may := l4Verdicts(t)
		if len(fits) == 0 {
			t.Fatal("compare finds no scenario an L4 instance type fits: this test checks nothing")
		}
		ctx := browsertest.Start(t)
		for _, prefix := range []string{"", "/zh"} {
			browsertest.Do(t, ctx, "open the L4 page", chromedp.Navigate(site+prefix+"/gpus/nvidia-l4-24gb.html"), chromedp.WaitReady(chromedp.CSS("footer")))
			got := browsertest.Eval[[][]string](t, ctx, `[...document.querySelectorAll('#gpu-fits > li')].map(li => [li.dataset.scenario, li.dataset.verdict, li.querySelector('a').getAttribute('href')])`)
			var gotFits, gotMay []string
			for _, g := range got {
				if want := prefix + "/scenarios/" + g[0] + ".html"; g[2] != want {
					t.Errorf("%s: scenario %s links %s, want %s", prefix, g[0], g[2], want)
				}
				if g[1] == "fits" {
					gotFits = append(gotFits, g[0])
				} else {
					gotMay = append(gotMay, g[0])
				}
			}
			if diff := cmp.Diff(fits, gotFits); diff != "" {
				t.Errorf("%s: scenarios the L4 fits (-compare +page):\n%s", prefix, diff)
			}
			if diff := cmp.Diff(may, gotMay); diff != "" {
				t.Errorf("%s: scenarios the L4 may fit (-compare +page):\n%s", prefix, diff)
			}
		}
	})
	t.Run("accessibility", func(t *testing.T) {
		script := browsertest.LoadAxe(t, repoRoot)
		ctx := browsertest.Start(t)
		for _, prefix := range []string{"", "/zh"} {
			for _, p := range []struct{ path, wait string }{
				{"/", "footer"},
				{"/offers.html", "[data-ready]"},
				{"/instances/aws/p5.48xlarge.html", "footer"},
				{"/gpus/nvidia-l4-24gb.html", "footer"},
				{"/scenarios/llm-finetune.html", "footer"},
				{"/tco.html", `#calc-form[data-state="ok"]`},
				{"/api.html", "footer"},
			} {
				path := prefix + p.path
				browsertest.Do(t, ctx, "open "+path, chromedp.Navigate(site+path), chromedp.WaitReady(chromedp.CSS(p.wait)))
				for _, v := range browsertest.Axe(t, ctx, script) {
					t.Errorf("%s: %s", path, v)
				}
			}
		}
	})
	t.Run("screenshots", func(t *testing.T) {
		var pages []browsertest.Page
		for _, lang := range []string{"", "zh"} {
			prefix, name := "", "en-"
			if lang != "" {
				prefix, name = "/"+lang, lang+"-"
			}
			pages = append(pages,
				browsertest.Page{Name: name + "instance-p5.48xlarge", Path: prefix + "/instances/aws/p5.48xlarge.html"},
				browsertest.Page{Name: name + "gpu-l4", Path: prefix + "/gpus/nvidia-l4-24gb.html"},
				browsertest.Page{Name: name + "gpu-a100", Path: prefix + "/gpus/nvidia-a100-sxm-80gb.html"},
				browsertest.Page{Name: name + "tco", Path: prefix + "/tco.html", Wait: `#calc-form[data-state="ok"]`},
			)
		}
		// The Chinese pages a buyer starts from: the home, the explorer (in
		// CNY), a scenario.
		pages = append(pages,
			browsertest.Page{Name: "zh-home", Path: "/zh/"},
			browsertest.Page{Name: "zh-explorer", Path: "/zh/offers.html", Wait: `table#offers[data-ready]`},
			browsertest.Page{Name: "zh-scenario-llm-finetune", Path: "/zh/scenarios/llm-finetune.html"},
		)
		browsertest.Shots{Pages: pages, NoExceptions: true, Check: noSidewaysPriceTables}.Save(t, site)
	})
}

// checkEmbeddedAPI validates every JSON API document of the embedded site
// against its schema and follows every link the documents hold
// (internal/apischema), and logs the API's size.
func checkEmbeddedAPI(t *testing.T, out string) {
	counts, problems, err := apischema.Validate(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	links, problems, err := apischema.Links(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if counts["instance"] < 100 || counts["offers"] < 3 || counts["gpu"] < 10 || counts["scenario"] < 5 {
		t.Errorf("documents validated by kind: %v: the check checks little", counts)
	}
	var files, size, largest int64
	largestPath := ""
	err = filepath.WalkDir(filepath.Join(out, "api"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		size += info.Size()
		if info.Size() > largest {
			largest, largestPath = info.Size(), p
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(out, largestPath)
	// By hand, from data/catalog.json: p5.48xlarge on demand in us-east-1 is
	// 55.04 USD an hour from aws:pricing:GetProducts, fetched 2026-11-30 and
	// observed 2025-11-30 (a year before the catalog: "old"); over 8 GPUs
	// 6.88 USD a GPU-hour.
	b, err := os.ReadFile(filepath.Join(out, "api", "v1", "instances", "aws", "p5.48xlarge.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Offers []struct {
			Key    string
			Price  struct{ Amount, Currency, Unit string }
			PerGPU struct {
				Amount string
			} `json:"usd_per_gpu_hour"`
			Provenance struct {
				Source     string
				FetchedAt  string `json:"fetched_at"`
				ObservedAt string `json:"observed_at"`
			}
			Marks []string
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range doc.Offers {
		if o.Key != "aws/p5.48xlarge/us-east-1//on_demand" {
			continue
		}
		found = true
		got := fmt.Sprintf("%s %s/%s, %s per GPU-hour, %s fetched %s observed %s, marks %v", o.Price.Amount, o.Price.Currency, o.Price.Unit,
			o.PerGPU.Amount, o.Provenance.Source, o.Provenance.FetchedAt, o.Provenance.ObservedAt, o.Marks)
		want := "55.04 USD/hour, 6.88 per GPU-hour, aws:pricing:GetProducts fetched 2026-11-30T00:00:00Z observed 2025-11-30T00:00:00Z, marks [old]"
		if got != want {
			t.Errorf("p5.48xlarge on demand in us-east-1:\n got %s\nwant %s", got, want)
		}
	}
	if !found {
		t.Error("instances/aws/p5.48xlarge.json has no on-demand offer in us-east-1")
	}
	t.Logf("API: %d files, %d bytes; documents by kind %v; %d links followed; the largest is %s, %d bytes", files, size, counts, links, rel, largest)
}

// noSidewaysPriceTables fails a page whose price tables (class "stack") need
// scrolling sideways on a phone.
func noSidewaysPriceTables(t *testing.T, ctx context.Context, p browsertest.Page) {
	t.Helper()
	wide := browsertest.Eval[[]string](t, ctx, `innerWidth > 640 ? [] : [...document.querySelectorAll('table.stack')]
		.filter(tb => tb.closest('details:not([open])') === null && tb.getBoundingClientRect().right > innerWidth + 1)
		.map(tb => (tb.id || tb.className) + ' ' + Math.round(tb.getBoundingClientRect().right))`)
	for _, w := range wide {
		t.Errorf("%s: price table %s px runs past a phone's screen", p.Path, w)
	}
}

// l4Verdicts are the scenarios that at least one instance type with an L4 fits,
// and those that one may fit (none fits), by compare's ranking of the embedded
// catalog, in the report's order.
func l4Verdicts(t *testing.T) (fits, may []string) {
	t.Helper()
	snap := datatest.Snapshot(t)
	ref := datatest.Load(t, catalog.LoadGPUReference)
	set := datatest.Load(t, compare.LoadScenarios)
	rep, err := compare.NewScenarioReport(set.Scenarios, snap, ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Matrix.Scenarios {
		verdict := ""
		for _, f := range r.Ranked {
			if f.GPUModel != "nvidia-l4-24gb" {
				continue
			}
			if f.Verdict == compare.Fits {
				verdict = "fits"
				break
			}
			verdict = "may"
		}
		switch verdict {
		case "fits":
			fits = append(fits, r.Scenario.ID)
		case "may":
			may = append(may, r.Scenario.ID)
		}
	}
	return fits, may
}
