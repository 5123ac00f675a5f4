package tencent

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	testSecretID  = "AKIDtestSECRETid000000000000000001"
	testSecretKey = "testSECRETkey00000000000000000001"
)

var fixedNow = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// harness reaches the replay through the CVM client, which takes the
// replay's host (HTTP for a loopback host), with the data folder's GPU family
// table as the registry wires it.
var harness = providertest.Harness{Factory: WithFamilies(data.FS), Dialect: replay.Tencent, Endpoints: providertest.Hosts("cvm"),
	Env: map[string]string{"TENCENTCLOUD_SECRET_ID": testSecretID, "TENCENTCLOUD_SECRET_KEY": testSecretKey}, Now: fixedNow}

func TestCrawl_RealRegion(t *testing.T) {
	srv := harness.Start(t)
	snap, target := harness.CrawlOK(t, srv, "ap-beijing")
	// ap-beijing has 57 (zone, type) rows in the real data, each with an
	// on-demand price found by InquiryPriceRunInstances.
	if len(snap.Placements) != 57 || len(snap.Offers) != 57 {
		t.Errorf("placements = %d, offers = %d, want 57 each", len(snap.Placements), len(snap.Offers))
	}
	o := providertest.MustOffer(t, snap.Offers, "GN7.2XLARGE32", "ap-beijing-3", catalog.OnDemand)
	// 1.20474 USD in the source / 0.138 = 8.73 CNY.
	if o.Price.String() != "8.73 CNY/hour" || o.Price.List != nil || o.Source != sourceInquiry || o.Availability != catalog.Unknown {
		t.Errorf("offer = %s list %v source %s availability %s", o.Price, o.Price.List, o.Source, o.Availability)
	}
	it, _ := providertest.FindInstance(snap.Instances, "GN7.2XLARGE32")
	a := it.Accelerators[0]
	if a.Name != "nvidia-t4-16gb" || a.Model != "nvidia-t4-16gb" || a.Count != 1 || !a.Share.Equal(catalog.Dec("1")) {
		t.Errorf("accelerator = %+v", a)
	}
	if it.VCPUs != 8 || !it.MemoryGiB.Equal(catalog.Dec("32")) || it.Family != "GN7" || !strings.Contains(it.Source, "family GN7") {
		t.Errorf("instance = %+v", it)
	}
	counts := map[string]int{}
	for _, r := range srv.Requests() {
		counts[r.Action]++
		if r.Region == "" {
			t.Errorf("%s sent without a region", r.Action)
		}
		if !strings.Contains(r.Header.Get("Authorization"), "Credential="+testSecretID+"/") {
			t.Errorf("%s not signed with the test id", r.Action)
		}
	}
	// One DescribeZoneInstanceConfigInfos for every charge type, and one
	// inquiry per item it lists without a price: nothing is asked that is
	// not sold.
	want := map[string]int{"DescribeRegions": 1, "DescribeZoneInstanceConfigInfos": 1, "InquiryPriceRunInstances": 57}
	if diff := cmp.Diff(want, counts); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	if got, cov := target.Transport.Requests(), providertest.CoverageOf(snap, catalog.Tencent); got != 59 || cov.Requests != 59 {
		t.Errorf("transport counted %d (coverage %d), want 59", got, cov.Requests)
	}
	if nf := target.Stats.Figures().NotFound; nf != 0 {
		t.Errorf("%d calls answered not found, want 0", nf)
	}
}

