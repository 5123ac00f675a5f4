package volcengine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	testAK = "AKLTvolcTestKeyExample0001"
	testSK = "volcTestSecretExample0001=="
)

var fixedNow = time.Date(2026, 6, 20, 12, 0, 0, 0, time.UTC)

// harness reaches the replay through the ECS and billing clients.
var harness = providertest.Harness{Factory: Factory, Dialect: replay.Volcengine, Endpoints: providertest.URLs("ecs", "billing"),
	Env: map[string]string{envAK: testAK, envSK: testSK}, Now: fixedNow}

func TestCrawl_FullReplay(t *testing.T) {
	srv := harness.Start(t)
	start := time.Now()
	snap, target := harness.Crawl(t, Factory, harness.Config(srv))
	elapsed := time.Since(start)
	cov := snap.Coverage[0]
	if cov.Status != catalog.CoverageOK || cov.Regions != 3 {
		t.Fatalf("coverage = %+v, want ok over 3 regions", cov)
	}
	// DescribeRegions, then per region 2 type pages, 3 DescribeAvailableResource
	// (pay-as-you-go, spot, subscription), 3 price inquiries, and one spot
	// history per GPU type sold as spot (7 + 5 + 4 types, ecs.gni3cl.* in
	// cn-beijing and cn-guangzhou not).
	if got, want := target.Transport.Requests(), 1+3*8+(16-2); got != want {
		t.Errorf("requests = %d, want %d", got, want)
	}
	if nf := target.Stats.Figures().NotFound; nf != 0 {
		t.Errorf("%d calls answered not found, want 0", nf)
	}
	if got := len(snap.Instances); got != 7 {
		t.Errorf("instances = %d, want 7 (ecs.g3i.large has no GPU)", got)
	}
	// Pay-as-you-go for the 16 types, subscription for all but ecs.pni2 in
	// cn-beijing, spot in each zone that sells it (38 zones less the 5 of
	// ecs.gni3cl).
	if got, want := len(snap.Offers), 16+2*15+33; got != want {
		t.Errorf("offers = %d, want %d", got, want)
	}
	t.Logf("full replay crawl: %d requests, %v, %d instances, %d placements, %d offers, unmapped %v",
		target.Transport.Requests(), elapsed, len(snap.Instances), len(snap.Placements), len(snap.Offers), snap.Unmapped)
	if len(snap.Unmapped) != 0 {
		t.Errorf("unmapped accelerators: %+v", snap.Unmapped)
	}
	var gni2 catalog.InstanceType
	for _, it := range snap.Instances {
		if it.ID == "ecs.gni2.3xlarge" {
			gni2 = it
		}
	}
	if gni2.VCPUs != 12 || !gni2.MemoryGiB.Equal(decimal.NewFromInt(48)) || gni2.Family != "ecs.gni2" {
		t.Errorf("ecs.gni2.3xlarge = %+v", gni2)
	}
	if a := gni2.Accelerators; len(a) != 1 || a[0].Name != "NVIDIA A10" || a[0].Count != 1 || !a[0].MemoryGiB.Equal(decimal.NewFromInt(24)) || a[0].Model != "nvidia-a10-24gb" {
		t.Errorf("ecs.gni2.3xlarge accelerators = %+v", a)
	}
	offers := map[string]catalog.Offer{}
	for _, o := range snap.Offers {
		offers[o.Key()] = o
		if o.Price.Currency != catalog.CNY || o.Source == "" || o.Synthetic {
			t.Errorf("offer %s: currency %q source %q synthetic %v", o.Key(), o.Price.Currency, o.Source, o.Synthetic)
		}
	}
	for key, want := range map[string]string{
		"volcengine/ecs.gni2.3xlarge/cn-beijing//on_demand":              "8.20 CNY/hour",
		"volcengine/ecs.gni2.3xlarge/cn-beijing//subscription_month":     "4190.2 CNY/month",
		"volcengine/ecs.gni2.3xlarge/cn-beijing//subscription_year":      "41902 CNY/year",
		"volcengine/ecs.gni2.3xlarge/cn-beijing/cn-beijing-b/spot":       "2.46 CNY/hour",
		"volcengine/ecs.pni2.28xlarge/cn-beijing/cn-beijing-a/spot":      "75.36 CNY/hour",
		"volcengine/ecs.gni3cl.11xlarge/cn-guangzhou//subscription_year": "83804 CNY/year",
	} {
		o, ok := offers[key]
		if !ok {
			t.Errorf("no offer %s", key)
			continue
		}
		if got := o.Price.String(); got != want && !o.Price.Amount.Equal(catalog.Dec(strings.Fields(want)[0])) {
			t.Errorf("%s = %s, want %s", key, got, want)
		}
	}
	if _, ok := offers["volcengine/ecs.pni2.28xlarge/cn-beijing/cn-beijing-c/spot"]; ok {
		t.Error("spot offer in a zone where the type is sold out")
	}
	if _, ok := offers["volcengine/ecs.pni2.28xlarge/cn-beijing//subscription_month"]; ok {
		t.Error("subscription offer for a type not sold by subscription")
	}
	charges := map[string]int{}
	for _, r := range srv.Requests() {
		switch r.Action {
		case "DescribeAvailableResource":
			charges[r.Params["InstanceChargeType"]+"/"+r.Params["SpotStrategy"]]++
		case "DescribeSpotPriceHistory":
			if strings.HasPrefix(r.Params["InstanceTypeId"], "ecs.gni3cl.") {
				t.Errorf("spot history asked of %s, which is not sold as spot", r.Params["InstanceTypeId"])
			}
		}
	}
	if want := map[string]int{"PostPaid/": 3, "PostPaid/SpotAsPriceGo": 3, "PrePaid/": 3}; fmt.Sprint(charges) != fmt.Sprint(want) {
		t.Errorf("DescribeAvailableResource asked %v, want %v", charges, want)
	}
	if o := offers["volcengine/ecs.pni2.28xlarge/cn-beijing//on_demand"]; strings.Join(o.Zones, ",") != "cn-beijing-a,cn-beijing-b" || o.Availability != catalog.Available {
		t.Errorf("ecs.pni2.28xlarge zones %v availability %s", o.Zones, o.Availability)
	}
	for _, r := range srv.Requests() {
		if r.Region == "" || (r.Service != "ecs" && r.Service != "billing") {
			t.Errorf("%s: credential scope region %q service %q", r.Action, r.Region, r.Service)
		}
	}
}

