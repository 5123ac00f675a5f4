package aws

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	awsv2 "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/pricing"
	pricingtypes "github.com/aws/aws-sdk-go-v2/service/pricing/types"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// priceListProduct holds the fields of one Price List document (a JSON string in
// GetProducts' PriceList) that the adapter reads.
type priceListProduct struct {
	Product struct {
		SKU        string `json:"sku"`
		Attributes struct {
			InstanceType string `json:"instanceType"`
			RegionCode   string `json:"regionCode"`
		} `json:"attributes"`
	} `json:"product"`
	Terms struct {
		OnDemand map[string]priceListTerm `json:"OnDemand"`
		Reserved map[string]priceListTerm `json:"Reserved"`
	} `json:"terms"`
}

type priceListTerm struct {
	PriceDimensions map[string]struct {
		Unit         string            `json:"unit"`
		PricePerUnit map[string]string `json:"pricePerUnit"`
	} `json:"priceDimensions"`
	TermAttributes struct {
		LeaseContractLength string `json:"LeaseContractLength"`
		OfferingClass       string `json:"OfferingClass"`
		PurchaseOption      string `json:"PurchaseOption"`
	} `json:"termAttributes"`
}

// priceListFilters select one Linux, shared-tenancy, no-preinstalled-software,
// used-capacity product per instance type in a region: the plain on-demand and
// reserved prices. (capacitystatus "Used" excludes the unused-reservation and
// allocated-capacity SKUs of the same type.)
func priceListFilters(region string) []pricingtypes.Filter {
	term := func(field, value string) pricingtypes.Filter {
		return pricingtypes.Filter{Field: awsv2.String(field), Type: pricingtypes.FilterTypeTermMatch, Value: awsv2.String(value)}
	}
	return []pricingtypes.Filter{
		term("regionCode", region),
		term("operatingSystem", "Linux"),
		term("tenancy", "Shared"),
		term("preInstalledSw", "NA"),
		term("capacitystatus", "Used"),
	}
}

// listPrices reads the region's on-demand and reserved prices from the Price List
// API. The query is per region rather than per instance type: one paginated query
// (100 products a page) costs fewer calls than one query per accelerated type.
func (p *Adapter) listPrices(ctx context.Context, region string, described map[string]bool, now time.Time) ([]catalog.Offer, error) {
	pages := pricing.NewGetProductsPaginator(p.pricing, &pricing.GetProductsInput{
		ServiceCode:   awsv2.String("AmazonEC2"),
		Filters:       priceListFilters(region),
		FormatVersion: awsv2.String("aws_v1"),
		MaxResults:    awsv2.Int32(100),
	})
	endpointRegion := pricingRegion
	if strings.HasPrefix(region, "cn-") {
		endpointRegion = pricingRegionChina
	}
	// The Price List is asked of its own endpoint; the region it prices is a
	// filter, so the errors say "for" the region.
	action := "get products for " + region
	var products []priceListProduct
	err := eachPage(ctx, pages, func(o *pricing.Options) { o.Region = endpointRegion }, func(page *pricing.GetProductsOutput) (*string, error) {
		for i, doc := range page.PriceList {
			var prod priceListProduct
			if err := json.Unmarshal([]byte(doc), &prod); err != nil {
				return nil, fmt.Errorf("price list item %d: %w", i, err)
			}
			if prod.Product.Attributes.RegionCode != "" && prod.Product.Attributes.RegionCode != region {
				continue
			}
			if described[prod.Product.Attributes.InstanceType] {
				products = append(products, prod)
			}
		}
		return page.NextToken, nil
	})
	if err != nil {
		return nil, p.errs.Wrap(err, action, "")
	}
	// Should a type ever have two products, the lowest SKU wins, so the result
	// does not depend on page order.
	sort.SliceStable(products, func(i, j int) bool { return products[i].Product.SKU < products[j].Product.SKU })
	var out []catalog.Offer
	seen := map[string]bool{}
	for _, prod := range products {
		offers, err := priceListOffers(prod, region, now)
		if err != nil {
			return nil, p.errs.Wrap(err, action, "")
		}
		for _, o := range offers {
			if !seen[o.Key()] {
				seen[o.Key()] = true
				out = append(out, o)
			}
		}
	}
	return out, nil
}

