package sitegen

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// offersDataPath is where the explorer's data is published.
const offersDataPath = "data/offers.json"

// offersFile is data/offers.json: every offer in a compact, columnar form for the
// explorer and compare scripts (static/atlas.js decodes it). The whole catalog is
// loaded on the explorer's first visit, so every byte counts: offers are stored
// column by column (long runs of the same value compress well), names that repeat
// (regions, billing kinds, currencies, fetch and observation dates) are indexes into small
// dictionaries, and rare fields (upfront, suspect, includes) are sparse maps from
// offer index to value.
//
// regions[i]: [provider, id, English name, Chinese name, country, city]
//
// types[i]:   [provider, id, page path ("" when it is instances/<provider>/<id>.html),
//
//	GPU name, GPU model id, GPU count (whole-device equivalents), GPU memory GiB
//	of all devices, GPU memory GiB of one device, vCPUs, memory GiB, family,
//	local disk GB, local NVMe (0/1), network as published, network Gbit/s
//	(null when unknown), RDMA, interconnect, unmapped (0/1), accelerator kind
//	of the primary accelerator ("" without one), partial (0/1: a slice of a
//	device, some accelerator's share below 1)]
//
// providers:  {provider: [English name, Chinese name]}, for filters that match
// a provider by either name.
//
// scenarios (only with a scenario report): [id, English name, Chinese name,
// [indexes of the types that fit], [indexes of the types that may fit]]: compare's
// verdicts on the types it ranked (those with a plausible on-demand offer).
//
// offers:     parallel arrays, one entry per offer, in the snapshot's order. hourly
// is the effective price per hour in the offer's own currency (upfront spread over
// the term, see catalog.Price.Hourly) to 8 places, null when it cannot be computed;
// the scripts convert it with fx and scale it to a month (730 h) or a year (8760 h).
// interruption is sparse: {offer index: band index} of the spot offers with an
// advisor band (0 <5%, 1 5-10%, 2 10-15%, 3 15-20%, 4 >20%).
//
// The offer's derived facts (compare.OfferFacts), exact decimals in the offer's
// own currency (its currency column), which the scripts only convert for
// display and never derive again: gpu_hour and gib_hour are the effective
// hourly price per GPU and per GiB of GPU memory (null without GPUs or
// memory); saving is the percent to 2 places below the type's cheapest
// plausible on-demand offer in the region (negative: dearer; null for
// on-demand offers and without one). The risk-adjusted spot price, which no
// script shows, stays out (the API and the exports carry it).
//
// flags are bits: 1 synthetic, 2 suspect, 4 old (observed more than
// catalog.StaleDays before now), 8 undated (the source gives no date), 16
// reported. observed is an index into observed: [date, days before now] of
// the offer's observation (["", null] for undated, index 0); now is the time
// ages are counted to.
//
// work (only when benchmark costs are given): workloads[i] = [id, unit label] and
// costs = {offer index: [[workload index, cost per unit, measured 1 / estimated 0]]}.
type offersFile struct {
	TakenAt  string        `json:"taken_at"`
	FX       offersFX      `json:"fx"`
	Stale    []string      `json:"stale"`
	Billing  []string      `json:"billing"`
	Units    []string      `json:"units"`
	Avail    []string      `json:"avail"`
	Currency []string      `json:"currency"`
	Fetched  []string      `json:"fetched"`
	Observed [][]any       `json:"observed"`
	Now      string        `json:"now"`
	Regions  [][]string    `json:"regions"`
	Types    [][]any       `json:"types"`
	Offers   offersColumns `json:"offers"`
	Work     *offersWork   `json:"work,omitempty"`
	// Providers and Scenarios are the explorer's (explorer_data.go).
	Providers map[catalog.Provider][2]string `json:"providers"`
	Scenarios [][]any                        `json:"scenarios,omitempty"`
}

type offersFX struct {
	Base   catalog.Currency            `json:"base"`
	Date   string                      `json:"date"`
	Source string                      `json:"source"`
	Rates  map[catalog.Currency]string `json:"rates"`
}

type offersColumns struct {
	Type     []int               `json:"type"`
	Region   []int               `json:"region"`
	Zone     []string            `json:"zone"`
	Zones    []string            `json:"zones"` // space-separated
	Billing  []int               `json:"billing"`
	Amount   []json.Number       `json:"amount"`
	Currency []int               `json:"currency"`
	Unit     []int               `json:"unit"`
	Hourly   []any               `json:"hourly"`
	Avail    []int               `json:"avail"`
	Flags    []int               `json:"flags"`
	Fetched  []int               `json:"fetched"`
	Observed []int               `json:"observed"`
	Upfront  map[int]json.Number `json:"upfront"`
	Suspect  map[int]string      `json:"suspect"`
	Includes map[int]string      `json:"includes"`
	// Interruption is a spot offer's Spot Instance Advisor band, as its index
	// in catalog.InterruptionBands (0 <5% … 4 >20%), where the advisor gives one.
	Interruption map[int]int `json:"interruption"`
	// The offer's facts (see offersFile).
	GPUHour []any `json:"gpu_hour"`
	GiBHour []any `json:"gib_hour"`
	Saving  []any `json:"saving"`
}

