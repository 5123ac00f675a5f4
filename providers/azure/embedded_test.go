package azure

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
)

// TestCrawl_MatchesEmbeddedCatalog crawls the whole replay (every region)
// and finds in the embedded catalog the same Azure sizes, devices and
// prices, for the sizes both hold (providertest.Embedded).
func TestCrawl_MatchesEmbeddedCatalog(t *testing.T) {
	crawled, _ := harness.CrawlOK(t, harness.Start(t))
	f := providertest.Embedded(t, crawled, catalog.Azure)
	common := func(a, b map[string]string) (x, y map[string]string) {
		x, y = map[string]string{}, map[string]string{}
		for k, v := range a {
			if w, ok := b[k]; ok {
				x[k], y[k] = v, w
			}
		}
		return x, y
	}
	cs, es := common(f.CrawledTypes, f.EmbeddedTypes)
	cp, ep := common(f.CrawledOffers, f.EmbeddedOffers)
	if len(cs) < 40 || len(cp) < 900 {
		t.Fatalf("only %d sizes and %d prices in common: is the embedded catalog built from this replay?", len(cs), len(cp))
	}
	if diff := cmp.Diff(es, cs); diff != "" {
		t.Errorf("sizes (-embedded +crawled):\n%s", diff)
	}
	if diff := cmp.Diff(ep, cp); diff != "" {
		t.Errorf("prices (-embedded +crawled):\n%s", diff)
	}
	if len(f.CrawledTypes) != len(f.EmbeddedTypes) || len(f.CrawledOffers) != len(f.EmbeddedOffers) {
		t.Errorf("crawled %d sizes, %d prices; embedded %d, %d", len(f.CrawledTypes), len(f.CrawledOffers), len(f.EmbeddedTypes), len(f.EmbeddedOffers))
	}
}
