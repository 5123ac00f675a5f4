package compare

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Find answers a filter expression over a catalog as the explorer's default
// view does (static/explorer-view.js run and instanceRows; sitegen/explorer.go
// renders its first page by the same rules): one row per instance type, in
// its cheapest region, each billing column's cheapest offer (by USD worth; the
// first in the data among equals), partial GPUs and suspect prices left out,
// synthetic prices kept with their mark. compare/testdata/find_vectors.json
// holds expressions with the rows they keep; the Go tests and a browser test
// run them against this code and the script.

// FindQuery is one question.
type FindQuery struct {
	Expr FilterExpr
	// Billing keeps only these billing values (FilterBilling: a kind or a
	// group), as a billing term would; nil: every kind.
	Billing []string
	// Currency prices the rows: a currency of the snapshot's FX table, or
	// "native" (each offer in its own currency). A price that cannot be
	// converted (no rate) is missing, as in the explorer; which offer is the
	// cheapest is decided in USD whatever the currency.
	Currency string
	// Sort is a column: price (a row's first price), gpu_price, gib_price,
	// saving, a billing column, a number field of the type, or type; "" is
	// price. A billing column the billing choice hides sorts by the first
	// shown. Missing figures come last; equals keep the data's order.
	Sort string
	Desc bool
}

// FindResult is the answer: the rows and the price columns shown (those some
// offer of the catalog has and the billing choice keeps).
type FindResult struct {
	Columns []string
	Rows    []FindRow
}

// FindRow is one instance type in its cheapest region.
type FindRow struct {
	Type     catalog.InstanceType
	GPU      string // the GPU model's name ("" without one)
	GPUModel string // canonical model id
	// GPUMapping is the alias table's confidence in GPUModel where it is not
	// certain (likely, uncertain): outputs mark the model uncertain.
	GPUMapping string
	GPUs       decimal.Decimal // whole-device equivalents, to 3 places
	// GPUMemory is one device's memory by its nominal class (GB where the
	// reference has a class), GPUMemoryTotal all devices', to 2 places.
	GPUMemory, GPUMemoryTotal decimal.Decimal
	Region                    catalog.Region // the region of the first price
	Regions                   int            // regions with a price
	// Cells are the price columns, parallel to FindResult.Columns' full list
	// FindColumns: nil where no offer is kept or the column is hidden.
	Cells [6]*FindCell
	// Primary is the column of the first price; Price, PerGPU and PerGiB its
	// figures in the query's currency (nil without).
	Primary               int
	Price, PerGPU, PerGiB *decimal.Decimal
	Currency              string
	// Saving is the row's best saving against on-demand, in percent.
	Saving *float64

	num map[string]*float64 // the price-level figures the script compares
}

// FindCell is a column's offer and its price.
type FindCell struct {
	Offer    catalog.Offer
	Region   catalog.Region
	Marks    []string         // synthetic, reported, stale, undated (none: empty)
	Hourly   *decimal.Decimal // effective hourly price in Currency
	Currency string
	USDHour  *decimal.Decimal
	Saving   *float64 // against the cheapest on-demand offer of its type and region
}

// filterEps is the script's tolerance in number comparisons.
const filterEps = 1e-9

// FindSorts are the columns Find sorts by.
var FindSorts = []string{"price", "gpu_price", "gib_price", "saving", "on_demand", "spot", "reserved_1y", "reserved_3y",
	"subscription_month", "subscription_year", "gpus", "gpu_memory", "gpu_memory_total", "vcpus", "memory", "cpu_per_gpu",
	"disk", "network", "type"}

