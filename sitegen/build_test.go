package sitegen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/golden"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/templates"
)

// testSnapshot is a small hand-made catalog with every case the site must show:
// a fractional GPU, a spot zone offer, a reserved all-upfront offer, CNY prices
// with an FX table, a synthetic offer, a suspect offer, a stale provider and an
// unmapped GPU.
func testSnapshot(t testing.TB) *catalog.Snapshot {
	t.Helper()
	s, err := catalog.ReadSnapshot(filepath.Join("testdata", "snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func testReference(t testing.TB) *catalog.GPUReference {
	t.Helper()
	ref, err := catalog.LoadGPUReference(os.DirFS("testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func testOptions(t testing.TB, out string) Options {
	return Options{Snapshot: testSnapshot(t), Reference: testReference(t), Templates: templates.FS, OutDir: out, BaseURL: "/"}
}

// build builds opts, failing the test on an error. Every whole-site build of the
// package's tests that must succeed goes through here: in -short mode the test
// is skipped.
func build(t testing.TB, opts Options) Stats {
	t.Helper()
	testlane.Long(t, "builds a whole site")
	testlane.Count("site-build", t.Name())
	st, err := Build(opts)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return st
}

// sites are the sites the package's tests share (TestMain removes them).
var sites testlane.Sites

// TestMain runs the package's tests, then removes the sites they share.
func TestMain(m *testing.M) {
	code := m.Run()
	sites.Remove()
	os.Exit(code)
}

// buildSite builds the test options, changed by each of with in order, and
// returns the folder. When every change is a named function the site is built
// once for the package's tests and shared: a test must never change it (one
// that edits a file restores it before it returns, and does not run in
// parallel). A site with a function literal among its changes is built for the
// test alone, in a temporary folder.
func buildSite(t *testing.T, with ...func(testing.TB, *Options)) string {
	t.Helper()
	write := func(t *testing.T, out string) {
		opts := testOptions(t, out)
		for _, w := range with {
			w(t, &opts)
		}
		build(t, opts)
	}
	name, ok := siteName(with)
	if !ok {
		out := filepath.Join(t.TempDir(), "site")
		write(t, out)
		return out
	}
	return sites.Get(t, name, write)
}

// funcLiteral matches the name the runtime gives a function literal.
var funcLiteral = regexp.MustCompile(`\.func\d+`)

// siteName names the site that with gives: "plain" and the names of its
// functions, in order. A function literal's name does not say what it does (it
// may capture anything), so a site with one has no name (ok false).
func siteName(with []func(testing.TB, *Options)) (name string, ok bool) {
	names := []string{"plain"}
	for _, w := range with {
		n := runtime.FuncForPC(reflect.ValueOf(w).Pointer()).Name()
		if funcLiteral.MatchString(n) {
			return "", false
		}
		names = append(names, n[strings.LastIndex(n, ".")+1:])
	}
	return strings.Join(names, "+"), true
}

// A site is shared only under the names of its changes; one changed by a
// function literal is the test's own.
func TestSiteName_SharedOnlyByNamedChanges(t *testing.T) {
	if name, ok := siteName(nil); name != "plain" || !ok {
		t.Errorf("no changes: %q, %v", name, ok)
	}
	if name, ok := siteName([]func(testing.TB, *Options){withScenarios, withSiteURL}); name != "plain+withScenarios+withSiteURL" || !ok {
		t.Errorf("named changes: %q, %v", name, ok)
	}
	url := "https://example.com"
	if name, ok := siteName([]func(testing.TB, *Options){withScenarios, func(_ testing.TB, o *Options) { o.SiteURL = url }}); ok {
		t.Errorf("a function literal among the changes: shared as %q", name)
	}
}

// goldenChecks compares each built file (by its path) with its golden file
// (testdata/golden/<file>), a subtest each.
func goldenChecks(t *testing.T, out string, files map[string]string) {
	t.Helper()
	for name, file := range files {
		t.Run(name, func(t *testing.T) { goldenCheck(t, out, name, file) })
	}
}

// readTree returns every file under dir by its slash path.
func readTree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestBuild_Golden(t *testing.T) {
	out := buildSite(t)
	files := map[string]string{}
	for _, name := range []string{"index.html", "offers.html", "instances/aws/p5.48xlarge.html", "zh/offers.html", "data/offers.json",
		"gpus/index.html", "gpus/nvidia-a10-24gb.html", "zh/gpus/nvidia-a10-24gb.html", "regions.html", "zh/regions.html",
		"compare.html", "downloads.html", "methodology.html", "zh/about.html", "zh/instances/alibaba/ecs.gn7i-c8g1.2xlarge.html",
		"data/instances.csv", "robots.txt", "coverage.html", "zh/coverage.html"} {
		files[name] = strings.ReplaceAll(name, "/", "_")
	}
	goldenChecks(t, out, files)
}

// goldenCheck compares a built file with testdata/golden/<file>, or rewrites
// the golden file with -update (internal/golden).
func goldenCheck(t *testing.T, out, name, file string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", file), []byte(readPage(t, out, name)))
}

func TestBuild_ByteIdenticalTwice(t *testing.T) {
	a := filepath.Join(t.TempDir(), "a")
	b := filepath.Join(t.TempDir(), "b")
	sa := build(t, testOptions(t, a))
	sb := build(t, testOptions(t, b))
	if sa != sb {
		t.Errorf("stats differ: %+v vs %+v", sa, sb)
	}
	ta, tb := readTree(t, a), readTree(t, b)
	if len(ta) != len(tb) {
		t.Fatalf("builds wrote %d and %d files", len(ta), len(tb))
	}
	for name, da := range ta {
		if !bytes.Equal(da, tb[name]) {
			t.Errorf("%s differs between two builds of the same input", name)
		}
	}
	// A rebuild over an existing site replaces it whole.
	build(t, testOptions(t, a))
	if got := readTree(t, a); len(got) != len(ta) {
		t.Errorf("rebuild over the old site has %d files, want %d", len(got), len(ta))
	}
}

func TestBuild_Stats(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	st := build(t, testOptions(t, out))
	snap := testSnapshot(t)
	models := map[string]bool{}
	for _, it := range snap.Instances {
		for _, a := range it.Accelerators {
			if a.Model != "" {
				models[a.Model] = true
			}
		}
	}
	// Per language: overview, offers, compare, GPU index, regions, downloads,
	// coverage, 404, methodology, about, changes (the snapshot is the first
	// crawl), the JSON API, a page per GPU model and one per instance type.
	wantPages := 2 * (12 + len(models) + len(snap.Instances))
	if st.Pages != wantPages {
		t.Errorf("Pages = %d, want %d", st.Pages, wantPages)
	}
	tree := readTree(t, out)
	var size int64
	for _, b := range tree {
		size += int64(len(b))
	}
	if st.Files != len(tree) || st.Bytes != size {
		t.Errorf("Stats = %+v, the folder has %d files, %d bytes", st, len(tree), size)
	}
}

// templatesWith is the embedded template set with some files replaced.
func templatesWith(t *testing.T, replace map[string]string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(templates.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(templates.FS, p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range replace {
		m[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return m
}

func TestBuild_FailureLeavesOutDirUntouched(t *testing.T) {
	cases := []struct {
		name    string
		replace map[string]string
		errText string
	}{
		{"template does not parse", map[string]string{"offers.html": `{{define "title"}}x{{end}}{{define "content"}}{{if}}{{end}}`}, "templates"},
		{"template fails while rendering", map[string]string{"downloads.html": `{{define "title"}}x{{end}}{{define "content"}}{{t "no.such.message"}}{{end}}`}, "no.such.message"},
		{"message catalogs disagree", map[string]string{"i18n/zh.json": `{"nav.skip": "跳到正文"}`}, "lacks"},
		{"layout missing", map[string]string{"_layout.html": `{{define "other"}}{{end}}`}, "layout"},
	}
	// Each case's previous site is a copy of the shared plain site (a copy is
	// a whole built site, and cheaper than building one per case).
	plain := buildSite(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			out := filepath.Join(parent, "site")
			if err := os.CopyFS(out, os.DirFS(plain)); err != nil {
				t.Fatal(err)
			}
			before := readTree(t, out)
			opts := testOptions(t, out)
			opts.Templates = templatesWith(t, tc.replace)
			_, err := Build(opts)
			if err == nil || !strings.Contains(err.Error(), tc.errText) {
				t.Fatalf("Build error = %v, want one mentioning %q", err, tc.errText)
			}
			after := readTree(t, out)
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("failed build changed the previous site (-before +after):\n%s", diff)
			}
			entries, _ := os.ReadDir(parent)
			if len(entries) != 1 {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("failed build left files beside the site: %v", names)
			}
		})
	}
}

func TestBuild_RefusesFolderThatIsNotASite(t *testing.T) {
	out := t.TempDir()
	precious := filepath.Join(out, "thesis.tex")
	if err := os.WriteFile(precious, []byte("years of work"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Build(testOptions(t, out))
	if err == nil || !strings.Contains(err.Error(), "does not look like a built site") {
		t.Fatalf("Build error = %v, want a refusal", err)
	}
	if _, err := os.Stat(precious); err != nil {
		t.Errorf("the folder's file is gone: %v", err)
	}
}

func TestBuild_HostileInstanceID(t *testing.T) {
	const hostile = "../../etc/x<script>"
	snap := testSnapshot(t)
	snap.Instances = append(snap.Instances, catalog.InstanceType{
		Provider: catalog.AWS, ID: hostile, Family: `"><img src=x onerror=alert(1)>`, VCPUs: 1, MemoryGiB: catalog.Dec("1"),
		Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Name: "<b>GPU</b>", Count: 1, Share: catalog.Dec("1"), MemoryGiB: catalog.Dec("8")}},
		Generation:   "current", Source: "</script><script>alert(2)</script>",
	})
	snap.Offers = append(snap.Offers, catalog.Offer{
		Provider: catalog.AWS, InstanceType: hostile, Region: "us-east-1<svg onload=alert(3)>", Billing: catalog.OnDemand,
		Price:        catalog.Price{Amount: catalog.Dec("1"), Currency: catalog.USD, Unit: catalog.PerHour},
		Availability: "available", Includes: "<iframe src=//evil>", Source: "x", Suspect: "</script><script>alert(4)</script>",
	})
	parent := t.TempDir()
	out := filepath.Join(parent, "site")
	opts := testOptions(t, out)
	opts.Snapshot = snap
	build(t, opts)

	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 || entries[0].Name() != "site" {
		t.Fatalf("the build wrote outside its folder: %v", entries)
	}
	page := filepath.Join(out, "instances", "aws", "etc-x-script.html")
	if _, err := os.Stat(page); err != nil {
		t.Fatalf("hostile id has no page at the expected slug: %v", err)
	}
	for name, b := range readTree(t, out) {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		s := string(b)
		for _, raw := range []string{"x<script>", "<img src=x", "<b>GPU</b>", "<iframe", "<svg", "alert(2)</script>", "alert(4)</script>"} {
			if strings.Contains(s, raw) {
				t.Errorf("%s contains unescaped provider data %q", name, raw)
			}
		}
	}
	b, _ := os.ReadFile(page)
	if !strings.Contains(string(b), "x&lt;script&gt;") {
		t.Errorf("the instance page does not show the id escaped")
	}
}

var attrURL = regexp.MustCompile(`\s(?:href|src|action)="([^"]*)"|property="og:url" content="([^"]*)"`)

// TestBuild_LinksStayOnSiteUnderBase checks, for the site served at / and under a
// repository path, that every link and asset is a path under the base URL that
// exists in the build, and that nothing is loaded from another host.
//
// With a site URL, the canonical, alternate and Open Graph URLs must be absolute
// URLs of that origin under the base, of a file of the site.
func TestBuild_LinksStayOnSiteUnderBase(t *testing.T) {
	for _, tc := range []struct{ base, siteURL string }{{"/", ""}, {"/gpuatlas/", ""}, {"/gpuatlas/", "https://example.github.io"}, {"/", "https://gpus.example.com"}} {
		base := tc.base
		t.Run(base+" "+tc.siteURL, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "site")
			opts := testOptions(t, out)
			opts.BaseURL, opts.SiteURL = base, tc.siteURL
			withExtras(t, &opts)    // the benchmarks and changes pages too (benchmarks_test.go)
			withScenarios(t, &opts) // the scenario and TCO pages too (scenarios_test.go)
			build(t, opts)
			tree := readTree(t, out)
			// The scripts' URLs come from the page's configuration.
			cfgRe := regexp.MustCompile(`<script type="application/json" id="(?:explorer|compare)-config">(.*?)</script>`)
			for _, page := range []string{"offers.html", "zh/offers.html", "compare.html", "zh/compare.html"} {
				m := cfgRe.FindSubmatch(tree[page])
				if m == nil {
					t.Fatalf("%s has no script configuration", page)
				}
				var cfg struct{ Data, Prefix, Compare string }
				if err := json.Unmarshal(m[1], &cfg); err != nil {
					t.Fatalf("%s: configuration: %v", page, err)
				}
				for _, u := range []string{cfg.Data, cfg.Compare, cfg.Prefix + "offers.html"} {
					if _, ok := tree[strings.TrimPrefix(u, base)]; !strings.HasPrefix(u, base) || !ok {
						t.Errorf("%s: script URL %s is not a file of the site under %s", page, u, base)
					}
				}
			}
			for name, b := range tree {
				s := string(b)
				if strings.HasSuffix(name, ".css") || strings.HasSuffix(name, ".js") {
					if strings.Contains(s, "http://") || strings.Contains(s, "https://") || strings.Contains(s, "@import") {
						t.Errorf("%s refers to another host", name)
					}
					continue
				}
				if !strings.HasSuffix(name, ".html") {
					continue
				}
				// A benchmark's published source is the one link off the site.
				s = benchSourceLink.ReplaceAllString(s, "")
				for _, m := range attrURL.FindAllStringSubmatch(s, -1) {
					u := m[1] + m[2]
					if strings.HasPrefix(u, "#") {
						continue
					}
					if tc.siteURL != "" && strings.HasPrefix(u, tc.siteURL+base) {
						u = strings.TrimPrefix(u, tc.siteURL) // a canonical URL of this site
					}
					if strings.Contains(u, "://") || strings.HasPrefix(u, "//") {
						t.Errorf("%s: link to another host: %s", name, u)
						continue
					}
					if !strings.HasPrefix(u, base) {
						t.Errorf("%s: link %s is not under the base %s", name, u, base)
						continue
					}
					p := strings.TrimPrefix(u, base)
					p, _, _ = strings.Cut(p, "#")
					p, _, _ = strings.Cut(p, "?")
					if p == "" || strings.HasSuffix(p, "/") {
						p += "index.html"
					}
					if _, ok := tree[p]; !ok {
						t.Errorf("%s: link %s points to no file of the site", name, u)
					}
				}
			}
		})
	}
}

func TestBuild_LanguageSwitchKeepsPage(t *testing.T) {
	out := buildSite(t)
	sw := regexp.MustCompile(`id="lang-switch" href="([^"]*)"`)
	cases := map[string]string{
		"index.html":                      "/zh/",
		"zh/index.html":                   "/",
		"offers.html":                     "/zh/offers.html",
		"zh/offers.html":                  "/offers.html",
		"instances/aws/g6f.large.html":    "/zh/instances/aws/g6f.large.html",
		"zh/instances/aws/g6f.large.html": "/instances/aws/g6f.large.html",
		"downloads.html":                  "/zh/downloads.html",
	}
	for page, want := range cases {
		b, err := os.ReadFile(filepath.Join(out, page))
		if err != nil {
			t.Fatal(err)
		}
		m := sw.FindSubmatch(b)
		if m == nil || string(m[1]) != want {
			t.Errorf("%s: language switch = %q, want %q", page, m, want)
		}
	}
}

func TestBuild_OffersPageDefaultRows(t *testing.T) {
	out := buildSite(t)
	b, err := os.ReadFile(filepath.Join(out, "offers.html"))
	if err != nil {
		t.Fatal(err)
	}
	keys := regexp.MustCompile(`<tr data-key="([^"]*)"`).FindAllStringSubmatch(string(b), -1)
	var got []string
	for _, k := range keys {
		got = append(got, k[1])
	}
	// The instance view: one row per type in its cheapest region, by the
	// cheapest on-demand USD per hour, as the explorer sorts them; the suspect
	// g5.xlarge in us-west-2 at 0.0101 and the g6f.large L4 slice (a partial
	// GPU) only on request. A price that may not lead an answer (made up,
	// reported) comes after every price that may, however cheap.
	want := []string{
		"aws/g5.xlarge",                 // 1.006
		"alibaba/ecs.gn7i-c8g1.2xlarge", // 8.5 CNY = 1.1972
		"alibaba/ecs.gn8is.4xlarge",     // 30.2 CNY = 4.2535
		"aws/p5.48xlarge",               // 98.32 in us-east-1 and us-west-2
		"volcengine/ecs.gni2.3xlarge",   // 9.1 CNY = 1.2817, synthetic
		"huawei/pi2.2xlarge.4",          // 12.4 CNY = 1.7465, reported
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("server-rendered rows (-want +got):\n%s", diff)
	}
	for _, s := range []string{
		"6 of 7 instance types",
		// p5.48xlarge: spot 39.33 is 60% less than 98.32 on demand; reserved 1y
		// 530000 / 8760 = 60.50 is 38% less; 98.32 / 8 GPUs = 12.29.
		`<span class="p">39.33</span><span class="m"><small class="save" title="60% less than on-demand in the same region">−60%</small>`,
		`<span class="p">60.50</span><span class="m"><small class="save" title="38% less than on-demand in the same region">−38%</small>`,
		`<td class="num c-gpu_price" data-l="Per GPU, On-demand (USD/hour)">12.29</td>`,
		`US East (N. Virginia) <small class="sub">us-east-1 · cheapest of 2 regions</small>`,
	} {
		if !strings.Contains(string(b), s) {
			t.Errorf("offers.html lacks %q", s)
		}
	}
	zh, err := os.ReadFile(filepath.Join(out, "zh", "offers.html"))
	if err != nil {
		t.Fatal(err)
	}
	// In Chinese the explorer opens in CNY: 98.32 × 7.1 = 698.07.
	if !strings.Contains(string(zh), `<span class="p">698.07</span>`) || !strings.Contains(string(zh), `"currency":"CNY"`) {
		t.Error("zh/offers.html is not in CNY")
	}
}

// TestBuild_AccessibleTables checks every table of every page has a caption and
// every header cell a scope, and every form control a label.
func TestBuild_AccessibleTables(t *testing.T) {
	out := buildSite(t, withExtras)
	checkAccessible(t, out, func(name string) bool { return strings.HasSuffix(name, ".html") })
}

// checkAccessible checks that every table of the built pages that keep selects
// has a caption, every header cell a scope and every form control a label.
func checkAccessible(t *testing.T, out string, keep func(name string) bool) {
	t.Helper()
	table := regexp.MustCompile(`(?s)<table[^>]*>\s*(<caption)?`)
	th := regexp.MustCompile(`<th(?:\s[^>]*)?>`)
	input := regexp.MustCompile(`<(?:input|select|textarea)\s[^>]*>`)
	for name, b := range readTree(t, out) {
		if !keep(name) {
			continue
		}
		s := string(b)
		for _, m := range table.FindAllStringSubmatch(s, -1) {
			if m[1] == "" {
				t.Errorf("%s: a table without a caption: %.60s", name, m[0])
			}
		}
		for _, m := range th.FindAllString(s, -1) {
			if !strings.Contains(m, `scope="`) {
				t.Errorf("%s: a header cell without scope: %s", name, m)
			}
		}
		for _, m := range input.FindAllString(s, -1) {
			if !strings.Contains(m, `aria-label="`) && !strings.Contains(m, `id="`) {
				t.Errorf("%s: a form control without a label: %s", name, m)
			}
		}
	}
}

func TestBuild_RejectsBadBaseURL(t *testing.T) {
	for _, base := range []string{"gpuatlas/", "https://example.com/", "//evil.example/", "/a/../b/", `/x"y/`} {
		opts := testOptions(t, filepath.Join(t.TempDir(), "site"))
		opts.BaseURL = base
		if _, err := Build(opts); err == nil {
			t.Errorf("Build accepted base URL %q", base)
		}
	}
}

func TestBuild_PublishesCatalogJSONAsIs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	opts := testOptions(t, out)
	opts.CatalogJSON = []byte("{\"schema\": 1}\n")
	build(t, opts)
	got, err := os.ReadFile(filepath.Join(out, "data", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, opts.CatalogJSON) {
		t.Errorf("data/catalog.json = %q, want the bytes given", got)
	}
}

func TestBuild_MissingInputs(t *testing.T) {
	opts := testOptions(t, filepath.Join(t.TempDir(), "site"))
	opts.Snapshot = nil
	if _, err := Build(opts); err == nil {
		t.Error("Build without a snapshot succeeded")
	}
	opts = testOptions(t, filepath.Join(t.TempDir(), "site"))
	opts.Templates = fstest.MapFS{}
	if _, err := Build(opts); err == nil {
		t.Error("Build with an empty template folder succeeded")
	}
}

func BenchmarkBuild(b *testing.B) {
	dir := b.TempDir()
	opts := testOptions(b, filepath.Join(dir, "site"))
	for b.Loop() {
		if _, err := Build(opts); err != nil {
			b.Fatal(err)
		}
	}
}

// largeSnapshot multiplies the test snapshot's AWS types to about the size of a
// real crawl: 200 instance types × 25 regions × 4 billing kinds = 20,000 offers.
func largeSnapshot(t testing.TB) *catalog.Snapshot {
	s := testSnapshot(t)
	base := s.Instances[4] // p5.48xlarge
	s.Instances, s.Offers, s.Placements = nil, nil, nil
	for i := 0; i < 200; i++ {
		it := base
		it.ID = fmt.Sprintf("p%d.%dxlarge", i%20, i)
		s.Instances = append(s.Instances, it)
		for r := 0; r < 25; r++ {
			for _, b := range []catalog.BillingKind{catalog.OnDemand, catalog.Spot, catalog.Reserved1yNoUpfront, catalog.Reserved3yNoUpfront} {
				s.Offers = append(s.Offers, catalog.Offer{Provider: catalog.AWS, InstanceType: it.ID, Region: fmt.Sprintf("region-%d", r),
					Billing: b, Price: catalog.Price{Amount: catalog.Dec(fmt.Sprintf("%d.%03d", 1+i, r)), Currency: catalog.USD, Unit: catalog.PerHour},
					Availability: catalog.Available, Source: "pricing.GetProducts", FetchedAt: s.TakenAt})
			}
		}
	}
	return s
}

func BenchmarkBuild_Large(b *testing.B) {
	opts := testOptions(b, filepath.Join(b.TempDir(), "site"))
	opts.Snapshot = largeSnapshot(b)
	var st Stats
	for b.Loop() {
		var err error
		if st, err = Build(opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.Bytes)/1e6, "MB")
	b.ReportMetric(float64(st.Pages), "pages")
}