type offersWork struct {
	Workloads [][2]string     `json:"workloads"`
	Costs     map[int][][]any `json:"costs"`
}

const (
	flagSynthetic = 1
	flagSuspect   = 2
	flagOld       = 4
	flagUndated   = 8
	flagReported  = 16
	// flagStale marks an offer kept from an earlier crawl whose provider is
	// not stale as a whole (its region or instance type failed this time);
	// a stale provider's offers are marked by the stale list.
	flagStale = 32
	// flagEstimated marks a price derived from another, not observed
	// (catalog.Offer.Estimated).
	flagEstimated = 64
)

// hourlyPlaces is the precision of the hourly figure in offers.json: enough that a
// yearly total (× 8760) is still right to the cent.
const hourlyPlaces = 8

// dict hands out indexes for the values of a small dictionary, in first-seen order.
type dict struct {
	values []string
	index  map[string]int
}

func newDict(seed ...string) *dict {
	d := &dict{index: map[string]int{}}
	for _, s := range seed {
		d.id(s)
	}
	return d
}

func (d *dict) id(s string) int {
	if i, ok := d.index[s]; ok {
		return i
	}
	d.index[s] = len(d.values)
	d.values = append(d.values, s)
	return len(d.values) - 1
}

func (m *siteModel) offersJSON() ([]byte, error) {
	billing := newDict()
	for _, b := range catalog.BillingKinds {
		billing.id(string(b))
	}
	units := newDict(string(catalog.PerHour), string(catalog.PerMonth), string(catalog.PerYear), string(catalog.Upfront))
	avail := newDict(string(catalog.Available), string(catalog.SoldOut), string(catalog.Unknown))
	currency := newDict()
	fetched := newDict()
	observed := newDict("")
	regions := newDict()
	f := offersFile{
		TakenAt: m.snap.TakenAt.UTC().Format("2006-01-02T15:04:05Z"),
		Now:     m.now.UTC().Format("2006-01-02T15:04:05Z"),
		FX: offersFX{Base: m.snap.FX.Base, Date: m.snap.FX.Date, Source: m.snap.FX.Source,
			Rates: map[catalog.Currency]string{}},
		Stale:   []string{},
		Regions: [][]string{},
		Types:   [][]any{},
	}
	for c, r := range m.snap.FX.Rates {
		f.FX.Rates[c] = r.String()
		currency.id(string(c))
	}
	sort.Strings(currency.values)
	for i, c := range currency.values {
		currency.index[c] = i
	}
	for _, p := range m.providers() {
		if m.staleCover[p] {
			f.Stale = append(f.Stale, string(p))
		}
	}
	index := map[*typeView]int{}
	for i, t := range m.types {
		index[t] = i
		f.Types = append(f.Types, typeTuple(t))
	}
	n := len(m.offers)
	c := offersColumns{
		Type: make([]int, 0, n), Region: make([]int, 0, n), Zone: make([]string, 0, n), Zones: make([]string, 0, n),
		Billing: make([]int, 0, n), Amount: make([]json.Number, 0, n), Currency: make([]int, 0, n), Unit: make([]int, 0, n),
		Hourly: make([]any, 0, n), Avail: make([]int, 0, n), Flags: make([]int, 0, n), Fetched: make([]int, 0, n), Observed: make([]int, 0, n),
		Upfront: map[int]json.Number{}, Suspect: map[int]string{}, Includes: map[int]string{}, Interruption: map[int]int{},
		GPUHour: make([]any, 0, n), GiBHour: make([]any, 0, n), Saving: make([]any, 0, n),
	}
	for i, o := range m.offers {
		r := o.Region
		ri := regions.id(r.Key())
		if ri == len(f.Regions) {
			f.Regions = append(f.Regions, []string{string(r.Provider), r.ID, r.NameEN, r.NameZH, r.Country, r.City})
		}
		oo := o.Offer
		c.Type = append(c.Type, index[o.Type])
		c.Region = append(c.Region, ri)
		c.Zone = append(c.Zone, oo.Zone)
		c.Zones = append(c.Zones, joinSpace(oo.Zones))
		c.Billing = append(c.Billing, billing.id(string(oo.Billing)))
		c.Amount = append(c.Amount, number(oo.Price.Amount))
		c.Currency = append(c.Currency, currency.id(string(oo.Price.Currency)))
		c.Unit = append(c.Unit, units.id(string(oo.Price.Unit)))
		if o.NativeHour != nil {
			c.Hourly = append(c.Hourly, number(o.NativeHour.Round(hourlyPlaces)))
		} else {
			c.Hourly = append(c.Hourly, nil)
		}
		c.Avail = append(c.Avail, avail.id(string(oo.Availability)))
		flags := 0
		if oo.Synthetic {
			flags |= flagSynthetic
		}
		if oo.Suspect != "" {
			flags |= flagSuspect
			c.Suspect[i] = oo.Suspect
		}
		if o.Old {
			flags |= flagOld
		}
		if o.Undated {
			flags |= flagUndated
		}
		if oo.Reported {
			flags |= flagReported
		}
		if oo.Estimated {
			flags |= flagEstimated
		}
		if o.Stale && !m.staleCover[oo.Provider] {
			flags |= flagStale
		}
		c.Flags = append(c.Flags, flags)
		c.Fetched = append(c.Fetched, fetched.id(oo.FetchedAt.UTC().Format("2006-01-02T15:04:05Z")))
		day := ""
		if !o.Undated {
			day = o.Observed + "/" + fmt.Sprint(o.AgeDays)
		}
		c.Observed = append(c.Observed, observed.id(day))
		if u := oo.Price.Upfront; u != nil && !u.IsZero() {
			c.Upfront[i] = number(*u)
		}
		if oo.Includes != "" {
			c.Includes[i] = oo.Includes
		}
		fa := o.Facts
		if fa.SpotBand != "" {
			c.Interruption[i] = fa.SpotBand.Index()
		}
		c.GPUHour, c.GiBHour = append(c.GPUHour, optNumber(fa.GPUHour)), append(c.GiBHour, optNumber(fa.GiBHour))
		c.Saving = append(c.Saving, optNumber(fa.SavingPct))
	}
	f.Offers = c
	f.Billing, f.Units, f.Avail, f.Currency, f.Fetched = billing.values, units.values, avail.values, currency.values, fetched.values
	f.Observed = [][]any{{"", nil}}
	for _, v := range observed.values[1:] {
		date, days, _ := strings.Cut(v, "/")
		if date == "" {
			f.Observed = append(f.Observed, []any{"", nil})
			continue
		}
		f.Observed = append(f.Observed, []any{date, json.Number(days)})
	}
	if f.Fetched == nil {
		f.Fetched = []string{}
	}
	if f.Currency == nil {
		f.Currency = []string{}
	}
	f.Work = m.workJSON()
	f.Providers, f.Scenarios = m.explorerNames(), m.scenarioVerdicts(index)
	b, err := json.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", offersDataPath, err)
	}
	return append(b, '\n'), nil
}

