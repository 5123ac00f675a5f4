package alibaba

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aliyun/alibaba-cloud-sdk-go/services/ecs"
	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	testKeyID  = "LTAI5tTESTKEYID00000001"
	testSecret = "testSecretValue0000000000000001"
)

var fixedNow = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// harness reaches the replay through the ECS client, which takes the replay's
// host (the scheme follows: HTTP for a loopback host).
var harness = providertest.Harness{Factory: Factory, Dialect: replay.Alibaba, Endpoints: providertest.Hosts("ecs"),
	Env: map[string]string{"ALIBABA_CLOUD_ACCESS_KEY_ID": testKeyID, "ALIBABA_CLOUD_ACCESS_KEY_SECRET": testSecret}, Now: fixedNow}

func TestCrawl_RealRegion(t *testing.T) {
	srv := harness.Start(t)
	snap, target := harness.Crawl(t, harness.Unlimited(), harness.Config(srv), "cn-beijing")
	cov := snap.Coverage[0]
	if cov.Status != catalog.CoverageOK || cov.Regions != 1 {
		t.Fatalf("coverage = %+v, want ok with 1 region", cov)
	}
	// cn-beijing has 151 (zone, type) rows over 101 types in the real data.
	if got := len(snap.Instances); got != 101 {
		t.Errorf("instances = %d, want 101", got)
	}
	if got := len(snap.Placements); got != 151 {
		t.Errorf("placements = %d, want 151", got)
	}
	if got := len(snap.Offers); got != 302 {
		t.Errorf("offers = %d, want 302 (on-demand and spot per row; no subscription prices in the data)", got)
	}

	tests := []struct {
		typ, zone string
		billing   catalog.BillingKind
		want      string // CNY per hour, recovered from the source's USD
	}{
		{"ecs.gn7i-c8g1.2xlarge", "cn-beijing-i", catalog.OnDemand, "9.6166"},
		{"ecs.gn7i-c8g1.2xlarge", "cn-beijing-i", catalog.Spot, "3.039106"},
		{"ecs.sgn7i-vws-m2.xlarge", "cn-beijing-i", catalog.OnDemand, "1.9550868"},
		{"ecs.gn5i-c12g1.6xlarge", "cn-beijing-k", catalog.OnDemand, "0.084"},
	}
	for _, tt := range tests {
		t.Run(tt.typ+"/"+string(tt.billing), func(t *testing.T) {
			o := providertest.MustOffer(t, snap.Offers, tt.typ, tt.zone, tt.billing)
			want := catalog.Price{Amount: catalog.Dec(tt.want), Currency: catalog.CNY, Unit: catalog.PerHour}
			if diff := cmp.Diff(want.String(), o.Price.String()); diff != "" || o.Price.List != nil {
				t.Errorf("price (-want +got):\n%s list=%v", diff, o.Price.List)
			}
			if o.Includes != "40 GiB cloud_essd system disk" || o.Source != sourcePrice || !o.FetchedAt.Equal(fixedNow) {
				t.Errorf("provenance = %q %q %v", o.Includes, o.Source, o.FetchedAt)
			}
			if o.Availability != catalog.Unknown {
				t.Errorf("availability = %s, want unknown (the real data has no stock status)", o.Availability)
			}
		})
	}

	it := providertest.MustInstance(t, snap.Instances, "ecs.gn7i-c8g1.2xlarge")
	wantAcc := catalog.Accelerator{Kind: catalog.KindGPU, Model: "nvidia-a10-24gb", Name: "A10", Count: 1,
		Share: catalog.Dec("1"), MemoryGiB: catalog.Dec("24"), MappingConfidence: "certain"}
	if diff := cmp.Diff(wantAcc, it.Accelerators[0], cmp.Comparer(func(a, b catalog.Accelerator) bool {
		return a.Kind == b.Kind && a.Model == b.Model && a.Name == b.Name && a.Count == b.Count && a.Share.Equal(b.Share) && a.MemoryGiB.Equal(b.MemoryGiB) && a.MappingConfidence == b.MappingConfidence
	})); diff != "" {
		t.Errorf("accelerator (-want +got):\n%s", diff)
	}
	if it.VCPUs != 8 || !it.MemoryGiB.Equal(catalog.Dec("30")) || it.CPUArch != "x86_64" || it.Family != "ecs.gn7i" {
		t.Errorf("spec = %+v", it)
	}

	// vGPU slice: the name is kept for the alias table, which gives the share.
	v, _ := providertest.FindInstance(snap.Instances, "ecs.sgn7i-vws-m2.xlarge")
	if a := v.Accelerators[0]; a.Name != "A10*1/12" || a.Count != 1 || !a.Share.Equal(catalog.Dec("0.083333")) {
		t.Errorf("vGPU accelerator = %+v, want A10*1/12 ×1 share 1/12", a)
	}

	// Requests: 1 DescribeRegions, 2 pages of DescribeInstanceTypes, 3
	// DescribeAvailableResource (pay-as-you-go, spot, subscription), and per
	// type x zone the 2 prices those answers list. The subscription answer
	// lists nothing (the data has no subscription price), so no quote is
	// asked that could only be answered "not found".
	counts := map[string]int{}
	charges := map[string]int{}
	for _, r := range srv.Requests() {
		counts[r.Action]++
		if r.Action == "DescribeAvailableResource" {
			charges[r.Params["InstanceChargeType"]+"/"+r.Params["SpotStrategy"]]++
		}
	}
	wantCounts := map[string]int{"DescribeRegions": 1, "DescribeInstanceTypes": 2, "DescribeAvailableResource": 3, "DescribePrice": 2 * 151}
	if diff := cmp.Diff(wantCounts, counts); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{"PostPaid/": 1, "PostPaid/SpotAsPriceGo": 1, "PrePaid/": 1}, charges); diff != "" {
		t.Errorf("DescribeAvailableResource asked (-want +got):\n%s", diff)
	}
	if got, want := target.Transport.Requests(), 1+2+3+2*151; got != want || cov.Requests != want {
		t.Errorf("transport counted %d (coverage %d), want %d", got, cov.Requests, want)
	}
	if nf := target.Stats.Figures().NotFound; nf != 0 {
		t.Errorf("%d calls answered not found, want 0", nf)
	}
	for _, r := range srv.Requests() {
		if r.Params["AccessKeyId"] != testKeyID || r.Params["Signature"] == "" {
			t.Fatalf("request %s not signed with the test key: %v", r.Action, r.Params)
		}
	}
}

