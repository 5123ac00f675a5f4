package providers

import (
	"context"
	"errors"
	"strings"
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