func TestCrawl_VGPUSoldOutAndQuotedPrices(t *testing.T) {
	srv := harness.StartDir(t, "testdata/cases/vgpu_soldout")
	snap, _ := harness.CrawlOK(t, srv)
	v := providertest.MustInstance(t, snap.Instances, "GN7.LARGE20")
	if a := v.Accelerators[0]; a.Count != 1 || !a.Share.Equal(catalog.Dec("0.25")) || a.Model != "nvidia-t4-16gb" {
		t.Errorf("vGPU accelerator = %+v, want 1 × 0.25 T4", a)
	}
	if _, ok := providertest.FindInstance(snap.Instances, "S5.LARGE8"); ok {
		t.Error("a type without GPU was kept")
	}
	if _, ok := providertest.FindInstance(snap.Instances, "GN7.5XLARGE80"); ok {
		t.Error("a type listed only with CDHPAID (dedicated hosts) was kept")
	}
	for _, r := range srv.Requests() {
		if r.Action == "DescribeZoneInstanceConfigInfos" && r.Params["filter.instance-charge-type"] != "" {
			t.Errorf("config infos asked with a charge-type filter: %v", r.Params)
		}
	}
	var places []string
	for _, p := range snap.Placements {
		places = append(places, p.InstanceType+"@"+p.Zone+"="+string(p.Status))
	}
	wantPlaces := []string{"GN10Xp.2XLARGE40@ap-guangzhou-6=available", "GN7.2XLARGE32@ap-guangzhou-3=available",
		"GN7.2XLARGE32@ap-guangzhou-6=sold_out", "GN7.LARGE20@ap-guangzhou-3=available"}
	if diff := cmp.Diff(wantPlaces, places); diff != "" {
		t.Errorf("placements (-want +got):\n%s", diff)
	}
	tests := []struct {
		typ, zone string
		billing   catalog.BillingKind
		price     string
		list      string
		avail     catalog.Availability
		source    string
	}{
		{"GN7.LARGE20", "ap-guangzhou-3", catalog.OnDemand, "2.2 CNY/hour", "2.5", catalog.Available, sourceConfigInfos},
		{"GN7.2XLARGE32", "ap-guangzhou-6", catalog.OnDemand, "8.68 CNY/hour", "8.68", catalog.SoldOut, sourceConfigInfos},
		{"GN7.2XLARGE32", "ap-guangzhou-3", catalog.Spot, "1.74 CNY/hour", "8.68", catalog.Available, sourceConfigInfos},
		{"GN7.2XLARGE32", "ap-guangzhou-6", catalog.Spot, "1.8 CNY/hour", "8.68", catalog.Available, sourceConfigInfos},
		{"GN7.2XLARGE32", "ap-guangzhou-3", catalog.SubscriptionMonth, "3595.5 CNY/month", "4230", catalog.Available, sourceConfigInfos},
		{"GN10Xp.2XLARGE40", "ap-guangzhou-6", catalog.OnDemand, "15.95 CNY/hour", "16.09", catalog.Available, sourceInquiry},
	}
	for _, tt := range tests {
		t.Run(tt.typ+"/"+tt.zone+"/"+string(tt.billing), func(t *testing.T) {
			o := providertest.MustOffer(t, snap.Offers, tt.typ, tt.zone, tt.billing)
			if o.Price.String() != tt.price || o.Price.List == nil || !o.Price.List.Equal(catalog.Dec(tt.list)) || o.Availability != tt.avail || o.Source != tt.source {
				t.Errorf("offer = %s list %v %s %s", o.Price, o.Price.List, o.Availability, o.Source)
			}
		})
	}
	if n := srv.Count("InquiryPriceRunInstances"); n != 1 {
		t.Errorf("InquiryPriceRunInstances requests = %d, want 1 (only the item without a price)", n)
	}
}

func TestCrawl_ThrottledAndServerErrorThenSuccess(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		switch {
		case req.Action == "InquiryPriceRunInstances" && n <= 2:
			return &replay.Response{Status: 200, ContentType: "application/json", Body: replay.TencentError("RequestLimitExceeded", "Your current request times equals to `21` in a second, which exceeds the frequency limit `20` for a second. Please reduce the frequency of calls.")}
		case req.Action == "DescribeZoneInstanceConfigInfos" && n == 1:
			return &replay.Response{Status: 502, ContentType: "text/html", Body: "<html>502 Bad Gateway</html>"}
		}
		return nil
	}
	snap, _ := harness.CrawlOK(t, srv, "ap-jakarta")
	if got := srv.Count("InquiryPriceRunInstances"); got != 5+2 {
		t.Errorf("inquiries = %d, want 7 (5 rows, 2 throttled)", got)
	}
	if got := srv.Count("DescribeZoneInstanceConfigInfos"); got != 1+1 {
		t.Errorf("config infos = %d, want 2 (one 502 retried)", got)
	}
	if len(snap.Offers) != 5 {
		t.Errorf("offers = %d, want 5", len(snap.Offers))
	}
}

