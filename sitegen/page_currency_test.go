package sitegen

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

func TestHourly_InThePageCurrency(t *testing.T) {
	d := func(s string) *decimal.Decimal { v := catalog.Dec(s); return &v }
	en := &language{Tag: "en", fx: pageFX{Rate: catalog.Dec("7.1"), Date: "2026-11-28"}}
	zh := &language{Tag: "zh", fx: pageFX{Rate: catalog.Dec("7.1"), Date: "2026-11-28"}}
	zhNoFX := &language{Tag: "zh"}
	tests := []struct {
		name        string
		l           *language
		usd, native *decimal.Decimal
		cur         catalog.Currency
		want        hourlyPrice
	}{
		{"English, USD offer", en, d("98.32"), d("98.32"), catalog.USD, hourlyPrice{Main: "98.32 USD"}},
		{"English, CNY offer", en, d("1.19718310"), d("8.5"), catalog.CNY, hourlyPrice{Main: "1.1972 USD", Sub: "8.5000 CNY"}},
		{"Chinese, USD offer converted", zh, d("98.32"), d("98.32"), catalog.USD, hourlyPrice{Main: "698.07 CNY", Sub: "98.32 USD"}},
		// A price published in CNY is shown as published, not there and back.
		{"Chinese, CNY offer as published", zh, d("1.19718310"), d("8.5"), catalog.CNY, hourlyPrice{Main: "8.5000 CNY", Sub: "1.1972 USD"}},
		{"Chinese without a CNY rate", zhNoFX, d("98.32"), nil, catalog.USD, hourlyPrice{Main: "98.32 USD"}},
		{"no USD figure", zh, nil, d("8.5"), catalog.CNY, hourlyPrice{}},
	}
	for _, tt := range tests {
		if got := tt.l.hourly(tt.usd, tt.native, tt.cur); !cmp.Equal(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// The scenario, instance, GPU and TCO pages are in CNY in Chinese, with the rate and
// its date, and in USD in English: every table of prices on them.
func TestScenarioPages_CurrencyByLanguage(t *testing.T) {
	out := buildSite(t, withScenarios)
	checkPageTexts(t, out, []pageTexts{
		{"zh/scenarios/cv-training.html", []string{`<th scope="col" class="num">人民币/小时</th>`, `<p class="note" id="page-fx">人民币价格由美元价格按 2026-11-28 的汇率 1 美元 = 7.1 人民币换算`, `<td class="num">698.07 CNY<small class="id" translate="no">98.32 USD</small></td>`}, []string{"美元/小时"}},
		{"zh/scenarios/index.html", []string{`id="page-fx"`, " CNY/h"}, nil},
		{"zh/instances/alibaba/ecs.gn7i-c8g1.2xlarge.html", []string{`<th scope="col" class="num">人民币/小时</th>`, `<td class="num" data-label="人民币/小时">4.7945 CNY</td>`, "1 美元 = 7.1 人民币", `8.5000 <small>CNY/小时</small>`}, nil},
		{"zh/gpus/nvidia-a10-24gb.html", []string{`<caption id="types-caption">各计费方式每实例小时的最低实际价格（人民币）`, `8.5000 <small>CNY/小时</small>`}, nil},
		{"instances/alibaba/ecs.gn7i-c8g1.2xlarge.html", []string{`<th scope="col" class="num">USD / hour</th>`, `1.1972 <small>USD/hour</small>`}, []string{"CNY figures are converted"}},
		{"zh/tco.html", []string{`<th scope="col" class="num">总计（人民币）</th>`, `<caption id="tco-llm-finetune-cum-caption">每月末累计成本（人民币）</caption>`, "1 美元 = 7.1 人民币"}, []string{"总计（美元）"}},
		{"tco.html", []string{`<th scope="col" class="num">Total USD</th>`}, []string{"CNY figures are converted from USD at"}},
		{"scenarios/cv-training.html", []string{`<th scope="col" class="num">USD / hour</th>`, `<td class="num">98.32 USD</td>`}, []string{`id="page-fx"`, "人民币"}},
		// The spot risk and similar-types tables and the GPU index: 39.33 ×
		// 7.1 = 279.24; a price published in CNY comes back as published.
		{"zh/instances/aws/p5.48xlarge.html", []string{`<th scope="col" class="num">竞价，人民币/小时</th>`, `<td class="num" data-label="竞价，人民币/小时">279.24 CNY</td>`}, []string{"美元/小时", " USD</td>"}},
		{"instances/aws/p5.48xlarge.html", []string{`<td class="num" data-label="Spot, USD/h">39.33 USD</td>`}, nil},
		{"zh/instances/alibaba/ecs.gn7i-c8g1.2xlarge.html", []string{`<th scope="col" class="num">最低按量付费（人民币 / 小时）</th>`, `<td class="num">9.1000 CNY <span class="badge synthetic"`}, []string{"1.2817 USD"}},
		{"zh/gpus/index.html", []string{`<th scope="col" class="num">最低（人民币 / GPU 小时）</th>`, `<p class="note fx-note">人民币价格由美元价格按 2026-11-28 的汇率 1 美元 = 7.1 人民币换算。</p>`, "<td class=\"num\">8.5000 CNY"}, []string{" USD<", " USD "}},
		{"gpus/index.html", []string{`<th scope="col" class="num">From (USD / GPU-hour)</th>`, "<td class=\"num\">1.1972 USD"}, []string{"fx-note"}},
	})
}

// The cost per unit of work of a benchmark, on the instance, GPU and benchmark
// pages, is in CNY on a Chinese page (the USD figure times the snapshot's rate,
// with the unit in the page's words and the rate shown) and in USD on an
// English one.
func TestBenchmarkCosts_InThePageCurrency(t *testing.T) {
	opts := testOptions(t, filepath.Join(t.TempDir(), "site"))
	withPublished(t, &opts)
	build(t, opts)
	out := opts.OutDir
	rate := catalog.Dec("7.1") // the test snapshot's
	var team, pub *compare.WorkCost
	for _, c := range opts.BenchmarkCosts {
		if c.Billing != catalog.OnDemand {
			continue
		}
		if c.Published == nil && c.Provider == catalog.Alibaba && c.InstanceType == "ecs.gn7i-c8g1.2xlarge" && c.Workload == "llm-inference-8b" {
			team = &c
		}
		if c.Published != nil && c.Workload == "mlperf-llama2-70b" && (pub == nil || c.CostPerUnit.LessThan(pub.CostPerUnit)) {
			pub = &c
		}
	}
	if team == nil || pub == nil {
		t.Fatal("the test costs lack the A10 llm-inference-8b or the mlperf-llama2-70b figure")
	}
	// 7.3088 USD per 1M tokens (45.5 tokens/s at 1.1972 USD/h) × 7.1 = 51.89.
	if got := moneyText(team.CostPerUnit); got != "7.3088" {
		t.Fatalf("the A10 figure is %s USD, the test expects 7.3088", got)
	}
	cny := func(c *compare.WorkCost) string { return moneyText(c.CostPerUnit.Mul(rate)) }
	fxNote := "人民币价格由美元价格按 2026-11-28 的汇率 1 美元 = 7.1 人民币换算。"
	checkPageTexts(t, out, []pageTexts{
		{"zh/instances/alibaba/ecs.gn7i-c8g1.2xlarge.html", []string{`<td class="num">51.89 <small class="id" translate="no">人民币 / 百万 token</small></td>`,
			`<th scope="col" class="num">人民币/小时</th>`, `；8.50 元/小时（按量付费）÷ 每小时 163,800 token`, fxNote}, []string{"USD per 1M", "美元/小时"}},
		{"instances/alibaba/ecs.gn7i-c8g1.2xlarge.html", []string{`<td class="num">7.3088 <small class="id" translate="no">USD per 1M tokens</small></td>`,
			`<th scope="col" class="num">USD / hour</th>`}, []string{"人民币"}},
		{"zh/gpus/nvidia-a10-24gb.html", []string{`<td class="num">51.89 <small class="id" translate="no">人民币 / 百万 token</small></td>`, fxNote}, []string{"USD per 1M"}},
		{"zh/benchmarks.html", []string{`<th scope="col" class="num">人民币 / 百万 token</th>`, `<td class="num">51.89</td>`, `<td class="num">8.5000</td>`, fxNote}, []string{"USD per 1M", "美元/小时"}},
		{"benchmarks.html", []string{`<th scope="col" class="num">USD per 1M tokens</th>`, `<td class="num">7.3088</td>`}, []string{"人民币"}},
		{"zh/benchmarks/mlperf-llama2-70b.html", []string{`<th scope="col" class="num">人民币 / 百万 token</th>`, `<td class="num"><strong>` + cny(pub) + `</strong></td>`, fxNote}, []string{"美元 /", "美元/小时"}},
		{"benchmarks/mlperf-llama2-70b.html", []string{`<th scope="col" class="num">USD per 1M tokens</th>`, `<td class="num"><strong>` + moneyText(pub.CostPerUnit) + `</strong></td>`}, []string{"人民币"}},
	})
	// A published cost on its type's page, and the chart's unit.
	pubPage := "zh/instances/" + string(pub.Provider) + "/" + pub.InstanceType + ".html"
	wantContains(t, pubPage, readPage(t, out, pubPage), `<strong class="num">`+cny(pub)+`</strong>`, "人民币 / 百万 token")
	if svg := readPage(t, out, "zh/benchmarks/llm-inference-8b.svg"); !strings.Contains(svg, "人民币 / 百万 token") {
		t.Error("the Chinese chart's axis is not in CNY")
	}
}

// pageTexts are what a built page must hold and must not.
type pageTexts struct {
	page       string
	want, lack []string
}

// checkPageTexts fails t for each text a page of out lacks or holds against
// its case.
func checkPageTexts(t *testing.T, out string, cases []pageTexts) {
	t.Helper()
	for _, tc := range cases {
		page := readPage(t, out, tc.page)
		wantContains(t, tc.page, page, tc.want...)
		for _, l := range tc.lack {
			if strings.Contains(page, l) {
				t.Errorf("%s has %s", tc.page, l)
			}
		}
	}
}
