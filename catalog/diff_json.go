package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// DiffSchemaVersion is the version of the JSON diff format (DiffReport.JSON). It
// changes only when a field is removed or changes meaning; new fields may be added
// within a version.
const DiffSchemaVersion = 1

// diffJSON is the JSON diff format; DiffReport.JSON documents it.
type diffJSON struct {
	SchemaVersion int                `json:"schema_version"`
	Old           diffSideJSON       `json:"old"`
	New           diffSideJSON       `json:"new"`
	Changed       bool               `json:"changed"`
	Totals        DiffCounts         `json:"totals"`
	Providers     []providerDiffJSON `json:"providers"`
}

type diffSideJSON struct {
	TakenAt string `json:"taken_at"`
}

type providerDiffJSON struct {
	Provider             Provider              `json:"provider"`
	Totals               DiffCounts            `json:"totals"`
	InstanceTypesAdded   []diffTypeJSON        `json:"instance_types_added"`
	InstanceTypesRemoved []diffTypeJSON        `json:"instance_types_removed"`
	RegionsAdded         []diffRegionJSON      `json:"regions_added"`
	RegionsRemoved       []diffRegionJSON      `json:"regions_removed"`
	OffersAdded          []diffOfferJSON       `json:"offers_added"`
	OffersRemoved        []diffOfferJSON       `json:"offers_removed"`
	PriceChanges         []diffPriceChangeJSON `json:"price_changes"`
	AvailabilityChanges  []diffAvailJSON       `json:"availability_changes"`
	InterruptionChanges  []diffBandJSON        `json:"interruption_changes"`
}

type diffBandJSON struct {
	diffOfferRefJSON
	Old InterruptionBand `json:"old"`
	New InterruptionBand `json:"new"`
}

type diffTypeJSON struct {
	Key          string          `json:"key"`
	ID           string          `json:"id"`
	Family       string          `json:"family"`
	VCPUs        int             `json:"vcpus"`
	MemoryGiB    decimal.Decimal `json:"memory_gib"`
	Accelerators []diffAccelJSON `json:"accelerators"`
}

type diffAccelJSON struct {
	Model     string          `json:"model"`
	Name      string          `json:"name"`
	Count     int             `json:"count"`
	Share     decimal.Decimal `json:"share"`
	MemoryGiB decimal.Decimal `json:"memory_gib"`
}

type diffRegionJSON struct {
	Key    string `json:"key"`
	ID     string `json:"id"`
	NameEN string `json:"name_en"`
	NameZH string `json:"name_zh"`
}

type diffOfferRefJSON struct {
	Key          string      `json:"key"`
	InstanceType string      `json:"instance_type"`
	Region       string      `json:"region"`
	Zone         string      `json:"zone"`
	Billing      BillingKind `json:"billing"`
}

type diffPriceJSON struct {
	Amount   decimal.Decimal  `json:"amount"`
	Currency Currency         `json:"currency"`
	Unit     PriceUnit        `json:"unit"`
	Upfront  *decimal.Decimal `json:"upfront,omitempty"`
}

type diffOfferJSON struct {
	diffOfferRefJSON
	Price        diffPriceJSON `json:"price"`
	Availability Availability  `json:"availability"`
}

type diffPriceChangeJSON struct {
	diffOfferRefJSON
	Old           diffPriceJSON `json:"old"`
	New           diffPriceJSON `json:"new"`
	ChangePercent *string       `json:"change_percent"`
}

type diffAvailJSON struct {
	diffOfferRefJSON
	Old Availability `json:"old"`
	New Availability `json:"new"`
}

func diffOfferRef(o Offer) diffOfferRefJSON {
	return diffOfferRefJSON{Key: o.Key(), InstanceType: o.InstanceType, Region: o.Region, Zone: o.Zone, Billing: o.Billing}
}

func diffPriceOut(p Price) diffPriceJSON {
	return diffPriceJSON{Amount: p.Amount, Currency: p.Currency, Unit: p.Unit, Upfront: upfrontOf(p)}
}

func diffTypeOut(t InstanceType) diffTypeJSON {
	out := diffTypeJSON{Key: t.Key(), ID: t.ID, Family: t.Family, VCPUs: t.VCPUs, MemoryGiB: t.MemoryGiB, Accelerators: []diffAccelJSON{}}
	for _, a := range t.Accelerators {
		out.Accelerators = append(out.Accelerators, diffAccelJSON{Model: a.Model, Name: a.Name, Count: a.Count, Share: a.Share, MemoryGiB: a.MemoryGiB})
	}
	return out
}

