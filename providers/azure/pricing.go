package azure

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// The Retail Prices API: public, unauthenticated, OData $filter, pages of up
// to 1,000 items linked by NextPageLink. api-version 2023-01-01-preview adds
// the savingsPlan prices to the Consumption items.
const (
	pricesURL        = "https://" + hostPrices + "/api/retail/prices"
	pricesAPIVersion = "2023-01-01-preview"
	// maxPricePages bounds one region's listing (a region lists a few
	// thousand virtual machine items: a few pages).
	maxPricePages = 200
)

// pricesClient calls the Retail Prices API over the adapter's transport.
type pricesClient struct {
	do func(*http.Request) (*http.Response, error)
}

// priceItem is one item of the answer, the fields the adapter reads.
type priceItem struct {
	CurrencyCode         string        `json:"currencyCode"`
	RetailPrice          json.Number   `json:"retailPrice"`
	UnitPrice            json.Number   `json:"unitPrice"`
	ArmRegionName        string        `json:"armRegionName"`
	EffectiveStartDate   string        `json:"effectiveStartDate"`
	MeterName            string        `json:"meterName"`
	ProductName          string        `json:"productName"`
	SkuName              string        `json:"skuName"`
	ServiceName          string        `json:"serviceName"`
	UnitOfMeasure        string        `json:"unitOfMeasure"`
	Type                 string        `json:"type"`
	IsPrimaryMeterRegion *bool         `json:"isPrimaryMeterRegion"`
	ArmSkuName           string        `json:"armSkuName"`
	ReservationTerm      string        `json:"reservationTerm"`
	SavingsPlan          []savingsPlan `json:"savingsPlan"`
}

type savingsPlan struct {
	UnitPrice   json.Number `json:"unitPrice"`
	RetailPrice json.Number `json:"retailPrice"`
	Term        string      `json:"term"`
}

type pricePage struct {
	BillingCurrency string      `json:"BillingCurrency"`
	Items           []priceItem `json:"Items"`
	NextPageLink    string      `json:"NextPageLink"`
	Count           int         `json:"Count"`
}

// pricesError is a Retail Prices answer that is not a page: its status, the
// error code and message of its body where it has them, and the wait its
// Retry-After header asks for.
type pricesError struct {
	Status     int
	Code       string
	Message    string
	RetryAfter time.Duration
}

