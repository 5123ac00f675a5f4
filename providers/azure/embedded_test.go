package azure

import (
	"fmt"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/providers"
)

// TestCrawl_MatchesEmbeddedCatalog crawls the whole replay (every region)
// and finds in the embedded catalog (data/catalog.json, made by make data
// from this replay) the same Azure sizes, devices and prices, for the sizes
// both hold: a change to the adapter or the fixtures that `make data` has not
// carried into the catalog fails here.
func TestCrawl_MatchesEmbeddedCatalog(t *testing.T) {
	srv := harness.Start(t)
	crawled := harness.CrawlTargets(t, []providers.Target{providers.Prepare(harness.Unlimited(), harness.Config(srv))})
	raw, err := fs.ReadFile(data.FS, "catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := catalog.DecodeSnapshot("catalog.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	sizes := func(s *catalog.Snapshot) map[string]string {
		m := map[string]string{}
		for _, it := range s.Instances {
			if it.Provider != catalog.Azure {
				continue
			}
			v := fmt.Sprintf("%d vCPU %s GiB", it.VCPUs, it.MemoryGiB)
			for _, a := range it.Accelerators {
				v += fmt.Sprintf("; %d × %s %s (%s) share %s, %s GiB", a.Count, a.Kind, a.Name, a.Model, a.Share.StringFixed(4), a.MemoryGiB)
			}
			m[it.ID] = v
		}
		return m
	}
	prices := func(s *catalog.Snapshot) map[string]string {
		m := map[string]string{}
		for _, o := range s.Offers {
			if o.Provider == catalog.Azure {
				m[o.InstanceType+"/"+o.Region+"/"+string(o.Billing)] = o.Price.String()
			}
		}
		return m
	}
	common := func(a, b map[string]string) (x, y map[string]string) {
		x, y = map[string]string{}, map[string]string{}
		for k, v := range a {
			if w, ok := b[k]; ok {
				x[k], y[k] = v, w
			}
		}
		return x, y
	}
	cs, es := common(sizes(crawled), sizes(embedded))
	cp, ep := common(prices(crawled), prices(embedded))
	if len(cs) < 40 || len(cp) < 900 {
		t.Fatalf("only %d sizes and %d prices in common: is the embedded catalog built from this replay?", len(cs), len(cp))
	}
	if diff := cmp.Diff(es, cs); diff != "" {
		t.Errorf("sizes (-embedded +crawled):\n%s", diff)
	}
	if diff := cmp.Diff(ep, cp); diff != "" {
		t.Errorf("prices (-embedded +crawled):\n%s", diff)
	}
	if len(sizes(crawled)) != len(sizes(embedded)) || len(prices(crawled)) != len(prices(embedded)) {
		t.Errorf("crawled %d sizes, %d prices; embedded %d, %d", len(sizes(crawled)), len(prices(crawled)), len(sizes(embedded)), len(prices(embedded)))
	}
}
