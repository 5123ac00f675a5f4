package sitegen

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
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
// its date, and in USD in English.
func TestScenarioPages_CurrencyByLanguage(t *testing.T) {
	out := buildSite(t, withScenarios)
	for _, tc := range []struct {
		page       string
		want, lack []string
	}{
		{"zh/scenarios/cv-training.html", []string{`<th scope="col" class="num">人民币/小时</th>`, `<p class="note" id="page-fx">人民币价格由美元价格按 2026-11-28 的汇率 1 美元 = 7.1 人民币换算`, `<td class="num">698.07 CNY<small class="id">98.32 USD</small></td>`}, []string{"美元/小时"}},
		{"zh/scenarios/index.html", []string{`id="page-fx"`, " CNY/h"}, nil},
		{"zh/instances/alibaba/ecs.gn7i-c8g1.2xlarge.html", []string{`<th scope="col" class="num">人民币/小时</th>`, `<td class="num" data-label="人民币/小时">4.7945 CNY</td>`, "1 美元 = 7.1 人民币", `8.5000 <small>CNY/小时</small>`}, nil},
		{"zh/gpus/nvidia-a10-24gb.html", []string{`<caption id="types-caption">各计费方式每实例小时的最低实际价格（人民币）`, `8.5000 <small>CNY/小时</small>`}, nil},
		{"instances/alibaba/ecs.gn7i-c8g1.2xlarge.html", []string{`<th scope="col" class="num">USD / hour</th>`, `1.1972 <small>USD/hour</small>`}, []string{"CNY figures are converted"}},
		{"zh/tco.html", []string{`<th scope="col" class="num">总计（人民币）</th>`, `<caption id="tco-llm-finetune-cum-caption">每月末累计成本（人民币）</caption>`, "1 美元 = 7.1 人民币"}, []string{"总计（美元）"}},
		{"tco.html", []string{`<th scope="col" class="num">Total USD</th>`}, []string{"CNY figures are converted from USD at"}},
		{"scenarios/cv-training.html", []string{`<th scope="col" class="num">USD / hour</th>`, `<td class="num">98.32 USD</td>`}, []string{`id="page-fx"`, "人民币"}},
	} {
		page := readPage(t, out, tc.page)
		for _, w := range tc.want {
			if !strings.Contains(page, w) {
				t.Errorf("%s lacks %s", tc.page, w)
			}
		}
		for _, l := range tc.lack {
			if strings.Contains(page, l) {
				t.Errorf("%s has %s", tc.page, l)
			}
		}
	}
}
