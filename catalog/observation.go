package catalog

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// Observation is one dated price that a public archive recorded: a tracker's
// daily reading of the AWS Price List, one version of a provider's published
// list-price page, a committed copy of a price file. Observations join the
// history with `gpuatlas history import` (History.Import); they are history,
// not offers: a series of them holds only between its first and last
// observation (ObservedSeries) and never carries into a later crawl's snapshot.
//
// Its identity, the series it belongs to, is the offer key (provider, instance
// type, region, zone, billing) together with what the price includes: a price
// of the instance alone and one that includes a system disk are two series,
// never compared with each other.
type Observation struct {
	Provider     Provider
	InstanceType string
	// Region is the provider's region id, or an area id for a price that is not
	// tied to one region (Tencent's list prices for mainland China are region
	// "mainland-china").
	Region string
	Zone   string // empty: the price holds for the whole region
	// Billing is the billing kind; Price its amount as published, with currency
	// and unit (hour, month or year). For a published range ("2250 - 2500")
	// Price is the low end and PriceHigh the high end: a range is never averaged.
	Billing   BillingKind
	Price     Price
	PriceHigh *decimal.Decimal
	// Includes says what the price covers besides the instance, as Offer.Includes
	// does: empty for the instance alone (written "instance only" in files).
	Includes string
	// ObservedAt is when the source says the price held; ObservedUntil, when
	// given, the first time it is no longer known to hold (the next version of
	// a price page).
	ObservedAt    time.Time
	ObservedUntil time.Time
	// RetrievedAt is when GPU Atlas retrieved the copy of the archive the
	// observation was read from: the fetched_at of an offer rebuilt from it
	// (History.At), as ObservedAt is its observed_at. Files may leave it out;
	// History.Import then stamps the import's time, so every observation in a
	// history has one. It is not part of the observation's identity: the same
	// record imported again keeps its first retrieval.
	RetrievedAt time.Time
	// Source names where the observation comes from, pinned to a version: a URL
	// such as a GitHub blob URL at a commit.
	Source string
	// Note keeps what a reader needs to know about the figure: the verbatim cell
	// of a range, "starting price", a capture date that is only an upper bound.
	Note string
}

// InstanceOnly is how observation files write an empty Includes: the price of the
// instance alone.
const InstanceOnly = "instance only"

// OfferKey is the key of the offer the observation prices, as Offer.Key.
func (o Observation) OfferKey() string {
	return string(o.Provider) + "/" + o.InstanceType + "/" + o.Region + "/" + o.Zone + "/" + string(o.Billing)
}

// InstanceKey is the key of the observation's instance type.
func (o Observation) InstanceKey() string { return string(o.Provider) + "/" + o.InstanceType }

// SeriesKey identifies the series the observation belongs to: its offer key and
// what the price includes.
func (o Observation) SeriesKey() string { return o.OfferKey() + "/" + includesText(o.Includes) }

// includesText is how an Includes value is written: "instance only" when empty.
func includesText(s string) string {
	if s == "" {
		return InstanceOnly
	}
	return s
}

// IncludesText is what the price covers in words: "instance only" or the
// provider's description.
func (o Observation) IncludesText() string { return includesText(o.Includes) }

// Limits on the text fields of an observation: ids as long as any provider's,
// sources and notes of a sentence or two.
const (
	maxObservationID   = MaxIDBytes
	maxObservationText = 1000
)

// ObservationUnits are the price units an observation may have: recurring
// amounts only (an upfront payment needs its term, which an observation does not
// carry).
var ObservationUnits = []PriceUnit{PerHour, PerMonth, PerYear}

// earliestObservation and latestObservation bound observed times to what a
// cloud price list can be: before 2006 no cloud sold GPU instances by the hour.
var (
	earliestObservation = time.Date(2006, 1, 1, 0, 0, 0, 0, time.UTC)
	latestObservation   = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
)