func diffTimeOut(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// JSON renders the report in the JSON diff format, indented, with a final newline.
//
// The format, schema version 1 (DiffSchemaVersion), is stable: fields are only
// added within a version. Amounts and percentages are exact decimal strings
// ("55.04", "-12.50"), never floating-point numbers; times are RFC 3339 in UTC
// ("" for a catalog without a date); lists are always present, empty as [].
//
//	{
//	  "schema_version": 1,
//	  "old": {"taken_at": "2025-11-30T00:00:00Z"},
//	  "new": {"taken_at": "2025-12-01T00:00:00Z"},
//	  "changed": true,                      // false when the catalogs are the same
//	  "totals": Counts,
//	  "providers": [                        // only providers with changes, in display order
//	    {
//	      "provider": "aws",
//	      "totals": Counts,
//	      "instance_types_added":   [InstanceType],
//	      "instance_types_removed": [InstanceType],
//	      "regions_added":          [Region],
//	      "regions_removed":        [Region],
//	      "offers_added":           [Offer],
//	      "offers_removed":         [Offer],
//	      "price_changes":          [PriceChange],
//	      "availability_changes":   [AvailabilityChange],
//	      "interruption_changes":   [InterruptionChange]
//	    }
//	  ]
//	}
//
//	Counts:       {"instance_types_added", "instance_types_removed", "regions_added",
//	               "regions_removed", "offers_added", "offers_removed", "price_changes",
//	               "price_increases", "price_decreases", "availability_changes",
//	               "interruption_changes"}: integers
//	InstanceType: {"key": "aws/p5.48xlarge", "id", "family", "vcpus": int, "memory_gib": dec,
//	               "accelerators": [{"model", "name", "count": int, "share": dec, "memory_gib": dec}]}
//	Region:       {"key": "aws/us-east-1", "id", "name_en", "name_zh"}
//	Offer:        {"key": "aws/p5.48xlarge/us-east-1//on_demand", "instance_type", "region",
//	               "zone" (may be ""), "billing", "price": Price, "availability"}
//	Price:        {"amount": dec, "currency": "USD"|"CNY"|..., "unit": "hour"|"month"|"year"|"upfront",
//	               "upfront": dec (only when non-zero)}
//	PriceChange:  Offer's "key", "instance_type", "region", "zone", "billing", then
//	              "old": Price, "new": Price, "change_percent": dec or null (null when the
//	              prices cannot be compared: another currency, or a price of zero before)
//	AvailabilityChange: Offer's "key", "instance_type", "region", "zone", "billing", then
//	              "old", "new": "available" | "sold_out" | "unknown"
//	InterruptionChange: Offer's "key", "instance_type", "region", "zone", "billing", then
//	              "old", "new": "<5%" | "5-10%" | "10-15%" | "15-20%" | ">20%" | "" (no data)
//
// change_percent is the change of the cost of use over three years (recurring
// amount and upfront payment), rounded half away from zero to two places.
func (r DiffReport) JSON() ([]byte, error) {
	out := diffJSON{SchemaVersion: DiffSchemaVersion, Old: diffSideJSON{diffTimeOut(r.OldTakenAt)}, New: diffSideJSON{diffTimeOut(r.NewTakenAt)},
		Changed: !r.Empty(), Totals: r.Total, Providers: []providerDiffJSON{}}
	for _, d := range r.Providers {
		p := providerDiffJSON{Provider: d.Provider, Totals: d.Counts,
			InstanceTypesAdded: []diffTypeJSON{}, InstanceTypesRemoved: []diffTypeJSON{},
			RegionsAdded: []diffRegionJSON{}, RegionsRemoved: []diffRegionJSON{}, OffersAdded: []diffOfferJSON{}, OffersRemoved: []diffOfferJSON{},
			PriceChanges: []diffPriceChangeJSON{}, AvailabilityChanges: []diffAvailJSON{},
			InterruptionChanges: []diffBandJSON{}}
		for _, t := range d.InstanceTypesAdded {
			p.InstanceTypesAdded = append(p.InstanceTypesAdded, diffTypeOut(t))
		}
		for _, t := range d.InstanceTypesRemoved {
			p.InstanceTypesRemoved = append(p.InstanceTypesRemoved, diffTypeOut(t))
		}
		for _, g := range d.RegionsAdded {
			p.RegionsAdded = append(p.RegionsAdded, diffRegionJSON{Key: g.Key(), ID: g.ID, NameEN: g.NameEN, NameZH: g.NameZH})
		}
		for _, g := range d.RegionsRemoved {
			p.RegionsRemoved = append(p.RegionsRemoved, diffRegionJSON{Key: g.Key(), ID: g.ID, NameEN: g.NameEN, NameZH: g.NameZH})
		}
		for _, o := range d.OffersAdded {
			p.OffersAdded = append(p.OffersAdded, diffOfferJSON{diffOfferRef(o), diffPriceOut(o.Price), o.Availability})
		}
		for _, o := range d.OffersRemoved {
			p.OffersRemoved = append(p.OffersRemoved, diffOfferJSON{diffOfferRef(o), diffPriceOut(o.Price), o.Availability})
		}
		for _, c := range d.PriceChanges {
			pc := diffPriceChangeJSON{diffOfferRefJSON: diffOfferRef(c.Offer), Old: diffPriceOut(c.Old), New: diffPriceOut(c.New)}
			if c.Percent != nil {
				s := c.Percent.StringFixed(2)
				pc.ChangePercent = &s
			}
			p.PriceChanges = append(p.PriceChanges, pc)
		}
		for _, c := range d.AvailabilityChanges {
			p.AvailabilityChanges = append(p.AvailabilityChanges, diffAvailJSON{diffOfferRef(c.Offer), c.Old, c.New})
		}
		for _, c := range d.InterruptionChanges {
			p.InterruptionChanges = append(p.InterruptionChanges, diffBandJSON{diffOfferRef(c.Offer), c.Old, c.New})
		}
		out.Providers = append(out.Providers, p)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("encode diff: %w", err)
	}
	return b.Bytes(), nil
}
