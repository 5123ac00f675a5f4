package sitegen

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/internal/datatest"
)

// TestOffersCSV_Columns holds the export's contract: the first sixteen columns
// as they were, the next eight, then observed_at, the band and reported, with
// real rows of the embedded catalog.
func TestOffersCSV_Columns(t *testing.T) {
	snap := datatest.Snapshot(t)
	var out bytes.Buffer
	if err := WriteOffersCSV(&out, snap); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"provider", "instance_type", "region", "zone", "billing", "price", "currency", "unit",
		"price_usd_per_hour", "gpu_model", "gpu_count", "gpu_memory_gib", "vcpus", "memory_gib", "source", "fetched_at",
		"upfront", "availability", "gpu_name", "gpu_memory_gib_each", "family", "synthetic", "suspect", "includes",
		"observed_at", "price_min", "price_max", "reported",
		"interruption_status", "interruption_band", "interruption_savings_pct", "interruption_observed_at",
		"price_estimated", "price_per_gpu_hour", "price_per_gib_hour", "saving_vs_on_demand_pct", "spot_risk_price_per_hour",
		"subscription_per_month", "subscription_hourly_equivalent", "price_machine", "price_accelerators"}
	if diff := cmp.Diff(want, recs[0]); diff != "" {
		t.Fatalf("header (-want +got):\n%s", diff)
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	row := func(provider, typ, region, zone, billing string) []string {
		for _, r := range recs[1:] {
			if r[0] == provider && r[1] == typ && r[2] == region && r[3] == zone && r[4] == billing {
				return r
			}
		}
		t.Fatalf("no row %s/%s/%s/%s/%s", provider, typ, region, zone, billing)
		return nil
	}
	get := func(r []string, c string) string { return r[col[c]] }
	for _, tc := range []struct {
		name                           string
		r                              []string
		fetched, observed, lo, hi, rep string
	}{
		{"Alibaba: capture date unknown", row("alibaba", "ecs.gn7i-c8g1.2xlarge", "cn-beijing", "cn-beijing-i", "on_demand"),
			"2026-11-30T00:00:00Z", "", "", "", "false"},
		{"AWS: a regional spot average with its band", row("aws", "p5.48xlarge", "us-east-1", "us-east-1a", "spot"),
			"2026-11-30T00:00:00Z", "2025-11-30T00:00:00Z", "13.2182", "52.0766", "false"},
		{"AWS China: the China file's date", row("aws", "g3.4xlarge", "cn-north-1", "", "on_demand"),
			"2026-11-30T00:00:00Z", "2026-01-21T00:00:00Z", "", "", "false"},
		{"Huawei: the reported price", row("huawei", "p2v.16xlarge.8", "cn-north-4", "", "on_demand"),
			"2026-12-01T00:00:00Z", "2026-07-13T00:00:00Z", "", "", "true"},
	} {
		got := []string{get(tc.r, "fetched_at"), get(tc.r, "observed_at"), get(tc.r, "price_min"), get(tc.r, "price_max"), get(tc.r, "reported")}
		if diff := cmp.Diff([]string{tc.fetched, tc.observed, tc.lo, tc.hi, tc.rep}, got); diff != "" {
			t.Errorf("%s: fetched, observed, min, max, reported (-want +got):\n%s", tc.name, diff)
		}
	}
	// An estimated spot price says so in the last column; an observed one does
	// not (af-south-1 has only estimates, us-east-1's p5 spot is observed).
	if got := get(row("aws", "g4dn.xlarge", "af-south-1", "af-south-1b", "spot"), "price_estimated"); got != "true" {
		t.Errorf("g4dn.xlarge af-south-1 spot: price_estimated %q, want true", got)
	}
	if got := get(row("aws", "p5.48xlarge", "us-east-1", "us-east-1a", "spot"), "price_estimated"); got != "false" {
		t.Errorf("p5.48xlarge us-east-1 spot: price_estimated %q, want false", got)
	}
	// The JSON export has the same columns; reported is a boolean.
	out.Reset()
	if err := WriteOffersJSON(&out, snap); err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(out.Bytes(), &objs); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if o["provider"] == "huawei" && o["reported"] != true {
			t.Errorf("huawei reported = %#v", o["reported"])
		}
		if o["provider"] == "alibaba" && o["observed_at"] != "" {
			t.Fatalf("alibaba observed_at = %#v", o["observed_at"])
		}
	}
}
