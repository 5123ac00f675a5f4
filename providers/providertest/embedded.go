package providertest

import (
	"fmt"
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
// crawled, as typeFact and offerFact write them: the same facts for every
// cloud, so that a field one adapter fills is compared wherever it is filled.
func Embedded(t testing.TB, crawled *catalog.Snapshot, p catalog.Provider) EmbeddedFacts {
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

// typeFact is an instance type's vCPUs, memory and accelerators (count, kind,
// name, model, share and memory of each).
func typeFact(it catalog.InstanceType) string {
	v := fmt.Sprintf("%d vCPU %s GiB", it.VCPUs, it.MemoryGiB)
	for _, a := range it.Accelerators {
		v += fmt.Sprintf("; %d × %s %s (%s) share %s, %s GiB", a.Count, a.Kind, a.Name, a.Model, a.Share.StringFixed(4), a.MemoryGiB)
	}
	return v
}

// offerFact is an offer's price and the parts it is the sum of.
func offerFact(o catalog.Offer) string {
	v := o.Price.String()
	for _, p := range o.Parts {
		v += fmt.Sprintf("; %s %s", p.Part, p.Amount)
	}
	return v
}
