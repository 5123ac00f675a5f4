package sitegen

import (
	"encoding/json"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// offersDataPath is where the explorer's data is published.
const offersDataPath = "data/offers.json"

// offersFile is data/offers.json: every offer in a compact form for the
// explorer's script. Offers and instance types are arrays (tuples) rather than
// objects to keep the file small; the positions are documented here and mirrored
// in static/explorer.js.
//
// types[i]:  [provider, id, page path, GPU name, GPU model id, GPU count,
//
//	GPU memory GiB (all devices), vCPUs, memory GiB, unmapped (0/1)]
//
// offers[i]: [type index, region, zone, billing, amount as published, currency,
//
//	unit, upfront as published ("" for none), USD/hour, USD/GPU-hour,
//	native/hour, native/GPU-hour, availability, flags (1 synthetic, 2 suspect),
//	suspect reason]
//
// Hourly figures are rounded as the pages show them (see moneyRound); null when
// they cannot be computed.
type offersFile struct {
	TakenAt string               `json:"taken_at"`
	FX      offersFX             `json:"fx"`
	Stale   []catalog.Provider   `json:"stale"`
	Regions map[string][2]string `json:"regions"`
	Types   [][]any              `json:"types"`
	Offers  [][]any              `json:"offers"`
}

type offersFX struct {
	Base   catalog.Currency            `json:"base"`
	Date   string                      `json:"date"`
	Source string                      `json:"source"`
	Rates  map[catalog.Currency]string `json:"rates"`
}

const (
	flagSynthetic = 1
	flagSuspect   = 2
)

func (m *siteModel) offersJSON() ([]byte, error) {
	f := offersFile{
		TakenAt: m.snap.TakenAt.UTC().Format("2006-01-02T15:04:05Z"),
		FX: offersFX{Base: m.snap.FX.Base, Date: m.snap.FX.Date, Source: m.snap.FX.Source,
			Rates: map[catalog.Currency]string{}},
		Stale:   []catalog.Provider{},
		Regions: map[string][2]string{},
		Types:   [][]any{},
		Offers:  [][]any{},
	}
	for c, r := range m.snap.FX.Rates {
		f.FX.Rates[c] = r.String()
	}
	for _, p := range m.providers() {
		if m.staleCover[p] {
			f.Stale = append(f.Stale, p)
		}
	}
	index := map[*typeView]int{}
	for i, t := range m.types {
		index[t] = i
		unmapped := 0
		if t.Unmapped {
			unmapped = 1
		}
		name := ""
		if t.HasGPU {
			name = t.ModelName
			if t.Unmapped {
				name = t.GPUName
			}
		}
		f.Types = append(f.Types, []any{t.T.Provider, t.T.ID, t.Href, name, t.GPUModel,
			json.Number(t.GPUs), json.Number(t.GPUMem), t.T.VCPUs, json.Number(t.Mem), unmapped})
	}
	for _, o := range m.offers {
		if o.Region.NameEN != "" || o.Region.NameZH != "" {
			f.Regions[o.Region.Key()] = [2]string{o.Region.NameEN, o.Region.NameZH}
		}
		up := ""
		if u := o.Offer.Price.Upfront; u != nil && !u.IsZero() {
			up = u.String()
		}
		flags := 0
		if o.Offer.Synthetic {
			flags |= flagSynthetic
		}
		if o.Offer.Suspect != "" {
			flags |= flagSuspect
		}
		f.Offers = append(f.Offers, []any{index[o.Type], o.Offer.Region, o.Offer.Zone, o.Offer.Billing,
			o.Offer.Price.Amount.String(), o.Offer.Price.Currency, o.Offer.Price.Unit, up,
			shown(o.USDHour), shown(o.USDGPUHour), shown(o.NativeHour), shown(o.NativeGPUHour),
			o.Offer.Availability, flags, o.Offer.Suspect})
	}
	b, err := json.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", offersDataPath, err)
	}
	return append(b, '\n'), nil
}

// number writes an exact decimal as a JSON number.
func number(d decimal.Decimal) json.Number { return json.Number(d.String()) }

// shown is a derived price rounded as displayed, or null.
func shown(d *decimal.Decimal) any {
	if d == nil {
		return nil
	}
	r, _ := moneyRound(*d)
	return number(r)
}
