package providertest

import (
	"io/fs"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
)

// EmbeddedFacts are one provider's instance types and offers as facts to
// compare, keyed by type id and by type/region/billing: as a crawl of its
// replay gives them and as the embedded catalog (data/catalog.json, made by
// `make data` from that replay) holds them. An adapter's test compares them,
// so that a change to the adapter or its fixtures that `make data` has not
// carried into the catalog fails.
type EmbeddedFacts struct {
	CrawledTypes, EmbeddedTypes   map[string]string
	CrawledOffers, EmbeddedOffers map[string]string
}

// Embedded reads the embedded catalog and gives p's facts in it and in
// crawled, as typeFact and offerFact write them.
func Embedded(t testing.TB, crawled *catalog.Snapshot, p catalog.Provider, typeFact func(catalog.InstanceType) string,
	offerFact func(catalog.Offer) string) EmbeddedFacts {
	t.Helper()
	raw, err := fs.ReadFile(data.FS, "catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := catalog.DecodeSnapshot("catalog.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	types := func(s *catalog.Snapshot) map[string]string {
		m := map[string]string{}
		for _, it := range s.Instances {
			if it.Provider == p {
				m[it.ID] = typeFact(it)
			}
		}
		return m
	}
	offers := func(s *catalog.Snapshot) map[string]string {
		m := map[string]string{}
		for _, o := range s.Offers {
			if o.Provider == p {
				m[o.InstanceType+"/"+o.Region+"/"+string(o.Billing)] = offerFact(o)
			}
		}
		return m
	}
	return EmbeddedFacts{CrawledTypes: types(crawled), EmbeddedTypes: types(embedded), CrawledOffers: offers(crawled), EmbeddedOffers: offers(embedded)}
}
