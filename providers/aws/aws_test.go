package aws

import (
	"context"
	"errors"
	"os"
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
	testKeyID  = "AKIATESTKEY000000001"
	testSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYTESTSECRET"
	testToken  = "IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKEN"
)

var testNow = time.Date(2026, 8, 25, 12, 0, 0, 0, time.UTC)

// harness reaches the replay through the EC2 and Price List clients, with
// static test credentials and no shared config files.
var harness = providertest.Harness{Factory: Factory, Dialect: replay.AWS, Endpoints: providertest.URLs("ec2", "pricing", "spotadvisor"),
	Env:        map[string]string{"AWS_ACCESS_KEY_ID": testKeyID, "AWS_SECRET_ACCESS_KEY": testSecret, "AWS_SESSION_TOKEN": testToken},
	ProcessEnv: map[string]string{"AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull},
	Now:        testNow, Timeout: 10 * time.Second}

func crawlRegion(t testing.TB, srv *replay.Server, region string) *providers.RegionData {
	t.Helper()
	target := harness.Prepare(t, srv)
	d, err := target.Provider.Crawl(context.Background(), region)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func findOffer(t *testing.T, d *providers.RegionData, typ, zone string, b catalog.BillingKind) catalog.Offer {
	t.Helper()
	return providertest.MustOffer(t, d.Offers, typ, zone, b)
}

func TestRegions(t *testing.T) {
	srv := harness.Start(t)
	target := harness.Prepare(t, srv)
	got, err := target.Provider.Regions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 33 || got[0] != "af-south-1" || got[len(got)-1] != "us-west-2" {
		t.Errorf("Regions() = %d regions %v, want 33 from af-south-1 to us-west-2", len(got), got)
	}
	for _, r := range srv.Requests() {
		if r.Action == "DescribeRegions" && r.Region != "us-east-1" {
			t.Errorf("DescribeRegions signed for %q, want us-east-1", r.Region)
		}
	}
}

func TestCrawl_USEast1(t *testing.T) {
	srv := harness.Start(t)
	d := crawlRegion(t, srv, "us-east-1")

	counts := map[catalog.BillingKind]int{}
	for _, o := range d.Offers {
		counts[o.Billing]++
		if o.Provider != catalog.AWS || o.Region != "us-east-1" || !o.FetchedAt.Equal(testNow) || o.Source == "" {
			t.Errorf("offer %s: provider, region, fetched_at or source wrong: %+v", o.Key(), o)
		}
	}
	wantCounts := map[catalog.BillingKind]int{
		catalog.OnDemand: 79, catalog.Spot: 278,
		catalog.Reserved1yNoUpfront: 58, catalog.Reserved1yAllUpfront: 58,
		catalog.Reserved3yNoUpfront: 60, catalog.Reserved3yAllUpfront: 60,
	}
	if diff := cmp.Diff(wantCounts, counts); diff != "" {
		t.Errorf("offers per billing kind (-want +got):\n%s", diff)
	}
	if len(d.Instances) != 98 {
		t.Errorf("%d instance types, want 98", len(d.Instances))
	}
	if len(d.Placements) != 329 {
		t.Errorf("%d placements, want 329", len(d.Placements))
	}

	for _, tc := range []struct {
		typ, amount string
	}{
		{"p5.48xlarge", "55.04"},
		{"g5.xlarge", "1.006"},
		{"g4dn.xlarge", "0.526"},
		{"p4d.24xlarge", "21.957642"},
	} {
		t.Run("on_demand/"+tc.typ, func(t *testing.T) {
			o := findOffer(t, d, tc.typ, "", catalog.OnDemand)
			want := catalog.Price{Amount: catalog.Dec(tc.amount), Currency: catalog.USD, Unit: catalog.PerHour}
			if diff := cmp.Diff(want, o.Price); diff != "" {
				t.Errorf("price (-want +got):\n%s", diff)
			}
			if o.Source != "aws:pricing:GetProducts" || o.Availability != catalog.Available || len(o.Zones) == 0 {
				t.Errorf("source %q, availability %q, zones %v; want aws:pricing:GetProducts, available, some zones", o.Source, o.Availability, o.Zones)
			}
		})
	}

	p5 := findOffer(t, d, "p5.48xlarge", "", catalog.OnDemand)
	if diff := cmp.Diff([]string{"us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1e", "us-east-1f"}, p5.Zones); diff != "" {
		t.Errorf("p5.48xlarge zones (-want +got):\n%s", diff)
	}
	// A retired type still priced but not offered keeps its price, availability unknown.
	p3 := findOffer(t, d, "p3.2xlarge", "", catalog.OnDemand)
	if p3.Availability != catalog.Unknown || len(p3.Zones) != 0 {
		t.Errorf("p3.2xlarge: availability %q zones %v, want unknown and none", p3.Availability, p3.Zones)
	}

	for _, tc := range []struct {
		typ       string
		billing   catalog.BillingKind
		amount    string
		upfront   string // empty: none
		effective string
	}{
		{"g5.xlarge", catalog.Reserved1yNoUpfront, "0.63378", "", "0.63378"},
		{"g5.xlarge", catalog.Reserved1yAllUpfront, "0", "5182.00428", "0.591553"},
		{"p4d.24xlarge", catalog.Reserved3yAllUpfront, "0", "214419.99168", "8.159056"},
	} {
		t.Run(string(tc.billing)+"/"+tc.typ, func(t *testing.T) {
			o := findOffer(t, d, tc.typ, "", tc.billing)
			if !o.Price.Amount.Equal(catalog.Dec(tc.amount)) || o.Price.Currency != catalog.USD || o.Price.Unit != catalog.PerHour {
				t.Errorf("price %s, want %s USD/hour", o.Price, tc.amount)
			}
			switch {
			case tc.upfront == "" && o.Price.Upfront != nil:
				t.Errorf("upfront %s, want none", o.Price.Upfront)
			case tc.upfront != "" && (o.Price.Upfront == nil || !o.Price.Upfront.Equal(catalog.Dec(tc.upfront))):
				t.Errorf("upfront %v, want %s", o.Price.Upfront, tc.upfront)
			}
			h, err := o.Price.Hourly(tc.billing.TermHours())
			if err != nil {
				t.Fatal(err)
			}
			if !h.Equal(catalog.Dec(tc.effective)) {
				t.Errorf("effective hourly %s, want %s", h, tc.effective)
			}
		})
	}

	spot := findOffer(t, d, "g5.xlarge", "us-east-1a", catalog.Spot)
	want := catalog.Offer{
		Provider: catalog.AWS, InstanceType: "g5.xlarge", Region: "us-east-1", Zone: "us-east-1a", Billing: catalog.Spot,
		Price:        catalog.Price{Amount: catalog.Dec("0.39388"), Currency: catalog.USD, Unit: catalog.PerHour},
		Availability: catalog.Available, Source: "aws:ec2:DescribeSpotPriceHistory", FetchedAt: testNow,
		// The replayed advisor feed (2025-06-28 copy): g5.xlarge in us-east-1 is r 4, s 59.
		Interruption: &catalog.Interruption{Band: catalog.BandOver20, SavingsPct: 59, ObservedAt: testNow, Source: "aws:spot-advisor:spot-advisor-data.json"},
	}
	if diff := cmp.Diff(want, spot); diff != "" {
		t.Errorf("spot offer (-want +got):\n%s", diff)
	}

	// Spot requests ask only for the current price of the described types.
	for _, r := range srv.Requests() {
		if r.Action != "DescribeSpotPriceHistory" {
			continue
		}
		if r.Params["ProductDescription.1"] != "Linux/UNIX" || r.Params["StartTime"] != "2026-08-25T12:00:00Z" || r.Params["InstanceType.1"] == "" {
			t.Errorf("spot request params %v, want Linux/UNIX from now for the described types", r.Params)
		}
	}
}

func TestCrawl_Pagination(t *testing.T) {
	srv := harness.Start(t)
	crawlRegion(t, srv, "us-east-1")
	pages := map[string]int{}
	for _, e := range srv.Manifest.Exchanges {
		if e.Region == "us-east-1" || e.Params["filter.regionCode"] == "us-east-1" {
			pages[e.Action]++
		}
	}
	for _, action := range []string{"DescribeInstanceTypes", "DescribeInstanceTypeOfferings", "DescribeSpotPriceHistory", "GetProducts"} {
		if pages[action] < 2 {
			t.Errorf("fixture has %d pages of %s in us-east-1; the test needs several", pages[action], action)
		}
		if got := srv.Count(action); got != pages[action] {
			t.Errorf("%s: %d requests, want one per page (%d)", action, got, pages[action])
		}
	}
	var tokens []string
	for _, r := range srv.Requests() {
		if r.Action == "DescribeInstanceTypes" {
			tokens = append(tokens, r.Params["NextToken"])
		}
	}
	want := []string{"", "DescribeInstanceTypes-us-east-1-p2", "DescribeInstanceTypes-us-east-1-p3", "DescribeInstanceTypes-us-east-1-p4", "DescribeInstanceTypes-us-east-1-p5"}
	if diff := cmp.Diff(want, tokens); diff != "" {
		t.Errorf("DescribeInstanceTypes next tokens (-want +got):\n%s", diff)
	}
}

func TestCrawl_ThrottledThenSucceeds(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Action == "DescribeInstanceTypes" && n <= 2 {
			return &replay.Response{Status: 503, ContentType: "text/xml",
				Body: `<Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request limit exceeded.</Message></Error></Errors><RequestID>r1</RequestID></Response>`}
		}
		return nil
	}
	d := crawlRegion(t, srv, "us-east-1")
	if len(d.Instances) != 98 {
		t.Errorf("%d instance types after retries, want 98", len(d.Instances))
	}
	var attempts []string
	for _, r := range srv.Requests() {
		if r.Action == "DescribeInstanceTypes" {
			attempts = append(attempts, r.Header.Get("Amz-Sdk-Request"))
		}
	}
	if len(attempts) != 5+2 {
		t.Fatalf("%d DescribeInstanceTypes requests, want 5 pages + 2 retries", len(attempts))
	}
	// The adapter retries (providers.Retry); the SDK's retryer makes one
	// attempt per call, so retries never double up.
	for i, a := range attempts {
		if a != "attempt=1; max=1" {
			t.Errorf("request %d: Amz-Sdk-Request %q, want the SDK's single attempt", i, a)
		}
	}
}

func TestCrawl_ThrottledBeyondAttempts(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Action == "GetProducts" {
			return &replay.Response{Status: 429, ContentType: "application/x-amz-json-1.1", Body: `{"__type":"ThrottlingException","Message":"Rate exceeded"}`}
		}
		return nil
	}
	target := harness.Prepare(t, srv)
	_, err := target.Provider.Crawl(context.Background(), "us-east-1")
	if !errors.Is(err, providers.ErrThrottled) {
		t.Fatalf("Crawl() error = %v, want one that is providers.ErrThrottled", err)
	}
	if !strings.HasPrefix(err.Error(), "aws: get products for us-east-1: ") {
		t.Errorf("error %q does not say what failed where", err)
	}
	// Throttling has its own, longer patience than the 3 attempts server
	// errors get: max(10, 3 × attempts) throttled answers.
	if got := srv.Count("GetProducts"); got != 10 {
		t.Errorf("%d GetProducts attempts, want the throttling patience (10)", got)
	}
}

