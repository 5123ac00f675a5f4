package azure

import (
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	testSecret       = "azTESTsecret~0000000000000000000000001"
	testSubscription = "11111111-2222-3333-4444-555555555555"
)

var fixedNow = time.Date(2026, 6, 20, 12, 0, 0, 0, time.UTC)

// harness reaches the replay through the real clients: armcompute's
// Resource SKUs client with an azidentity client secret credential (its
// token from the replayed identity service), and the Retail Prices calls;
// every service's host is sent to the replay by the adapter's transport.
var harness = providertest.Harness{Factory: Factory, Dialect: replay.Azure, Endpoints: providertest.URLs(serviceARM, serviceLogin, servicePrices),
	Env: map[string]string{envSubscription: testSubscription, envTenant: "replay-tenant", envClientID: "replay-client", envSecret: testSecret}, Now: fixedNow}

func TestCrawl_RealRegion(t *testing.T) {
	srv := harness.Start(t)
	target := providers.Prepare(harness.Unlimited(), harness.Config(srv))
	snap := harness.CrawlTargets(t, []providers.Target{target}, "eastus")
	if cov := providertest.CoverageOf(snap, catalog.Azure); cov.Status != catalog.CoverageOK || cov.Regions != 1 {
		t.Fatalf("coverage = %+v", cov)
	}
	t.Logf("instances %d offers %d", len(snap.Instances), len(snap.Offers))
	o, ok := providertest.FindOffer(snap.Offers, "Standard_ND96isr_H100_v5", "", catalog.OnDemand)
	if !ok {
		t.Fatal("no ND96isr_H100_v5 offer in eastus")
	}
	t.Logf("%+v", o)
	for _, r := range srv.Requests() {
		t.Logf("%s %s %v", r.Action, r.Region, r.Params)
	}
}
