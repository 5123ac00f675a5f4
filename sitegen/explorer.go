package sitegen

import (
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// The explorer (offers.html) opens on its instance view: one row per instance
// type, in the type's cheapest region, with each billing kind's price in a column
// of its own, savings against on-demand, partial GPUs and suspect prices left
// out, cheapest on-demand first. static/explorer.js computes every view from
// data/offers.json; the server renders the default view's first page the same
// way, so that the page reads while the data loads and without JavaScript. The
// rules below mirror static/explorer-view.js (run, instanceRows) clause by
// clause: a column's price is the cheapest offer by USD worth, the first in the
// data among equals; a row's region is that of its first price; a saving
// compares a price with the cheapest on-demand price of the same type in the
// same region.

// explorerPageSize is how many rows the explorer shows a page.
const explorerPageSize = 50

// billingColumns are the instance view's price columns, in order, and the
// billing kinds each holds.
var billingColumns = []struct {
	ID    string
	Kinds []catalog.BillingKind
}{
	{"on_demand", []catalog.BillingKind{catalog.OnDemand}},
	{"spot", []catalog.BillingKind{catalog.Spot}},
	{"reserved_1y", []catalog.BillingKind{catalog.Reserved1yNoUpfront, catalog.Reserved1yAllUpfront}},
	{"reserved_3y", []catalog.BillingKind{catalog.Reserved3yNoUpfront, catalog.Reserved3yAllUpfront}},
	{"subscription_month", []catalog.BillingKind{catalog.SubscriptionMonth}},
	{"subscription_year", []catalog.BillingKind{catalog.SubscriptionYear}},
}

// billingColumn is the price column of a billing kind, or -1.
func billingColumn(b catalog.BillingKind) int {
	for i, c := range billingColumns {
		for _, k := range c.Kinds {
			if k == b {
				return i
			}
		}
	}
	return -1
}

// explorerData is the model of offers.html.
type explorerData struct {
	Rows     []explorerRow // the default view's first page
	Count    int           // rows of the default view (instance types)
	Types    int           // every instance type
	Offers   int           // every offer
	Columns  []string      // the price columns shown: billing columns some offer has
	Currency string        // USD, or CNY on the Chinese page
	FX       fxView
	Config   explorerPageConfig
	Help     []grammarField
	// Scenarios are the ids a scenario term takes (none without a report).
	Scenarios []string
}

// explorerPageConfig is handed to static/explorer.js as JSON in the page.
type explorerPageConfig struct {
	explorerConfig
	// Currency is the page's default currency: CNY in Chinese, USD otherwise.
	Currency string `json:"currency"`
}

// explorerRow is one instance type in its cheapest region.
type explorerRow struct {
	Key      string // provider/type
	Type     *typeView
	OfferKey string // the first price's offer: what the compare box selects
	Region   catalog.Region
	Zones    int // zones the type is offered in there
	Regions  int // regions with a price
	Avail    catalog.Availability
	Cells    []explorerCell // one per shown price column
	GPUPrice string         // the first price per GPU
}

// explorerCell is one price of a row.
type explorerCell struct {
	Offer  *offerView // nil: no price
	Text   string     // "98.32 USD"
	Saving string     // "−60%"; "" for on-demand or without one
	Title  string     // the saving in words
	Dearer bool       // the price is above on-demand
	Where  string     // the offer's region, when not the row's
}

// explorerCurrency is a language's default currency in the explorer.
func explorerCurrency(l *language, fx catalog.FXTable) catalog.Currency {
	if l.Tag == "zh" {
		if _, err := fx.Rate(catalog.CNY); err == nil {
			return catalog.CNY
		}
	}
	return catalog.USD
}

// explorerPage renders the explorer's default view for one language.
func (m *siteModel) explorerPage(base string, l *language) explorerData {
	cur := explorerCurrency(l, m.snap.FX)
	d := explorerData{Types: len(m.types), Offers: len(m.offers), Currency: string(cur), FX: m.fx(), Help: grammarFields}
	d.Config = explorerPageConfig{
		explorerConfig: explorerConfig{
			Data: base + offersDataPath, Prefix: base + l.Prefix, Compare: base + l.Prefix + "compare.html", TCO: base + l.Prefix + "tco.html", Lang: l.Tag,
			PageSize: explorerPageSize, Labels: l.explorerLabels(),
		},
		Currency: string(cur),
	}
	if r := m.explorer.scenarios; r != nil {
		for _, s := range r.Matrix.Scenarios {
			d.Scenarios = append(d.Scenarios, s.Scenario.ID)
		}
	}
	var shown [6]bool
	for _, o := range m.offers {
		if c := billingColumn(o.Offer.Billing); c >= 0 {
			shown[c] = true
		}
	}
	for i, c := range billingColumns {
		if shown[i] {
			d.Columns = append(d.Columns, c.ID)
		}
	}
	rows, groups := m.defaultInstanceRows()
	d.Count = len(rows)
	if len(rows) > explorerPageSize {
		rows = rows[:explorerPageSize]
	}
	for _, r := range rows {
		d.Rows = append(d.Rows, m.explorerRowView(l, cur, r, shown, groups))
	}
	return d
}

// instanceGroup is one instance type's offers in one region.
type instanceGroup struct {
	typ    *typeView
	region catalog.Region
	zones  map[string]bool
	avail  catalog.Availability
}

// instanceRow is one row of the default view before it is put in words.
type instanceRow struct {
	typ     *typeView
	home    *instanceGroup
	cells   [6]int // offer index per column, -1 for none
	regions int
}

var availRank = map[catalog.Availability]int{catalog.Available: 2, catalog.SoldOut: 1, catalog.Unknown: 0}

// defaultInstanceRows is the default view: compare.Find's answer to the empty
// expression (every type but the partial GPUs, in its cheapest region, from
// the offers without a suspect price; the rules gpuatlas find and the
// script share), cheapest on-demand first (types without an on-demand price
// last), in the types' order among equals. The groups hold what a row shows
// of its region: zones and stock.
func (m *siteModel) defaultInstanceRows() ([]instanceRow, map[string]*instanceGroup) {
	byKey := map[string]*instanceGroup{}
	index := make(map[string]int, len(m.offers))
	for i, o := range m.offers {
		index[o.Key] = i
		k := o.Type.T.Key() + "/" + o.Offer.Region
		g := byKey[k]
		if g == nil {
			g = &instanceGroup{typ: o.Type, region: o.Region, zones: map[string]bool{}, avail: catalog.Unknown}
			byKey[k] = g
		}
		// Zones and stock count every offer, as the script's groups do.
		if o.Offer.Zone != "" {
			g.zones[o.Offer.Zone] = true
		}
		for _, z := range o.Offer.Zones {
			g.zones[z] = true
		}
		if availRank[o.Offer.Availability] > availRank[g.avail] {
			g.avail = o.Offer.Availability
		}
	}
	// The sort column is one of Find's own: no error.
	res, _ := compare.Find(m.snap, compare.FindInput{Now: m.now, Facts: m.facts}, compare.FindQuery{Currency: string(catalog.USD), Sort: "on_demand"})
	rows := make([]instanceRow, 0, len(res.Rows))
	for _, fr := range res.Rows {
		r := instanceRow{typ: m.typeByKey[fr.Type.Key()], home: byKey[fr.Type.Key()+"/"+fr.Region.ID], regions: fr.Regions}
		for c, cell := range fr.Cells {
			r.cells[c] = -1
			if cell != nil {
				r.cells[c] = index[cell.Offer.Key()]
			}
		}
		rows = append(rows, r)
	}
	return rows, byKey
}

// explorerRowView puts a default-view row in words in the language and currency.
func (m *siteModel) explorerRowView(l *language, cur catalog.Currency, r instanceRow, shown [6]bool, groups map[string]*instanceGroup) explorerRow {
	t := r.typ
	v := explorerRow{Key: string(t.T.Provider) + "/" + t.T.ID, Type: t, Region: r.home.region, Zones: len(r.home.zones),
		Regions: r.regions, Avail: r.home.avail}
	first := true
	for c := range billingColumns {
		if !shown[c] {
			continue
		}
		cell := explorerCell{}
		if i := r.cells[c]; i >= 0 {
			o := m.offers[i]
			cell.Offer = o
			p := m.priceIn(o, cur)
			if p != nil {
				// The header names the currency.
				cell.Text = moneyText(*p)
				if per := o.Facts.In(m.snap.FX, o.Facts.GPUHour, o.Facts.USDGPUHour, string(cur)); first && per != nil {
					v.GPUPrice = moneyText(*per)
				}
			}
			if first {
				v.OfferKey = o.Key
				first = false
			}
			if c > 0 {
				cell.Saving, cell.Title, cell.Dearer = savingWords(l, o.Facts.SavingPct)
			}
			if o.Offer.Region != r.home.region.ID {
				where, _ := l.t("ex.in_region", "region", l.regionName(o.Region)) // the key is in every catalog (TestMessages)
				cell.Where = where
			}
		}
		v.Cells = append(v.Cells, cell)
	}
	return v
}

// priceIn is an offer's effective hourly price in cur, or nil.
func (m *siteModel) priceIn(o *offerView, cur catalog.Currency) *decimal.Decimal {
	if cur == catalog.USD {
		return o.USDHour
	}
	if o.NativeHour == nil {
		return nil
	}
	p, err := m.snap.FX.Convert(*o.NativeHour, o.Offer.Price.Currency, cur)
	if err != nil {
		return nil
	}
	return &p
}

// savingWords is an offer's saving against on-demand (compare.OfferFacts'
// SavingPct: against the cheapest plausible on-demand offer of its type in its
// region) in whole percent rounded half away from zero: "−60%" with its
// title, or "" without one.
func savingWords(l *language, pct *decimal.Decimal) (string, string, bool) {
	if pct == nil {
		return "", "", false
	}
	s := pct.Round(0)
	n := s.Abs().String()
	key, sign := "ex.saving_title", "−"
	switch s.Sign() {
	case -1:
		key, sign = "ex.dearer_title", "+"
	case 0:
		sign = "±"
	}
	title, _ := l.t(key, "pct", n) // the keys are in every catalog (TestMessages)
	return sign + n + "%", title, s.Sign() < 0
}