// priceListOffers turns one product into its on-demand offer and its standard
// reserved offers with no or all upfront (partial upfront and convertible terms
// have no billing kind in the catalog).
func priceListOffers(prod priceListProduct, region string, now time.Time) ([]catalog.Offer, error) {
	typ := prod.Product.Attributes.InstanceType
	offer := func(b catalog.BillingKind, price catalog.Price) catalog.Offer {
		return catalog.Offer{Provider: catalog.AWS, InstanceType: typ, Region: region, Billing: b, Price: price,
			Availability: catalog.Unknown, Source: sourcePriceList, FetchedAt: now}
	}
	var out []catalog.Offer
	for _, code := range slices.Sorted(maps.Keys(prod.Terms.OnDemand)) {
		hourly, upfront, cur, err := termPrice(prod.Terms.OnDemand[code])
		if err != nil {
			return nil, termError(region, typ, "on-demand", code, err)
		}
		// A zero on-demand rate is not a price one can buy at; upfront has no
		// meaning for on-demand.
		if hourly == nil || hourly.IsZero() || upfront != nil {
			continue
		}
		out = append(out, offer(catalog.OnDemand, catalog.Price{Amount: *hourly, Currency: cur, Unit: catalog.PerHour}))
		break
	}
	for _, code := range slices.Sorted(maps.Keys(prod.Terms.Reserved)) {
		term := prod.Terms.Reserved[code]
		a := term.TermAttributes
		if !strings.EqualFold(a.OfferingClass, "standard") {
			continue
		}
		kind, ok := reservedKind(a.LeaseContractLength, a.PurchaseOption)
		if !ok {
			continue
		}
		hourly, upfront, cur, err := termPrice(term)
		if err != nil {
			return nil, termError(region, typ, "reserved", code, err)
		}
		price := catalog.Price{Currency: cur, Unit: catalog.PerHour}
		if hourly != nil {
			price.Amount = *hourly
		}
		switch kind {
		case catalog.Reserved1yNoUpfront, catalog.Reserved3yNoUpfront:
			if hourly == nil || hourly.IsZero() {
				continue
			}
		default: // all upfront: an hourly dimension of 0 and the upfront fee
			if upfront == nil || upfront.IsZero() {
				continue
			}
			price.Upfront = upfront
		}
		out = append(out, offer(kind, price))
	}
	return out, nil
}

// termError says which term of which type could not be read; a term that
// states no currency is the providers.NoCurrency error.
func termError(region, typ, kind, code string, err error) error {
	if errors.Is(err, providers.ErrNoCurrency) {
		return providers.NoCurrency(catalog.AWS, "GetProducts", region, fmt.Sprintf("pricePerUnit of %s's %s term %s", typ, kind, code))
	}
	return fmt.Errorf("%s %s term %s: %w", typ, kind, code, err)
}

// reservedKind maps a reserved term's lease and purchase option to a billing kind.
func reservedKind(lease, purchase string) (catalog.BillingKind, bool) {
	switch strings.ToLower(lease) + "/" + strings.ToLower(purchase) {
	case "1yr/no upfront":
		return catalog.Reserved1yNoUpfront, true
	case "1yr/all upfront":
		return catalog.Reserved1yAllUpfront, true
	case "3yr/no upfront":
		return catalog.Reserved3yNoUpfront, true
	case "3yr/all upfront":
		return catalog.Reserved3yAllUpfront, true
	}
	return "", false
}

// termPrice reads a term's hourly rate (unit "Hrs") and upfront fee (unit
// "Quantity"). The currency is the key of pricePerUnit: USD, or CNY in the China
// regions; a dimension without one is an error wrapping providers.ErrNoCurrency.
func termPrice(t priceListTerm) (hourly, upfront *decimal.Decimal, cur catalog.Currency, err error) {
	for _, code := range slices.Sorted(maps.Keys(t.PriceDimensions)) {
		d := t.PriceDimensions[code]
		if _, blank := d.PricePerUnit[""]; blank || len(d.PricePerUnit) == 0 {
			return nil, nil, "", fmt.Errorf("price dimension %s: %w", code, providers.ErrNoCurrency)
		}
		if len(d.PricePerUnit) != 1 {
			return nil, nil, "", fmt.Errorf("price dimension %s has %d currencies, want 1", code, len(d.PricePerUnit))
		}
		for c, v := range d.PricePerUnit {
			amount, perr := decimal.NewFromString(v)
			if perr != nil || amount.IsNegative() {
				return nil, nil, "", fmt.Errorf("price dimension %s: %q is not a price", code, v)
			}
			if cur != "" && cur != catalog.Currency(c) {
				return nil, nil, "", fmt.Errorf("price dimension %s is in %s, the term's others in %s", code, c, cur)
			}
			cur = catalog.Currency(c)
			switch strings.ToLower(d.Unit) {
			case "hrs":
				if hourly == nil {
					hourly = &amount
				}
			case "quantity":
				if upfront == nil {
					upfront = &amount
				}
			}
		}
	}
	return hourly, upfront, cur, nil
}