// typeTuple is an instance type as offers.json lists it (see offersFile).
func typeTuple(t *typeView) []any {
	it := t.T
	href := t.Href
	if href == "instances/"+string(it.Provider)+"/"+it.ID+".html" {
		href = ""
	}
	name := ""
	if t.HasGPU {
		name = t.ModelName
		if t.Unmapped {
			name = t.GPUName
		}
	}
	var gbps any
	if it.NetworkGbps != nil {
		gbps = number(*it.NetworkGbps)
	}
	return []any{it.Provider, it.ID, href, name, t.GPUModel, json.Number(t.GPUs), json.Number(t.GPUMem),
		json.Number(t.GPUMemEach), it.VCPUs, json.Number(t.Mem), it.Family, it.LocalStorageGB, boolInt(it.LocalNVMe),
		it.Network, gbps, it.RDMA, it.Interconnect, boolInt(t.Unmapped), primaryKind(it), boolInt(partial(it))}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func joinSpace(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out
}

// number writes an exact decimal as a JSON number.
func number(d decimal.Decimal) json.Number { return json.Number(d.String()) }

// optNumber is number, or null without a figure.
func optNumber(d *decimal.Decimal) any {
	if d == nil {
		return nil
	}
	return number(*d)
}

// workJSON is the work section of offers.json, or nil without benchmark costs:
// each offer's work costs from its facts (compare.OfferFacts.Work), the
// workloads in the order of their keys.
func (m *siteModel) workJSON() *offersWork {
	ids := map[string]bool{}
	for _, f := range m.facts.Facts {
		for _, c := range f.Work {
			ids[c.Workload] = true
		}
	}
	if len(ids) == 0 {
		return nil
	}
	w := &offersWork{Costs: map[int][][]any{}}
	wl := newDict()
	for _, id := range slices.Sorted(maps.Keys(ids)) {
		wl.id(id)
	}
	labels := map[string]string{}
	for i, f := range m.facts.Facts {
		for _, c := range f.Work {
			labels[c.Workload] = c.UnitLabel
			measured := 0
			if c.Basis == compare.Measured {
				measured = 1
			}
			w.Costs[i] = append(w.Costs[i], []any{wl.id(c.Workload), number(c.CostPerUnit), measured})
		}
	}
	for _, id := range wl.values {
		w.Workloads = append(w.Workloads, [2]string{id, labels[id]})
	}
	return w
}