// TestCrawl_LoopbackIgnoresProxyEnv: the SDK would point an *http.Transport at
// HTTP_PROXY (ignoring NO_PROXY); the adapter's wrapper keeps it from doing so.
func TestCrawl_LoopbackIgnoresProxyEnv(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("http_proxy", "http://127.0.0.1:1")
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	t.Setenv("NO_PROXY", "")
	srv := harness.Start(t)
	cfg := harness.Config(srv)
	cfg.MaxAttempts = 1
	// Straight to the adapter with a plain *http.Transport, which the SDK would
	// otherwise point at the dead proxy.
	cfg.Transport = &http.Transport{}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Regions(context.Background()); err != nil {
		t.Fatalf("regions through a dead HTTP_PROXY: %v", err)
	}
	if _, err := p.Crawl(context.Background(), "cn-guangzhou"); err != nil {
		t.Fatalf("crawl through a dead HTTP_PROXY: %v", err)
	}
	// And through the runner's transport.
	snap, _ := harness.Crawl(t, harness.Unlimited(), cfg)
	if cov := snap.Coverage[0]; cov.Status != catalog.CoverageOK {
		t.Fatalf("coverage = %+v, want ok with a dead proxy in the environment", cov)
	}
}

func TestCrawl_ThrottledThenSuccess(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if (req.Action == "DescribeInstanceTypes" || req.Action == "QueryPriceForPayAsYouGo") && n == 1 {
			return &replay.Response{Status: 429, ContentType: "application/json",
				Body: `{"ResponseMetadata":{"RequestId":"r1","Action":"` + req.Action + `","Error":{"CodeN":10000,"Code":"AccountFlowLimitExceeded","Message":"flow limit"}}}`}
		}
		return nil
	}
	snap, target := harness.Crawl(t, harness.Unlimited(), harness.Config(srv))
	if cov := snap.Coverage[0]; cov.Status != catalog.CoverageOK {
		t.Fatalf("coverage = %+v", cov)
	}
	if got, want := target.Transport.Requests(), 39+2; got != want {
		t.Errorf("requests = %d, want %d", got, want)
	}
}

