// Package providertest is what every provider adapter's tests share: Check,
// the conformance check each adapter's crawl of its replay must pass, and
// Harness, which starts an adapter's replay server, configures the adapter
// against it without rate limits, crawls it (CrawlOK; CheckPartial for a crawl
// with one failed region, CheckAuthRefused for refused credentials;
// CheckFailures for faults that fail a crawl; RegionsRequests, TokenFile and
// PrepareRefused for the credential tests: coverage.go), and runs the fault suite
// (faulttest), the answer fuzzers, the credential-echo and missing-currency
// checks, the throttled crawl (CrawlThrottled, throttle.go) and the full-crawl
// measurement for it; Embedded (embedded.go) gives an adapter's facts as its
// replay's crawl and the embedded catalog hold them; lookup.go finds a crawl's
// offer, instance type or coverage (FindOffer, MustOffer, FindInstance,
// MustInstance, CoverageOf) and has Stub, a provider of fixed regions. Tests
// only.
package providertest

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Check fails t for every way the provider's part of the snapshot breaks the
// adapter contract: no data; duplicate or empty ids; an instance type without
// accelerators, source or generation; an accelerator name that is neither mapped
// to a known GPU model nor reported in Unmapped; an offer without currency, unit,
// source or fetch time, for an unknown type, with an unknown billing kind or a
// negative amount; a placement or offer in a region the snapshot does not list; a
// coverage record missing or inconsistent with the data.
func Check(t testing.TB, s *catalog.Snapshot, p catalog.Provider, ref *catalog.GPUReference) {
	t.Helper()
	if err := s.Validate(); err != nil {
		t.Fatalf("%s: snapshot invalid: %v", p, err)
	}
	var cov *catalog.Coverage
	for i := range s.Coverage {
		if s.Coverage[i].Provider == p {
			cov = &s.Coverage[i]
		}
	}
	if cov == nil {
		t.Fatalf("%s: no coverage record", p)
	}
	unmapped := map[string]bool{}
	for _, u := range s.Unmapped {
		if u.Provider == p {
			unmapped[u.Name] = true
		}
	}
	regions := map[string]bool{}
	for _, r := range s.Regions {
		if r.Provider == p {
			if r.ID == "" {
				t.Errorf("%s: region with an empty id", p)
			}
			regions[r.ID] = true
		}
	}
	types := map[string]bool{}
	for _, it := range s.Instances {
		if it.Provider != p {
			continue
		}
		if it.ID == "" || types[it.ID] {
			t.Errorf("%s: empty or duplicate instance type id %q", p, it.ID)
		}
		types[it.ID] = true
		if it.Source == "" {
			t.Errorf("%s/%s: no source", p, it.ID)
		}
		if it.Generation != "current" && it.Generation != "previous" {
			t.Errorf("%s/%s: generation %q is not current or previous", p, it.ID, it.Generation)
		}
		if it.VCPUs <= 0 || !it.MemoryGiB.IsPositive() {
			t.Errorf("%s/%s: vcpus %d memory %s must be positive", p, it.ID, it.VCPUs, it.MemoryGiB)
		}
		if len(it.Accelerators) == 0 {
			t.Errorf("%s/%s: no accelerators", p, it.ID)
		}
		for _, a := range it.Accelerators {
			if a.Name == "" {
				t.Errorf("%s/%s: accelerator without a name", p, it.ID)
			}
			if a.Count <= 0 || !a.Share.IsPositive() || a.Share.GreaterThan(catalog.Dec("1")) {
				t.Errorf("%s/%s: accelerator %q count %d share %s", p, it.ID, a.Name, a.Count, a.Share)
			}
			switch {
			case a.Model == "" && !unmapped[a.Name]:
				t.Errorf("%s/%s: accelerator %q is neither mapped nor reported as unmapped", p, it.ID, a.Name)
			case a.Model != "" && ref != nil:
				if _, ok := ref.Model(a.Model); !ok {
					t.Errorf("%s/%s: accelerator model %q is not in the GPU reference", p, it.ID, a.Model)
				}
			}
		}
	}
	if len(types) == 0 {
		t.Fatalf("%s: no instance types", p)
	}
	offers := 0
	for _, o := range s.Offers {
		if o.Provider != p {
			continue
		}
		offers++
		if o.Price.Currency == "" || o.Price.Unit == "" || o.Source == "" || o.FetchedAt.IsZero() {
			t.Errorf("%s: offer %s lacks currency, unit, source or fetched_at", p, o.Key())
		}
		if o.Availability == "" {
			t.Errorf("%s: offer %s has no availability", p, o.Key())
		}
		if !regions[o.Region] {
			t.Errorf("%s: offer %s is in region %q that the snapshot does not list", p, o.Key(), o.Region)
		}
	}
	if offers == 0 {
		t.Errorf("%s: no offers", p)
	}
	// A placement names a zone where the source names one; one without a zone
	// says the type is listed in the region as a whole (Azure's sizes where
	// the source gives no zones), and then it is that region's only placement
	// of the type.
	zoned := map[string]bool{}
	for _, pl := range s.Placements {
		if pl.Provider == p && pl.Zone != "" {
			zoned[pl.InstanceType+"/"+pl.Region] = true
		}
	}
	for _, pl := range s.Placements {
		if pl.Provider != p {
			continue
		}
		if !types[pl.InstanceType] || !regions[pl.Region] {
			t.Errorf("%s: placement %s refers to an unknown type or region", p, pl.Key())
		}
		if pl.Zone == "" && zoned[pl.InstanceType+"/"+pl.Region] {
			t.Errorf("%s: placement %s has no zone beside placements with zones", p, pl.Key())
		}
	}
	if cov.Status == catalog.CoverageOK && len(cov.FailedRegions) > 0 {
		t.Errorf("%s: coverage ok with failed regions", p)
	}
	if cov.Regions != len(regions) {
		t.Errorf("%s: coverage counts %d regions, the snapshot lists %d", p, cov.Regions, len(regions))
	}
}
