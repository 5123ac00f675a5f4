package catalog

import (
	"strings"
	"testing"
	"time"
)

const checkHeader = "provider,instance_type,region,billing,amount,currency,unit,source,source_date\n"

// The real table's a2 rows (data/price_checks.csv) against the Google Cloud
// prices of the embedded catalog: a2-highgpu-1g agrees to the cent
// (3.673385629 against 3.673385), a2-ultragpu-2g's source figure is about
// half the list price and is marked with both; a dated price far from the
// check's date is not held against it.
func TestCrossCheck(t *testing.T) {
	checks, err := ParsePriceChecks("price_checks.csv", strings.NewReader(checkHeader+
		"gcp,a2-highgpu-1g,us-central1,on_demand,3.673385,USD,hour,kubernetes/autoscaler gce_price_info.go,2026-06-23\n"+
		"gcp,a2-ultragpu-2g,us-central1,on_demand,10.1376,USD,hour,kubernetes/autoscaler gce_price_info.go,2026-06-23\n"))
	if err != nil {
		t.Fatal(err)
	}
	gcp := func(typ, amount string) Offer {
		o := awsOffer(typ, "us-central1", "", OnDemand, amount)
		o.Provider = GCP
		return o
	}
	old := gcp("a2-ultragpu-2g", "5.891640008")
	old.ObservedAt = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	spot := gcp("a2-ultragpu-2g", "5.02756")
	spot.Billing = Spot
	west := gcp("a2-ultragpu-2g", "6.4867")
	west.Region = "europe-west4"
	offers := []Offer{gcp("a2-highgpu-1g", "3.673385629"), gcp("a2-ultragpu-2g", "5.891640008"), old, spot, west}
	res := CrossCheck(offers, checks)
	if res[0].Offers != 1 || res[0].Disagree || res[1].Offers != 1 || !res[1].Disagree {
		t.Errorf("results %+v", res)
	}
	want := "kubernetes/autoscaler gce_price_info.go gives 10.1376 USD/hour (2026-06-23), not 5.891640008"
	if offers[1].Suspect != want {
		t.Errorf("suspect %q, want %q", offers[1].Suspect, want)
	}
	want = "in us-central1, kubernetes/autoscaler gce_price_info.go gives 10.1376 USD/hour (2026-06-23) where the source says 5.891640008: its price here is in doubt too"
	if offers[4].Suspect != want {
		t.Errorf("europe-west4: suspect %q, want %q", offers[4].Suspect, want)
	}
	if offers[0].Suspect != "" || offers[2].Suspect != "" || offers[3].Suspect != "" {
		t.Errorf("marked %q, %q, %q: want the agreeing, the year-old and the spot offers left alone", offers[0].Suspect, offers[2].Suspect, offers[3].Suspect)
	}
}

func TestParsePriceChecks_Errors(t *testing.T) {
	for _, tc := range []struct{ row, want string }{
		{"google,a2-highgpu-1g,us-central1,on_demand,3.67,USD,hour,src,2026-06-23", `price_checks.csv:2: unknown provider "google"`},
		{"gcp,a2-highgpu-1g,us-central1,on_demand,-3.67,USD,hour,src,2026-06-23", `price_checks.csv:2: amount "-3.67" is not a positive number`},
		{"gcp,a2-highgpu-1g,us-central1,on_demand,3.67,JPY,hour,src,2026-06-23", `price_checks.csv:2: currency "JPY"`},
		{"gcp,a2-highgpu-1g,us-central1,on_demand,3.67,USD,hour,src,23.06.2026", `price_checks.csv:2: source_date "23.06.2026" is not YYYY-MM-DD`},
		{"gcp,a2-highgpu-1g,us-central1,on_demand,3.67,USD,hour,,2026-06-23", "price_checks.csv:2: instance_type, region and source must all be set"},
	} {
		_, err := ParsePriceChecks("price_checks.csv", strings.NewReader(checkHeader+tc.row+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.row, err, tc.want)
		}
	}
}