func TestCrawl_FailingRegionIsPartialCoverage(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Service == "ec2" && req.Region == "us-west-2" {
			return &replay.Response{Status: 500, ContentType: "text/xml",
				Body: `<Response><Errors><Error><Code>InternalError</Code><Message>An internal error has occurred</Message></Error></Errors><RequestID>r2</RequestID></Response>`}
		}
		return nil
	}
	target := harness.Prepare(t, srv)
	snap, err := providers.Crawl(context.Background(), []providers.Target{target}, providers.Options{
		Reference: providertest.Reference(t), Clock: func() time.Time { return testNow },
		OnlyRegions: []string{"eu-west-1", "us-east-1", "us-west-2"},
	})
	if err != nil {
		t.Fatal(err)
	}
	cov := snap.Coverage[0]
	if cov.Status != catalog.CoveragePartial || cov.Regions != 2 || len(cov.FailedRegions) != 1 || cov.FailedRegions[0].Region != "us-west-2" {
		t.Fatalf("coverage %+v, want partial with 2 regions ok and us-west-2 failed", cov)
	}
	if r := cov.FailedRegions[0].Reason; !strings.Contains(r, "InternalError") || !strings.HasPrefix(r, "aws: describe instance types in us-west-2: ") {
		t.Errorf("failure reason %q, want the action, the region and the error code", r)
	}
	regions := map[string]bool{}
	for _, o := range snap.Offers {
		regions[o.Region] = true
	}
	if diff := cmp.Diff(map[string]bool{"eu-west-1": true, "us-east-1": true}, regions); diff != "" {
		t.Errorf("regions with offers (-want +got):\n%s", diff)
	}
	if err := snap.Validate(); err != nil {
		t.Errorf("snapshot does not validate: %v", err)
	}

	_, err = target.Provider.Crawl(context.Background(), "us-west-2")
	if !errors.Is(err, providers.ErrUnavailable) {
		t.Errorf("Crawl(us-west-2) error = %v, want one that is providers.ErrUnavailable", err)
	}
}

