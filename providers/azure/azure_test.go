package azure

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	testSecret       = "azTESTsecret~0000000000000000000000001"
	testSubscription = "11111111-2222-3333-4444-555555555555"
	casesDir         = "testdata/cases/commitments"
)

var fixedNow = time.Date(2026, 6, 20, 12, 0, 0, 0, time.UTC)

// harness reaches the replay through the real clients: armcompute's
// Resource SKUs client with an azidentity client secret credential (its
// token from the replayed identity service), and the Retail Prices calls;
// the adapter's transport sends each service's host to the replay.
var harness = providertest.Harness{Factory: Factory, Dialect: replay.Azure, Endpoints: providertest.URLs(serviceARM, serviceLogin, servicePrices),
	Env: map[string]string{envSubscription: testSubscription, envTenant: "replay-tenant", envClientID: "replay-client", envSecret: testSecret}, Now: fixedNow}

func TestCrawl_RealRegion(t *testing.T) {
	srv := harness.Start(t)
	snap, _ := harness.CrawlOK(t, srv, "eastus")
	// eastus: 38 sizes of the size table are priced in the 2026-06-18 table.
	if len(snap.Instances) != 38 || len(snap.Offers) != 38 {
		t.Errorf("instances = %d, offers = %d, want 38 each", len(snap.Instances), len(snap.Offers))
	}
	o := providertest.MustOffer(t, snap.Offers, "Standard_ND96isr_H100_v5", "", catalog.OnDemand)
	if o.Price.String() != "98.32 USD/hour" || o.Source != sourcePrices {
		t.Errorf("offer = %s from %s", o.Price, o.Source)
	}
	h100, _ := providertest.FindInstance(snap.Instances, "Standard_ND96isr_H100_v5")
	if a := h100.Accelerators[0]; a.Model != "nvidia-h100-sxm-80gb" || a.Count != 8 || !a.Share.Equal(catalog.Dec("1")) || h100.VCPUs != 96 {
		t.Errorf("ND96isr_H100_v5 = %+v", h100)
	}
	// The API counts a partition of an A10 as 1 GPU and an MI300X size as 0:
	// the size name says a sixth of one A10, and eight MI300X.
	nv6, _ := providertest.FindInstance(snap.Instances, "Standard_NV6ads_A10_v5")
	if a := nv6.Accelerators[0]; a.Model != "nvidia-a10-24gb" || a.Count != 1 || !a.Share.Equal(catalog.Dec("1").Div(catalog.Dec("6"))) && a.Share.StringFixed(4) != "0.1667" || !a.MemoryGiB.Equal(catalog.Dec("4")) {
		t.Errorf("NV6ads_A10_v5 accelerator = %+v", a)
	}
	counts := map[string]int{}
	for _, r := range srv.Requests() {
		counts[r.Action]++
		if r.Service == "arm" && (r.Params["subscription_id"] != testSubscription || r.Header.Get("Authorization") != "Bearer replay-access-token") {
			t.Errorf("ARM call %s: subscription %q, authorization %q", r.Action, r.Params["subscription_id"], r.Header.Get("Authorization"))
		}
		if r.Service == "prices" && r.Header.Get("Authorization") != "" {
			t.Error("the public price API was sent credentials")
		}
	}
	// The SKU list in five pages (nextLink), eastus's prices in three
	// (NextPageLink), one token.
	want := map[string]int{"GET /common/discovery/instance": 1, "GET /{tenant}/v2.0/.well-known/openid-configuration": 1,
		"POST /{tenant}/oauth2/v2.0/token": 1, "GET /subscriptions/{subscription_id}/providers/Microsoft.Compute/skus": 5, "GET /api/retail/prices": 3}
	if diff := cmp.Diff(want, counts); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestCrawl_SpotCommitmentsAndZones(t *testing.T) {
	srv := harness.StartDir(t, casesDir)
	snap := harness.CrawlTargets(t, []providers.Target{providers.Prepare(harness.Unlimited(), harness.Config(srv))})
	if cov := providertest.CoverageOf(snap, catalog.Azure); cov.Status != catalog.CoverageOK || cov.Regions != 1 {
		t.Fatalf("coverage = %+v", cov)
	}
	var ids []string
	for _, it := range snap.Instances {
		ids = append(ids, it.ID)
	}
	if diff := cmp.Diff([]string{"Standard_ND96isr_H100_v5", "Standard_NG8ads_V620_v1", "Standard_NV6ads_A10_v5"}, ids); diff != "" {
		t.Errorf("instances (-want +got):\n%s", diff)
	}
	ng, _ := providertest.FindInstance(snap.Instances, "Standard_NG8ads_V620_v1")
	if a := ng.Accelerators[0]; a.Count != 1 || !a.Share.Equal(catalog.Dec("0.25")) || a.Model != "" || a.Name != "AMD Radeon Pro V620" {
		t.Errorf("NG8ads_V620_v1 (API: 0 GPUs) = %+v", a)
	}
	var offers []string
	for _, o := range snap.Offers {
		offers = append(offers, o.InstanceType+" "+string(o.Billing)+" "+o.Price.String()+" "+o.Source)
	}
	want := []string{
		"Standard_ND96isr_H100_v5 on_demand 90.5 USD/hour " + sourcePrices,
		"Standard_ND96isr_H100_v5 spot 30 USD/hour " + sourceSpot,
		"Standard_ND96isr_H100_v5 reserved_1y_no_upfront 70.25 USD/hour " + sourceSavingsPlan,
		"Standard_ND96isr_H100_v5 reserved_3y_no_upfront 50.125 USD/hour " + sourceSavingsPlan,
		"Standard_NV6ads_A10_v5 on_demand 0.45 USD/hour " + sourcePrices,
	}
	var rest []string
	for _, o := range offers {
		if strings.Contains(o, "all_upfront") {
			rest = append(rest, o)
		}
	}
	got := []string{}
	for _, o := range offers {
		if !strings.Contains(o, "all_upfront") {
			got = append(got, o)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("offers (-want +got):\n%s", diff)
	}
	if len(rest) != 2 {
		t.Errorf("reservations = %v, want 1 and 3 years", rest)
	}
	for _, o := range snap.Offers {
		if o.Billing == catalog.Reserved1yAllUpfront && (o.Price.Upfront == nil || !o.Price.Upfront.Equal(catalog.Dec("600000")) || !o.Price.Amount.IsZero()) {
			t.Errorf("1-year reservation = %+v", o.Price)
		}
	}
	var places []string
	for _, p := range snap.Placements {
		if p.InstanceType == "Standard_ND96isr_H100_v5" {
			places = append(places, p.Zone+"="+string(p.Status))
		}
	}
	if diff := cmp.Diff([]string{"westus3-1=available", "westus3-2=available", "westus3-3=sold_out"}, places); diff != "" {
		t.Errorf("H100 placements (-want +got):\n%s", diff)
	}
}

// A 429 with Retry-After is waited out and retried, on the SKU list and on a
// price page; the wait is what the answer asks.
func TestCrawl_ThrottledWithRetryAfter(t *testing.T) {
	srv := harness.StartDir(t, casesDir)
	snap := harness.CrawlThrottled(t, srv, func(req replay.Request) string { return req.Params["$skiptoken"] + "/" + req.Params["$skip"] },
		[2]string{"page-2/", "/3"},
		&replay.Response{Status: 429, ContentType: "application/json", Header: map[string][]string{"Retry-After": {"1"}},
			Body: replay.AzureError("TooManyRequests", "The request is being throttled.")})
	if cov := providertest.CoverageOf(snap, catalog.Azure); cov.Status != catalog.CoverageOK {
		t.Fatalf("coverage = %+v", cov)
	}
	if len(snap.Offers) != 7 {
		t.Errorf("offers = %d, want 7", len(snap.Offers))
	}
}

// Errors: refused credentials fail the provider with the hint, a price page
// that is not JSON fails the region, a NextPageLink that repeats ends the
// listing with an error, and no secret reaches an error's text.
func TestCrawl_Errors(t *testing.T) {
	harness.CheckFailures(t, casesDir, []string{testSecret}, []providertest.Failure{
		{Name: "token refused", Fault: func(req replay.Request, _ int) *replay.Response {
			if strings.HasSuffix(req.Action, "/token") {
				return &replay.Response{Status: 401, ContentType: "application/json",
					Body: `{"error":"invalid_client","error_description":"AADSTS7000215: Invalid client secret provided."}`}
			}
			return nil
		}, Want: "authentication failed"},
		{Name: "subscription not found", Fault: func(req replay.Request, _ int) *replay.Response {
			if req.Service == "arm" {
				return &replay.Response{Status: 404, ContentType: "application/json", Body: replay.AzureError("SubscriptionNotFound", "The subscription could not be found.")}
			}
			return nil
		}, Want: "SubscriptionNotFound"},
		{Name: "price page not JSON", Fault: func(req replay.Request, _ int) *replay.Response {
			if req.Service == "prices" {
				return &replay.Response{Status: 200, ContentType: "text/html", Body: "<html>maintenance</html>"}
			}
			return nil
		}, Want: "not a price page"},
		{Name: "NextPageLink repeats", Fault: func(req replay.Request, _ int) *replay.Response {
			if req.Service == "prices" {
				return &replay.Response{Status: 200, ContentType: "application/json",
					Body: `{"Items":[],"NextPageLink":"https://prices.azure.com/api/retail/prices?$skip=3&$filter=armRegionName%20eq%20%27westus3%27"}`}
			}
			return nil
		}, Want: "repeats"},
	})
}

func TestNew_CredentialsFromTheEnvironmentOnly(t *testing.T) {
	_, err := New(providers.Config{Getenv: func(k string) string {
		return map[string]string{envSubscription: "s", envTenant: "t", envClientID: "c"}[k]
	}})
	if !errors.Is(err, providers.ErrNoCredentials) || !strings.Contains(err.Error(), envSecret) {
		t.Errorf("err = %v, want no credentials naming %s", err, envSecret)
	}
	if _, err := New(providers.Config{Getenv: func(string) string { return "" }}); !errors.Is(err, providers.ErrNoCredentials) {
		t.Errorf("err = %v", err)
	}
}
