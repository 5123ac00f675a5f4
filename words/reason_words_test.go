package words

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/templates"
)

func testWords(t *testing.T, tag string) ReasonWords {
	t.Helper()
	msgs, err := Messages(templates.FS, tag)
	if err != nil {
		t.Fatal(err)
	}
	return NewReasonWords(tag, msgs)
}

func q(name, v string, u compare.Unit) compare.ReasonFigure {
	d := catalog.Dec(v)
	return compare.ReasonFigure{Name: name, Value: &d, Unit: u}
}

// The same reasons in both languages, figures rounded for people.
func TestReasonWords_BothLanguages(t *testing.T) {
	en, zh := testWords(t, "en"), testWords(t, "zh")
	tests := []struct {
		name   string
		r      compare.Reason
		en, zh string
	}{
		{"the issue's example", compare.Reason{Code: compare.ReasonGPUMemoryAmple, Figures: []compare.ReasonFigure{q("have", "1432.4921875", compare.UnitGiB), q("target", "640", compare.UnitGiB)}},
			"ample GPU memory (1,432.5 GiB of 640 GiB)", "显存充足（1,432.5 GiB，目标 640 GiB）"},
		{"a check with where its figure comes from", compare.Reason{Code: compare.ReasonGPUMemoryEachOK,
			Figures: []compare.ReasonFigure{q("have", "24", compare.UnitGiB), q("need", "24", compare.UnitGiB)},
			Parts:   []compare.Reason{{Code: compare.ReasonMemoryUsable, Figures: []compare.ReasonFigure{q("usable", "22.3515625", compare.UnitGiB)}}}},
			"24 GiB per GPU ≥ 24 GiB (nominal; 22.4 GiB usable as reported)", "单卡显存 24 GiB ≥ 24 GiB（标称值；云厂商报告可用 22.4 GiB）"},
		{"one and many", compare.Reason{Code: compare.ReasonGPUsTooFew, Figures: []compare.ReasonFigure{q("have", "1", compare.UnitGPU), q("need", "8", compare.UnitGPU)}},
			"1 GPU < 8 required", "GPU 数量 1，少于要求的 8"},
		{"codes joined by or", compare.Reason{Code: compare.ReasonReqAcceleratorKinds, Figures: []compare.ReasonFigure{{Name: "kinds", Group: compare.GroupKind, Codes: []string{"gpu", "npu"}}}},
			"accelerator: GPU or NPU", "加速器：GPU 或 NPU"},
		{"a price per the basis", compare.Reason{Code: compare.ReasonPriceGood, Figures: []compare.ReasonFigure{q("price", "0.01313005", compare.UnitUSDTFLOPH), q("times", "1.0570", compare.UnitTimes)}},
			"good price (0.01313 USD per TFLOPS-hour, 1.1× the best)", "价格好（每 TFLOPS·小时 0.01313 美元，为最低价的 1.1 倍）"},
		{"scenario data in both languages", compare.Reason{Code: compare.ReasonVCPUsPerGPULow, Figures: []compare.ReasonFigure{q("have", "12", compare.UnitVCPU), q("prefer", "16", compare.UnitVCPU),
			{Name: "for", Text: "data loading", TextZH: "数据加载"}}},
			"12 vCPU per GPU is low for data loading (prefer 16)", "每卡 12 个 vCPU，用于数据加载偏少（建议 16 个）"},
		{"an unmapped accelerator", compare.Reason{Code: compare.ReasonGPUMemoryUnknown, Figures: []compare.ReasonFigure{{Name: "gpu", Text: "A10*1/12", Unmapped: true}}},
			"GPU memory unknown for A10*1/12 (unmapped)", "A10*1/12（未映射） 的显存未知"},
		{"a mean of parts", compare.Reason{Code: compare.ReasonDimMean, Parts: []compare.Reason{
			{Code: compare.ReasonPartNVLink, Figures: []compare.ReasonFigure{q("score", "1", compare.UnitScore)}},
			{Code: compare.ReasonPartNetwork, Figures: []compare.ReasonFigure{q("have", "400", compare.UnitGbps), q("target", "3200", compare.UnitGbps), q("score", "0.125", compare.UnitScore)}}}},
			"mean of NVLink-class link 1, network 400/3,200 Gbps 0.13", "取平均：NVLink 级互联 1，网络 400/3,200 Gbps 0.13"},
		{"an unknown part left out of the mean", compare.Reason{Code: compare.ReasonDimMean, Parts: []compare.Reason{
			{Code: compare.ReasonPartNVLinkUnknown},
			{Code: compare.ReasonPartNetwork, Figures: []compare.ReasonFigure{q("have", "400", compare.UnitGbps), q("target", "3200", compare.UnitGbps), q("score", "0.125", compare.UnitScore)}}}},
			"mean of GPU link unknown (left out of the mean), network 400/3,200 Gbps 0.13", "取平均：GPU 互联未知（不计入平均），网络 400/3,200 Gbps 0.13"},
		{"a break-even", compare.Reason{Code: compare.ReasonBreakEven, Figures: []compare.ReasonFigure{{Name: "billing", Group: compare.GroupBilling, Codes: []string{"reserved_1y_all_upfront"}},
			q("rate", "12.24", compare.UnitUSDHour), q("hours", "408.5", compare.UnitHours), q("utilisation", "55.96", compare.UnitPercent)}},
			"Reserved 1y, all upfront: costs less than on-demand at 12.24 USD/h above 408.5 h a month (56% utilisation)",
			"每月使用超过 408.5 小时（利用率 56%）时，“预留 1 年，全预付”比按量付费（12.24 美元/小时）便宜"},
		{"the issue's TCO sentence", compare.Reason{Code: compare.ReasonTCOComparison, Figures: []compare.ReasonFigure{
			{Name: "a", Text: "8x A100"}, {Name: "b", Text: "4x V100"}, q("hourly_more", "168", compare.UnitPercent), q("sooner", "80", compare.UnitPercent),
			q("longer", "-80", compare.UnitPercent), q("a_hours", "20.032051", compare.UnitHours), q("b_hours", "100", compare.UnitHours),
			q("total_more", "-46", compare.UnitPercent), q("a_total", "15756", compare.UnitUSD), q("b_total", "29376", compare.UnitUSD), q("months", "12", compare.UnitMonths)}},
			"8x A100 costs 168% more per hour than 4x V100 but finishes 80% sooner (20.0 h vs 100 h per job), and costs 46% less in total (15,756.00 USD vs 29,376.00 USD over 12 months)",
			"8x A100 每小时比 4x V100 贵 168%，但完成一个作业快 80%（每个作业 20.0 小时 对 100 小时）；12 个月总成本低 46%（15,756.00 美元 对 29,376.00 美元）"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := en.Reason(tt.r); got != tt.en {
				t.Errorf("en\n got %s\nwant %s", got, tt.en)
			}
			if got := zh.Reason(tt.r); got != tt.zh {
				t.Errorf("zh\n got %s\nwant %s", got, tt.zh)
			}
		})
	}
	// Exact keeps every decimal, for formulas.
	step := compare.Reason{Code: compare.ReasonStepMonth, Figures: []compare.ReasonFigure{{Name: "month", Value: decPtr("1")}, q("cost", "6350.77", compare.UnitUSD)},
		Parts: []compare.Reason{{Code: compare.ReasonTermPAYG, Figures: []compare.ReasonFigure{q("hours", "238.50625", compare.UnitHours), q("rate", "3.672", compare.UnitUSDHour)}}}}
	if got, want := en.Exact(step), "month 1 = 238.50625 h × 3.672 USD/h = 6,350.77 USD"; got != want {
		t.Errorf("exact\n got %s\nwant %s", got, want)
	}
	h := compare.Hardware{Count: 8, GPU: "NVIDIA B200", MemoryEachGiB: decPtr("180"), Link: "nvlink",
		MemorySource: &compare.Reason{Code: compare.ReasonMemoryUsable, Figures: []compare.ReasonFigure{q("usable", "179.0625", compare.UnitGiB)}}}
	if got, want := en.Hardware(h), "8x NVIDIA B200, 180 GB each (nominal; 179.1 GiB usable as reported), NVLink"; got != want {
		t.Errorf("hardware en %q, want %q", got, want)
	}
	if got, want := zh.Hardware(h), "8 × NVIDIA B200，每块 180 GB（标称值；云厂商报告可用 179.1 GiB），NVLink 互联"; got != want {
		t.Errorf("hardware zh %q, want %q", got, want)
	}
}

