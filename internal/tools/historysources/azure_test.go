package main

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// TestRun_Azure reads Azure's price versions (testdata cut from the fourth
// batch): the ND H200 v5 in australiaeast changes from 171.1 to 122.96 USD/h,
// the ND H100 v5 in eastus holds 98.32 over its versions, a size name with
// trailing spaces is trimmed, and every record is dated by its version and the
// batch's retrieval day.
func TestRun_Azure(t *testing.T) {
	out := convert(t)
	obs := read(t, out, "azure_on_demand_2023_2026.jsonl")
	if len(obs) == 0 {
		t.Fatal("no Azure observations")
	}
	prices := map[string][]string{}
	for _, o := range obs {
		if o.Provider != catalog.Azure || o.Billing != catalog.OnDemand || o.Price.Currency != catalog.USD {
			t.Errorf("%s: %s %s: want Azure on demand in USD", o.SeriesKey(), o.Billing, o.Price)
		}
		if !o.RetrievedAt.Equal(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)) || o.ObservedAt.After(o.RetrievedAt) {
			t.Errorf("%s observed %s retrieved %s", o.SeriesKey(), o.ObservedAt, o.RetrievedAt)
		}
		if strings.TrimSpace(o.InstanceType) != o.InstanceType {
			t.Errorf("size %q is not trimmed", o.InstanceType)
		}
		k := o.InstanceType + "/" + o.Region
		prices[k] = append(prices[k], o.Price.Amount.String())
	}
	has := func(k string, want ...string) {
		t.Helper()
		got := strings.Join(prices[k], " ")
		for _, w := range want {
			if !strings.Contains(" "+got+" ", " "+w+" ") {
				t.Errorf("%s: prices %q lack %s", k, got, w)
			}
		}
	}
	has("Standard_ND96isr_H200_v5/australiaeast", "171.1", "122.96")
	has("Standard_ND96isr_H100_v5/eastus", "98.32")
	if len(prices["Standard_NM16ads_MA35D/eastus"]) == 0 {
		t.Error("the size with trailing spaces in its name is missing")
	}
}