// Validate says what is wrong with the observation, naming the field, or nil.
func (o Observation) Validate() error {
	if _, err := ParseProvider(string(o.Provider)); err != nil {
		return fmt.Errorf("provider: %w", err)
	}
	for _, f := range []struct {
		name, v  string
		required bool
	}{{"instance_type", o.InstanceType, true}, {"region", o.Region, true}, {"zone", o.Zone, false}} {
		if err := checkObservationID(f.name, f.v, f.required); err != nil {
			return err
		}
	}
	if _, err := ParseBillingKind(string(o.Billing)); err != nil {
		return fmt.Errorf("billing: %w (known: %s)", err, billingKindList())
	}
	if o.Price.Upfront != nil || o.Price.List != nil {
		return fmt.Errorf("price: an observation has one amount, without upfront or list price")
	}
	if err := checkNumber(o.Price.Amount); err != nil {
		return fmt.Errorf("price: %w", err)
	}
	if !o.Price.Amount.IsPositive() {
		return fmt.Errorf("price %s: must be above 0 (leave out a cell that sells nothing, such as \"-\")", o.Price.Amount)
	}
	if o.PriceHigh != nil {
		if err := checkNumber(*o.PriceHigh); err != nil {
			return fmt.Errorf("price_high: %w", err)
		}
		if !o.PriceHigh.GreaterThan(o.Price.Amount) {
			return fmt.Errorf("price_high %s: must be above price %s (the low end of the range)", o.PriceHigh, o.Price.Amount)
		}
	}
	if !validCurrency(o.Price.Currency) {
		return fmt.Errorf("currency %q: want an ISO 4217 code such as USD or CNY", o.Price.Currency)
	}
	if !validObservationUnit(o.Price.Unit) {
		return fmt.Errorf("unit %q: want hour, month or year", o.Price.Unit)
	}
	if err := checkObservationText("includes", o.Includes, maxObservationText); err != nil {
		return err
	}
	if strings.EqualFold(strings.TrimSpace(o.Includes), InstanceOnly) {
		return fmt.Errorf("includes %q: the instance alone is the empty Includes", o.Includes)
	}
	if o.ObservedAt.Before(earliestObservation) || !o.ObservedAt.Before(latestObservation) {
		return fmt.Errorf("observed_at %s: want a time from 2006 to 2099", formatHistoryTime(o.ObservedAt))
	}
	if !o.ObservedUntil.IsZero() && !o.ObservedUntil.After(o.ObservedAt) {
		return fmt.Errorf("observed_until %s: must be after observed_at %s", formatHistoryTime(o.ObservedUntil), formatHistoryTime(o.ObservedAt))
	}
	if !o.ObservedUntil.IsZero() && !o.ObservedUntil.Before(latestObservation) {
		return fmt.Errorf("observed_until %s: want a time before 2100", formatHistoryTime(o.ObservedUntil))
	}
	if !o.RetrievedAt.IsZero() && o.RetrievedAt.Before(o.ObservedAt) {
		return fmt.Errorf("retrieved_at %s: before observed_at %s (an archive is retrieved after it observed the price)", formatHistoryTime(o.RetrievedAt), formatHistoryTime(o.ObservedAt))
	}
	if !o.RetrievedAt.IsZero() && !o.RetrievedAt.Before(latestObservation) {
		return fmt.Errorf("retrieved_at %s: want a time before 2100", formatHistoryTime(o.RetrievedAt))
	}
	if o.Source == "" {
		return fmt.Errorf("source: required: where the price was observed, pinned to a version (a URL at a commit)")
	}
	if err := checkObservationText("source", o.Source, maxObservationText); err != nil {
		return err
	}
	return checkObservationText("note", o.Note, maxObservationText)
}

func billingKindList() string {
	names := make([]string, len(BillingKinds))
	for i, b := range BillingKinds {
		names[i] = string(b)
	}
	return strings.Join(names, ", ")
}

func validObservationUnit(u PriceUnit) bool {
	for _, v := range ObservationUnits {
		if u == v {
			return true
		}
	}
	return false
}

