package gcp

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	cloudbilling "google.golang.org/api/cloudbilling/v1"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// skuPrice is one billing catalog SKU's hourly price in one region.
type skuPrice struct {
	words  string // the description before " running in ", without "Spot Preemptible "
	region string
	spot   bool
	unit   string // "h" (per hour) or "GiBy.h" (per GiB-hour)
	price  catalog.Price
}

// The usage units of the SKUs the adapter reads.
const (
	unitHour    = "h"
	unitGiBHour = "GiBy.h"
	spotPrefix  = "Spot Preemptible "
)

// skuPrices reads the Compute SKUs the adapter can use: on-demand
// (usageType OnDemand) and spot (Preemptible, "Spot Preemptible ...") prices
// of the resource groups a GPU machine type's price is made of, one per
// region the SKU serves. A SKU priced in tiers is read at its first tier (from
// zero usage). Commitment and other SKUs are left out.
func skuPrices(skus skuPage) ([]skuPrice, error) {
	var out []skuPrice
	for _, s := range skus {
		if s == nil || s.Category == nil {
			continue
		}
		c := s.Category
		if c.ResourceFamily != "Compute" || (c.UsageType != "OnDemand" && c.UsageType != "Preemptible") {
			continue
		}
		desc := strings.Join(strings.Fields(s.Description), " ")
		words, spot := strings.CutPrefix(desc, spotPrefix)
		if spot != (c.UsageType == "Preemptible") {
			continue // preemptible SKUs of the old kind, or a spot SKU sold on demand: not ours
		}
		words, _, ok := strings.Cut(words, " running in ")
		if !ok || len(s.PricingInfo) == 0 || s.PricingInfo[0] == nil {
			continue
		}
		p, unit, err := hourly(s.PricingInfo[0])
		if err != nil {
			return nil, fmt.Errorf("SKU %s (%q): %w", catalog.Excerpt(s.SkuId), catalog.Excerpt(desc), err)
		}
		for _, r := range s.ServiceRegions {
			out = append(out, skuPrice{words: words, region: r, spot: spot, unit: unit, price: p})
		}
	}
	return out, nil
}

// hourly is a pricing info's price at zero usage and its unit.
func hourly(pi *cloudbilling.PricingInfo) (catalog.Price, string, error) {
	e := pi.PricingExpression
	if e == nil {
		return catalog.Price{}, "", fmt.Errorf("no pricing expression")
	}
	unit := e.UsageUnit
	if unit != unitHour && unit != unitGiBHour {
		return catalog.Price{}, "", fmt.Errorf("usage unit %q, want h or GiBy.h", catalog.Excerpt(unit))
	}
	for _, t := range e.TieredRates {
		if t == nil || t.StartUsageAmount != 0 {
			continue
		}
		m := t.UnitPrice
		cur := ""
		if m != nil {
			cur = strings.ToUpper(strings.TrimSpace(m.CurrencyCode))
		}
		if cur == "" {
			return catalog.Price{}, "", providers.NoCurrency(catalog.GCP, actionSKUs, "", "unitPrice.currencyCode")
		}
		amount := decimal.NewFromInt(m.Units).Add(decimal.New(m.Nanos, -9))
		if amount.IsNegative() {
			return catalog.Price{}, "", fmt.Errorf("negative price %s", amount)
		}
		return catalog.Price{Amount: amount, Currency: catalog.Currency(cur), Unit: catalog.PerHour}, unit, nil
	}
	return catalog.Price{}, "", fmt.Errorf("no tier from zero usage")
}

// find is the price of the SKU with these words in region; false where the
// catalog has none (the first listed where it has several).
func find(skus []skuPrice, words, region, unit string, spot bool) (catalog.Price, bool) {
	for _, s := range skus {
		if s.words == words && s.region == region && s.spot == spot && s.unit == unit {
			return s.price, true
		}
	}
	return catalog.Price{}, false
}

// offers prices a machine type in its region, on demand and spot: its
// machine part (the series' core SKU times its vCPUs plus its RAM SKU times
// its memory in GiB) plus its accelerators' part (the GPU SKU times their
// number), both kept as the offer's parts. A billing kind some part of which
// the catalog lacks, or priced in two currencies, or at zero, has no offer.
func offers(m machineInfo, region string, skus []skuPrice, now time.Time) []catalog.Offer {
	acc, ok := accelerators[m.accType]
	if !ok {
		return nil
	}
	var out []catalog.Offer
	for _, spot := range []bool{false, true} {
		core, ok1 := find(skus, m.series+" Instance Core", region, unitHour, spot)
		ram, ok2 := find(skus, m.series+" Instance Ram", region, unitGiBHour, spot)
		gpu, ok3 := find(skus, acc.sku, region, unitHour, spot)
		if !ok1 || !ok2 || !ok3 || core.Currency != ram.Currency || core.Currency != gpu.Currency {
			continue
		}
		machine := core.Amount.Mul(decimal.NewFromInt(int64(m.instance.VCPUs))).Add(ram.Amount.Mul(m.instance.MemoryGiB))
		gpus := gpu.Amount.Mul(decimal.NewFromInt(int64(m.accCount)))
		total := machine.Add(gpus)
		if !total.IsPositive() {
			continue
		}
		b, source := catalog.OnDemand, sourceSKUs
		if spot {
			b, source = catalog.Spot, sourceSpotSKUs
		}
		out = append(out, catalog.Offer{Provider: catalog.GCP, InstanceType: m.instance.ID, Region: region, Billing: b,
			Price:        catalog.Price{Amount: total, Currency: core.Currency, Unit: catalog.PerHour},
			Parts:        []catalog.PricePart{{Part: catalog.PartMachine, Amount: machine}, {Part: catalog.PartAccelerators, Amount: gpus}},
			Availability: catalog.Unknown, Source: source + " (" + m.series + " Instance Core, Ram; " + acc.sku + "; " + docPricing + ")", FetchedAt: now})
	}
	return out
}
