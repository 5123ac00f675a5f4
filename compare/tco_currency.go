package compare

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// TCOInCurrency is a TCO result's money in another currency: each USD figure
// times the snapshot's rate (units of the currency per USD, catalog's cross
// rate to 8 places), rounded as the USD figure is (the hourly price to 8
// places, each month and total to the cent or fen, cost per unit and per job
// to 6), half away from zero. The model itself runs in USD; the site's
// calculator converts the same way, so that its CNY figures agree with
// `gpuatlas tco --currency CNY`.
type TCOInCurrency struct {
	Currency catalog.Currency      `json:"currency"`
	Rate     decimal.Decimal       `json:"rate"` // units of Currency per USD
	FXDate   string                `json:"fx_date"`
	FXSource string                `json:"fx_source"`
	Options  []TCOOptionInCurrency `json:"options"`
}

// TCOOptionInCurrency is one option's money in the currency.
type TCOOptionInCurrency struct {
	ID          string            `json:"id"`
	PerHour     decimal.Decimal   `json:"per_hour"`
	Monthly     []decimal.Decimal `json:"monthly"`
	Cumulative  []decimal.Decimal `json:"cumulative"`
	Total       decimal.Decimal   `json:"total"`
	CostPerUnit decimal.Decimal   `json:"cost_per_unit"`
	CostPerJob  decimal.Decimal   `json:"cost_per_job"`
}

// InCurrency converts the result's money into currency c through fx.
func (r TCOResult) InCurrency(fx catalog.FXTable, c catalog.Currency) (TCOInCurrency, error) {
	rate, err := fx.CrossRate(catalog.USD, c)
	if err != nil {
		return TCOInCurrency{}, fmt.Errorf("tco in %s: %w", c, err)
	}
	conv := func(d decimal.Decimal, places int32) decimal.Decimal { return d.Mul(rate).Round(places) }
	out := TCOInCurrency{Currency: c, Rate: rate, FXDate: fx.Date, FXSource: fx.Source}
	for _, o := range r.Options {
		v := TCOOptionInCurrency{ID: o.ID, PerHour: conv(o.USDPerHour, RatePlaces), Total: conv(o.TotalUSD, MoneyPlaces),
			CostPerUnit: conv(o.CostPerUnitUSD, costPlaces), CostPerJob: conv(o.CostPerJobUSD, costPlaces)}
		for i := range o.MonthlyUSD {
			v.Monthly = append(v.Monthly, conv(o.MonthlyUSD[i], MoneyPlaces))
			v.Cumulative = append(v.Cumulative, conv(o.CumulativeUSD[i], MoneyPlaces))
		}
		out.Options = append(out.Options, v)
	}
	return out, nil
}

// costPlaces is the rounding of cost per unit of work and per job (TCORounding).
const costPlaces = 6