func TestCrawl_FailingRegionIsPartial(t *testing.T) {
	srv := harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Region == "cn-shanghai" && req.Action == "DescribeAvailableResource" {
			return &replay.Response{Status: 500, ContentType: "application/json",
				Body: `{"ResponseMetadata":{"RequestId":"r2","Error":{"Code":"InternalError","Message":"internal"}}}`}
		}
		return nil
	}
	cfg := harness.Config(srv)
	cfg.MaxAttempts = 2
	snap, _ := harness.Crawl(t, harness.Unlimited(), cfg)
	harness.CheckPartial(t, snap, 2, "cn-shanghai", "volcengine: describe available resource (PostPaid) in cn-shanghai: status 500 InternalError")
	// 3 in each other region (one per way of selling); the first and one
	// retry in cn-shanghai, in its crawl and in each round of the sweep.
	if got, want := srv.Count("DescribeAvailableResource"), 2*3+2*(1+providers.SweepRounds); got != want {
		t.Errorf("DescribeAvailableResource calls = %d, want %d", got, want)
	}
}

func TestNew_MissingCredentialsIsSkipped(t *testing.T) {
	_, err := New(providers.Config{Getenv: func(string) string { return "" }})
	if !errors.Is(err, providers.ErrNoCredentials) {
		t.Fatalf("err = %v", err)
	}
	snap, _ := harness.Crawl(t, Factory, providers.Config{Getenv: func(string) string { return "" }})
	if cov := snap.Coverage[0]; cov.Status != catalog.CoverageSkipped || cov.Requests != 0 {
		t.Errorf("coverage = %+v, want skipped", cov)
	}
}

func TestErrors_AuthFailureIsClassifiedWithoutSecrets(t *testing.T) {
	harness.CheckAuthRefused(t, &replay.Response{Status: 401, ContentType: "application/json",
		Body: `{"ResponseMetadata":{"RequestId":"r3","Error":{"CodeN":100010,"Code":"SignatureDoesNotMatch","Message":"The request signature we calculated does not match"}}}`})
}

func TestSplitEndpoint(t *testing.T) {
	for in, want := range map[string]string{"http://127.0.0.1:8080": "127.0.0.1:8080 true", "https://ecs.example.com/": "ecs.example.com false", "open.volcengineapi.com": "open.volcengineapi.com false"} {
		h, insecure, err := splitEndpoint(in)
		if err != nil || h+" "+map[bool]string{true: "true", false: "false"}[insecure] != want {
			t.Errorf("splitEndpoint(%q) = %q %v %v, want %s", in, h, insecure, err, want)
		}
	}
	if _, _, err := splitEndpoint("http://host/path"); err == nil {
		t.Error("a path was accepted")
	}
}

// A server that echoes the request's Authorization header (HMAC-SHA256
// Credential=AK/date/region/service/request, Signature=...) and query in its
// error message never gets them into an error's text.
func TestErrors_EchoedRequestIsRedacted(t *testing.T) {
	harness.CheckEchoRedacted(t, "cn-guangzhou", func(req replay.Request, echo string) *replay.Response {
		msg, _ := json.Marshal(echo)
		return &replay.Response{Status: 401, ContentType: "application/json",
			Body: `{"ResponseMetadata":{"RequestId":"r4","Action":"` + req.Action + `","Error":{"CodeN":100010,"Code":"SignatureDoesNotMatch","Message":` + string(msg) + `}}}`}
	})
}

// A price answer without a currency fails its region with the error that
// names the provider, the API and the field.
func TestCrawl_PriceWithoutCurrencyFails(t *testing.T) {
	harness.CheckNoCurrency(t, providertest.NoCurrency{Action: "QueryPriceForPayAsYouGo", API: "QueryPriceForPayAsYouGo",
		Region: "cn-guangzhou", Key: "Currency", Field: "Currency"})
}
