package catalog

import (
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/shopspring/decimal"
)

// PriceCheck is a second source's price for one offer: what the embedded
// catalog's own source says is checked against it (data/price_checks.csv).
type PriceCheck struct {
	Provider     Provider
	InstanceType string
	Region       string
	Billing      BillingKind
	Price        Price
	Source       string    // who says so, and where
	Date         time.Time // when the source said so
	Line         int       // of the file, for errors and reports
}

// Agreement is how far a checked price may be from its check, as a fraction of
// the check: list prices are quoted to four to nine decimals, so a copy that
// rounds differently still agrees.
var Agreement = decimal.RequireFromString("0.01")

// CheckWindow is how long a check stays good: a price observed more than this
// before or after the check's date may have changed since, and is not held
// against it. A price with no date is held against every check.
const CheckWindow = 183 * 24 * time.Hour

// ParsePriceChecks reads price_checks.csv; errors name the file and line.
func ParsePriceChecks(name string, r io.Reader) ([]PriceCheck, error) {
	var out []PriceCheck
	err := readCSV(name, r, []string{"provider", "instance_type", "region", "billing", "amount", "currency", "unit", "source", "source_date"},
		func(line int, get func(string) string) error {
			p, err := ParseProvider(get("provider"))
			if err != nil {
				return err
			}
			b, err := ParseBillingKind(get("billing"))
			if err != nil {
				return err
			}
			amount, err := decimal.NewFromString(get("amount"))
			if err != nil || !amount.IsPositive() {
				return fmt.Errorf("amount %s is not a positive number", Excerpt(get("amount")))
			}
			cur, unit := Currency(get("currency")), PriceUnit(get("unit"))
			if !PublishedCurrency(cur) {
				return fmt.Errorf("currency %s is not USD, CNY or EUR", Excerpt(get("currency")))
			}
			if unit != PerHour && unit != PerMonth && unit != PerYear {
				return fmt.Errorf("unit %s is not hour, month or year", Excerpt(get("unit")))
			}
			date, err := time.Parse("2006-01-02", get("source_date"))
			if err != nil {
				return fmt.Errorf("source_date %s is not YYYY-MM-DD", Excerpt(get("source_date")))
			}
			c := PriceCheck{Provider: p, InstanceType: get("instance_type"), Region: get("region"), Billing: b,
				Price: Price{Amount: amount, Currency: cur, Unit: unit}, Source: get("source"), Date: date, Line: line}
			if c.InstanceType == "" || c.Region == "" || c.Source == "" {
				return fmt.Errorf("instance_type, region and source must all be set")
			}
			out = append(out, c)
			return nil
		})
	return out, err
}

// LoadPriceChecks reads price_checks.csv from fsys (the data folder).
func LoadPriceChecks(fsys fs.FS) ([]PriceCheck, error) {
	f, err := fsys.Open("price_checks.csv")
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	return ParsePriceChecks("data/price_checks.csv", f)
}

// CheckResult is what CrossCheck found for one check.
type CheckResult struct {
	Check    PriceCheck
	Offers   int  // offers it was held against
	Disagree bool // true when one of them differs by more than Agreement
}

// CrossCheck holds each offer against the checks of its provider, type,
// region, billing kind, currency and unit (within CheckWindow of the
// offer's observed date): an offer that differs from one by more than
// Agreement is marked suspect, with both figures and the check's source, so
// the reader sees both and the offer leads no answer. A source found wrong
// for a type in one region is not trusted for it in the others: the type's
// offers of that billing kind elsewhere are marked too, naming the region
// checked (Google Cloud's A100 80GB part is half the list price in
// us-central1, and the same half times the regional factor in europe-west4
// and us-east4, which no second source covers). It returns a result per
// check, in the checks' order.
func CrossCheck(offers []Offer, checks []PriceCheck) []CheckResult {
	out := make([]CheckResult, len(checks))
	held := func(o *Offer, c PriceCheck) bool {
		return o.Provider == c.Provider && o.InstanceType == c.InstanceType && o.Billing == c.Billing &&
			o.Price.Currency == c.Price.Currency && o.Price.Unit == c.Price.Unit && o.Price.Upfront == nil &&
			(o.ObservedAt.IsZero() || (o.ObservedAt.Sub(c.Date) <= CheckWindow && c.Date.Sub(o.ObservedAt) <= CheckWindow))
	}
	for ci, c := range checks {
		out[ci].Check = c
		var wrong string
		for i := range offers {
			o := &offers[i]
			if o.Region != c.Region || !held(o, c) {
				continue
			}
			out[ci].Offers++
			if o.Price.Amount.Sub(c.Price.Amount).Abs().GreaterThan(c.Price.Amount.Mul(Agreement)) {
				out[ci].Disagree, wrong = true, o.Price.Amount.String()
				addSuspect(o, fmt.Sprintf("%s gives %s %s/%s (%s), not %s", c.Source, c.Price.Amount.String(), c.Price.Currency, c.Price.Unit,
					c.Date.Format("2006-01-02"), wrong))
			}
		}
		if !out[ci].Disagree {
			continue
		}
		for i := range offers {
			if o := &offers[i]; o.Region != c.Region && held(o, c) {
				addSuspect(o, fmt.Sprintf("in %s, %s gives %s %s/%s (%s) where the source says %s: its price here is in doubt too",
					c.Region, c.Source, c.Price.Amount.String(), c.Price.Currency, c.Price.Unit, c.Date.Format("2006-01-02"), wrong))
			}
		}
	}
	return out
}