func TestCrawl_Pagination(t *testing.T) {
	srv := harness.Start(t)
	p, err := New(harness.Config(srv))
	if err != nil {
		t.Fatal(err)
	}
	types, err := p.(*Adapter).gpuTypes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(types) != 172 {
		t.Errorf("types = %d, want 172 (two pages)", len(types))
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Params["NextToken"] != "" || reqs[1].Params["NextToken"] != "replay-page-2" || reqs[1].Params["MaxResults"] != "100" {
		t.Errorf("pages asked: %+v", reqs)
	}
	// A second region reuses the list: DescribeInstanceTypes is region-independent.
	if _, err := p.(*Adapter).gpuTypes(context.Background()); err != nil || srv.Count("DescribeInstanceTypes") != 2 {
		t.Errorf("second call sent more requests: %d, %v", srv.Count("DescribeInstanceTypes"), err)
	}
}

func TestCrawl_ThrottledThenSuccess(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Action == "DescribePrice" && n <= 2 || req.Action == "DescribeAvailableResource" && n == 1 {
			return &replay.Response{Status: 400, ContentType: "application/json",
				Body: replay.AlibabaError("Throttling", "Request was denied due to request throttling.")}
		}
		return nil
	}
	snap, _ := harness.Crawl(t, harness.Unlimited(), harness.Config(srv), "cn-beijing")
	if cov := snap.Coverage[0]; cov.Status != catalog.CoverageOK {
		t.Fatalf("coverage = %+v, want ok after retries", cov)
	}
	if got, want := srv.Count("DescribePrice"), 2*151+2; got != want {
		t.Errorf("DescribePrice requests = %d, want %d (two throttled, retried)", got, want)
	}
	if got := srv.Count("DescribeAvailableResource"); got != 3+1 {
		t.Errorf("DescribeAvailableResource requests = %d, want 4 (one throttled, retried)", got)
	}
}

