package catalog

import "github.com/shopspring/decimal"

// SubscriptionCost is what a commitment (a monthly or yearly subscription, a
// reservation) costs per month and per hour of its term, in the price's own
// currency: the one rule the exports, the explorer, the instance pages and fit
// use to show a subscription per month beside its hourly equivalent.
type SubscriptionCost struct {
	// PerMonth is the cost of one month of the term: a monthly price as
	// published; otherwise the hourly equivalent times HoursPerMonth (730),
	// to the cent. An upfront payment is spread over the whole term.
	PerMonth decimal.Decimal
	// Hourly is the effective price per hour of the term (Price.Hourly),
	// rounded to 6 places.
	Hourly   decimal.Decimal
	Currency Currency
}

// Subscription is the offer's cost per month and per hour when its billing is
// a commitment (TermHours above zero: subscriptions and reservations); false
// for pay-as-you-go offers (on demand, spot) and prices that cannot be spread.
func (o Offer) Subscription() (SubscriptionCost, bool) {
	term := o.Billing.TermHours()
	if !term.IsPositive() {
		return SubscriptionCost{}, false
	}
	h, err := o.Price.Hourly(term)
	if err != nil {
		return SubscriptionCost{}, false
	}
	perMonth := MonthlyFromHourly(h)
	if o.Price.Unit == PerMonth && (o.Price.Upfront == nil || o.Price.Upfront.IsZero()) {
		perMonth = o.Price.Amount
	}
	return SubscriptionCost{PerMonth: perMonth, Hourly: h.Round(6), Currency: o.Price.Currency}, true
}

// MonthlyFromHourly is an hourly price over a month: times HoursPerMonth (730),
// to the cent. fit's results and the estimator (static/fit.js) use it too.
func MonthlyFromHourly(hourly decimal.Decimal) decimal.Decimal {
	return hourly.Mul(HoursPerMonth).Round(2)
}