func validCurrency(c Currency) bool {
	if len(c) != 3 {
		return false
	}
	for _, r := range c {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// checkObservationID checks an id that goes into keys: no "/" (the key
// separator), no spaces or control characters, at most maxObservationID bytes.
func checkObservationID(name, v string, required bool) error {
	if v == "" {
		if required {
			return fmt.Errorf("%s: required", name)
		}
		return nil
	}
	if len(v) > maxObservationID {
		return fmt.Errorf("%s: longer than %d bytes", name, maxObservationID)
	}
	if !utf8.ValidString(v) {
		return fmt.Errorf("%s: not valid UTF-8", name)
	}
	for _, r := range v {
		if r == '/' || unicode.IsSpace(r) || unicode.IsControl(r) {
			return fmt.Errorf("%s %q: must not contain %q", name, clip(v), r)
		}
	}
	return nil
}

// checkObservationText checks free text: valid UTF-8, no control characters, at
// most max bytes, no leading or trailing space.
func checkObservationText(name, v string, max int) error {
	if len(v) > max {
		return fmt.Errorf("%s: longer than %d bytes", name, max)
	}
	if !utf8.ValidString(v) {
		return fmt.Errorf("%s: not valid UTF-8", name)
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return fmt.Errorf("%s: contains a control character", name)
		}
	}
	if strings.TrimSpace(v) != v {
		return fmt.Errorf("%s: leading or trailing space", name)
	}
	return nil
}

// clip shortens outside text quoted back in an error message.
func clip(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// samePriceFigures reports whether two observations give the same figures:
// amount, currency, unit and high end.
func samePriceFigures(a, b Observation) bool {
	return samePrice(a.Price, b.Price) && priceDecEqual(a.PriceHigh, b.PriceHigh)
}

// PriceText writes the price as published: "2250 - 2500 CNY/month", "98.32 USD/hour".
func (o Observation) PriceText() string {
	s := o.Price.Amount.String()
	if o.PriceHigh != nil {
		s += " - " + o.PriceHigh.String()
	}
	return s + " " + string(o.Price.Currency) + "/" + string(o.Price.Unit)
}

// compareObservations orders observations: by series, time, source, then the
// rest of their fields but RetrievedAt, so that a sorted list is canonical (a
// history holds one of two records that differ only in when they were
// retrieved: the first imported).
func compareObservations(a, b *Observation) int {
	for _, c := range [...][2]string{
		{string(a.Provider), string(b.Provider)}, {a.InstanceType, b.InstanceType}, {a.Region, b.Region},
		{a.Zone, b.Zone}, {string(a.Billing), string(b.Billing)}, {a.Includes, b.Includes},
	} {
		if c[0] != c[1] {
			return strings.Compare(c[0], c[1])
		}
	}
	if c := a.ObservedAt.Compare(b.ObservedAt); c != 0 {
		return c
	}
	if a.Source != b.Source {
		return strings.Compare(a.Source, b.Source)
	}
	if c := a.Price.Amount.Cmp(b.Price.Amount); c != 0 {
		return c
	}
	if a.Price.Currency != b.Price.Currency {
		return strings.Compare(string(a.Price.Currency), string(b.Price.Currency))
	}
	if a.Price.Unit != b.Price.Unit {
		return strings.Compare(string(a.Price.Unit), string(b.Price.Unit))
	}
	if c := compareOptDec(a.PriceHigh, b.PriceHigh); c != 0 {
		return c
	}
	if c := a.ObservedUntil.Compare(b.ObservedUntil); c != 0 {
		return c
	}
	return strings.Compare(a.Note, b.Note)
}

func compareOptDec(a, b *decimal.Decimal) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return a.Cmp(*b)
}

// sameObservation reports whether two observations are the same record: every
// field but RetrievedAt equal (decimals by value, times by instant).
func sameObservation(a, b *Observation) bool {
	return compareObservations(a, b) == 0
}
