package compare

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func TestTCO_InCurrency(t *testing.T) {
	// ECB-style table: EUR base, 1.1566 USD and 8.1836 CNY per EUR, so
	// 8.1836 / 1.1566 = 7.07556631... CNY per USD, 7.07556632 to 8 places.
	fx := catalog.FXTable{Base: "EUR", Date: "2025-11-28", Source: "ecb", Rates: map[catalog.Currency]decimal.Decimal{
		catalog.USD: catalog.Dec("1.1566"), catalog.CNY: catalog.Dec("8.1836")}}
	r := TCOResult{Options: []TCOOptionResult{{ID: "a", USDPerHour: catalog.Dec("1.00600000"),
		MonthlyUSD: []decimal.Decimal{catalog.Dec("734.38"), catalog.Dec("0.01")}, CumulativeUSD: []decimal.Decimal{catalog.Dec("734.38"), catalog.Dec("734.39")},
		TotalUSD: catalog.Dec("734.39"), CostPerUnitUSD: catalog.Dec("1.006"), CostPerJobUSD: catalog.Dec("367.195")}}}
	got, err := r.InCurrency(fx, catalog.CNY)
	if err != nil {
		t.Fatal(err)
	}
	strs := func(ds []decimal.Decimal) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.String())
		}
		return out
	}
	o := got.Options[0]
	if got.Rate.String() != "7.07556632" || o.PerHour.String() != "7.11801972" || o.Total.String() != "5196.23" ||
		o.CostPerUnit.String() != "7.11802" || o.CostPerJob.String() != "2598.112575" {
		t.Errorf("converted: rate %s, per hour %s, total %s, per unit %s, per job %s", got.Rate, o.PerHour, o.Total, o.CostPerUnit, o.CostPerJob)
	}
	// Each month is its USD figure converted and rounded to the fen: 0.01 USD
	// is 0.07 CNY.
	if diff := cmp.Diff([]string{"5196.15", "0.07"}, strs(o.Monthly)); diff != "" {
		t.Errorf("monthly (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"5196.15", "5196.23"}, strs(o.Cumulative)); diff != "" {
		t.Errorf("cumulative (-want +got):\n%s", diff)
	}
	if _, err := r.InCurrency(fx, "JPY"); err == nil {
		t.Error("a currency the table lacks converted")
	}
}
