package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/internal/golden"
)

// runFindJSON runs gpuatlas find --format json and decodes its answer.
func runFindJSON(t *testing.T, want int, args ...string) findJSON {
	t.Helper()
	code, out, errs := runCmd(runFind, append(args, "--format", "json")...)
	if code != want {
		t.Fatalf("find %v: exit %d, want %d: %s", args, code, want, errs)
	}
	var a findJSON
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("find output: %v\n%s", err, out)
	}
	return a
}

func rowKeys(a findJSON) []string {
	var keys []string
	for _, r := range a.Rows {
		keys = append(keys, r.Provider+"/"+r.InstanceType)
	}
	return keys
}

// The README's first example against the embedded catalog. Checked by hand
// in data/catalog.json: the types with 8 or more GPUs whose model or name
// holds "h100" are aws/p5.48xlarge (8x H100 SXM), huawei/p5e.40xlarge.12 (8x
// H100 NVL) and huawei/p5s.40xlarge.12 (8x H100 PCIe); the Huawei ones have no
// offer, so (as in the explorer) no row. p5.48xlarge's cheapest on-demand
// price is 55.04 USD/h in us-east-1, us-east-2 and us-west-2 alike: the first
// in the data, us-east-1, is the row's region; per GPU 55.04 / 8 = 6.88. Its
// cheapest plausible spot price is 7.3262 USD/h in eu-north-1 (zones a, b and
// c; the first, a), observed 2025-11-30, more than 30 days before the catalog
// (2026-12-01): marked stale. The spot prices in ap-southeast-3 (7.59552) and
// ca-central-1 are suspect and left out. --billing shows two columns only.
// Azure's Standard_ND96isr_H100_v5 (8x H100 SXM) follows at 98.32 USD/h in
// eastus (12.29 per GPU), observed 2026-06-18, with no spot price (none is in
// the public data); its sibling ND96is_H100_v5 has no size record. Google
// Cloud's four 8x H100 types come between: a3-highgpu-8g (and the two
// a3-edgegpu-8g) at 87.832470064 USD/h in us-east4 (machine 9.46006 + GPUs
// 78.37241 in the source); their cheaper figures (43.07 in us-central1 and
// six more regions) are suspect, a GPU part under 60% of the regional median,
// and lead nothing. a3-megagpu-8g follows at 92.214270064 in us-central1.
func TestFind_ReadmeH100(t *testing.T) {
	a := runFindJSON(t, ExitOK, "gpus>=8 gpu:h100", "--billing", "on_demand,spot", "--sort", "per_gpu_hour", "--limit", "10")
	if diff := cmp.Diff([]string{"aws/p5.48xlarge", "gcp/a3-edgegpu-8g", "gcp/a3-edgegpu-8g-nolssd", "gcp/a3-highgpu-8g", "gcp/a3-megagpu-8g",
		"azure/Standard_ND96isr_H100_v5"}, rowKeys(a)); diff != "" {
		t.Fatalf("rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"on_demand", "spot"}, a.Columns); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	r := a.Rows[0]
	if r.Region != "us-east-1" || r.Billing != "on_demand" || r.PricePerHour.String() != "55.04" || r.PricePerGPUHour.String() != "6.88" ||
		r.GPUs.String() != "8" || r.GPUMemoryGB.String() != "80" || r.Currency != "USD" {
		t.Errorf("row %+v", r)
	}
	if len(r.Prices) != 2 {
		t.Fatalf("prices %+v", r.Prices)
	}
	spot := r.Prices[1]
	if spot.Column != "spot" || spot.Region != "eu-north-1" || spot.Zone != "eu-north-1a" || spot.PricePerHour.String() != "7.3262" ||
		!cmp.Equal(spot.Marks, []string{"stale"}) || spot.ObservedAt != "2025-11-30T00:00:00Z" {
		t.Errorf("spot %+v", spot)
	}
	if a.Schema != FindSchema || a.Sort != "gpu_price" || a.Total != 6 || a.Expression != "gpus>=8 gpu:h100" {
		t.Errorf("answer %+v", a)
	}
	if g := a.Rows[3]; g.Region != "us-east4" || g.PricePerHour.String() != "87.832470064" {
		t.Errorf("a3-highgpu-8g: %s at %v, want us-east4 at 87.832470064", g.Region, g.PricePerHour)
	}
}

// The README's second example. Checked by hand in data/catalog.json
// (independently of this code): 129 types have a plausible on-demand offer
// in a Chinese region and one device of at least 24 GB by its memory class,
// 127 less the two vGPU types whose slice nothing tells (sgn8ia's unmapped
// "v8-24G" and "v8-48G": partial GPUs, left out);
// cheapest on-demand first, in CNY as published: alibaba ecs.av8m.16xlarge
// 6.094 in cn-guangzhou (VG1000, 64 GB), aws g5.xlarge 6.70086 in
// cn-northwest-1 (AWS's Ningxia region, priced in CNY), alibaba
// ecs.f3-c12f1.3xlarge 7.234771 in cn-zhangjiakou. g5.xlarge and g5.12xlarge
// have A10Gs of class 24 GB of which 22.35 GiB is usable: the class counts,
// so both are kept.
func TestFind_ReadmeChinaCNY(t *testing.T) {
	a := runFindJSON(t, ExitOK, "gpu_memory>=24 country:cn", "--currency", "CNY")
	if a.Total != 127 || len(a.Rows) != 127 || a.Currency != "CNY" {
		t.Fatalf("%d rows of %d in %s, want 127 in CNY", len(a.Rows), a.Total, a.Currency)
	}
	want := []struct{ key, region, price string }{
		{"alibaba/ecs.av8m.16xlarge", "cn-guangzhou", "6.094"},
		{"aws/g5.xlarge", "cn-northwest-1", "6.70086"},
		{"alibaba/ecs.f3-c12f1.3xlarge", "cn-zhangjiakou", "7.234771"},
	}
	for i, w := range want {
		r := a.Rows[i]
		if r.Provider+"/"+r.InstanceType != w.key || r.Region != w.region || r.PricePerHour.String() != w.price || r.Currency != "CNY" {
			t.Errorf("row %d: %s in %s at %v %s, want %+v", i, r.InstanceType, r.Region, r.PricePerHour, r.Currency, w)
		}
	}
	seen := map[string]bool{}
	for _, r := range a.Rows {
		seen[r.Provider+"/"+r.InstanceType] = true
		if r.Country != "CN" || r.GPUMemoryGB.LessThan(decimalOf(t, "24")) {
			t.Errorf("%s/%s: country %s, %v GB", r.Provider, r.InstanceType, r.Country, r.GPUMemoryGB)
		}
	}
	if !seen["aws/g5.12xlarge"] {
		t.Error("g5.12xlarge (4x A10G, class 24 GB, 22.35 GiB usable) is left out")
	}
}

// The README's third example. Checked by hand against data/scenarios.yaml:
// llm-inference-large requires GPUs (or NPUs) of 24 GB or more each, 160 GB
// in all and a fast link (NVLink, NVSwitch or NeuronLink); compare gives
// "fits" to exactly these 25 types: those whose provider documents such a link
// (data/interconnect.csv: AWS p4d, p4de, p5, p6-b200, p6-b300, trn1, trn1n,
// inf2, Tencent GT4, GN10X, GN10Xp, Alibaba gn6e) and those with SXM parts (Azure
// ND v2, ND A100 v4, ND H100 v5, ND H200 v5 among them)
// (NVLink on the HGX board) and an on-demand price. Types whose link is
// unknown (the unnamed Alibaba "H") may fit and are not listed, as in the
// explorer. Cheapest first: aws inf2.24xlarge (6x Inferentia2, 32 GiB = 34.36 GB each)
// at 6.49063 USD/h in us-east-1. Google Cloud's A2 and A3 types have SXM parts
// (a2-highgpu-4g: 4x A100 40GB, 160 GB, at 14.693542516 in us-central1, as
// the Kubernetes autoscaler's list has it); its a2-ultragpu types (A100 80GB)
// have no row: their only on-demand figures are suspect (the autoscaler's
// list gives 10.1376 for a2-ultragpu-2g in us-central1, the source
// 5.891640008); a2-megagpu-16g's cheaper figures (europe-west4,
// asia-southeast1) are suspect too, a GPU part under 60% of the A100 40GB's
// regional median, so it stands at 55.739510032 in us-central1.
func TestFind_ReadmeScenario(t *testing.T) {
	a := runFindJSON(t, ExitOK, "scenario:llm-inference-large")
	want := []string{"aws/inf2.24xlarge", "alibaba/ecs.gn7e-c16g1.8xlarge", "aws/inf2.48xlarge", "tencent/GN10Xp.20XLARGE320", "gcp/a2-highgpu-4g",
		"tencent/GT4.20XLARGE474", "tencent/GN10X.18XLARGE320", "alibaba/ecs.gn7e-c16g1.16xlarge", "aws/trn1.32xlarge", "aws/p4d.24xlarge", "gcp/a3-highgpu-2g",
		"alibaba/ecs.gn6e-c12g1.24xlarge", "azure/Standard_ND40rs_v2", "aws/trn1n.32xlarge", "azure/Standard_ND96asr_v4", "aws/p4de.24xlarge",
		"gcp/a2-highgpu-8g", "aws/p3dn.24xlarge", "tencent/GT4.41XLARGE948", "azure/Standard_ND96amsr_A100_v4",
		"alibaba/ecs.gn7e-c16g1.32xlarge", "gcp/a3-highgpu-4g", "gcp/a3-ultragpu-8g", "gcp/a3-ultragpu-8g-nolssd", "alibaba/ecs.sccgn7ex.32xlarge",
		"aws/p5.48xlarge", "gcp/a2-megagpu-16g", "aws/p5en.48xlarge", "azure/Standard_ND96isr_H200_v5", "gcp/a3-edgegpu-8g", "gcp/a3-edgegpu-8g-nolssd", "gcp/a3-highgpu-8g",
		"gcp/a3-megagpu-8g", "azure/Standard_ND96isr_H100_v5", "aws/p6-b200.48xlarge", "aws/p6-b300.48xlarge"}
	if diff := cmp.Diff(want, rowKeys(a)); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	r := a.Rows[0]
	if r.PricePerHour.String() != "6.49063" || r.Region != "us-east-1" || r.Prices[0].Amount.String() != "6.49063" ||
		r.Prices[0].AmountCurrency != "USD" || r.GPUMemoryTotalGB.String() != "206.16" {
		t.Errorf("first row %+v", r)
	}
}

func decimalOf(t *testing.T, s string) decimal.Decimal {
	t.Helper()
	d, err := decimal.NewFromString(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestFind_ExitCodes: 1 without rows, 2 for a bad expression (each error with
// its column, in the language) or command line.
func TestFind_ExitCodes(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  map[string]string
		code int
		err  string
	}{
		{[]string{"gpus>=x"}, nil, ExitUsage, "gpuatlas: find: gpus>=x: at column 7: expected a number\n"},
		{[]string{"gpus>=x", "--lang", "zh"}, nil, ExitUsage, "gpuatlas: find: gpus>=x：第 7 列：应为数字\n"},
		{[]string{"gpus>=x"}, map[string]string{"LANG": "zh_CN.UTF-8"}, ExitUsage, "gpuatlas: find: gpus>=x：第 7 列：应为数字\n"},
		{[]string{"scenario:nope gpus>=8,9"}, nil, ExitUsage, "gpuatlas: find: scenario:nope: at column 10: unknown scenario nope; one of: "},
		{[]string{"gpus>=100"}, nil, ExitError, "No instance type matches gpus>=100.\n"},
		{[]string{"gpus>=100", "--lang", "zh"}, nil, ExitError, "没有实例规格符合 gpus>=100。\n"},
		{[]string{}, nil, ExitUsage, "give a filter expression"},
		{[]string{"gpus>=8", "gpus>=x"}, nil, ExitUsage, "gpuatlas: find: gpus>=x: at column 15: expected a number\n"},
		{[]string{"gpus>=8", "--format", "xml"}, nil, ExitUsage, "--format \"xml\": want table, csv, json or markdown"},
		{[]string{"gpus>=8", "--billing", "ondemand"}, nil, ExitUsage, "--billing \"ondemand\": want a comma list of on_demand, spot"},
		{[]string{"gpus>=8", "--sort", "cheap"}, nil, ExitUsage, "--sort \"cheap\": want price, per_gpu_hour"},
		{[]string{"gpus>=8", "--currency", "XYZ"}, nil, ExitUsage, "--currency \"XYZ\": the catalog's FX table"},
		{[]string{"gpus>=8", "--limit", "-1"}, nil, ExitUsage, "--limit -1: must be 0 (all) or more"},
		{[]string{"gpus>=8", "--at", "yesterday"}, nil, ExitUsage, "--at \"yesterday\": want a date"},
		{[]string{"gpus>=8", "--catalog", filepath.Join("..", "..", "data", "catalog.json"), "--at", "2020-01-01"}, nil, ExitError, "no crawl at or before \"2020-01-01\""},
	} {
		code, _, errs := runEnv(runFind, c.env, c.args...)
		if code != c.code || !strings.Contains(errs, c.err) {
			t.Errorf("find %q: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.err)
		}
	}
}

// TestFind_At: --at rebuilds the catalog of a date from the history beside
// --catalog; the last crawl (2026-12-04) gives the catalog's own answer.
func TestFind_At(t *testing.T) {
	cat := filepath.Join("..", "..", "data", "catalog.json")
	now := runFindJSON(t, ExitOK, "gpus>=8 gpu:h100", "--catalog", cat)
	then := runFindJSON(t, ExitOK, "gpus>=8 gpu:h100", "--catalog", cat, "--at", "2026-12-04")
	if diff := cmp.Diff(now.Rows, then.Rows); diff != "" || then.CatalogTakenAt != "2026-12-04T00:00:00Z" {
		t.Errorf("--at 2026-12-04 taken %s (-catalog +history):\n%s", then.CatalogTakenAt, diff)
	}
	// Unquoted terms are one expression; the currency's case does not matter.
	split := runFindJSON(t, ExitOK, "gpus>=8", "gpu:h100", "--catalog", cat, "--currency", "usd")
	if diff := cmp.Diff(now.Rows, split.Rows); diff != "" || split.Expression != "gpus>=8 gpu:h100" || split.Currency != "USD" {
		t.Errorf("unquoted %q in %s (-quoted +unquoted):\n%s", split.Expression, split.Currency, diff)
	}
}

// TestFind_Formats: the small test catalog (compare/testdata) as a table at
// 80 and 200 columns, in English and Chinese, as CSV and as Markdown.
func TestFind_Formats(t *testing.T) {
	cat := filepath.Join("..", "..", "compare", "testdata", "find_catalog.json")
	for _, c := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"table_wide", map[string]string{"COLUMNS": "200"}, []string{""}},
		{"table_80", map[string]string{"COLUMNS": "80"}, []string{"gpus>=4", "--sort", "-gpus"}},
		{"table_zh", map[string]string{"COLUMNS": "100"}, []string{"country:cn", "--lang", "zh", "--currency", "CNY"}},
		{"table_native", nil, []string{"gpus>=8", "--currency", "native", "--billing", "on_demand,subscription"}},
		{"csv", nil, []string{"", "--format", "csv"}},
		{"markdown", nil, []string{"gpus>=8 -kind:npu", "--format", "markdown", "--limit", "2"}},
	} {
		code, out, errs := runEnv(runFind, c.env, append(c.args, "--catalog", cat)...)
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", c.name, code, errs)
		}
		if c.env["COLUMNS"] != "" {
			n, err := strconv.Atoi(c.env["COLUMNS"])
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(strings.SplitN(out, "\n\n", 2)[0], "\n") {
				if dispWidth(line) > n {
					t.Errorf("%s: line wider than %d: %q", c.name, n, line)
				}
			}
		}
		golden.Check(t, filepath.Join("testdata", "find", c.name+".golden"), []byte(out))
	}
}

// TestFind_READMEDocumentsIt: the README's section on find names every flag
// the command has, every CSV column and the three examples the tests above
// run.
func TestFind_READMEDocumentsIt(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "site.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "## `gpuatlas find`")
	if start < 0 {
		t.Fatal("docs/site.md has no section on gpuatlas find")
	}
	section := readme[start:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end]
	}
	code, help, _ := runCmd(runFind, "--help")
	if code != ExitOK {
		t.Fatalf("--help: exit %d", code)
	}
	flags := regexp.MustCompile(`(?m)^\s+-([a-z][a-z-]*)`).FindAllStringSubmatch(help, -1)
	if len(flags) != 8 {
		t.Errorf("find has %d flags, the issue names 8: %v", len(flags), flags)
	}
	for _, f := range flags {
		if !strings.Contains(section, "`--"+f[1]) {
			t.Errorf("README.md does not document find --%s", f[1])
		}
	}
	for _, c := range findCSVHeader {
		if !strings.Contains(section, c) {
			t.Errorf("README.md does not document the CSV column %s", c)
		}
	}
	reportHas(t, section,
		"gpuatlas find 'gpus>=8 gpu:h100' --billing on_demand,spot --sort per_gpu_hour --limit 10",
		"gpuatlas find 'gpu_memory>=24 country:cn' --currency CNY",
		"gpuatlas find 'scenario:llm-inference-large' --format json",
		"gpus>=x: at column 7: expected a number",
	)
}

// Observed prices lead: 263 AWS spot prices of the embedded catalog are
// estimates (on-demand less the Spot Instance Advisor's average saving). Every
// type with an estimate also has an observed spot price somewhere, so find
// --billing spot over the whole catalog rests no row on an estimate: the H200
// (p5en.48xlarge) led at 1.42 USD per GPU-hour on an estimate; its observed
// spot price, in eu-north-1, is 14.82505 USD/h (1.85313125 per GPU). Where only
// estimates exist (af-south-1), they are shown, marked "estimated".
func TestFind_SpotLeadsWithObservedPrices(t *testing.T) {
	estimated := func(r findRowJSON) bool {
		for _, p := range r.Prices {
			if p.Billing == "spot" && slices.Contains(p.Marks, "estimated") {
				return true
			}
		}
		return false
	}
	a := runFindJSON(t, ExitOK, "", "--billing", "spot")
	for i, r := range a.Rows {
		if estimated(r) {
			t.Errorf("row %d %s/%s rests on an estimated spot price", i, r.Provider, r.InstanceType)
		}
	}
	// Google Cloud's two a3-ultragpu-8g types follow at 4.0067425 per GPU.
	h := runFindJSON(t, ExitOK, "gpu:h200", "--billing", "spot")
	if len(h.Rows) != 3 || h.Rows[0].InstanceType != "p5en.48xlarge" || h.Rows[0].PricePerGPUHour == nil ||
		h.Rows[0].PricePerGPUHour.String() != "1.85313125" || estimated(h.Rows[0]) {
		t.Errorf("H200 spot: %+v, want p5en.48xlarge at 1.85313125 USD per GPU-hour, observed", h.Rows)
	}
	af := runFindJSON(t, ExitOK, "region:af-south-1", "--billing", "spot")
	if len(af.Rows) == 0 {
		t.Fatal("af-south-1: no spot rows")
	}
	for _, r := range af.Rows {
		if !estimated(r) {
			t.Errorf("af-south-1 %s: spot price not marked estimated", r.InstanceType)
		}
	}
}

// TestFind_WhyEmpty: when nothing matches, find says why as the explorer does
// (TestBrowser_ExplorerWholeGPUsAndWholeWords asks the page the same
// question), in the language asked for, with exit 1 as before: the A10 types
// have no interconnect data, so interconnect:nvlink is named; a term whose
// field has values says which (the H100 types with offers are AWS's, Azure's and Google Cloud's); terms that each
// keep rows but not together say so.
func TestFind_WhyEmpty(t *testing.T) {
	cases := []struct {
		expr, lang string
		want       []string
	}{
		{"gpu:a10 interconnect:nvlink", "en", []string{"Nothing matches interconnect:nvlink: the ", " rows the rest of the filter keeps have no Interconnect data."}},
		{"gpu:a10 interconnect:nvlink", "zh", []string{"没有符合 interconnect:nvlink 的结果：其余条件保留的 ", " 行都没有GPU 互联数据。"}},
		{"gpu:h100 provider:volcengine", "en", []string{"Nothing matches provider:volcengine: the ", "the 13 rows the rest of the filter keeps have Provider AWS, Microsoft Azure, Google Cloud."}},
		{"gpu:h100 provider:volcengine", "zh", []string{"没有符合 provider:volcengine 的结果", "其余条件保留的 13 行，云厂商为 AWS（亚马逊云科技）、微软 Azure、谷歌云。"}},
	}
	for _, c := range cases {
		for _, format := range []string{"table", "json"} {
			code, out, errs := runCmd(runFind, c.expr, "--lang", c.lang, "--format", format)
			if code != ExitError {
				t.Errorf("%s (%s, %s): exit %d, want %d", c.expr, c.lang, format, code, ExitError)
			}
			if format == "json" && !json.Valid([]byte(out)) {
				t.Errorf("%s: the JSON answer is not JSON: %s", c.expr, out)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("%s (%s, %s) says %q, want %q in it", c.expr, c.lang, format, errs, w)
				}
			}
		}
	}
}

// TestFind_WhyLabelsAreTheExplorers: find names a field by the explorer's
// column label of it.
func TestFind_WhyLabelsAreTheExplorers(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "templates", "static", "explorer-view.js"))
	if err != nil {
		t.Fatal(err)
	}
	for field, key := range whyFieldLabels {
		if !strings.Contains(string(b), "id: '"+field+"', lbl: '"+key+"'") {
			t.Errorf("the explorer's column %s is not labelled %s", field, key)
		}
	}
}
