package sitegen

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gpuatlas/gpuatlas/internal/apischema"
	"github.com/gpuatlas/gpuatlas/internal/golden"
	"github.com/gpuatlas/gpuatlas/templates"
)

// apiTestSite builds the test catalog with every optional part that feeds the
// API: team and published benchmark results, and the scenarios; a shared site.
func apiTestSite(t *testing.T) string {
	t.Helper()
	return buildSite(t, withPublished, withScenarios, withSiteURL)
}

// withSiteURL publishes the site at https://gpus.example.com.
func withSiteURL(_ testing.TB, o *Options) { o.SiteURL = "https://gpus.example.com" }

func TestAPI_EveryDocumentValidates(t *testing.T) {
	for name, out := range map[string]string{"plain": buildSite(t), "everything": apiTestSite(t)} {
		t.Run(name, func(t *testing.T) {
			counts, problems, err := apischema.Validate(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Error(p)
			}
			snap := testSnapshot(t)
			want := map[string]int{"index": 1, "instance": len(snap.Instances), "offers": 4, "gpu": 5, "region": 5}
			if name == "everything" {
				want["scenario"] = len(testScenarios(t).Scenarios)
			}
			if diff := cmp.Diff(want, counts); diff != "" {
				t.Errorf("documents validated by kind (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAPI_SchemasRejectWhatTheyMust shows that the validation can fail: a
// document with a price as a floating-point number, an unknown field, or
// without its offers is invalid.
func TestAPI_SchemasRejectWhatTheyMust(t *testing.T) {
	out := apiTestSite(t)
	file := filepath.Join(out, "api", "v1", "instances", "aws", "p5.48xlarge.json")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(map[string]any){
		"float price": func(d map[string]any) {
			d["offers"].([]any)[0].(map[string]any)["price"].(map[string]any)["amount"] = 98.32
		},
		"unknown field": func(d map[string]any) { d["price_usd"] = "1" },
		"no offers":     func(d map[string]any) { delete(d, "offers") },
		"bad mark":      func(d map[string]any) { d["offers"].([]any)[0].(map[string]any)["marks"] = []any{"Old!"} },
		"bad time":      func(d map[string]any) { d["taken_at"] = "yesterday" },
	} {
		t.Run(name, func(t *testing.T) {
			var d map[string]any
			if err := json.Unmarshal(b, &d); err != nil {
				t.Fatal(err)
			}
			edit(d)
			bad, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			defer os.WriteFile(file, b, 0o644) //nolint:errcheck // restored for the next case; a failure shows there
			_, problems, err := apischema.Validate(out)
			if err != nil {
				t.Fatal(err)
			}
			if len(problems) != 1 || !strings.HasPrefix(problems[0], "instances/aws/p5.48xlarge.json: ") {
				t.Errorf("problems = %q, want one for instances/aws/p5.48xlarge.json", problems)
			}
		})
	}
}

// TestAPI_SchemasAreDraft202012 compiles every published schema against the
// draft 2020-12 meta-schema.
func TestAPI_SchemasAreDraft202012(t *testing.T) {
	dir := filepath.Join(apiTestSite(t), "api", "v1", "schema")
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(names) != len(apiKinds)+1 {
		t.Fatalf("schemas %v (%v), want one per kind and defs.json", names, err)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"$schema": "https://json-schema.org/draft/2020-12/schema"`) {
			t.Errorf("%s does not declare draft 2020-12", filepath.Base(n))
		}
		c := jsonschema.NewCompiler()
		if _, err := c.Compile(n); err != nil {
			t.Errorf("%s: %v", filepath.Base(n), err)
		}
	}
}

func TestAPI_LinksResolve(t *testing.T) {
	out := apiTestSite(t)
	n, problems, err := apischema.Links(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if n < 100 {
		t.Errorf("followed %d links: the check checks little", n)
	}
}

// apiDoc reads one API document of a built site.
func apiDoc[T any](t *testing.T, out, rel string) T {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "api", "v1", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return v
}

// TestAPI_InstanceOfferByHand checks offers of p5.48xlarge and their
// provenance against testdata/snapshot.json as written there, and the per-GPU
// price by hand: 39.33 USD an hour over 8 GPUs is 4.91625.
func TestAPI_InstanceOfferByHand(t *testing.T) {
	out := apiTestSite(t)
	type money struct{ Amount, Currency string }
	type offer struct {
		Key, Region, Zone, Billing string
		Price                      struct{ Amount, Currency, Unit, Upfront string }
		PriceRange                 *struct{ Min, Max string } `json:"price_range"`
		PerGPUHour                 *money                     `json:"per_gpu_hour"`
		USDPerHour                 *money                     `json:"usd_per_hour"`
		Provenance                 struct {
			Source     string
			FetchedAt  string `json:"fetched_at"`
			ObservedAt string `json:"observed_at"`
		}
		Marks []string
	}
	doc := apiDoc[struct {
		Provider     string
		InstanceType string `json:"instance_type"`
		GPUs         string
		Offers       []offer
		Accelerators []struct {
			Model             string
			ReportedMemoryGiB string `json:"reported_memory_gib"`
		}
		Scenarios []struct{ Scenario, Verdict string }
	}](t, out, "instances/aws/p5.48xlarge.json")
	if doc.Provider != "aws" || doc.InstanceType != "p5.48xlarge" || doc.GPUs != "8" {
		t.Fatalf("document is %s/%s with %s GPUs", doc.Provider, doc.InstanceType, doc.GPUs)
	}
	var spot *offer
	for i, o := range doc.Offers {
		if o.Key == "aws/p5.48xlarge/us-east-1/us-east-1a/spot" {
			spot = &doc.Offers[i]
		}
	}
	if spot == nil || len(doc.Offers) != 4 {
		t.Fatalf("offers %+v: want 4 with the us-east-1a spot offer", doc.Offers)
	}
	// From testdata/snapshot.json: 39.33 USD/hour, 13.2182 to 52.0766,
	// ec2.DescribeSpotPriceHistory, fetched 2026-11-30T01:35:00Z, observed
	// 2025-11-30: a year before the catalog's time, so "old".
	if spot.Price.Amount != "39.33" || spot.Price.Currency != "USD" || spot.Price.Unit != "hour" {
		t.Errorf("price = %+v", spot.Price)
	}
	if spot.PriceRange == nil || spot.PriceRange.Min != "13.2182" || spot.PriceRange.Max != "52.0766" {
		t.Errorf("price range = %+v", spot.PriceRange)
	}
	if p := spot.Provenance; p.Source != "ec2.DescribeSpotPriceHistory" || p.FetchedAt != "2026-11-30T01:35:00Z" || p.ObservedAt != "2025-11-30T00:00:00Z" {
		t.Errorf("provenance = %+v", p)
	}
	if spot.PerGPUHour == nil || spot.PerGPUHour.Amount != "4.91625" || spot.PerGPUHour.Currency != "USD" {
		t.Errorf("per GPU-hour = %+v, want 39.33 / 8 = 4.91625 USD", spot.PerGPUHour)
	}
	if diff := cmp.Diff([]string{"old"}, spot.Marks); diff != "" {
		t.Errorf("marks (-want +got):\n%s", diff)
	}
	// The reserved all-upfront offer: 530000 USD upfront over a year of 8760
	// hours is 60.50228310... an hour.
	for _, o := range doc.Offers {
		if o.Billing == "reserved_1y_all_upfront" {
			if o.Price.Upfront != "530000" || o.USDPerHour == nil || !strings.HasPrefix(o.USDPerHour.Amount, "60.502283") {
				t.Errorf("reserved offer: price %+v, USD per hour %+v", o.Price, o.USDPerHour)
			}
		}
	}
	if len(doc.Accelerators) != 1 || doc.Accelerators[0].Model != "nvidia-h100-sxm-80gb" {
		t.Errorf("accelerators = %+v", doc.Accelerators)
	}
	if len(doc.Scenarios) != len(testScenarios(t).Scenarios) {
		t.Errorf("%d scenario verdicts, want one per scenario (%d)", len(doc.Scenarios), len(testScenarios(t).Scenarios))
	}
	// The marks of the other cases: suspect, reported on a stale provider,
	// synthetic, undated.
	for _, c := range []struct {
		doc, key string
		marks    []string
	}{
		{"instances/aws/g5.xlarge.json", "aws/g5.xlarge/us-west-2//on_demand", []string{"suspect"}},
		{"instances/huawei/pi2.2xlarge.4.json", "huawei/pi2.2xlarge.4/cn-north-4//on_demand", []string{"stale", "reported"}},
		{"instances/volcengine/ecs.gni2.3xlarge.json", "volcengine/ecs.gni2.3xlarge/cn-beijing//on_demand", []string{"synthetic"}},
		{"instances/alibaba/ecs.gn8is.4xlarge.json", "alibaba/ecs.gn8is.4xlarge/cn-hangzhou//on_demand", []string{"undated"}},
	} {
		d := apiDoc[struct{ Offers []offer }](t, out, c.doc)
		found := false
		for _, o := range d.Offers {
			if o.Key == c.key {
				found = true
				if diff := cmp.Diff(c.marks, o.Marks); diff != "" {
					t.Errorf("%s marks (-want +got):\n%s", c.key, diff)
				}
			}
		}
		if !found {
			t.Errorf("%s has no offer %s", c.doc, c.key)
		}
	}
}

// TestAPI_OffersOnceEach checks that the offers documents hold every offer of
// the catalog exactly once, each linking its instance document.
func TestAPI_OffersOnceEach(t *testing.T) {
	out := apiTestSite(t)
	snap := testSnapshot(t)
	seen := map[string]int{}
	for _, p := range []string{"alibaba", "aws", "huawei", "volcengine"} {
		d := apiDoc[struct {
			Provider string
			Offers   []struct{ Key, Href string }
		}](t, out, "offers/"+p+".json")
		for _, o := range d.Offers {
			seen[o.Key]++
			if !strings.HasPrefix(o.Key, p+"/") || !strings.HasPrefix(o.Href, "instances/"+p+"/") {
				t.Errorf("offers/%s.json: offer %s links %s", p, o.Key, o.Href)
			}
		}
	}
	if len(seen) != len(snap.Offers) {
		t.Errorf("offers documents hold %d offers, the catalog %d", len(seen), len(snap.Offers))
	}
	for _, o := range snap.Offers {
		if seen[o.Key()] != 1 {
			t.Errorf("offer %s is in the offers documents %d times", o.Key(), seen[o.Key()])
		}
	}
}

// TestAPI_IndexDataDates checks the index's per-provider dates against the
// test catalog: AWS's offers are observed from 2025-11-30 to 2026-11-30.
func TestAPI_IndexDataDates(t *testing.T) {
	out := apiTestSite(t)
	idx := apiDoc[struct {
		TakenAt   string `json:"taken_at"`
		Providers []struct {
			Provider, Coverage string
			Offers             int
			Oldest             string `json:"oldest_observed_at"`
			Newest             string `json:"newest_observed_at"`
			Undated            int    `json:"undated_offers"`
			Href               string
		}
	}](t, out, "index.json")
	if idx.TakenAt != "2026-11-30T02:00:00Z" {
		t.Errorf("taken_at = %s", idx.TakenAt)
	}
	got := map[string]string{}
	for _, p := range idx.Providers {
		got[p.Provider] = strings.Join([]string{p.Coverage, p.Oldest, p.Newest, p.Href}, " ")
	}
	want := map[string]string{
		"aws":        "ok 2025-11-30T00:00:00Z 2026-11-30T01:30:00Z offers/aws.json",
		"alibaba":    "partial   offers/alibaba.json",
		"huawei":     "stale 2026-11-20T01:58:00Z 2026-11-20T01:58:00Z offers/huawei.json",
		"volcengine": "ok 2026-11-30T01:50:00Z 2026-11-30T01:50:00Z offers/volcengine.json",
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: %q, want %q", p, got[p], w)
		}
	}
}

var llmsLink = regexp.MustCompile(`\]\((https://gpus\.example\.com/[^)]*)\)`)

func TestAPI_LLMsTxt(t *testing.T) {
	out := apiTestSite(t)
	b, err := os.ReadFile(filepath.Join(out, "llms.txt"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.HasPrefix(s, "# GPU Atlas\n\n> ") {
		t.Errorf("llms.txt does not start with an H1 and a summary blockquote:\n%s", s)
	}
	wantContains(t, "llms.txt", s,
		"Catalog taken at 2026-11-30.",
		"- aws: coverage ok, offers 7, observed 2025-11-30 to 2026-11-30",
		"- huawei: coverage stale, offers 1, observed 2026-11-20 to 2026-11-20",
		"## API\n", "## Pages\n", "## Optional\n",
		"(https://gpus.example.com/api/v1/index.json)")
	links := llmsLink.FindAllStringSubmatch(s, -1)
	if len(links) < 10 {
		t.Fatalf("llms.txt has %d links", len(links))
	}
	for _, m := range links {
		rel := strings.TrimPrefix(m[1], "https://gpus.example.com/")
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(rel))); err != nil {
			t.Errorf("llms.txt links %s: no such file", m[1])
		}
	}
}

func TestAPI_Page(t *testing.T) {
	out := apiTestSite(t)
	for _, p := range []string{"api.html", "zh/api.html"} {
		page := readPage(t, out, p)
		wantContains(t, p, page, `href="/api/v1/index.json"`, `href="/api/v1/schema/instance.json"`,
			`href="/api/v1/instances/aws/p5.48xlarge.json"`, "read_json_auto(", "curl -s &#34;$SITE/api/v1/index.json&#34;",
			"SITE=https://gpus.example.com\n", `href="/llms.txt"`)
	}
	// Every page links the API page from its footer.
	pages := 0
	for name, b := range readTree(t, out) {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		pages++
		footer := pagePart(t, string(b), `<footer class="site">`, "</footer>")
		want := `href="/api.html"`
		if strings.HasPrefix(name, "zh/") {
			want = `href="/zh/api.html"`
		}
		wantContains(t, name+" footer", footer, want)
	}
	if pages < 40 {
		t.Errorf("%d pages: the footer check checks little", pages)
	}
}

// TestAPI_Golden keeps the API page, llms.txt and three documents; the JSON
// documents are kept indented so that a change reads as a diff.
func TestAPI_Golden(t *testing.T) {
	out := apiTestSite(t)
	goldenChecks(t, out, map[string]string{"api.html": "api.html", "zh/api.html": "api.zh.html", "llms.txt": "llms.txt"})
	for _, rel := range []string{"index.json", "instances/aws/p5.48xlarge.json", "scenarios/llm-finetune.json"} {
		t.Run(rel, func(t *testing.T) {
			var b bytes.Buffer
			if err := json.Indent(&b, []byte(readPage(t, out, "api/v1/"+rel)), "", "  "); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "golden", "api_v1_"+strings.ReplaceAll(rel, "/", "_")), b.Bytes())
		})
	}
}

// BenchmarkAPI_Embedded makes every API document of the embedded catalog (the
// site model's part; a build adds the scenario and benchmark parts).
func BenchmarkAPI_Embedded(b *testing.B) {
	m := embeddedModel(b)
	b.ResetTimer()
	for range b.N {
		if _, _, err := newAPISite(m, nil, nil).files(templates.FS); err != nil {
			b.Fatal(err)
		}
	}
}

// Text from outside in llms.txt cannot open a link, an image, a tag or
// emphasis, or start a formula a spreadsheet would run.
func TestMarkdownText_EscapesOutsideText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"European Central Bank", "European Central Bank"},
		{"[x](javascript:alert(1))", `\[x\]\(javascript:alert\(1\)\)`},
		{`=HYPERLINK("http://e.example","x")`, `\=HYPERLINK\(\"http://e.example\",\"x\"\)`},
		{"a\n<img src=x>\t*b*", `a \<img src\=x\> \*b\*`},
	} {
		if got := markdownText(c.in); got != c.want {
			t.Errorf("markdownText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
