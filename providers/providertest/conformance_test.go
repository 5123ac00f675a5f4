package providertest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/replayset"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
	"github.com/gpuatlas/gpuatlas/providers/registry"
)

// Every registered adapter, crawling its full replay through its real SDK,
// satisfies the conformance check.
func TestConformance_EveryProvider(t *testing.T) {
	testlane.Long(t, "crawls every provider's full replay")
	ref, regions := providertest.Tables(t)
	set, err := replayset.Start("../..")
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	if len(registry.All) != len(replayset.Fixtures()) {
		t.Fatalf("%d adapters but %d fixture sets: every adapter needs recorded responses", len(registry.All), len(replayset.Fixtures()))
	}
	for _, f := range replayset.Fixtures() {
		t.Run(string(f.Provider), func(t *testing.T) {
			factory, ok := registry.Lookup(f.Provider)
			if !ok {
				t.Fatalf("%s has fixtures but no adapter in the registry", f.Provider)
			}
			env := set.Env
			cfg := providers.Config{Endpoints: set.Endpoints[f.Provider], Getenv: func(k string) string { return env[k] },
				Clock: func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }, Timeout: 10 * time.Second,
				MaxAttempts: 2, Backoff: time.Millisecond, Unlimited: true}
			target := providers.Prepare(factory, cfg)
			if target.Err != nil {
				t.Fatal(target.Err)
			}
			snap, err := providers.Crawl(context.Background(), []providers.Target{target}, providers.Options{Reference: ref, Regions: regions})
			if err != nil {
				t.Fatal(err)
			}
			providertest.Check(t, snap, f.Provider, ref)
			if c := snap.Coverage[0]; c.Status != catalog.CoverageOK {
				t.Errorf("coverage %s: %s %v", c.Status, c.Message, c.FailedRegions)
			}
			// Every region the replay lists has a human name in both languages
			// and a country in data/regions.csv.
			for _, r := range snap.Regions {
				if _, ok := regions.Lookup(r.Provider, r.ID); !ok || r.NameEN == "" || r.NameZH == "" || r.Country == "" {
					t.Errorf("region %s: row %v, name_en %q, name_zh %q, country %q", r.Key(), ok, r.NameEN, r.NameZH, r.Country)
				}
			}
		})
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(f string, a ...any) { r.errors = append(r.errors, fmt.Sprintf(f, a...)) }
func (r *recorder) Fatalf(f string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(f, a...))
	panic(r)
}

// The check finds the breaches it names.
func TestCheck_FindsBreaches(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	good := func() *catalog.Snapshot {
		return &catalog.Snapshot{Schema: catalog.SchemaVersion,
			Coverage:  []catalog.Coverage{{Provider: catalog.AWS, Status: catalog.CoverageOK, Regions: 1}},
			Regions:   []catalog.Region{{Provider: catalog.AWS, ID: "us-east-1"}},
			Instances: []catalog.InstanceType{{Provider: catalog.AWS, ID: "g5.xlarge", VCPUs: 4, MemoryGiB: catalog.Dec("16"), Generation: "current", Source: "aws:ec2", Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Name: "A10G", Model: "nvidia-a10g-24gb", Count: 1, Share: catalog.Dec("1"), MemoryGiB: catalog.Dec("24")}}}},
			Offers:    []catalog.Offer{{Provider: catalog.AWS, InstanceType: "g5.xlarge", Region: "us-east-1", Billing: catalog.OnDemand, Price: catalog.Price{Amount: catalog.Dec("1.006"), Currency: catalog.USD, Unit: catalog.PerHour}, Availability: catalog.Available, Source: "aws:pricing", FetchedAt: at}},
		}
	}
	tests := []struct {
		name   string
		mutate func(s *catalog.Snapshot)
		want   string
	}{
		{"unmapped and unreported", func(s *catalog.Snapshot) { s.Instances[0].Accelerators[0].Model = "" }, "neither mapped nor reported"},
		{"no source", func(s *catalog.Snapshot) { s.Offers[0].Source = "" }, "lacks currency, unit, source or fetched_at"},
		{"unknown region", func(s *catalog.Snapshot) { s.Offers[0].Region = "mars-1" }, "does not list"},
		{"zero share", func(s *catalog.Snapshot) { s.Instances[0].Accelerators[0].Share = catalog.Dec("0") }, "share 0"},
		{"no offers", func(s *catalog.Snapshot) { s.Offers = nil }, "no offers"},
	}
	r := &recorder{TB: t}
	providertest.Check(r, good(), catalog.AWS, nil)
	if len(r.errors) != 0 {
		t.Fatalf("a conforming snapshot failed: %v", r.errors)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := good()
			tt.mutate(s)
			r := &recorder{TB: t}
			func() {
				defer func() { _ = recover() }()
				providertest.Check(r, s, catalog.AWS, nil)
			}()
			if !strings.Contains(strings.Join(r.errors, "\n"), tt.want) {
				t.Errorf("errors %v, want one containing %q", r.errors, tt.want)
			}
		})
	}
}
