package gcp

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
)

// TestCrawl_MatchesEmbeddedCatalog crawls the whole replay (every region)
// and finds in the embedded catalog the same machine types, accelerators,
// prices and price parts (providertest.Embedded).
func TestCrawl_MatchesEmbeddedCatalog(t *testing.T) {
	srv := harness.Start(t)
	crawled := harness.CrawlTargets(t, []providers.Target{providers.Prepare(harness.Unlimited(), harness.Config(srv))})
	f := providertest.Embedded(t, crawled, catalog.GCP, func(it catalog.InstanceType) string {
		v := fmt.Sprintf("%d vCPU %s GiB", it.VCPUs, it.MemoryGiB)
		for _, a := range it.Accelerators {
			v += fmt.Sprintf("; %d × %s %s (%s), %s GiB", a.Count, a.Kind, a.Name, a.Model, a.MemoryGiB)
		}
		return v
	}, func(o catalog.Offer) string {
		v := o.Price.String()
		for _, p := range o.Parts {
			v += fmt.Sprintf("; %s %s", p.Part, p.Amount)
		}
		return v
	})
	if len(f.CrawledTypes) != 19 || len(f.CrawledOffers) != 364 {
		t.Fatalf("crawled %d machine types and %d prices, want 19 and 364", len(f.CrawledTypes), len(f.CrawledOffers))
	}
	if diff := cmp.Diff(f.EmbeddedTypes, f.CrawledTypes); diff != "" {
		t.Errorf("machine types (-embedded +crawled):\n%s", diff)
	}
	if diff := cmp.Diff(f.EmbeddedOffers, f.CrawledOffers); diff != "" {
		t.Errorf("prices (-embedded +crawled):\n%s", diff)
	}
}
