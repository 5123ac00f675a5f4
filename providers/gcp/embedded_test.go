package gcp

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
)

// TestCrawl_MatchesEmbeddedCatalog crawls the whole replay (every region)
// and finds in the embedded catalog the same machine types, accelerators,
// prices and price parts (providertest.Embedded).
func TestCrawl_MatchesEmbeddedCatalog(t *testing.T) {
	crawled, _ := harness.CrawlOK(t, harness.Start(t))
	f := providertest.Embedded(t, crawled, catalog.GCP)
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