func TestCrawl_FailingRegionIsPartial(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Region == "ap-bangkok" && req.Action == "DescribeZoneInstanceConfigInfos" {
			return &replay.Response{Status: 200, ContentType: "application/json", Body: replay.TencentError("InternalError", "internal error")}
		}
		return nil
	}
	snap, _ := harness.Crawl(t, harness.Unlimited(), harness.Config(srv), "ap-bangkok", "ap-jakarta")
	harness.CheckPartial(t, snap, 1, "ap-bangkok", "in ap-bangkok", "InternalError")
}

func TestCrawl_AuthFailureStopsProvider(t *testing.T) {
	authFail := &replay.Response{Status: 200, ContentType: "application/json",
		Body: replay.TencentError("AuthFailure.SecretIdNotFound", "The SecretId is not found, please ensure that your SecretId is correct.")}
	t.Run("regions", func(t *testing.T) {
		srv := harness.Start(t)
		srv.Fault = func(replay.Request, int) *replay.Response { return authFail }
		other := providertest.Stub(catalog.Alibaba, "cn-x")
		snap := harness.CrawlTargets(t, []providers.Target{providers.Prepare(harness.Unlimited(), harness.Config(srv)), providers.Prepare(other, providers.Config{})})
		cov := providertest.CoverageOf(snap, catalog.Tencent)
		if cov.Status != catalog.CoverageFailed || !strings.Contains(cov.Message, "authentication failed") ||
			!strings.Contains(cov.Message, "AuthFailure.SecretIdNotFound") || !strings.Contains(cov.Message, "TENCENTCLOUD_SECRET_ID") {
			t.Errorf("coverage = %+v", cov)
		}
		if strings.Contains(cov.Message, testSecretID) || strings.Contains(cov.Message, testSecretKey) {
			t.Errorf("message leaks a credential: %s", cov.Message)
		}
		if c := providertest.CoverageOf(snap, catalog.Alibaba); c.Status != catalog.CoverageOK {
			t.Errorf("other provider affected: %+v", c)
		}
		if n := srv.Count("DescribeRegions"); n != 1 {
			t.Errorf("auth failure retried: %d", n)
		}
	})
	t.Run("mid-crawl", func(t *testing.T) {
		srv := harness.Start(t)
		srv.Fault = func(req replay.Request, n int) *replay.Response {
			if req.Action == "DescribeZoneInstanceConfigInfos" {
				return authFail
			}
			return nil
		}
		f := harness.Unlimited()
		f.Concurrency = 1
		snap := harness.CrawlTargets(t, []providers.Target{providers.Prepare(f, harness.Config(srv))})
		cov := providertest.CoverageOf(snap, catalog.Tencent)
		if cov.Status != catalog.CoverageFailed || len(cov.FailedRegions) != 16 {
			t.Errorf("coverage = %s with %d failed regions", cov.Status, len(cov.FailedRegions))
		}
		if n := srv.Count("DescribeZoneInstanceConfigInfos"); n != 1 {
			t.Errorf("config infos asked %d times after the credentials were refused, want 1", n)
		}
	})
}

