package catalog

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// FXTable holds currency rates against one base currency, with where and when they
// were published. Every conversion between currencies goes through the snapshot's
// table, so a converted figure can be traced to its rate.
type FXTable struct {
	Base   Currency                     `json:"base"`
	Date   string                       `json:"date"` // YYYY-MM-DD the rates are for
	Source string                       `json:"source"`
	Rates  map[Currency]decimal.Decimal `json:"rates"` // units of the currency per 1 Base
}

// convertPlaces is the precision of converted amounts: well below a hundredth of a
// cent per hour, so rounding never shows in prices rendered to cents.
const convertPlaces = 8

// Rate returns units of currency c per 1 unit of the base currency.
func (fx FXTable) Rate(c Currency) (decimal.Decimal, error) {
	if c == fx.Base && c != "" {
		return decimal.NewFromInt(1), nil
	}
	r, ok := fx.Rates[c]
	if !ok || !r.IsPositive() {
		return decimal.Zero, fmt.Errorf("fx table (%s, %s) has no rate for %s", fx.Source, fx.Date, c)
	}
	return r, nil
}

// Convert converts amount from one currency to another through the base currency,
// rounded to 8 decimal places.
func (fx FXTable) Convert(amount decimal.Decimal, from, to Currency) (decimal.Decimal, error) {
	if from == to {
		return amount, nil
	}
	rf, err := fx.Rate(from)
	if err != nil {
		return decimal.Zero, err
	}
	rt, err := fx.Rate(to)
	if err != nil {
		return decimal.Zero, err
	}
	return amount.Mul(rt).DivRound(rf, convertPlaces), nil
}

// CrossRate is units of `to` per one unit of `from`, rounded to 8 places, for display.
func (fx FXTable) CrossRate(from, to Currency) (decimal.Decimal, error) {
	return fx.Convert(decimal.NewFromInt(1), from, to)
}

// knows reports whether the table converts currency c: its base, or a
// currency it has a positive rate for.
func (fx FXTable) knows(c Currency) bool {
	_, err := fx.Rate(c)
	return err == nil
}
