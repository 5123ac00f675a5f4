package main

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const pricingType = "application/x-amz-json-1.1"

// Price List documents: only the structure GetProducts returns, with the fields
// the data gives.
type product struct {
	Product struct {
		ProductFamily string            `json:"productFamily"`
		Attributes    map[string]string `json:"attributes"`
		SKU           string            `json:"sku"`
	} `json:"product"`
	ServiceCode     string `json:"serviceCode"`
	Terms           terms  `json:"terms"`
	Version         string `json:"version"`
	PublicationDate string `json:"publicationDate"`
}

type terms struct {
	OnDemand map[string]term `json:"OnDemand,omitempty"`
	Reserved map[string]term `json:"Reserved,omitempty"`
}

type term struct {
	PriceDimensions map[string]dimension `json:"priceDimensions"`
	SKU             string               `json:"sku"`
	EffectiveDate   string               `json:"effectiveDate"`
	OfferTermCode   string               `json:"offerTermCode"`
	TermAttributes  map[string]string    `json:"termAttributes"`
}

type dimension struct {
	Unit         string            `json:"unit"`
	PricePerUnit map[string]string `json:"pricePerUnit"`
}

const (
	hourlyRate  = "6YS6EN2CT7" // AWS's rate code of an hourly price dimension
	upfrontRate = "2TG2D8R56U" // and of an upfront fee
)

func (g *generator) writeProducts(region string, prices []priceRow) error {
	var docs []string
	for _, p := range prices {
		if p.region != region || g.types[p.typ] == nil {
			continue
		}
		doc, ok, err := productDoc(p)
		if err != nil {
			return err
		}
		if ok {
			docs = append(docs, doc)
		}
	}
	pages := max((len(docs)+productsPerPage-1)/productsPerPage, 1)
	for pg := range pages {
		end := min((pg+1)*productsPerPage, len(docs))
		body := struct {
			FormatVersion string   `json:"FormatVersion"`
			PriceList     []string `json:"PriceList"`
			NextToken     string   `json:"NextToken,omitempty"`
		}{FormatVersion: "aws_v1", PriceList: append([]string{}, docs[min(pg*productsPerPage, len(docs)):end]...)}
		if pg+1 < pages {
			body.NextToken = token("GetProducts", region, pg+2)
		}
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		prev := ""
		if pg > 0 {
			prev = token("GetProducts", region, pg+1)
		}
		g.folder.Add(replay.Exchange{
			Service: "pricing", Action: "GetProducts",
			Params:      map[string]string{"filter.regionCode": region, "NextToken": prev},
			ContentType: pricingType, Body: g.folder.Body(fmt.Sprintf("pricing/%s/GetProducts-%d.json", region, pg+1), data),
		})
	}
	return nil
}

// productDoc is the Price List document of one priced type in one region; ok is
// false when the row has no Linux price at all.
func productDoc(p priceRow) (string, bool, error) {
	sku := skuOf(p.region, p.typ)
	date := asOf
	if p.currency == "CNY" {
		date = asOfChina
	}
	var doc product
	doc.Product.ProductFamily = "Compute Instance"
	doc.Product.SKU = sku
	doc.Product.Attributes = map[string]string{
		"servicecode": "AmazonEC2", "regionCode": p.region, "instanceType": p.typ,
		"operatingSystem": "Linux", "tenancy": "Shared",
		"preInstalledSw": "NA", "capacitystatus": "Used", "licenseModel": "No License required", "operation": "RunInstances",
	}
	doc.ServiceCode = "AmazonEC2"
	doc.Version = strings.ReplaceAll(date, "-", "") + "000000"
	doc.PublicationDate = date + "T00:00:00Z"
	effective := date + "T00:00:00Z"
	dim := func(code, rate, unit string, amount decimal.Decimal) (string, dimension) {
		return sku + "." + code + "." + rate, dimension{Unit: unit, PricePerUnit: map[string]string{p.currency: priceText(amount)}}
	}
	mkTerm := func(code string, attrs map[string]string, dims ...func() (string, dimension)) term {
		t := term{PriceDimensions: map[string]dimension{}, SKU: sku, EffectiveDate: effective, OfferTermCode: code, TermAttributes: attrs}
		for _, d := range dims {
			k, v := d()
			t.PriceDimensions[k] = v
		}
		return t
	}
	priced := false
	if p.onDemand != "" {
		od, err := decimal.NewFromString(p.onDemand)
		if err != nil {
			return "", false, fmt.Errorf("%s in %s: on-demand %q: %w", p.typ, p.region, p.onDemand, err)
		}
		code := "JRTCKXETXF"
		doc.Terms.OnDemand = map[string]term{sku + "." + code: mkTerm(code, map[string]string{}, func() (string, dimension) {
			return dim(code, hourlyRate, "Hrs", od)
		})}
		priced = true
	}
	reserved := []struct {
		value, code, lease, option string
		years                      int64
	}{
		{p.r1NoUpfront, "4NA7Y494T4", "1yr", "No Upfront", 1},
		{p.r1AllUpfront, "6QCMYABX3D", "1yr", "All Upfront", 1},
		{p.r3NoUpfront, "BPH4J8HBKS", "3yr", "No Upfront", 3},
		{p.r3All, "NQ3QZPMQV9", "3yr", "All Upfront", 3},
	}
	for _, r := range reserved {
		if r.value == "" {
			continue
		}
		eff, err := decimal.NewFromString(r.value)
		if err != nil {
			return "", false, fmt.Errorf("%s in %s: reserved %s %s %q: %w", p.typ, p.region, r.lease, r.option, r.value, err)
		}
		attrs := map[string]string{"LeaseContractLength": r.lease, "OfferingClass": "standard", "PurchaseOption": r.option}
		var t term
		if r.option == "No Upfront" {
			t = mkTerm(r.code, attrs, func() (string, dimension) {
				return dim(r.code, hourlyRate, "Hrs", eff)
			})
		} else {
			// The source gives the effective hourly rate of an all-upfront
			// reservation; the Price List states it as the fee over the term.
			fee := eff.Mul(decimal.NewFromInt(8760 * r.years))
			t = mkTerm(r.code, attrs,
				func() (string, dimension) {
					return dim(r.code, hourlyRate, "Hrs", decimal.Zero)
				},
				func() (string, dimension) { return dim(r.code, upfrontRate, "Quantity", fee) })
		}
		if doc.Terms.Reserved == nil {
			doc.Terms.Reserved = map[string]term{}
		}
		doc.Terms.Reserved[sku+"."+r.code] = t
		priced = true
	}
	if !priced {
		return "", false, nil
	}
	data, err := json.Marshal(doc)
	return string(data), true, err
}

// priceText writes an amount as the Price List does (ten decimal places), without
// ever rounding a figure that has more.
func priceText(d decimal.Decimal) string {
	if d.Exponent() < -10 {
		return d.String()
	}
	return d.StringFixed(10)
}

// skuOf is a stable SKU for a type in a region (AWS's are opaque 16-character codes).
func skuOf(region, typ string) string {
	h := sha256.Sum256([]byte(region + "/" + typ))
	return base32.StdEncoding.EncodeToString(h[:])[:16]
}