func TestCrawl_FailingRegionIsPartial(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Region == "cn-hongkong" && req.Action == "DescribeAvailableResource" {
			return &replay.Response{Status: 503, ContentType: "application/json", Body: replay.AlibabaError("ServiceUnavailable", "The request has failed due to a temporary failure of the server.")}
		}
		return nil
	}
	snap, _ := harness.Crawl(t, harness.Unlimited(), harness.Config(srv), "cn-hongkong", "cn-nanjing")
	harness.CheckPartial(t, snap, 1, "cn-hongkong", "describe available resource (PostPaid) in cn-hongkong", "ServiceUnavailable")
	// 3 in cn-nanjing (one per way of selling); 3 attempts of the first in
	// cn-hongkong, in its crawl and in each round of the sweep.
	if got, want := srv.Count("DescribeAvailableResource"), 3+3*(1+providers.SweepRounds); got != want {
		t.Errorf("DescribeAvailableResource requests = %d, want %d", got, want)
	}
}

func TestCrawl_AuthFailure(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		return &replay.Response{Status: 404, ContentType: "application/json", Body: replay.AlibabaError("InvalidAccessKeyId.NotFound", "Specified access key is not found.")}
	}
	other := providertest.Stub(catalog.Tencent, "ap-x")
	targets := []providers.Target{providers.Prepare(harness.Unlimited(), harness.Config(srv)), providers.Prepare(other, providers.Config{})}
	snap, err := providers.Crawl(context.Background(), targets, providers.Options{Clock: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	for _, cov := range snap.Coverage {
		switch cov.Provider {
		case catalog.Alibaba:
			if cov.Status != catalog.CoverageFailed || !strings.Contains(cov.Message, "authentication failed") || !strings.Contains(cov.Message, "ALIBABA_CLOUD_ACCESS_KEY_ID") {
				t.Errorf("alibaba coverage = %+v", cov)
			}
			if strings.Contains(cov.Message, testKeyID) {
				t.Errorf("message leaks the key id: %s", cov.Message)
			}
		case catalog.Tencent:
			if cov.Status != catalog.CoverageOK {
				t.Errorf("other provider affected: %+v", cov)
			}
		}
	}
	if srv.Count("DescribeRegions") != 1 {
		t.Errorf("auth failure retried: %d DescribeRegions", srv.Count("DescribeRegions"))
	}
}

func TestCrawl_SoldOutZone(t *testing.T) {
	srv := harness.StartDir(t, "testdata/cases/soldout")
	snap, _ := harness.Crawl(t, harness.Unlimited(), harness.Config(srv))
	if cov := snap.Coverage[0]; cov.Status != catalog.CoverageOK {
		t.Fatalf("coverage = %+v", cov)
	}
	var got []string
	for _, p := range snap.Placements {
		got = append(got, p.Zone+"="+string(p.Status))
	}
	if diff := cmp.Diff([]string{"cn-beijing-i=available", "cn-beijing-x=sold_out"}, got); diff != "" {
		t.Errorf("placements (-want +got):\n%s", diff)
	}
	if o, _ := providertest.FindOffer(snap.Offers, "ecs.gn7i-c8g1.2xlarge", "cn-beijing-x", catalog.OnDemand); o.Availability != catalog.SoldOut {
		t.Errorf("sold-out zone offer availability = %s", o.Availability)
	}
	od, _ := providertest.FindOffer(snap.Offers, "ecs.gn7i-c8g1.2xlarge", "cn-beijing-i", catalog.OnDemand)
	if od.Price.List == nil || !od.Price.List.Equal(catalog.Dec("12")) || !od.Price.Amount.Equal(catalog.Dec("9.6166")) {
		t.Errorf("on-demand price = %s list %v, want 9.6166 list 12", od.Price, od.Price.List)
	}
	// Spot and subscription are sold in cn-beijing-i only: no spot price is
	// asked in cn-beijing-x, and the monthly offer names only cn-beijing-i.
	if _, ok := providertest.FindOffer(snap.Offers, "ecs.gn7i-c8g1.2xlarge", "cn-beijing-x", catalog.Spot); ok {
		t.Error("spot offer in cn-beijing-x, which does not sell spot")
	}
	m, ok := providertest.FindOffer(snap.Offers, "ecs.gn7i-c8g1.2xlarge", "", catalog.SubscriptionMonth)
	if !ok || m.Price.Unit != catalog.PerMonth || !m.Price.Amount.Equal(catalog.Dec("4300.5")) || m.Availability != catalog.Available {
		t.Errorf("monthly offer = %+v (found %v)", m, ok)
	}
	if diff := cmp.Diff([]string{"cn-beijing-i"}, m.Zones); diff != "" {
		t.Errorf("monthly offer zones (-want +got):\n%s", diff)
	}
	var asked []string
	for _, r := range srv.Requests() {
		if r.Action == "DescribePrice" {
			asked = append(asked, r.Params["ZoneId"]+"/"+r.Params["PriceUnit"]+"/"+r.Params["SpotStrategy"])
		}
	}
	sort.Strings(asked)
	want := []string{"/Month/", "/Year/", "cn-beijing-i/Hour/", "cn-beijing-i/Hour/SpotAsPriceGo", "cn-beijing-x/Hour/"}
	if diff := cmp.Diff(want, asked); diff != "" {
		t.Errorf("DescribePrice asked (-want +got):\n%s", diff)
	}
	if _, ok := providertest.FindOffer(snap.Offers, "ecs.gn7i-c8g1.2xlarge", "", catalog.SubscriptionYear); ok {
		t.Error("yearly offer present although DescribePrice answered PriceNotFound")
	}
	it, _ := providertest.FindInstance(snap.Instances, "ecs.gn7i-c8g1.2xlarge")
	if it.NetworkGbps == nil || !it.NetworkGbps.Equal(catalog.Dec("16")) {
		t.Errorf("network = %v", it.NetworkGbps)
	}
}

func TestCrawl_SuspectPrice(t *testing.T) {
	srv := harness.Start(t)
	snap, _ := harness.Crawl(t, harness.Unlimited(), harness.Config(srv), "cn-beijing")
	for _, b := range []catalog.BillingKind{catalog.OnDemand, catalog.Spot} {
		o, _ := providertest.FindOffer(snap.Offers, "ecs.gn5i-c12g1.6xlarge", "cn-beijing-k", b)
		if !strings.Contains(o.Suspect, "below 10% of the median") {
			t.Errorf("gn5i %s suspect = %q, want the median reason", b, o.Suspect)
		}
		if b == catalog.Spot && !strings.Contains(o.Suspect, "spot price 0.084 is at or above the on-demand price 0.084 CNY/hour") {
			t.Errorf("gn5i spot suspect = %q, want the spot = on-demand reason", o.Suspect)
		}
	}
	if o, _ := providertest.FindOffer(snap.Offers, "ecs.gn5i-c40g1.10xlarge", "cn-beijing-k", catalog.OnDemand); o.Suspect != "" {
		t.Errorf("a plausible P4 price was flagged: %q", o.Suspect)
	}
	n := 0
	for _, o := range snap.Offers {
		if o.Suspect != "" {
			n++
		}
	}
	t.Logf("%d of %d cn-beijing offers suspect", n, len(snap.Offers))
}

func TestErrors_NoCredentialInText(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Action == "DescribeRegions" {
			return &replay.Response{Hijack: func(w http.ResponseWriter, r *http.Request) { time.Sleep(300 * time.Millisecond) }}
		}
		return nil
	}
	cfg := harness.Config(srv)
	cfg.Timeout = 50 * time.Millisecond
	cfg.MaxAttempts = 1
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Regions(context.Background())
	if err == nil {
		t.Fatal("no error from a stalled request")
	}
	for _, s := range []string{testKeyID, testSecret, "Signature", "AccessKeyId", "Action=DescribeRegions"} {
		if strings.Contains(err.Error(), s) {
			t.Errorf("error contains %q: %v", s, err)
		}
	}
	if !errors.Is(err, providers.ErrUnavailable) {
		t.Errorf("timeout not classified unavailable: %v", err)
	}
	t.Log(err)
}

