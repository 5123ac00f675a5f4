package catalog

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestPrice_Hourly(t *testing.T) {
	tests := []struct {
		name    string
		price   Price
		billing BillingKind
		want    string
	}{
		{"hourly", Price{Amount: Dec("55.04"), Currency: USD, Unit: PerHour}, OnDemand, "55.04"},
		{"all upfront 1y", Price{Amount: Dec("0"), Currency: USD, Unit: PerHour, Upfront: DecPtr("59724.99672")}, Reserved1yAllUpfront, "6.817922"},
		{"all upfront 3y", Price{Amount: Dec("0"), Currency: USD, Unit: PerHour, Upfront: DecPtr("114574.99212")}, Reserved3yAllUpfront, "4.359779"},
		{"monthly", Price{Amount: Dec("730"), Currency: CNY, Unit: PerMonth}, SubscriptionMonth, "1"},
		{"yearly", Price{Amount: Dec("8760"), Currency: CNY, Unit: PerYear}, SubscriptionYear, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.price.Hourly(tt.billing.TermHours())
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(Dec(tt.want)) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	if _, err := (Price{Amount: Dec("1"), Unit: PerHour, Upfront: DecPtr("5")}).Hourly(decimal.Zero); err == nil {
		t.Error("upfront without a term: want an error")
	}
	if _, err := (Price{Amount: Dec("1"), Unit: "fortnight"}).Hourly(decimal.Zero); err == nil {
		t.Error("unknown unit: want an error")
	}
}

func TestFXTable_Convert(t *testing.T) {
	fx := FXTable{Base: EUR, Date: "2025-11-28", Source: "ecb", Rates: map[Currency]decimal.Decimal{USD: Dec("1.1566"), CNY: Dec("8.1836")}}
	got, err := fx.Convert(Dec("8.1836"), CNY, USD)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(Dec("1.1566")) {
		t.Errorf("8.1836 CNY = %s USD, want 1.1566", got)
	}
	got, _ = fx.Convert(Dec("100"), CNY, USD) // 100 * 1.1566 / 8.1836
	if want := Dec("14.13314434"); !got.Equal(want) {
		t.Errorf("100 CNY = %s USD, want %s", got, want)
	}
	if same, _ := fx.Convert(Dec("3.3"), USD, USD); !same.Equal(Dec("3.3")) {
		t.Error("same-currency conversion changed the amount")
	}
	if _, err := fx.Convert(Dec("1"), "JPY", USD); err == nil {
		t.Error("missing rate: want an error")
	}
}
