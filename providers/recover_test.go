package providers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// panicky panics where it is told to, with a message that would forge a
// workflow command and leak a signed URL if it reached the log as it is.
type panicky struct {
	fakeProvider
	id          catalog.Provider
	inRegions   bool
	inRegion    string
	inPriceCall bool
}

const forged = "boom\n::error::forged https://ecs.aliyuncs.com/?AccessKeyId=LTAIxxxx&Signature=abc"

func (p *panicky) ID() catalog.Provider { return p.id }
func (p *panicky) Regions(ctx context.Context) ([]string, error) {
	if p.inRegions {
		panic(forged)
	}
	return p.fakeProvider.Regions(ctx)
}
func (p *panicky) Crawl(ctx context.Context, region string) (*RegionData, error) {
	if region == p.inRegion {
		var m map[string]int
		m[forged]++ //nolint:staticcheck // SA5000 is the point: a runtime panic (assignment to a nil map), not a panic() call
	}
	if p.inPriceCall {
		offers, missing, err := Gather(ctx, 2, []string{"a", "b"}, func(s string) []string { return []string{s} },
			func(_ context.Context, s string) ([]catalog.Offer, error) {
				if s == "b" {
					panic(forged)
				}
				return nil, nil
			})
		return &RegionData{Offers: offers, Missing: missing}, err
	}
	return p.fakeProvider.Crawl(ctx, region)
}

// A panic in one adapter, in Regions, in a region's Crawl or in a price call
// on a goroutine of its own, fails that provider with an escaped, redacted
// message; the other provider's crawl completes (issue 32.8).
func TestCrawl_PanicFailsOnlyItsProvider(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	typ := catalog.InstanceType{Provider: catalog.Tencent, ID: "GN7.2XLARGE32", VCPUs: 8, MemoryGiB: catalog.Dec("32"), Generation: "current", Source: "t"}
	healthy := func() *fakeProvider {
		return &fakeProvider{regions: []string{"ap-guangzhou", "ap-shanghai"}, data: map[string]*RegionData{
			"ap-guangzhou": {Instances: []catalog.InstanceType{typ}}, "ap-shanghai": {Instances: []catalog.InstanceType{typ}}}}
	}
	for _, tc := range []struct {
		name  string
		p     *panicky
		where string
	}{
		{"regions", &panicky{fakeProvider: *healthy(), id: catalog.AWS, inRegions: true}, "during list regions"},
		{"crawl", &panicky{fakeProvider: *healthy(), id: catalog.AWS, inRegion: "ap-shanghai"}, "during crawl ap-shanghai"},
		{"price call", &panicky{fakeProvider: *healthy(), id: catalog.AWS, inPriceCall: true}, "during a price call"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			targets := []Target{
				{Factory: Factory{ID: catalog.AWS, Concurrency: 2}, Provider: tc.p, Transport: NewTransport(0, 0), Stats: &Stats{}},
				{Factory: Factory{ID: catalog.Tencent, Concurrency: 2}, Provider: healthy(), Transport: NewTransport(0, 0), Stats: &Stats{}},
			}
			snap, err := Crawl(context.Background(), targets, Options{Clock: func() time.Time { return at }})
			if err != nil {
				t.Fatal(err)
			}
			byID := map[catalog.Provider]catalog.Coverage{}
			for _, c := range snap.Coverage {
				byID[c.Provider] = c
			}
			bad, good := byID[catalog.AWS], byID[catalog.Tencent]
			if bad.Status != catalog.CoverageFailed || !strings.Contains(bad.Message, "adapter panicked "+tc.where) {
				t.Errorf("panicking provider: %s %q, want failed, saying it panicked %s", bad.Status, bad.Message, tc.where)
			}
			for _, raw := range []string{"\n", "LTAIxxxx", "Signature=abc"} {
				if strings.Contains(bad.Message, raw) {
					t.Errorf("message %q holds %q raw", bad.Message, raw)
				}
			}
			if good.Status != catalog.CoverageOK || good.Regions != 2 {
				t.Errorf("the other provider: %s with %d regions, want ok with 2", good.Status, good.Regions)
			}
			for _, o := range snap.Instances {
				if o.Provider == catalog.AWS {
					t.Errorf("data of the panicking provider kept: %s", o.Key())
				}
			}
		})
	}
}