func TestInquiryLimiter(t *testing.T) {
	srv := harness.Start(t)
	target := providers.Prepare(Factory, harness.Config(srv))
	if target.Err != nil {
		t.Fatal(target.Err)
	}
	l := target.Provider.(*Adapter).limits[actionInquiry]
	if l == nil || l.Limit() != 10 || l.Burst() != 1 {
		t.Fatalf("inquiry limiter = %v, want 10/s burst 1", l)
	}
	cfg := harness.Config(srv)
	cfg.Unlimited = true
	target = providers.Prepare(Factory, cfg)
	if l := target.Provider.(*Adapter).limits[actionInquiry]; l != nil {
		t.Errorf("inquiry limiter of an unlimited crawl = %v/s, want none", l.Limit())
	}
}

func TestEndpointAndCredentials(t *testing.T) {
	for _, tt := range []struct{ in, host, scheme string }{
		{"", "", "HTTPS"}, {"127.0.0.1:9000", "127.0.0.1:9000", "HTTP"}, {"cvm.example.com", "cvm.example.com", "HTTPS"},
		{"http://cvm.example.com:80", "cvm.example.com:80", "HTTP"},
	} {
		h, s, err := providers.Config{Endpoints: map[string]string{"cvm": tt.in}}.HostEndpoint(catalog.Tencent, "cvm")
		if err != nil || h != tt.host || s != tt.scheme {
			t.Errorf("hostEndpoint(%q) = %q %q %v", tt.in, h, s, err)
		}
	}
	if _, err := New(providers.Config{Getenv: func(string) string { return "" }}, nil); !errors.Is(err, providers.ErrNoCredentials) {
		t.Errorf("err = %v, want ErrNoCredentials", err)
	}
}

// A server that echoes the request's Authorization header (TC3-HMAC-SHA256
// Credential=AKID.../date/cvm/tc3_request, Signature=...) in its error message
// never gets it into an error's text.
func TestErrors_EchoedRequestIsRedacted(t *testing.T) {
	harness.CheckEchoRedacted(t, "ap-seoul", func(req replay.Request, echo string) *replay.Response {
		return &replay.Response{Status: 200, ContentType: "application/json", Body: replay.TencentError("AuthFailure.SignatureFailure", echo)}
	})
}

// TestMeasure_FullReplayCrawl crawls every region of the real-data replay with
// the production Factory (its rate limits included) and logs the measured
// figures; only with GPUATLAS_MEASURE=1.
func TestMeasure_FullReplayCrawl(t *testing.T) { harness.MeasureFullCrawl(t) }

func BenchmarkCrawl(b *testing.B) {
	srv := harness.Start(b)
	cfg := harness.Config(srv)
	for b.Loop() {
		snap := harness.CrawlTargets(b, []providers.Target{providers.Prepare(harness.Unlimited(), cfg)})
		if c := providertest.CoverageOf(snap, catalog.Tencent); c.Status != catalog.CoverageOK {
			b.Fatal(c)
		}
	}
}

// A refused key stops one crawl, not the adapter: crawled again, it asks again.
func TestCrawl_AuthFailureOnlyStopsThatCrawl(t *testing.T) {
	srv := harness.StartDir(t, "testdata/cases/vgpu_soldout")
	srv.Fault = func(req replay.Request, _ int) *replay.Response {
		if req.Action != "DescribeZoneInstanceConfigInfos" {
			return nil
		}
		return &replay.Response{Status: 200, ContentType: "application/json",
			Body: replay.TencentError("AuthFailure.SecretIdNotFound", "The SecretId is not found, please ensure that your SecretId is correct.")}
	}
	target := harness.Prepare(t, srv)
	if cov := harness.CrawlTargets(t, []providers.Target{target}).Coverage[0]; cov.Status == catalog.CoverageOK {
		t.Fatalf("first crawl: coverage %+v, want the region failed", cov)
	}
	srv.Fault = nil
	snap := harness.CrawlTargets(t, []providers.Target{target})
	if cov := snap.Coverage[0]; cov.Status != catalog.CoverageOK || len(snap.Offers) == 0 {
		t.Errorf("second crawl: coverage %+v, %d offers; want ok with offers", cov, len(snap.Offers))
	}
}