func TestCrawl_SigningRegion(t *testing.T) {
	for _, tc := range []struct {
		region, pricingRegion string
	}{
		{"eu-west-1", "us-east-1"},
		{"us-gov-west-1", "us-east-1"},
		{"cn-north-1", "cn-northwest-1"},
	} {
		t.Run(tc.region, func(t *testing.T) {
			srv := harness.Start(t)
			crawlRegion(t, srv, tc.region)
			for _, r := range srv.Requests() {
				if r.Service == "spotadvisor" {
					// A public document: asked without a signature or any credential.
					if auth := r.Header.Get("Authorization"); auth != "" || r.Header.Get("X-Amz-Security-Token") != "" {
						t.Errorf("advisor feed asked with credentials: %q", auth)
					}
					continue
				}
				want := tc.region
				if r.Service == "pricing" {
					want = tc.pricingRegion
				}
				if r.Region != want {
					t.Errorf("%s %s signed for region %q, want %q", r.Service, r.Action, r.Region, want)
				}
				if auth := r.Header.Get("Authorization"); !strings.Contains(auth, "Credential="+testKeyID+"/") {
					t.Errorf("%s signed with %q, want the configured key", r.Action, auth)
				}
			}
		})
	}
}

func TestCrawl_ChinaPricesInYuan(t *testing.T) {
	srv := harness.Start(t)
	d := crawlRegion(t, srv, "cn-north-1")
	if len(d.Offers) == 0 || len(d.Placements) != 0 {
		t.Fatalf("%d offers and %d placements, want offers and no placements (no offering data for China)", len(d.Offers), len(d.Placements))
	}
	kinds := map[catalog.BillingKind]bool{}
	for _, o := range d.Offers {
		kinds[o.Billing] = true
		if o.Price.Currency != catalog.CNY || o.Billing == catalog.Spot || o.Availability != catalog.Unknown {
			t.Errorf("offer %s: %s %s %s, want a CNY list price with unknown availability", o.Key(), o.Billing, o.Price, o.Availability)
		}
	}
	if !kinds[catalog.OnDemand] || !kinds[catalog.Reserved3yAllUpfront] {
		t.Errorf("billing kinds %v, want on-demand and reserved", kinds)
	}
	o := findOffer(t, d, "g4dn.xlarge", "", catalog.Reserved1yAllUpfront)
	if h, err := o.Price.Hourly(catalog.Reserved1yAllUpfront.TermHours()); err != nil || !h.Equal(catalog.Dec("2.559475")) {
		t.Errorf("g4dn.xlarge 1y all upfront effective hourly %s (%v), want 2.559475 CNY", h, err)
	}
}