func TestScrub(t *testing.T) {
	in := `Post "http://127.0.0.1:4242/?AccessKeyId=` + testKeyID + `&Action=DescribePrice&Signature=abc%2Bdef%3D&SignatureNonce=123": context deadline exceeded; key ` + testKeyID
	got := providers.Redact(in, testKeyID, testSecret)
	for _, s := range []string{testKeyID, "abc%2Bdef", "SignatureNonce=123", "?AccessKeyId"} {
		if strings.Contains(got, s) {
			t.Errorf("scrub left %q in %q", s, got)
		}
	}
	if !strings.Contains(got, "http://127.0.0.1:4242/[request redacted]") {
		t.Errorf("scrub = %q, want the host kept", got)
	}
}

func TestEndpointFor(t *testing.T) {
	tests := []struct{ in, domain, scheme string }{
		{"", "", "HTTPS"},
		{"127.0.0.1:8080", "127.0.0.1:8080", "HTTP"},
		{"localhost:9", "localhost:9", "HTTP"},
		{"[::1]:9", "[::1]:9", "HTTP"},
		{"ecs-mirror.example.com:443", "ecs-mirror.example.com:443", "HTTPS"},
		{"http://ecs-mirror.example.com:80", "ecs-mirror.example.com:80", "HTTP"},
		{"https://127.0.0.1:8443/", "127.0.0.1:8443", "HTTPS"},
	}
	for _, tt := range tests {
		d, s, err := providers.Config{Endpoints: map[string]string{"ecs": tt.in}}.HostEndpoint(catalog.Alibaba, "ecs")
		if err != nil || d != tt.domain || s != tt.scheme {
			t.Errorf("hostEndpoint(%q) = %q, %q, %v; want %q, %q", tt.in, d, s, err, tt.domain, tt.scheme)
		}
	}
	if _, _, err := (providers.Config{Endpoints: map[string]string{"ecs": "http://host/path"}}).HostEndpoint(catalog.Alibaba, "ecs"); err == nil {
		t.Error("a path was accepted")
	}
}

