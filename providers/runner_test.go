package providers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// fakeProvider answers from a table: per region the data or an error.
type fakeProvider struct {
	regions []string
	data    map[string]*RegionData
	fail    map[string]error
}

func (f *fakeProvider) ID() catalog.Provider                      { return catalog.Tencent }
func (f *fakeProvider) Regions(context.Context) ([]string, error) { return f.regions, nil }
func (f *fakeProvider) Crawl(_ context.Context, region string) (*RegionData, error) {
	if err := f.fail[region]; err != nil {
		return nil, err
	}
	return f.data[region], nil
}

const runnerModels = `id,vendor,name,kind,memory_gb,source
nvidia-t4-16gb,NVIDIA,T4,gpu,16,x
tencent-zixiao-c100,Tencent,Zixiao C100,inference,,x
`

const runnerAliases = `provider,name,model,share,memory_gib,confidence,evidence
*,T4,nvidia-t4-16gb,,,certain,x
tencent,T4/4,nvidia-t4-16gb,1/4,,certain,vGPU
`

func TestCrawl_AssemblesProviderData(t *testing.T) {
	ref, err := catalog.ParseGPUReference("gpus.csv", strings.NewReader(runnerModels), "aliases.csv", strings.NewReader(runnerAliases))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	typ := func(id, gpu string) catalog.InstanceType {
		return catalog.InstanceType{Provider: catalog.Tencent, ID: id, VCPUs: 8, MemoryGiB: catalog.Dec("32"), Generation: "current", Source: "t",
			Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Name: gpu, Count: 1, MemoryGiB: catalog.Dec("16")}}}
	}
	offer := func(id, region, price string) catalog.Offer {
		return catalog.Offer{Provider: catalog.Tencent, InstanceType: id, Region: region, Billing: catalog.OnDemand,
			Price: catalog.Price{Amount: catalog.Dec(price), Currency: catalog.CNY, Unit: catalog.PerHour}, Availability: catalog.Available, Source: "t", FetchedAt: at}
	}
	fp := &fakeProvider{
		regions: []string{"ap-shanghai", "ap-guangzhou", "ap-beijing"},
		data: map[string]*RegionData{
			"ap-guangzhou": {Instances: []catalog.InstanceType{typ("GN7.2XLARGE32", "T4"), typ("GN7VW.XLARGE", "T4/4"), typ("PTX1.14XLARGE232", "tencent-zixiao-c100"), typ("GX9.LARGE", "Mystery 9")},
				Offers: []catalog.Offer{offer("GN7.2XLARGE32", "ap-guangzhou", "8.68")}},
			"ap-shanghai": {Instances: []catalog.InstanceType{typ("GN7.2XLARGE32", "T4")},
				Offers: []catalog.Offer{offer("GN7.2XLARGE32", "ap-shanghai", "8.7"), offer("GN9.GONE", "ap-shanghai", "1")}},
		},
		fail: map[string]error{"ap-beijing": errors.New("tencent: describe zone instance config infos in ap-beijing: throttled")},
	}
	f := Factory{ID: catalog.Tencent, Concurrency: 2}
	snap, err := Crawl(context.Background(), []Target{{Factory: f, Provider: fp, Transport: NewTransport(0, 0)}}, Options{Reference: ref, Clock: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	cov := snap.Coverage[0]
	if cov.Status != catalog.CoveragePartial || cov.Regions != 2 || len(cov.FailedRegions) != 1 || cov.FailedRegions[0].Region != "ap-beijing" {
		t.Errorf("coverage = %+v", cov)
	}
	if !strings.Contains(cov.Message, "GN9.GONE") {
		t.Errorf("an offer for an undescribed type must be reported, got message %q", cov.Message)
	}
	if len(snap.Offers) != 2 {
		t.Errorf("offers = %d, want 2 (the undescribed type's offer dropped, with a message)", len(snap.Offers))
	}
	if len(snap.Instances) != 4 {
		t.Fatalf("instances = %d, want 4 (GN7 once though seen in two regions)", len(snap.Instances))
	}
	byID := map[string]catalog.Accelerator{}
	for _, it := range snap.Instances {
		byID[it.ID] = it.Accelerators[0]
	}
	if a := byID["GN7VW.XLARGE"]; a.Model != "nvidia-t4-16gb" || !a.Share.Equal(catalog.Dec("0.25")) {
		t.Errorf("vGPU slice = %+v, want the T4 with share 0.25 from the alias", a)
	}
	if a := byID["GN7.2XLARGE32"]; !a.Share.Equal(catalog.Dec("1")) || a.MappingConfidence != "certain" {
		t.Errorf("whole GPU = %+v", a)
	}
	if a := byID["PTX1.14XLARGE232"]; a.Kind != catalog.KindInference {
		t.Errorf("Zixiao kind = %s, want inference from the reference", a.Kind)
	}
	if len(snap.Unmapped) != 1 || snap.Unmapped[0].Name != "Mystery 9" || snap.Unmapped[0].InstanceTypes[0] != "GX9.LARGE" {
		t.Errorf("unmapped = %+v, want Mystery 9 on GX9.LARGE", snap.Unmapped)
	}
	if a := byID["GX9.LARGE"]; a.Model != "" {
		t.Errorf("unknown GPU mapped to %q", a.Model)
	}
}

func TestCrawl_NoCredentialsIsSkipped(t *testing.T) {
	f := Factory{ID: catalog.Huawei}
	snap, err := Crawl(context.Background(), []Target{{Factory: f, Err: ErrNoCredentials}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := snap.Coverage[0]; c.Status != catalog.CoverageSkipped || !strings.Contains(c.Message, "no credentials") {
		t.Errorf("coverage = %+v, want skipped", c)
	}
}

// flakyProvider fails a region's crawl, and a type's price call, a set number
// of times before it succeeds; its calls go through a Retry with Stats, as an
// adapter's do.
type flakyProvider struct {
	mu          sync.Mutex
	regionFails map[string]int // crawls of the region that fail before one succeeds
	priceFails  map[string]int // calls of the type's price that fail before one succeeds
	retry       Retry
}

func (f *flakyProvider) ID() catalog.Provider { return catalog.Tencent }
func (f *flakyProvider) Regions(context.Context) ([]string, error) {
	return []string{"ap-a", "ap-b", "ap-c"}, nil
}

// take says whether the next use of key in m fails, and counts it.
func (f *flakyProvider) take(m map[string]int, key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if m[key] > 0 {
		m[key]--
		return true
	}
	return false
}

func (f *flakyProvider) Crawl(ctx context.Context, region string) (*RegionData, error) {
	err := f.retry.Do(ctx, func() error {
		if f.take(f.regionFails, region) {
			return fmt.Errorf("tencent: describe in %s: %w", region, ErrUnavailable)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	d := &RegionData{}
	types := []string{"GN7.A", "GN7.B"}
	for _, typ := range types {
		d.Instances = append(d.Instances, catalog.InstanceType{Provider: catalog.Tencent, ID: typ, VCPUs: 8, MemoryGiB: catalog.Dec("32"),
			Generation: "current", Source: "t", Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Name: "T4", Count: 1, MemoryGiB: catalog.Dec("16")}}})
	}
	d.Offers, d.Missing, err = Gather(ctx, 2, types, func(typ string) []string { return []string{typ} },
		func(ctx context.Context, typ string) ([]catalog.Offer, error) {
			err := f.retry.Do(ctx, func() error {
				if f.take(f.priceFails, region+"/"+typ) {
					return fmt.Errorf("tencent: inquiry price for %s in %s: %w", typ, region, ErrThrottled)
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
			return []catalog.Offer{{Provider: catalog.Tencent, InstanceType: typ, Region: region, Billing: catalog.OnDemand,
				Price: catalog.Price{Amount: catalog.Dec("1"), Currency: catalog.CNY, Unit: catalog.PerHour}, Availability: catalog.Available,
				Source: "t", FetchedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}}, nil
		})
	return d, err
}

// What fails after its retries is asked again once the provider's other
// regions are done: a region's crawl and a type's price call that clear by
// then give the whole catalog, with the faults, retries and swept calls
// counted in coverage; what still fails after every round is a failed
// region or a failed type, and nothing else is lost.
func TestCrawl_SweepsWhatFailed(t *testing.T) {
	tests := []struct {
		name                     string
		regionFails, priceFails  map[string]int
		wantRegions, wantOffers  int
		wantFailed, wantTypes    []string
		wantSwept, wantFaultsMin int
	}{
		// The sweep crawls ap-b again (its listing and two price calls) and asks
		// for ap-a's GN7.B once more: 4 swept calls.
		{"clears in the sweep", map[string]int{"ap-b": 2}, map[string]int{"ap-a/GN7.B": 10}, 3, 6, nil, nil, 4, 12},
		{"still failing", map[string]int{"ap-b": 100}, map[string]int{"ap-a/GN7.B": 100}, 2, 3,
			[]string{"ap-b"}, []string{"ap-a/GN7.B"}, 2 * SweepRounds, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stats := &Stats{}
			fp := &flakyProvider{regionFails: tt.regionFails, priceFails: tt.priceFails,
				retry: Retry{Attempts: 2, Throttles: 10, Base: time.Microsecond, Stats: stats}}
			var told []string
			var mu sync.Mutex
			snap, err := Crawl(context.Background(), []Target{{Factory: Factory{ID: catalog.Tencent, Concurrency: 2}, Provider: fp, Stats: stats}},
				Options{Progress: func(_ catalog.Provider, region string, err error) {
					mu.Lock()
					defer mu.Unlock()
					told = append(told, fmt.Sprintf("%s %v", region, err == nil))
				}})
			if err != nil {
				t.Fatal(err)
			}
			cov := snap.Coverage[0]
			var failed, types []string
			for _, f := range cov.FailedRegions {
				failed = append(failed, f.Region)
			}
			for _, f := range cov.FailedTypes {
				types = append(types, f.Key())
				if !strings.Contains(f.Reason, "throttled") {
					t.Errorf("failed type %s: reason %q", f.Key(), f.Reason)
				}
			}
			if cov.Regions != tt.wantRegions || len(snap.Offers) != tt.wantOffers || !slices.Equal(failed, tt.wantFailed) || !slices.Equal(types, tt.wantTypes) {
				t.Errorf("coverage %+v with %d offers; want %d regions, %d offers, failed regions %v, failed types %v",
					cov, len(snap.Offers), tt.wantRegions, tt.wantOffers, tt.wantFailed, tt.wantTypes)
			}
			if cov.Swept != tt.wantSwept || cov.Faults < tt.wantFaultsMin || cov.Retries == 0 {
				t.Errorf("coverage counts faults %d, retries %d, swept %d; want at least %d faults, %d swept", cov.Faults, cov.Retries, cov.Swept, tt.wantFaultsMin, tt.wantSwept)
			}
			if want := (len(tt.wantFailed) > 0 || len(tt.wantTypes) > 0); want != (cov.Status == catalog.CoveragePartial) {
				t.Errorf("status %s", cov.Status)
			}
			slices.Sort(told)
			if len(told) != 3 {
				t.Errorf("progress told %v, want each region once", told)
			}
		})
	}
}

// An enrichment's warning given by every region is recorded once and leaves
// the coverage ok: the primary data is complete (issue 28.16).
func TestCrawl_WarningsRecordedOnceCoverageOK(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	typ := catalog.InstanceType{Provider: catalog.Tencent, ID: "GN7.2XLARGE32", VCPUs: 8, MemoryGiB: catalog.Dec("32"), Generation: "current", Source: "t"}
	const w = "spot interruption bands unknown"
	fp := &fakeProvider{regions: []string{"ap-guangzhou", "ap-shanghai"}, data: map[string]*RegionData{
		"ap-guangzhou": {Instances: []catalog.InstanceType{typ}, Warnings: []string{w}},
		"ap-shanghai":  {Instances: []catalog.InstanceType{typ}, Warnings: []string{w}},
	}}
	snap, err := Crawl(context.Background(), []Target{{Factory: Factory{ID: catalog.Tencent, Concurrency: 2}, Provider: fp, Transport: NewTransport(0, 0), Stats: &Stats{}}},
		Options{Clock: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	c := snap.Coverage[0]
	if c.Status != catalog.CoverageOK || !slices.Equal(c.Warnings, []string{w}) {
		t.Errorf("coverage %s with warnings %q, want ok with the warning once", c.Status, c.Warnings)
	}
}