func TestCrawl_UnknownGPUIsUnmapped(t *testing.T) {
	srv := harness.StartDir(t, "testdata/cases/unknown-gpu")
	target := harness.Prepare(t, srv)
	snap, err := providers.Crawl(context.Background(), []providers.Target{target}, providers.Options{Reference: providertest.Reference(t), Clock: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	wantUnmapped := []catalog.UnmappedAccelerator{{Provider: catalog.AWS, Name: "Zeta 9000", InstanceTypes: []string{"zz9.xlarge"}}}
	if diff := cmp.Diff(wantUnmapped, snap.Unmapped); diff != "" {
		t.Errorf("unmapped (-want +got):\n%s", diff)
	}
	models := map[string]string{}
	for _, it := range snap.Instances {
		for _, a := range it.Accelerators {
			models[it.ID] = a.Model
		}
	}
	want := map[string]string{"zz9.xlarge": "", "g4dn.xlarge": "nvidia-t4-16gb"}
	if diff := cmp.Diff(want, models); diff != "" {
		t.Errorf("instance types and their models (-want +got):\n%s", diff)
	}
	if cov := snap.Coverage[0]; cov.Status != catalog.CoverageOK {
		t.Errorf("coverage %+v, want ok", cov)
	}
	// DescribeRegions, then per region the four calls, and the advisor feed.
	if got := target.Transport.Requests(); got != 6 {
		t.Errorf("transport counted %d requests, want 6", got)
	}
}

func TestNew_NoCredentials(t *testing.T) {
	t.Setenv("AWS_CONFIG_FILE", "/dev/null")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
		"AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI"} {
		t.Setenv(k, "")
	}
	target := providers.Prepare(Factory, providers.Config{Getenv: func(string) string { return "" }})
	if !errors.Is(target.Err, providers.ErrNoCredentials) {
		t.Fatalf("Prepare() error = %v, want providers.ErrNoCredentials", target.Err)
	}
	snap, err := providers.Crawl(context.Background(), []providers.Target{target}, providers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cov := snap.Coverage[0]; cov.Status != catalog.CoverageSkipped {
		t.Errorf("coverage %+v, want skipped", cov)
	}
}

func TestErrors_NeverShowCredentials(t *testing.T) {
	srv := harness.Start(t)
	// Some AWS error messages quote what the request carried; the adapter must not
	// pass credentials on into coverage reports.
	echo := "The security token " + testToken + " for " + testKeyID + " (" + testSecret + ") is invalid."
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Service == "pricing" {
			return &replay.Response{Status: 403, ContentType: "application/x-amz-json-1.1", Body: `{"__type":"UnrecognizedClientException","Message":"` + echo + `"}`}
		}
		return &replay.Response{Status: 401, ContentType: "text/xml",
			Body: `<Response><Errors><Error><Code>AuthFailure</Code><Message>` + echo + `</Message></Error></Errors><RequestID>r3</RequestID></Response>`}
	}
	target := harness.Prepare(t, srv)
	_, regionsErr := target.Provider.Regions(context.Background())
	_, crawlErr := target.Provider.Crawl(context.Background(), "us-east-1")
	srv.Close()
	_, closedErr := target.Provider.Crawl(context.Background(), "us-east-1")
	for name, err := range map[string]error{"regions": regionsErr, "crawl": crawlErr, "closed server": closedErr} {
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		for _, secret := range []string{testSecret, testToken, testKeyID} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("%s: error text shows a credential: %v", name, err)
			}
		}
	}
	if !errors.Is(regionsErr, providers.ErrAuth) || !errors.Is(crawlErr, providers.ErrAuth) {
		t.Errorf("errors %v / %v, want providers.ErrAuth", regionsErr, crawlErr)
	}
	if !errors.Is(closedErr, providers.ErrUnavailable) {
		t.Errorf("error %v, want providers.ErrUnavailable for a server that is gone", closedErr)
	}
}

func TestNew_EndpointFromEnvironment(t *testing.T) {
	srv := harness.Start(t)
	cfg := harness.Config(srv)
	cfg.Endpoints = nil
	env := map[string]string{
		"AWS_ACCESS_KEY_ID": testKeyID, "AWS_SECRET_ACCESS_KEY": testSecret,
		"AWS_ENDPOINT_URL_EC2": srv.URL, "AWS_REGION": "eu-west-1",
	}
	cfg.Getenv = func(k string) string { return env[k] }
	target := providers.Prepare(harness.Unlimited(), cfg)
	if target.Err != nil {
		t.Fatal(target.Err)
	}
	if _, err := target.Provider.Regions(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := srv.Requests(); len(r) != 1 || r[0].Region != "eu-west-1" {
		t.Errorf("requests %+v, want one DescribeRegions signed for eu-west-1", r)
	}
}