func decPtr(s string) *decimal.Decimal { return catalog.DecPtr(s) }

// Every reason code, unit, figure, workload and requirement has words in both
// languages, and a Chinese message keeps every figure its English one shows.
func TestMessages_EveryReasonInBothLanguages(t *testing.T) {
	want := map[string]bool{}
	for _, c := range compare.ReasonCodes {
		want["reason."+string(c)] = true
	}
	for _, s := range []string{"hourly_more", "hourly_same", "sooner", "longer", "same_time", "total_less", "total_more", "total_same"} {
		want["reason.tco_comparison."+s] = true
	}
	for _, u := range compare.Units {
		want["unitfmt."+unitKey(u)] = true
		if moneyUnits[u] { // and in CNY, for the Chinese pages (ReasonWords.InCurrency)
			want["unitfmt."+unitKey(currencyUnit(u, catalog.CNY))] = true
		}
	}
	for _, f := range compare.Figures {
		want["figure."+string(f)] = true
	}
	for _, b := range []compare.Basis{compare.Measured, compare.Estimated, compare.Reference} {
		want["basis."+string(b)] = true
	}
	for _, d := range compare.Dimensions {
		want["dim."+string(d)] = true
	}
	for _, p := range []compare.PriceBasis{compare.PricePerInstance, compare.PricePerGPU, compare.PricePerGPUMem, compare.PricePerCompute} {
		want["pricebasis."+string(p)] = true
	}
	for _, tr := range compare.Tiers {
		want["tier."+string(tr)] = true
	}
	rt := reflect.TypeOf(compare.Requirements{})
	for i := 0; i < rt.NumField(); i++ {
		want["requirement."+strings.Split(rt.Field(i).Tag.Get("yaml"), ",")[0]] = true
	}
	reg, err := catalog.LoadWorkloads(os.DirFS(filepath.Join("..", "data")))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range reg.Workloads {
		want["costunit."+w.ID] = true
		want["work."+w.Rate.Work] = true
	}
	langs := loadTestLanguages(t)
	for _, l := range langs {
		for _, k := range sortedKeys(want) {
			if _, ok := l.messages[k]; !ok {
				t.Errorf("i18n/%s*.json lacks %q", l.Tag, k)
			}
		}
	}
	en, zh := langs[0].messages, langs[1].messages
	for k, e := range en {
		if !strings.HasPrefix(k, "reason.") && !strings.HasPrefix(k, "unitfmt.") && !strings.HasPrefix(k, "cli.") {
			continue
		}
		if got, want := placeholders(zh[k]), placeholders(e); !cmp.Equal(got, want) {
			t.Errorf("%s: the Chinese message has placeholders %v, the English %v", k, got, want)
		}
	}
}

