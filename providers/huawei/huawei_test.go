package huawei

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	testAK = "HWTESTAKEXAMPLE0001"
	testSK = "hwtestSecretKeyExample0001"
)

var fixedNow = time.Date(2026, 6, 20, 12, 0, 0, 0, time.UTC)

// harness reaches the replay through the IAM, ECS and BSS clients.
var harness = providertest.Harness{Factory: Factory, Dialect: replay.Huawei, Endpoints: providertest.URLs("ecs", "bss", "iam"),
	Env: map[string]string{envAK: testAK, envSK: testSK}, Now: fixedNow}

// projectIDs reads the fixture's IAM answer: region -> project id.
func projectIDs(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("testdata/replay/iam-projects.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Projects []struct{ ID, Name string }
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range v.Projects {
		out[p.Name] = p.ID
	}
	return out
}

func TestCrawl_FullReplay(t *testing.T) {
	srv := harness.Start(t)
	start := time.Now()
	snap, target := harness.Crawl(t, Factory, harness.Config(srv))
	elapsed := time.Since(start)

	cov := snap.Coverage[0]
	if cov.Status != catalog.CoverageOK || cov.Regions != 3 {
		t.Fatalf("coverage = %+v, want ok over 3 regions", cov)
	}
	// 1 IAM call, then per region 1 ListFlavors page + 1 on-demand + 1 period inquiry.
	if got, want := target.Transport.Requests(), 10; got != want {
		t.Errorf("requests = %d, want %d", got, want)
	}
	if got := srv.Count("GET /v3/projects"); got != 1 {
		t.Errorf("IAM KeystoneListProjects calls = %d, want 1", got)
	}
	if got, want := len(snap.Instances), 38; got != want {
		t.Errorf("instances = %d, want %d (the non-GPU c3.2xlarge.2 must be left out)", got, want)
	}
	// Every flavor on demand, month and year, but the 3 g7v.* flavors of
	// cn-north-4, sold pay-per-use only (cond:operation:charge "demand"),
	// which are not asked a subscription price.
	if got, want := len(snap.Offers), 38*3-3*2+16*3+18*3; got != want {
		t.Errorf("offers = %d, want %d", got, want)
	}
	for _, r := range srv.Requests() {
		if r.Action != "POST /v2/bills/ratings/period-resources/subscribe-rate" {
			continue
		}
		for k, v := range r.Params {
			if strings.HasSuffix(k, ".id") && strings.HasPrefix(v, "g7v.") {
				t.Errorf("subscription price asked of %s, sold pay-per-use only", v)
			}
		}
	}
	if nf := target.Stats.Figures().NotFound; nf != 0 {
		t.Errorf("%d calls answered not found, want 0", nf)
	}
	t.Logf("full replay crawl: %d requests, %v, %d instances, %d placements, %d offers, unmapped %v",
		target.Transport.Requests(), elapsed, len(snap.Instances), len(snap.Placements), len(snap.Offers), snap.Unmapped)

	inst := map[string]catalog.InstanceType{}
	for _, it := range snap.Instances {
		inst[it.ID] = it
	}
	p2s := inst["p2s.2xlarge.8"]
	if p2s.VCPUs != 8 || !p2s.MemoryGiB.Equal(decimal.NewFromInt(64)) || p2s.Family != "p2s" {
		t.Errorf("p2s.2xlarge.8 = %d vCPU, %s GiB, family %q; want 8, 64, p2s", p2s.VCPUs, p2s.MemoryGiB, p2s.Family)
	}
	if a := p2s.Accelerators; len(a) != 1 || a[0].Name != "V100" || a[0].Count != 1 || !a[0].MemoryGiB.Equal(decimal.NewFromInt(32)) || a[0].Kind != catalog.KindGPU {
		t.Errorf("p2s.2xlarge.8 accelerators = %+v, want 1 V100 32 GiB", a)
	}
	if p2s.NetworkGbps == nil || !p2s.NetworkGbps.Equal(decimal.NewFromInt(10)) {
		t.Errorf("p2s.2xlarge.8 network = %v, want 10 Gbit/s", p2s.NetworkGbps)
	}
	g7v := inst["g7v.2xlarge.8"].Accelerators
	if len(g7v) != 1 || g7v[0].Name != "NVIDIA-A40-8Q" || g7v[0].Count != 1 || !g7v[0].MemoryGiB.Equal(decimal.NewFromInt(8)) {
		t.Fatalf("g7v.2xlarge.8 accelerators = %+v, want 1 NVIDIA-A40-8Q with 8 GiB", g7v)
	}
	// The share comes from the vGPU profile: 8 GiB of a 48 GiB A40.
	if g7v[0].Model != "nvidia-a40-48gb" || g7v[0].Share.Sub(decimal.NewFromInt(1).Div(decimal.NewFromInt(6))).Abs().GreaterThan(catalog.Dec("0.001")) {
		t.Errorf("g7v.2xlarge.8 model %q share %s, want nvidia-a40-48gb 1/6", g7v[0].Model, g7v[0].Share)
	}
	if a := inst["pi2.4xlarge.4"].Accelerators; len(a) != 1 || a[0].Name != "nvidia-t4" || a[0].Count != 2 {
		t.Errorf("pi2.4xlarge.4 (pci_passthrough:alias) accelerators = %+v, want 2 nvidia-t4", a)
	}

	offers := map[string]catalog.Offer{}
	for _, o := range snap.Offers {
		offers[o.Key()] = o
		if o.Price.Currency != catalog.CNY || o.Source == "" || o.FetchedAt.IsZero() {
			t.Errorf("offer %s: currency %q source %q fetched %v", o.Key(), o.Price.Currency, o.Source, o.FetchedAt)
		}
		if o.Synthetic {
			t.Errorf("offer %s: the adapter must not mark offers synthetic (make data does, from the manifest)", o.Key())
		}
	}
	for _, c := range []struct {
		billing catalog.BillingKind
		amount  string
		unit    catalog.PriceUnit
	}{
		{catalog.OnDemand, "14.80", catalog.PerHour}, // 1 × 14.00 (V100 32 GiB) + 8 × 0.10
		{catalog.SubscriptionMonth, "7562.80", catalog.PerMonth},
		{catalog.SubscriptionYear, "75628.00", catalog.PerYear},
	} {
		o, ok := offers["huawei/p2s.2xlarge.8/cn-north-4//"+string(c.billing)]
		if !ok {
			t.Errorf("no %s offer for p2s.2xlarge.8 in cn-north-4", c.billing)
			continue
		}
		if !o.Price.Amount.Equal(catalog.Dec(c.amount)) || o.Price.Unit != c.unit || o.Availability != catalog.Available {
			t.Errorf("p2s.2xlarge.8 %s = %s (%s), want %s CNY/%s available", c.billing, o.Price, o.Availability, c.amount, c.unit)
		}
	}
	ap := offers["huawei/pi5e.2xlarge.4/ap-southeast-1//on_demand"]
	if !ap.Price.Amount.Equal(catalog.Dec("9.36")) { // (7.00 + 0.80) × 1.20
		t.Errorf("pi5e.2xlarge.4 on demand in ap-southeast-1 = %s, want 9.36", ap.Price)
	}
	placements := map[string]catalog.Availability{}
	for _, p := range snap.Placements {
		placements[p.InstanceType+"@"+p.Zone] = p.Status
	}
	for key, want := range map[string]catalog.Availability{
		"p5e.10xlarge.12@cn-north-4c": catalog.SoldOut,
		"p5e.10xlarge.12@cn-north-4a": catalog.Available,
		"g7v.2xlarge.8@cn-north-4a":   catalog.Unknown, // obt
	} {
		if got := placements[key]; got != want {
			t.Errorf("placement %s = %q, want %q", key, got, want)
		}
	}
	if z := offers["huawei/p5e.10xlarge.12/cn-north-4//on_demand"].Zones; strings.Join(z, ",") != "cn-north-4a,cn-north-4b" {
		t.Errorf("p5e.10xlarge.12 zones = %v, want the two zones not sold out", z)
	}

	// Every ECS request is signed for its region's project.
	ids := projectIDs(t)
	for _, r := range srv.Requests() {
		if r.Service == "ecs" && r.Header.Get("X-Project-Id") != r.Region {
			t.Errorf("%s: X-Project-Id %q, path project %q", r.Action, r.Header.Get("X-Project-Id"), r.Region)
		}
		if r.Service == "bss" && r.Params["project_id"] != ids[r.Region] {
			t.Errorf("%s in %s: project_id %q, want %q", r.Action, r.Region, r.Params["project_id"], ids[r.Region])
		}
	}
	providertest.Check(t, snap, catalog.Huawei, providertest.Reference(t))
}

func TestRegions_ProjectsResolvedThroughIAMOverride(t *testing.T) {
	srv := harness.Start(t)
	p, err := New(harness.Config(srv))
	if err != nil {
		t.Fatal(err)
	}
	regions, err := p.Regions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(regions, ","), "ap-southeast-1,cn-east-3,cn-north-4"; got != want {
		t.Errorf("regions = %s, want %s (MOS is not an ECS region)", got, want)
	}
	ids := projectIDs(t)
	if got := p.(*Adapter).projects["cn-north-4"]; got != ids["cn-north-4"] {
		t.Errorf("cn-north-4 project = %q, want %q", got, ids["cn-north-4"])
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Action != "GET /v3/projects" {
		t.Fatalf("requests = %+v, want one IAM call", reqs)
	}
	if auth := reqs[0].Header.Get("Authorization"); !strings.HasPrefix(auth, "SDK-HMAC-SHA256 Access="+testAK) {
		t.Errorf("IAM request not signed with the AK: %q", auth)
	}
}

func TestListFlavors_Pagination(t *testing.T) {
	const pid = "00112233445566778899aabbccddeeff"
	page := func(ids ...string) string {
		var fl []string
		for _, id := range ids {
			fl = append(fl, `{"id":"`+id+`","name":"`+id+`","vcpus":"8","ram":32768,"os_extra_specs":{"ecs:performancetype":"gpu","pci_passthrough:alias":"nvidia-t4:1"}}`)
		}
		return `{"flavors":[` + strings.Join(fl, ",") + `]}`
	}
	manifest := `{"provider":"huawei","as_of":"2026-06-15","synthetic":true,"sources":["test"],"exchanges":[
	 {"action":"GET /v1/{project_id}/cloudservers/flavors","region":"` + pid + `","params":{"marker":""},"body":"p1.json"},
	 {"action":"GET /v1/{project_id}/cloudservers/flavors","region":"` + pid + `","params":{"marker":"pi2.b"},"body":"p2.json"},
	 {"action":"POST /v2/bills/ratings/on-demand-resources","body":"od.json"},
	 {"action":"POST /v2/bills/ratings/period-resources/subscribe-rate","body":"period.json"}]}`
	fsys := fstest.MapFS{
		"manifest.json": {Data: []byte(manifest)},
		"p1.json":       {Data: []byte(page("pi2.a", "pi2.b"))},
		"p2.json":       {Data: []byte(page("pi2.c"))},
		"od.json":       {Data: []byte(`{"currency":"CNY","product_rating_results":[{"id":"pi2.c","amount":6.5,"official_website_amount":7.0}]}`)},
		"period.json":   {Data: []byte(`{"official_website_rating_result":{"product_rating_results":[]}}`)},
	}
	srv, err := replay.Start(fsys, replay.Huawei)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	// A project id with its region: no IAM call at all.
	cfg := harness.Config(srv)
	env := map[string]string{envAK: testAK, envSK: testSK, envProjectID: pid, envRegion: "cn-north-4"}
	cfg.Getenv = func(k string) string { return env[k] }
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p.(*Adapter).pageSize = 2
	regions, err := p.Regions(context.Background())
	if err != nil || len(regions) != 1 || regions[0] != "cn-north-4" {
		t.Fatalf("regions = %v, %v", regions, err)
	}
	d, err := p.Crawl(context.Background(), "cn-north-4")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Instances) != 3 {
		t.Errorf("instances = %d, want 3 over two pages", len(d.Instances))
	}
	if n := srv.Count("GET /v1/{project_id}/cloudservers/flavors"); n != 2 {
		t.Errorf("ListFlavors pages = %d, want 2", n)
	}
	if n := srv.Count("GET /v3/projects"); n != 0 {
		t.Errorf("IAM calls = %d, want 0 with a project id", n)
	}
	if len(d.Offers) != 1 || !d.Offers[0].Price.Amount.Equal(catalog.Dec("6.5")) || !d.Offers[0].Price.List.Equal(catalog.Dec("7")) {
		t.Errorf("offers = %+v, want pi2.c at 6.5 with list 7", d.Offers)
	}
}

func TestCrawl_ThrottledThenSuccess(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Service == "ecs" && n == 1 {
			return &replay.Response{Status: 429, ContentType: "application/json",
				Body: `{"error_code":"APIGW.0308","error_msg":"The throttling threshold has been reached: policy user over ratelimit,limit:10,time:1 minute"}`}
		}
		if req.Service == "bss" && n == 1 {
			return &replay.Response{Status: 503, ContentType: "application/json", Body: `{"error_code":"CBC.0999","error_msg":"service busy"}`}
		}
		return nil
	}
	snap, target := harness.Crawl(t, harness.Unlimited(), harness.Config(srv))
	if cov := snap.Coverage[0]; cov.Status != catalog.CoverageOK {
		t.Fatalf("coverage = %+v, want ok after retries", cov)
	}
	if got, want := target.Transport.Requests(), 13; got != want {
		t.Errorf("requests = %d, want %d (10 + one retried ListFlavors + one retried inquiry of each kind)", got, want)
	}
}

