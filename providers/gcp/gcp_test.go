package gcp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const credentialsFixture = "testdata/replay-credentials.json"

var fixedNow = time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)

// harness reaches the replay through the real clients: Google's Compute
// Engine and Cloud Billing clients (google.golang.org/api), each at the replay (plain http: no credential is
// sent, TestCrawl_NoCredentialOverPlainHTTP).
var harness = providertest.Harness{Factory: Factory, Dialect: replay.GCP, Endpoints: providertest.URLs(serviceCompute, serviceBilling),
	Env: map[string]string{envProject: "gpuatlas-replay", envCredentials: credentialsFixture}, Now: fixedNow}

// us-central1 from SkyPilot's catalog: 19 GPU machine types, 18 priced (A4
// has no price in the source), on demand and spot. a2-highgpu-1g is its
// machine part (12 vCPUs at the A2 core SKU, 85 GiB at the A2 RAM SKU) plus
// one A100 at its GPU SKU: 3.673385629 USD an hour, which Google's own list
// (the cluster autoscaler's gce_price_info.go: 3.673385) and the billing SKU
// opencost recorded (Nvidia Tesla A100 GPU running in Americas: 2.933908)
// agree with.
func TestCrawl_RealRegion(t *testing.T) {
	srv := harness.Start(t)
	snap, _ := harness.CrawlOK(t, srv, "us-central1")
	if len(snap.Instances) != 19 || len(snap.Offers) != 36 {
		t.Errorf("instances = %d, offers = %d, want 19 and 36", len(snap.Instances), len(snap.Offers))
	}
	o := providertest.MustOffer(t, snap.Offers, "a2-highgpu-1g", "", catalog.OnDemand)
	parts := fmt.Sprint(o.Parts)
	if o.Price.String() != "3.673385629 USD/hour" || parts != "[{machine 0.739477504} {accelerators 2.933908125}]" || !strings.HasPrefix(o.Source, sourceSKUs+" (A2 Instance Core") {
		t.Errorf("a2-highgpu-1g on demand = %s, parts %s, from %s", o.Price, parts, o.Source)
	}
	if s, ok := providertest.FindOffer(snap.Offers, "a3-highgpu-8g", "", catalog.Spot); !ok || s.Price.String() != "26.83013008 USD/hour" || !strings.HasPrefix(s.Source, sourceSpotSKUs) {
		t.Errorf("a3-highgpu-8g spot = %+v", s)
	}
	if _, ok := providertest.FindOffer(snap.Offers, "a4-highgpu-8g", "", catalog.OnDemand); ok {
		t.Error("a4-highgpu-8g has an offer: the source has no A4 price")
	}
	h100, _ := providertest.FindInstance(snap.Instances, "a3-megagpu-8g")
	if a := h100.Accelerators[0]; a.Model != "nvidia-h100-sxm-80gb" || a.Name != "NVIDIA H100 80GB MEGA" || a.Count != 8 || h100.VCPUs != 208 || !h100.MemoryGiB.Equal(catalog.Dec("1872")) {
		t.Errorf("a3-megagpu-8g = %+v", h100)
	}
	var zones []string
	for _, p := range snap.Placements {
		if p.InstanceType == "a2-highgpu-1g" {
			zones = append(zones, p.Zone)
		}
	}
	if diff := cmp.Diff([]string{"us-central1-a", "us-central1-b", "us-central1-c", "us-central1-f"}, zones); diff != "" {
		t.Errorf("a2-highgpu-1g zones (-want +got):\n%s", diff)
	}
	counts := map[string]int{}
	for _, r := range srv.Requests() {
		counts[r.Action]++
		if r.Header.Get("Authorization") != "" {
			t.Errorf("%s was sent credentials over plain http", r.Action)
		}
		if r.Service == "compute" && r.Params["project"] != "gpuatlas-replay" {
			t.Errorf("%s for project %q", r.Action, r.Params["project"])
		}
	}
	// Each listing once, page by page (nextPageToken).
	want := map[string]int{"GET /compute/v1/projects/{project}/aggregated/machineTypes": 5,
		"GET /compute/v1/projects/{project}/aggregated/acceleratorTypes": 1, "GET /v1/services/6F81-5844-456A/skus": 4}
	if diff := cmp.Diff(want, counts); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// A 429 with Retry-After is waited out and the page asked again, from its
// token, on the machine types' list and on the billing catalog.
func TestCrawl_ThrottledWithRetryAfter(t *testing.T) {
	srv := harness.Start(t)
	snap := harness.CrawlThrottled(t, srv, func(req replay.Request) string { return req.Service + "/" + req.Params["pageToken"] },
		[2]string{"compute/page-2", "billing/page-3"},
		&replay.Response{Status: 429, ContentType: "application/json", Header: map[string][]string{"Retry-After": {"1"}},
			Body: replay.GCPError(429, "RESOURCE_EXHAUSTED", "rateLimitExceeded", "Quota exceeded.")})
	if cov := providertest.CoverageOf(snap, catalog.GCP); cov.Status != catalog.CoverageOK || cov.Regions != 25 {
		t.Fatalf("coverage = %+v", cov)
	}
	if len(snap.Offers) != 364 {
		t.Errorf("offers = %d, want 364", len(snap.Offers))
	}
}

// Errors: a refusal fails the provider with the hint, a page that is not
// JSON fails the listing, a page token that repeats ends it with an error,
// and no secret of the credentials file reaches an error's text.
func TestCrawl_Errors(t *testing.T) {
	harness.CheckFailures(t, "", []string{"replay-not-a-private-key", "replay-private-key-id"}, []providertest.Failure{
		{Name: "permission denied", Fault: func(req replay.Request, _ int) *replay.Response {
			if req.Service == "compute" {
				return &replay.Response{Status: 403, ContentType: "application/json",
					Body: replay.GCPError(403, "PERMISSION_DENIED", "forbidden", "Required 'compute.machineTypes.list' permission for 'projects/gpuatlas-replay'")}
			}
			return nil
		}, Want: "compute.machineTypes.list"},
		{Name: "billing page not JSON", Fault: func(req replay.Request, _ int) *replay.Response {
			if req.Service == "billing" {
				return &replay.Response{Status: 200, ContentType: "text/html", Body: "<html>maintenance</html>"}
			}
			return nil
		}, Want: "services.skus.list"},
		{Name: "page token repeats", Fault: repeatSKUToken, Want: providers.ErrRepeatedPageToken.Error()},
	})
}

func TestNew_CredentialsFromTheEnvironmentOnly(t *testing.T) {
	env := func(m map[string]string) providers.Config {
		return providers.Config{Getenv: func(k string) string { return m[k] }}
	}
	if _, err := New(env(map[string]string{envProject: "p"})); !errors.Is(err, providers.ErrNoCredentials) || !strings.Contains(err.Error(), envCredentials) {
		t.Errorf("no credentials file: err = %v", err)
	}
	if _, err := New(env(nil)); !errors.Is(err, providers.ErrNoCredentials) {
		t.Errorf("nothing set: err = %v", err)
	}
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct{ name, content, want string }{
		{"not JSON", "private_key=sekrit-value", "not a JSON credentials file"},
		{"a type the adapter does not take", `{"type":"impersonated_service_account","private_key":"sekrit-value"}`, "want service_account"},
		{"too large", `{"type":"service_account","private_key":"` + strings.Repeat("x", maxCredentialsFile) + `"}`, "larger than 64 KiB"},
		{"missing", "", "no such file"},
	} {
		path := filepath.Join(dir, "missing.json")
		if tc.content != "" {
			path = write(tc.name+".json", tc.content)
		}
		_, err := New(env(map[string]string{envProject: "p", envCredentials: path}))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "sekrit-value") {
			t.Errorf("%s: err = %v, want %q and no secret", tc.name, err, tc.want)
		}
	}
	// A plain-http token endpoint is refused: the exchange sends a signed
	// assertion.
	_, err := New(providers.Config{Getenv: func(k string) string {
		return map[string]string{envProject: "p", envCredentials: credentialsFixture}[k]
	}, Endpoints: map[string]string{serviceOAuth2: "http://127.0.0.1:9"}})
	if err == nil || !strings.Contains(err.Error(), "plain http") {
		t.Errorf("plain-http token endpoint: err = %v", err)
	}
}

func TestFileSecrets(t *testing.T) {
	got := fileSecrets(map[string]any{"type": "authorized_user", "client_id": "id", "client_secret": "cs", "refresh_token": "rt",
		"private_key": "", "private_key_id": 12})
	if diff := cmp.Diff([]string{"cs", "rt"}, got); diff != "" {
		t.Errorf("secrets (-want +got):\n%s", diff)
	}
}

// The standard fault cases (providers/faulttest.Suite) through the three
// clients: 429 RESOURCE_EXHAUSTED, 500, resets, stalls past the request
// timeout, cut and non-JSON bodies.
func TestFaults(t *testing.T) {
	suite := harness.Faults(t, "us-central1", "europe-west4")
	suite.Global = true
	suite.RepeatToken = func(testing.TB, *replay.Server) func(replay.Request, int) *replay.Response { return repeatSKUToken }
	suite.Run(t)
}

// repeatSKUToken answers every SKU page with no SKUs and the same next token.
func repeatSKUToken(req replay.Request, _ int) *replay.Response {
	if req.Service == "billing" {
		return &replay.Response{Status: 200, ContentType: "application/json", Body: `{"skus":[],"nextPageToken":"again"}`}
	}
	return nil
}