func (e *pricesError) Error() string {
	s := fmt.Sprintf("status %d", e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// pricesFilter is the OData filter of one region's virtual machine prices.
func pricesFilter(region string) string {
	return fmt.Sprintf("serviceName eq 'Virtual Machines' and armRegionName eq '%s'", region)
}

// listPrices reads every virtual machine price item of a region, following
// NextPageLink; a link that repeats ends the listing with an error.
func (a *Adapter) listPrices(ctx context.Context, region string) ([]priceItem, error) {
	q := url.Values{"api-version": {pricesAPIVersion}, "$filter": {pricesFilter(region)}}
	next := pricesURL + "?" + q.Encode()
	seen := map[string]bool{}
	var out []priceItem
	for pages := 0; next != ""; pages++ {
		if seen[next] || pages >= maxPricePages {
			return nil, a.errs.Wrap(fmt.Errorf("NextPageLink %q repeats or the listing passed %d pages", next, maxPricePages), actionPrices, region)
		}
		seen[next] = true
		var page pricePage
		link := next
		err := a.retry.Do(ctx, func() error {
			var err error
			page, err = a.prices.get(ctx, link)
			return err
		})
		if err != nil {
			return nil, a.errs.Wrap(err, actionPrices, region)
		}
		out = append(out, page.Items...)
		next = page.NextPageLink
	}
	return out, nil
}

// get reads one page.
func (c *pricesClient) get(ctx context.Context, link string) (pricePage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return pricePage{}, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.do(req)
	if err != nil {
		return pricePage{}, fmt.Errorf("%w: %w", providers.ErrUnavailable, err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return pricePage{}, fmt.Errorf("%w: read answer: %w", providers.ErrUnavailable, err)
	}
	if resp.StatusCode != http.StatusOK {
		e := &pricesError{Status: resp.StatusCode, RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"))}
		var eb struct {
			Error struct{ Code, Message string }
		}
		if json.Unmarshal(body, &eb) == nil {
			e.Code, e.Message = eb.Error.Code, eb.Error.Message
		}
		return pricePage{}, e
	}
	var page pricePage
	if err := json.Unmarshal(body, &page); err != nil {
		return pricePage{}, fmt.Errorf("answer is not a price page: %w", err)
	}
	return page, nil
}

// offers turns a region's price items into offers of the sizes in known:
//
//   - Consumption items of the Linux product (not " Windows"), not Low
//     Priority: on-demand, or spot where the SKU name ends " Spot"; price per
//     hour;
//   - their savingsPlan prices: the 1- and 3-year savings plans, hourly with
//     no upfront (reserved_1y_no_upfront, reserved_3y_no_upfront);
//   - Reservation items: the 1- and 3-year reservations, whose retailPrice is
//     the whole term's (reserved_1y_all_upfront, reserved_3y_all_upfront; the
//     same total may be paid monthly).
//
// DevTestConsumption items are left out. Where several items give one size
// the same kind of price, the item of the primary meter region is kept, and
// among those the first listed.
func offers(items []priceItem, region string, known map[string]bool, now time.Time) ([]catalog.Offer, error) {
	type key struct {
		typ     string
		billing catalog.BillingKind
	}
	chosen := map[key]catalog.Offer{}
	primary := map[key]bool{}
	var order []key
	add := func(it priceItem, b catalog.BillingKind, amount json.Number, upfront bool, source string) error {
		price, err := itemPrice(it, amount, upfront)
		if err != nil {
			return err
		}
		if price == nil {
			return nil
		}
		k := key{it.ArmSkuName, b}
		isPrimary := it.IsPrimaryMeterRegion == nil || *it.IsPrimaryMeterRegion
		if _, ok := chosen[k]; ok && (primary[k] || !isPrimary) {
			return nil
		}
		if _, ok := chosen[k]; !ok {
			order = append(order, k)
		}
		chosen[k] = catalog.Offer{Provider: catalog.Azure, InstanceType: it.ArmSkuName, Region: region, Billing: b, Price: *price,
			Availability: catalog.Unknown, Source: source, FetchedAt: now}
		primary[k] = isPrimary
		return nil
	}
	for _, it := range items {
		it.ArmSkuName = strings.TrimSpace(it.ArmSkuName)
		if !known[it.ArmSkuName] || !strings.EqualFold(it.ArmRegionName, region) || strings.HasSuffix(it.ProductName, " Windows") ||
			strings.HasSuffix(it.MeterName, " Low Priority") || strings.HasSuffix(it.SkuName, " Low Priority") {
			continue
		}
		var err error
		switch it.Type {
		case "Consumption":
			if strings.HasSuffix(it.SkuName, " Spot") || strings.HasSuffix(it.MeterName, " Spot") {
				err = add(it, catalog.Spot, it.RetailPrice, false, sourceSpot)
				break
			}
			err = add(it, catalog.OnDemand, it.RetailPrice, false, sourcePrices)
			for _, sp := range it.SavingsPlan {
				b, ok := term(sp.Term, catalog.Reserved1yNoUpfront, catalog.Reserved3yNoUpfront)
				if ok && err == nil {
					err = add(it, b, sp.RetailPrice, false, sourceSavingsPlan)
				}
			}
		case "Reservation":
			if b, ok := term(it.ReservationTerm, catalog.Reserved1yAllUpfront, catalog.Reserved3yAllUpfront); ok {
				err = add(it, b, it.RetailPrice, true, sourceReservation)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s %s item %q: %w", it.ArmSkuName, it.Type, it.MeterName, err)
		}
	}
	out := make([]catalog.Offer, 0, len(order))
	for _, k := range order {
		out = append(out, chosen[k])
	}
	return out, nil
}

// term maps "1 Year" and "3 Years" to the given billing kinds.
func term(s string, oneYear, threeYears catalog.BillingKind) (catalog.BillingKind, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1 year":
		return oneYear, true
	case "3 years":
		return threeYears, true
	}
	return "", false
}

// itemPrice reads an item's price: per hour ("1 Hour"), or the term's total
// as the upfront fee (a reservation). A zero price is no offer (nil); an item
// without a currency is providers.NoCurrency's error.
func itemPrice(it priceItem, amount json.Number, upfront bool) (*catalog.Price, error) {
	if strings.TrimSpace(it.CurrencyCode) == "" {
		return nil, providers.NoCurrency(catalog.Azure, actionPrices, it.ArmRegionName, "currencyCode of "+it.ArmSkuName)
	}
	d, err := decimal.NewFromString(string(amount))
	if err != nil {
		return nil, fmt.Errorf("price %q: %w", amount, err)
	}
	if !d.IsPositive() {
		return nil, nil
	}
	if !upfront && it.UnitOfMeasure != "1 Hour" {
		return nil, fmt.Errorf("unit of measure %q, want 1 Hour", it.UnitOfMeasure)
	}
	cur := catalog.Currency(strings.ToUpper(strings.TrimSpace(it.CurrencyCode)))
	p := &catalog.Price{Amount: d, Currency: cur, Unit: catalog.PerHour}
	if upfront {
		p.Amount = decimal.Zero
		p.Upfront = &d
	}
	return p, nil
}