func TestCrawl_FailingRegionIsPartial(t *testing.T) {
	srv := harness.Start(t)
	ids := projectIDs(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Service == "ecs" && req.Region == ids["ap-southeast-1"] {
			return &replay.Response{Status: 500, ContentType: "application/json", Body: `{"error":{"code":"Ecs.0000","message":"internal error"}}`}
		}
		return nil
	}
	cfg := harness.Config(srv)
	cfg.MaxAttempts = 2
	snap, _ := harness.Crawl(t, harness.Unlimited(), cfg)
	harness.CheckPartial(t, snap, 2, "ap-southeast-1", "huawei: list flavors in ap-southeast-1: status 500 Ecs.0000")
	if n := len(snap.Instances); n != 38 {
		t.Errorf("instances = %d, want 38 from the other regions", n)
	}
}

func TestNew_MissingCredentialsIsSkipped(t *testing.T) {
	_, err := New(providers.Config{Getenv: func(string) string { return "" }})
	if !errors.Is(err, providers.ErrNoCredentials) {
		t.Fatalf("err = %v, want ErrNoCredentials", err)
	}
	snap, err := providers.Crawl(context.Background(), []providers.Target{providers.Prepare(Factory, providers.Config{Getenv: func(string) string { return "" }})}, providers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cov := snap.Coverage[0]; cov.Status != catalog.CoverageSkipped || cov.Requests != 0 {
		t.Errorf("coverage = %+v, want skipped with no requests", cov)
	}
}

func TestNew_ProjectIDNeedsRegion(t *testing.T) {
	env := map[string]string{envAK: testAK, envSK: testSK, envProjectID: "abc"}
	_, err := New(providers.Config{Getenv: func(k string) string { return env[k] }})
	if err == nil || !strings.Contains(err.Error(), envRegion) {
		t.Fatalf("err = %v, want one naming %s", err, envRegion)
	}
}

func TestErrors_AuthFailureIsClassifiedWithoutSecrets(t *testing.T) {
	harness.CheckAuthRefused(t, &replay.Response{Status: 401, ContentType: "application/json",
		Body: `{"error_msg":"Incorrect IAM authentication information: verify aksk signature fail","error_code":"APIGW.0301","request_id":"r-1"}`})
}

// A server that echoes the request's Authorization header (SDK-HMAC-SHA256
// Access=AK, SignedHeaders=..., Signature=...) in its error message never
// gets it into an error's text.
func TestErrors_EchoedRequestIsRedacted(t *testing.T) {
	harness.CheckEchoRedacted(t, "cn-north-4", func(req replay.Request, echo string) *replay.Response {
		msg, _ := json.Marshal(echo)
		return &replay.Response{Status: 401, ContentType: "application/json",
			Body: `{"error_msg":` + string(msg) + `,"error_code":"APIGW.0301","request_id":"r-2"}`}
	})
}

// A price answer without a currency fails its region with the error that
// names the provider, the API and the field (the BSS reference reads an
// empty currency as CNY; no adapter assumes one).
func TestCrawl_PriceWithoutCurrencyFails(t *testing.T) {
	harness.CheckNoCurrency(t, providertest.NoCurrency{Action: "POST /v2/bills/ratings/on-demand-resources",
		API: "ListOnDemandResourceRatings", Region: "cn-north-4", Key: "currency", Field: "currency"})
}