// Find answers q over snap. The expression's errors are not Find's: the
// caller reports them (the other terms apply, as in the explorer). The error
// is for a sort column or billing value Find does not know.
func Find(snap *catalog.Snapshot, in FindInput, q FindQuery) (FindResult, error) {
	cur := q.Currency
	if cur == "" {
		cur = string(catalog.USD)
	}
	if q.Sort != "" && !contains(FindSorts, q.Sort) {
		return FindResult{}, fmt.Errorf("cannot sort by %q: one of %s", q.Sort, strings.Join(FindSorts, ", "))
	}
	for _, b := range q.Billing {
		if !contains(FilterBilling, b) {
			return FindResult{}, fmt.Errorf("unknown billing %q: one of %s", b, strings.Join(FilterBilling, ", "))
		}
	}
	d := prepareFind(snap, in)
	tests := compileFilter(q.Expr)
	if q.Billing != nil {
		vals := []FilterValue{}
		for _, b := range q.Billing {
			vals = append(vals, FilterValue{Text: b})
		}
		tests.billing = append(tests.billing, compileTerm(FilterTerm{Field: "billing", Op: ":", Values: vals}).offer)
	}
	kindOK := map[catalog.BillingKind]bool{}
	for _, k := range catalog.BillingKinds {
		ok := true
		for _, t := range tests.billing {
			ok = ok && t(&findOffer{o: catalog.Offer{Billing: k}})
		}
		kindOK[k] = ok
	}
	typeOK := make([]bool, len(d.types))
	for i := range d.types {
		ok := !d.types[i].partial
		for _, t := range tests.typ {
			ok = ok && t(&d.types[i])
		}
		typeOK[i] = ok
	}
	// pass: 0 left out, 1 kept but not shown (its billing is not asked
	// for), 2 kept. A saving is the offer's fact (OfferFacts.SavingPct: against
	// its type's cheapest on-demand offer in the region), whatever the filter.
	pass := make([]int, len(d.offers))
	for i := range d.offers {
		o := &d.offers[i]
		if !typeOK[o.ti] || o.o.Suspect != "" {
			continue
		}
		ok := true
		for _, t := range tests.offer {
			ok = ok && t(o)
		}
		if !ok {
			continue
		}
		pass[i] = 1
		if kindOK[o.o.Billing] {
			pass[i] = 2
		}
	}
	var shown [6]bool
	res := FindResult{}
	for c := range FindColumns {
		for _, k := range catalog.BillingKinds {
			if kindOK[k] && billingColumnOf(k) == c && d.present[c] {
				shown[c] = true
			}
		}
		if shown[c] {
			res.Columns = append(res.Columns, FindColumns[c])
		}
	}
	rows := d.instanceRows(pass, shown, cur)
	for _, r := range rows {
		ok := true
		for _, t := range tests.price {
			ok = ok && t(r)
		}
		if ok {
			res.Rows = append(res.Rows, *r)
		}
	}
	sortBy := q.Sort
	if sortBy == "" {
		sortBy = "price"
	}
	if c := indexOf(FindColumns, sortBy); c >= 0 && !shown[c] {
		for i := range shown {
			if shown[i] {
				sortBy = FindColumns[i]
				break
			}
		}
	}
	sortFindRows(res.Rows, sortBy, q.Desc)
	return res, nil
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

// cheaperUSD says whether offer a comes before b as a type's price: one with a
// USD figure before one without, a price that may lead an answer before one
// that may not (leads), then the lower USD worth.
func cheaperUSD(a, b *findOffer) bool {
	switch {
	case a.usd == nil:
		return false
	case b.usd == nil:
		return true
	case leads(a.o) != leads(b.o):
		return leads(a.o)
	}
	return a.usd.LessThan(*b.usd)
}

// leads says whether an offer's price may lead a buyer's answer: a cheapest
// row, the first of a price sort (catalog.Offer.Leads, and not made up). A
// reported, estimated, suspect or synthetic price is still shown, marked, but after
// every price that leads, so "cheapest first" never rests on one.
func leads(o catalog.Offer) bool { return o.Leads() && !o.Synthetic }

// uncertainMapping is the primary accelerator's mapping confidence when its
// model is mapped but not with certainty; "" otherwise.
func uncertainMapping(t catalog.InstanceType) string {
	a, ok := t.PrimaryAccelerator()
	if !ok || a.Model == "" || a.MappingConfidence == "" || a.MappingConfidence == "certain" {
		return ""
	}
	return a.MappingConfidence
}

// savingOf is an offer's saving against on-demand (its fact), as a float
// for sorting and filtering.
func savingOf(o *findOffer) *float64 {
	if o.facts.SavingPct == nil {
		return nil
	}
	s := o.facts.SavingPct.InexactFloat64()
	return &s
}

// instanceRows builds a row per type from the kept offers (pass 2).
func (d *findData) instanceRows(pass []int, shown [6]bool, cur string) []*FindRow {
	best := make([][6]int, len(d.groups))
	for g := range best {
		for c := range best[g] {
			best[g][c] = -1
		}
	}
	for i := range d.offers {
		o := &d.offers[i]
		if pass[i] != 2 || o.col < 0 {
			continue
		}
		if b := best[o.group][o.col]; b < 0 || cheaperUSD(o, &d.offers[b]) {
			best[o.group][o.col] = i
		}
	}
	groupsOf := make([][]int, len(d.types))
	for g, grp := range d.groups {
		groupsOf[grp.ti] = append(groupsOf[grp.ti], g)
	}
	var out []*FindRow
	for ti := range d.types {
		var idx [6]int
		for c := range idx {
			idx[c] = -1
		}
		regions := 0
		for _, g := range groupsOf[ti] {
			has := false
			for c := range idx {
				b := best[g][c]
				if b < 0 || !shown[c] {
					continue
				}
				has = true
				if idx[c] < 0 || cheaperUSD(&d.offers[b], &d.offers[idx[c]]) ||
					(!cheaperUSD(&d.offers[idx[c]], &d.offers[b]) && b < idx[c]) {
					idx[c] = b
				}
			}
			if has {
				regions++
			}
		}
		if regions == 0 {
			continue
		}
		out = append(out, d.row(ti, idx, regions, shown, cur))
	}
	return out
}

// row puts one type's chosen offers into a row.
func (d *findData) row(ti int, idx [6]int, regions int, shown [6]bool, cur string) *FindRow {
	t := &d.types[ti]
	r := &FindRow{Type: t.t, GPU: t.gpuName, GPUModel: t.model, GPUMapping: uncertainMapping(t.t), GPUs: t.unitsDec, GPUMemory: t.gmemEachDec,
		GPUMemoryTotal: t.gmemDec, Regions: regions, Primary: -1, Currency: cur, num: map[string]*float64{}}
	for c := range idx {
		if !shown[c] || idx[c] < 0 {
			continue
		}
		o := &d.offers[idx[c]]
		cell := &FindCell{Offer: o.o, Region: o.region, USDHour: o.usd, Currency: cur, Hourly: d.priceIn(o, cur)}
		if cur == "native" {
			cell.Currency = string(o.o.Price.Currency)
		}
		for _, m := range o.marks {
			if m != "none" {
				cell.Marks = append(cell.Marks, m)
			}
		}
		if c > 0 {
			cell.Saving = savingOf(o)
		}
		if cell.Saving != nil && (r.Saving == nil || *cell.Saving > *r.Saving) {
			r.Saving = cell.Saving
		}
		r.Cells[c] = cell
		r.num[FindColumns[c]] = floatOf(cell.Hourly)
		if r.Primary < 0 {
			r.Primary = c
			r.Region = o.region
			r.Price = cell.Hourly
			if cur == "native" {
				r.Currency = cell.Currency
			}
		}
	}
	if r.Price != nil {
		// The primary offer's facts, in the query's currency.
		f := &d.offers[idx[r.Primary]].facts
		r.PerGPU = f.In(d.snap.FX, f.GPUHour, f.USDGPUHour, cur)
		r.PerGiB = f.In(d.snap.FX, f.GiBHour, f.USDGiBHour, cur)
		r.num["gpu_price"], r.num["gib_price"] = floatOf(r.PerGPU), floatOf(r.PerGiB)
	}
	r.num["price"] = floatOf(r.Price)
	r.num["saving"] = r.Saving
	return r
}

// priceIn is an offer's effective hourly price in cur ("native": its own), or nil.
func (d *findData) priceIn(o *findOffer, cur string) *decimal.Decimal {
	if o.native == nil {
		return nil
	}
	if cur == "native" || cur == string(o.o.Price.Currency) {
		return o.native
	}
	p, err := d.snap.FX.Convert(*o.native, o.o.Price.Currency, catalog.Currency(cur))
	if err != nil {
		return nil
	}
	return &p
}

func floatOf(d *decimal.Decimal) *float64 {
	if d == nil {
		return nil
	}
	f := f64(*d)
	return &f
}

// sortFindRows orders rows by a column, missing figures last, equals in the
// data's order.
func sortFindRows(rows []FindRow, col string, desc bool) {
	if col == "type" {
		sort.SliceStable(rows, func(i, j int) bool {
			a, b := strings.ToLower(rows[i].Type.ID), strings.ToLower(rows[j].Type.ID)
			if desc {
				return a > b
			}
			return a < b
		})
		return
	}
	key := func(r *FindRow) *float64 {
		if v, ok := r.num[col]; ok {
			return v
		}
		return typeNumber(col, r)
	}
	sort.SliceStable(rows, func(i, j int) bool {
		x, y := key(&rows[i]), key(&rows[j])
		if x == nil || y == nil {
			return x != nil && y == nil
		}
		if a, b := rows[i].priceLeads(col), rows[j].priceLeads(col); a != b {
			return a // either way round, a price that leads comes first
		}
		if desc {
			return *x > *y
		}
		return *x < *y
	})
}

// priceLeads says whether the offer behind a row's price column may lead an
// answer (leads); true for the columns that are not prices.
func (r *FindRow) priceLeads(col string) bool {
	c := indexOf(FindColumns, col)
	switch col {
	case "price", "gpu_price", "gib_price":
		c = r.Primary
	}
	if c < 0 || r.Cells[c] == nil {
		return true
	}
	return leads(r.Cells[c].Offer)
}

// typeNumber is a number field of a row's type, as the script reads it.
func typeNumber(field string, r *FindRow) *float64 {
	t := r.Type
	var v float64
	switch field {
	case "gpus":
		v = f64(r.GPUs)
	case "gpu_memory":
		v = f64(r.GPUMemory)
	case "gpu_memory_total":
		v = f64(r.GPUMemoryTotal)
	case "vcpus":
		v = float64(t.VCPUs)
	case "memory":
		v = f64(t.MemoryGiB.Round(2))
	case "disk":
		v = float64(t.LocalStorageGB)
	case "network":
		if t.NetworkGbps == nil {
			return nil
		}
		v = f64(*t.NetworkGbps)
	case "cpu_per_gpu":
		if !r.GPUs.IsPositive() {
			return nil
		}
		v = float64(t.VCPUs) / f64(r.GPUs)
	default:
		return nil
	}
	if math.IsNaN(v) {
		return nil
	}
	return &v
}
