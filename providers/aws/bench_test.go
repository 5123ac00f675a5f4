package aws

import (
	"context"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
)

// BenchmarkCrawl_USEast1 crawls the largest recorded region through the SDK.
func BenchmarkCrawl_USEast1(b *testing.B) {
	srv := harness.Start(b)
	target := harness.Prepare(b, srv)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		d, err := target.Provider.Crawl(ctx, "us-east-1")
		if err != nil {
			b.Fatal(err)
		}
		if len(d.Offers) == 0 {
			b.Fatal("no offers")
		}
	}
	b.ReportMetric(float64(target.Transport.Requests())/float64(b.N), "requests/op")
}

// TestCrawl_AllRegions crawls every recorded region through providers.Crawl and
// logs what it took (go test -run AllRegions -v).
func TestCrawl_AllRegions(t *testing.T) {
	srv := harness.Start(t)
	target := harness.Prepare(t, srv)
	start := time.Now()
	snap, err := providers.Crawl(context.Background(), []providers.Target{target}, providers.Options{
		Reference: providertest.Reference(t), Clock: func() time.Time { return testNow },
	})
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	cov := snap.Coverage[0]
	if cov.Status != catalog.CoverageOK || cov.Regions != 33 {
		t.Fatalf("coverage %+v, want ok over 33 regions", cov)
	}
	if err := snap.Validate(); err != nil {
		t.Fatal(err)
	}
	billing := map[catalog.BillingKind]int{}
	for _, o := range snap.Offers {
		billing[o.Billing]++
	}
	t.Logf("33 regions in %v: %d requests (peak %d/s), %d instance types, %d placements, %d offers %v, unmapped %d",
		elapsed.Round(time.Millisecond), target.Transport.Requests(), target.Transport.PeakPerSecond(),
		len(snap.Instances), len(snap.Placements), len(snap.Offers), billing, len(snap.Unmapped))
	for _, u := range snap.Unmapped {
		t.Logf("unmapped: %s %v", u.Name, u.InstanceTypes)
	}
}
