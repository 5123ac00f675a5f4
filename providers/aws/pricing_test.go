package aws

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

func TestPriceListOffers(t *testing.T) {
	now := time.Date(2026, 8, 25, 0, 0, 0, 0, time.UTC)
	const doc = `{"product":{"sku":"S","attributes":{"instanceType":"g5.xlarge","regionCode":"cn-north-1"}},
	"terms":{"OnDemand":{"S.JRTCKXETXF":{"priceDimensions":{"S.JRTCKXETXF.6YS6EN2CT7":{"unit":"Hrs","pricePerUnit":{"CNY":"8.5970000000"}}}}},
	"Reserved":{
	 "S.6QCMYABX3D":{"priceDimensions":{"S.6QCMYABX3D.2TG2D8R56U":{"unit":"Quantity","pricePerUnit":{"CNY":"44921"}},"S.6QCMYABX3D.6YS6EN2CT7":{"unit":"Hrs","pricePerUnit":{"CNY":"0.0000000000"}}},"termAttributes":{"LeaseContractLength":"1yr","OfferingClass":"standard","PurchaseOption":"All Upfront"}},
	 "S.CONVERT":{"priceDimensions":{"S.CONVERT.6YS6EN2CT7":{"unit":"Hrs","pricePerUnit":{"CNY":"5"}}},"termAttributes":{"LeaseContractLength":"1yr","OfferingClass":"convertible","PurchaseOption":"No Upfront"}},
	 "S.PARTIAL":{"priceDimensions":{"S.PARTIAL.6YS6EN2CT7":{"unit":"Hrs","pricePerUnit":{"CNY":"2"}}},"termAttributes":{"LeaseContractLength":"3yr","OfferingClass":"standard","PurchaseOption":"Partial Upfront"}}}}}`
	var prod priceListProduct
	if err := json.Unmarshal([]byte(doc), &prod); err != nil {
		t.Fatal(err)
	}
	got, err := priceListOffers(prod, "cn-north-1", now)
	if err != nil {
		t.Fatal(err)
	}
	offer := func(b catalog.BillingKind, p catalog.Price) catalog.Offer {
		return catalog.Offer{Provider: catalog.AWS, InstanceType: "g5.xlarge", Region: "cn-north-1", Billing: b, Price: p,
			Availability: catalog.Unknown, Source: "aws:pricing:GetProducts", FetchedAt: now}
	}
	want := []catalog.Offer{
		offer(catalog.OnDemand, catalog.Price{Amount: catalog.Dec("8.597"), Currency: catalog.CNY, Unit: catalog.PerHour}),
		offer(catalog.Reserved1yAllUpfront, catalog.Price{Amount: catalog.Dec("0"), Currency: catalog.CNY, Unit: catalog.PerHour, Upfront: catalog.DecPtr("44921")}),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("offers (-want +got):\n%s", diff)
	}
}

func TestTermPrice_Errors(t *testing.T) {
	tests := map[string]string{
		"not a number":     `{"priceDimensions":{"a":{"unit":"Hrs","pricePerUnit":{"USD":"abc"}}}}`,
		"negative":         `{"priceDimensions":{"a":{"unit":"Hrs","pricePerUnit":{"USD":"-1"}}}}`,
		"two currencies":   `{"priceDimensions":{"a":{"unit":"Hrs","pricePerUnit":{"USD":"1","CNY":"7"}}}}`,
		"mixed currencies": `{"priceDimensions":{"a":{"unit":"Hrs","pricePerUnit":{"USD":"1"}},"b":{"unit":"Quantity","pricePerUnit":{"CNY":"7"}}}}`,
	}
	for name, doc := range tests {
		t.Run(name, func(t *testing.T) {
			var term priceListTerm
			if err := json.Unmarshal([]byte(doc), &term); err != nil {
				t.Fatal(err)
			}
			if _, _, _, err := termPrice(term); err == nil {
				t.Error("no error")
			}
		})
	}
}

// A price dimension without a currency (pricePerUnit empty, or keyed by an
// empty code) is an error that names the provider, the API and the field.
func TestPriceListOffers_NoCurrency(t *testing.T) {
	for name, units := range map[string]string{"empty": `{}`, "blank code": `{"":"1.5"}`} {
		t.Run(name, func(t *testing.T) {
			doc := `{"product":{"attributes":{"instanceType":"g5.xlarge"}},"terms":{"OnDemand":{"S.T":{"priceDimensions":{"S.T.D":{"unit":"Hrs","pricePerUnit":` + units + `}}}}}}`
			var prod priceListProduct
			if err := json.Unmarshal([]byte(doc), &prod); err != nil {
				t.Fatal(err)
			}
			_, err := priceListOffers(prod, "us-east-1", time.Time{})
			want := "aws: GetProducts in us-east-1: answer has no currency (field pricePerUnit of g5.xlarge's on-demand term S.T)"
			if !errors.Is(err, providers.ErrNoCurrency) || err.Error() != want {
				t.Errorf("err = %v, want %q", err, want)
			}
		})
	}
}