var placeholderName = regexp.MustCompile(`\{([a-z0-9_]+)(\|[a-z]+)?\}`)

func placeholders(s string) []string {
	var out []string
	for _, m := range placeholderName.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	sort.Strings(out)
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sameInBothLanguages are the messages that are rightly the same in Chinese:
// product names, units and symbols. Everything else a Chinese reader sees is
// written in Chinese.
var sameInBothLanguages = map[string]bool{
	"col.rdma": true, "spec.rdma": true, "downloads.parquet": true, "kind.fpga": true, "kind.gpu": true, "kind.npu": true, "spec.cpu": true,
	"fit.col.gb": true, "fit.col.gib": true, "fit.col.rank": true, "tco.col_a": true, "tco.col_b": true,
	"unitfmt.GiB": true, "unitfmt.GB": true, "unitfmt.GB/s": true, "unitfmt.Gbps": true, "unitfmt.TFLOPS": true, "unitfmt.TOPS": true,
	"figure.fp64": true, "figure.fp32": true, "figure.tf32": true, "figure.bf16": true, "figure.fp16": true, "figure.fp8": true, "figure.int8": true,
	"link.nvswitch": true, "link.nvlink": true, "link.neuronlink": true, // product names
}

// A Chinese message identical to its English one is an untranslated message,
// unless it is on the list above or holds no words at all (a separator, a
// pattern of placeholders and symbols such as "{n}%").
func TestMessages_ChineseIsTranslated(t *testing.T) {
	langs := loadTestLanguages(t)
	en, zh := langs[0].messages, langs[1].messages
	letters := regexp.MustCompile(`[A-Za-z]`)
	for _, k := range sortedStringKeys(en) {
		if zh[k] != en[k] || sameInBothLanguages[k] || !letters.MatchString(placeholderName.ReplaceAllString(en[k], "")) {
			continue
		}
		t.Errorf("i18n/zh: %q is the English %q; translate it or add it to sameInBothLanguages (a product name, unit or id)", k, en[k])
	}
	for k := range sameInBothLanguages {
		if _, ok := en[k]; !ok {
			t.Errorf("sameInBothLanguages lists %q, which no catalog has", k)
		}
	}
}

func sortedStringKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Every message the Go code asks for by name (w.T("cli.tco.header") in the
// command line, w.T("hw.count") here, w.T("fit.left_out") in sitegen) is in
// both languages: the templates are checked by sitegen's
// TestMessages_EveryKeyInBothLanguages, the code here.
func TestMessages_KeysTheCodeUses(t *testing.T) {
	call := regexp.MustCompile(`\.T\("([a-z0-9_.]+)"`)
	var files []string
	for _, dir := range []string{".", filepath.Join("..", "sitegen"), filepath.Join("..", "internal", "cli")} {
		m, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	used := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range call.FindAllStringSubmatch(string(b), -1) {
			if !strings.HasSuffix(m[1], ".") { // "fit.task." + a code: the codes' own tests cover those
				used[m[1]] = true
			}
		}
	}
	if !used["cli.tco.header"] || !used["hw.count"] || !used["fit.left_out"] || len(used) < 40 {
		t.Fatalf("found only %d message keys in the Go code; is the pattern out of date? %v", len(used), sortedKeys(used))
	}
	for _, l := range loadTestLanguages(t) {
		for _, k := range sortedKeys(used) {
			if _, ok := l.messages[k]; !ok {
				t.Errorf("the code uses %q, which i18n/%s*.json lacks", k, l.Tag)
			}
		}
	}
}