func TestNew_ProductionDefaultsToHTTPS(t *testing.T) {
	env := map[string]string{"ALIBABA_CLOUD_ACCESS_KEY_ID": testKeyID, "ALIBABA_CLOUD_ACCESS_KEY_SECRET": testSecret}
	p, err := New(providers.Config{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	if s := p.(*Adapter).scheme; s != "HTTPS" {
		t.Errorf("scheme = %s, want HTTPS", s)
	}
}

func TestNew_NoCredentials(t *testing.T) {
	_, err := New(providers.Config{Getenv: func(string) string { return "" }})
	if !errors.Is(err, providers.ErrNoCredentials) {
		t.Errorf("err = %v, want ErrNoCredentials", err)
	}
}

// A server that echoes the request's signed query (AccessKeyId=,
// Signature=, SignatureNonce=) in its error message never gets it into an
// error's text.
func TestErrors_EchoedRequestIsRedacted(t *testing.T) {
	harness.CheckEchoRedacted(t, "cn-nanjing", func(req replay.Request, echo string) *replay.Response {
		return &replay.Response{Status: 400, ContentType: "application/json", Body: replay.AlibabaError("IncompleteSignature", echo)}
	})
}

// A DescribePrice answer with a price and no currency is an error that names
// the provider, the API and the field.
func TestDecodePrice_NoCurrency(t *testing.T) {
	body := []byte(`{"PriceInfo":{"Price":{"OriginalPrice":12,"TradePrice":9.6166,"Currency":""}}}`)
	_, err := decodePrice(body, priceKey{region: "cn-beijing", zone: "cn-beijing-i", billing: catalog.OnDemand})
	want := "alibaba: DescribePrice in cn-beijing-i: answer has no currency (field PriceInfo.Price.Currency)"
	if !errors.Is(err, providers.ErrNoCurrency) || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// A price answer without a currency fails its region with the error that
// names the provider, the API and the field.
func TestCrawl_PriceWithoutCurrencyFails(t *testing.T) {
	harness.CheckNoCurrency(t, providertest.NoCurrency{Action: "DescribePrice", API: "DescribePrice", Region: "cn-nanjing",
		Key: "Currency", Field: "PriceInfo.Price.Currency"})
}

// TestMeasure_FullReplayCrawl crawls every region of the real-data replay with
// the production Factory (its rate limit included) and logs the measured
// figures; only with GPUATLAS_MEASURE=1.
func TestMeasure_FullReplayCrawl(t *testing.T) { harness.MeasureFullCrawl(t) }

func BenchmarkCrawl(b *testing.B) {
	srv := harness.Start(b)
	cfg := harness.Config(srv)
	for b.Loop() {
		snap, _ := harness.Crawl(b, harness.Unlimited(), cfg)
		if snap.Coverage[0].Status != catalog.CoverageOK {
			b.Fatal(snap.Coverage[0])
		}
	}
}

// An adapter crawled again asks again: the types and prices a crawl keeps are
// that crawl's (the answer fuzzers crawl one adapter thousands of times).
func TestCrawl_SecondCrawlAsksAgain(t *testing.T) {
	srv := harness.StartDir(t, "testdata/cases/soldout")
	target := harness.Prepare(t, srv)
	first := harness.CrawlTargets(t, []providers.Target{target})
	if len(first.Instances) != 1 || len(first.Offers) == 0 {
		t.Fatalf("first crawl: %d instance types, %d offers", len(first.Instances), len(first.Offers))
	}
	srv.Fault = func(req replay.Request, _ int) *replay.Response {
		if req.Action != "DescribeInstanceTypes" {
			return nil
		}
		return &replay.Response{Status: 200, ContentType: "application/json", Body: `{"RequestId":"R","InstanceTypes":{"InstanceType":[]}}`}
	}
	second := harness.CrawlTargets(t, []providers.Target{target})
	if len(second.Instances) != 0 || len(second.Offers) != 0 {
		t.Errorf("second crawl: %d instance types, %d offers; want none (DescribeInstanceTypes now lists none)", len(second.Instances), len(second.Offers))
	}
	if n := srv.Count("DescribeInstanceTypes"); n != 2 {
		t.Errorf("DescribeInstanceTypes asked %d times in two crawls, want 2", n)
	}
}

// panickingECS panics in DescribeRegions, as an SDK that dereferences a
// field a vendor left out would.
type panickingECS struct{ ecsAPI }

func (panickingECS) DescribeRegions(*ecs.DescribeRegionsRequest) (*ecs.DescribeRegionsResponse, error) {
	panic("nil field\n::error::forged")
}

// A panic in an SDK call, which runs on a goroutine of its own, becomes the
// call's error (ErrPanicked, escaped), not the end of the process (issue 32.8).
func TestWith_PanicIsTheCallsError(t *testing.T) {
	srv := harness.Start(t)
	target := harness.Prepare(t, srv)
	p := target.Provider.(*Adapter)
	for range cap(p.clients) {
		c := <-p.clients
		p.clients <- panickingECS{c}
	}
	_, err := p.Regions(context.Background())
	if !errors.Is(err, providers.ErrPanicked) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want a recovered panic on one line", err)
	}
}
