package gcp

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
// from this replay) the same machine types, accelerators, prices and price
// parts: a change to the adapter or the fixtures that `make data` has not
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
	types := func(s *catalog.Snapshot) map[string]string {
		m := map[string]string{}
		for _, it := range s.Instances {
			if it.Provider != catalog.GCP {
				continue
			}
			v := fmt.Sprintf("%d vCPU %s GiB", it.VCPUs, it.MemoryGiB)
			for _, a := range it.Accelerators {
				v += fmt.Sprintf("; %d × %s %s (%s), %s GiB", a.Count, a.Kind, a.Name, a.Model, a.MemoryGiB)
			}
			m[it.ID] = v
		}
		return m
	}
	prices := func(s *catalog.Snapshot) map[string]string {
		m := map[string]string{}
		for _, o := range s.Offers {
			if o.Provider == catalog.GCP {
				v := o.Price.String()
				for _, p := range o.Parts {
					v += fmt.Sprintf("; %s %s", p.Part, p.Amount)
				}
				m[o.InstanceType+"/"+o.Region+"/"+string(o.Billing)] = v
			}
		}
		return m
	}
	ct, et := types(crawled), types(embedded)
	cp, ep := prices(crawled), prices(embedded)
	if len(ct) != 19 || len(cp) != 364 {
		t.Fatalf("crawled %d machine types and %d prices, want 19 and 364", len(ct), len(cp))
	}
	if diff := cmp.Diff(et, ct); diff != "" {
		t.Errorf("machine types (-embedded +crawled):\n%s", diff)
	}
	if diff := cmp.Diff(ep, cp); diff != "" {
		t.Errorf("prices (-embedded +crawled):\n%s", diff)
	}
}
