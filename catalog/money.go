package catalog

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// Currency is an ISO 4217 code as a provider publishes it.
type Currency string

// The currencies that providers publish prices in.
const (
	USD Currency = "USD"
	CNY Currency = "CNY"
	EUR Currency = "EUR"
)

// PublishedCurrency reports whether c is one of the currencies providers
// publish prices in (USD, CNY, EUR): the only ones a crawl records.
func PublishedCurrency(c Currency) bool { return c == USD || c == CNY || c == EUR }

// PriceUnit is the period a recurring amount is charged for, or upfront for a
// one-time payment.
type PriceUnit string

// Price units.
const (
	PerHour  PriceUnit = "hour"
	PerMonth PriceUnit = "month"
	PerYear  PriceUnit = "year"
	Upfront  PriceUnit = "upfront"
)

// HoursPerMonth and HoursPerYear are the conversion factors used everywhere a
// monthly or yearly amount is compared with an hourly one. AWS documents
// reserved-instance effective hourly rates with 8,760 hours a year (365 days);
// a month is a twelfth of that (730 hours), as AWS and most calculators use.
var (
	HoursPerYear  = decimal.NewFromInt(8760)
	HoursPerMonth = decimal.NewFromInt(730)
)

// Price is an exact amount as published, with its currency and unit. Upfront is the
// one-time payment a commitment requires on top of the recurring amount (zero when
// none). List is the list price before discounts where the provider publishes both
// (Alibaba OriginalPrice next to TradePrice); Amount is always what is payable.
type Price struct {
	Amount   decimal.Decimal  `json:"amount"`
	Currency Currency         `json:"currency"`
	Unit     PriceUnit        `json:"unit"`
	Upfront  *decimal.Decimal `json:"upfront,omitempty"`
	List     *decimal.Decimal `json:"list,omitempty"`
}

// String formats the price as "1.006 USD/hour".
func (p Price) String() string {
	s := fmt.Sprintf("%s %s/%s", p.Amount.String(), p.Currency, p.Unit)
	if p.Upfront != nil && !p.Upfront.IsZero() {
		s += fmt.Sprintf(" + %s %s upfront", p.Upfront.String(), p.Currency)
	}
	return s
}

// Hourly is the price per hour of use over the commitment term in the price's own
// currency: recurring amounts are divided by the hours of their unit, and an upfront
// payment is spread over termHours (zero term means no upfront is expected).
func (p Price) Hourly(termHours decimal.Decimal) (decimal.Decimal, error) {
	var h decimal.Decimal
	switch p.Unit {
	case PerHour:
		h = p.Amount
	case PerMonth:
		h = p.Amount.Div(HoursPerMonth)
	case PerYear:
		h = p.Amount.Div(HoursPerYear)
	case Upfront:
		h = decimal.Zero
	default:
		return decimal.Zero, fmt.Errorf("price unit %q is not one of hour, month, year, upfront", p.Unit)
	}
	if p.Upfront != nil && !p.Upfront.IsZero() {
		if termHours.IsZero() {
			return decimal.Zero, fmt.Errorf("price has an upfront amount but no term to spread it over")
		}
		h = h.Add(p.Upfront.Div(termHours))
	}
	return h, nil
}

// Dec parses a decimal literal that is known to be valid (constants in code and
// tests). It panics on a malformed literal, which is a programming error.
func Dec(s string) decimal.Decimal {
	return decimal.RequireFromString(s)
}

// DecPtr is Dec returning a pointer, for optional fields.
func DecPtr(s string) *decimal.Decimal {
	d := Dec(s)
	return &d
}

// maxMagnitude bounds every number a snapshot may hold: far above any price,
// memory size or rate, and far below what makes formatting a decimal costly (a
// hostile "1e999999" would print as a million digits).
var maxMagnitude = decimal.New(1, 15)

// minExponent bounds the digits after the point: prices are published to at
// most 10 places; 18 leaves room for derived figures.
const minExponent = -18

// checkNumber says why d is not a number a snapshot may hold, or nil.
func checkNumber(d decimal.Decimal) error {
	// The common case without big-number arithmetic: fewer than 16 digits left
	// of the point (NumDigits is exact) and at most 18 right of it.
	if e := d.Exponent(); e >= minExponent && d.NumDigits()+int(e) <= 15 {
		return nil
	}
	if d.Abs().GreaterThanOrEqual(maxMagnitude) {
		return fmt.Errorf("number is out of range (its magnitude must be below 1e15)")
	}
	if d.Exponent() < minExponent && !d.Equal(d.Round(-minExponent)) {
		return fmt.Errorf("number has more than %d decimal places", -minExponent)
	}
	return nil
}

// samePrice reports whether two prices are the same in every field, the list
// price included.
func samePrice(a, b Price) bool {
	return a.Amount.Equal(b.Amount) && a.Currency == b.Currency && a.Unit == b.Unit &&
		priceDecEqual(a.Upfront, b.Upfront) && priceDecEqual(a.List, b.List)
}

// priceDecEqual compares two optional amounts: equal when both are nil or both
// hold the same number.
func priceDecEqual(a, b *decimal.Decimal) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}
