package words

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// Compare's money in a reason on a page in CNY: each USD figure times the
// snapshot's rate, rounded by its unit's rule (an amount to the fen, a price
// per GPU-hour under 1 to 4 significant digits), in yuan; other figures as they
// are; in USD, as they were.
func TestReasonWords_InCurrency(t *testing.T) {
	rate := catalog.Dec("7.1")
	en, zh := testWords(t, "en"), testWords(t, "zh")
	zhCNY, enCNY := zh.InCurrency(catalog.CNY, rate), en.InCurrency(catalog.CNY, rate)
	cmpReason := compare.Reason{Code: compare.ReasonTCOComparison, Figures: []compare.ReasonFigure{
		{Name: "a", Text: "8x NVIDIA B200"}, {Name: "b", Text: "8x NVIDIA A100 SXM4 80GB"},
		q("hourly_more", "171", compare.UnitPercent), q("sooner", "86", compare.UnitPercent), q("longer", "-86", compare.UnitPercent),
		q("a_hours", "555.6", compare.UnitHours), q("b_hours", "4006.4", compare.UnitHours),
		q("total_more", "-62", compare.UnitPercent), q("a_total", "759552", compare.UnitUSD), q("b_total", "2021715.24", compare.UnitUSD),
		q("months", "12", compare.UnitMonths)}}
	price := compare.Reason{Code: compare.ReasonDimPrice, Figures: []compare.ReasonFigure{q("price", "0.05", compare.UnitUSDGPUH), q("best", "0.04", compare.UnitUSDGPUH)}}
	tests := []struct {
		name string
		w    ReasonWords
		r    compare.Reason
		want string
	}{
		// 759,552 × 7.1 = 5,392,819.2; 2,021,715.24 × 7.1 = 14,354,178.204.
		{"TCO totals in CNY", zhCNY, cmpReason, "8x NVIDIA B200 每小时比 8x NVIDIA A100 SXM4 80GB 贵 171%，但完成一个作业快 86%（每个作业 555.6 小时 对 4,006.4 小时）；12 个月总成本低 62%（5,392,819.20 元 对 14,354,178.20 元）"},
		{"TCO totals in USD", zh, cmpReason, "8x NVIDIA B200 每小时比 8x NVIDIA A100 SXM4 80GB 贵 171%，但完成一个作业快 86%（每个作业 555.6 小时 对 4,006.4 小时）；12 个月总成本低 62%（759,552.00 美元 对 2,021,715.24 美元）"},
		{"English words in CNY", enCNY, cmpReason, "8x NVIDIA B200 costs 171% more per hour than 8x NVIDIA A100 SXM4 80GB but finishes 86% sooner (555.6 h vs 4,006.4 h per job), and costs 62% less in total (5,392,819.20 CNY vs 14,354,178.20 CNY over 12 months)"},
		// 0.05 × 7.1 = 0.355, 0.04 × 7.1 = 0.284: per GPU-hour under 1, four digits.
		{"a price per GPU-hour and its number alone", zhCNY, price, "每 GPU·小时 0.3550 元；最低 0.2840"},
		{"the same in USD", zh, price, "每 GPU·小时 0.05000 美元；最低 0.04000"},
	}
	for _, tt := range tests {
		if got := tt.w.Reason(tt.r); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
	// A formula keeps every decimal of the product: 0.947 × 7.1 = 6.7237.
	rateReason := compare.Reason{Code: compare.ReasonCostRate, Figures: []compare.ReasonFigure{q("price", "0.947", compare.UnitUSDHour),
		{Name: "billing", Group: compare.GroupBilling, Codes: []string{"on_demand"}}, q("work_per_hour", "86400", compare.UnitCount),
		{Name: "work", Group: compare.GroupWork, Codes: []string{"tokens"}}}}
	if got, want := zhCNY.Exact(rateReason), "6.7237 元/小时（按量付费）÷ 每小时 86,400 token"; got != want {
		t.Errorf("exact: %s, want %s", got, want)
	}
	if got, want := zhCNY.Q(catalog.Dec("15.29"), compare.UnitUSD), "108.56 元"; got != want { // 108.559
		t.Errorf("Q: %s, want %s", got, want)
	}
	if got := zhCNY.Q(catalog.Dec("640"), compare.UnitGiB); got != "640 GiB" {
		t.Errorf("a quantity that is no money: %s", got)
	}
	if got := zhCNY.InCurrency(catalog.USD, rate).Reason(price); got != "每 GPU·小时 0.05000 美元；最低 0.04000" {
		t.Errorf("back in USD: %s", got)
	}
}
