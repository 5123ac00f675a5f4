package compare

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The per-device memory the fit counts: the reference's nominal figure for a
// whole mapped device (one GPU of a two-GPU board too), its share for a
// vGPU slice, nothing when neither is known.
func TestMemoryPerDevice(t *testing.T) {
	ref := scGPUs(t)
	acc := func(model, share, gib string) catalog.Accelerator {
		return catalog.Accelerator{Kind: catalog.KindGPU, Model: model, Count: 1, Share: catalog.Dec(share), MemoryGiB: catalog.Dec(gib)}
	}
	for _, c := range []struct {
		name string
		a    catalog.Accelerator
		gb   string
		src  MemorySource
		ok   bool
	}{
		{"A10G: 22.35 GiB usable, counted as its 24 GB class", acc("nvidia-a10g-24gb", "1", "22.3515625"), "24", MemoryFromReference, true},
		{"H100: 80 GiB, counted as 80 GB", acc("nvidia-h100-sxm-80gb", "1", "80"), "80", MemoryFromReference, true},
		{"K80: one GPU of the two-GPU board, as AWS counts it, is 12 GB", acc("nvidia-k80-24gb", "1", "12"), "12", MemoryFromReference, true},
		{"no provider figure: the reference", acc("nvidia-l4-24gb", "1", "0"), "24", MemoryFromReference, true},
		{"vGPU slice: its share of the class", acc("nvidia-l4-24gb", "0.125", "2.75"), "3", MemoryFromReference, true},
		{"unmapped: the provider's", acc("", "1", "48"), "51.539607552", MemoryFromProvider, true},
		{"nothing known", acc("", "1", "0"), "0", "", false},
	} {
		gb, src, ok := memoryPerDevice(c.a, ref)
		if gb.String() != c.gb || src != c.src || ok != c.ok {
			t.Errorf("%s: %s GB from %q (%v), want %s from %q", c.name, gb, src, ok, c.gb, c.src)
		}
	}
}

// fitFleet is a made-up catalog: 8x A100 80 GB on NVLink (two regions), 4x
// A10G, 1x H100, a PCIe-only 4x L4 priced in CNY, a vGPU slice, a GPU of unknown
// memory, a type with only a suspect price and one with only a synthetic price.
func fitFleet() *catalog.Snapshot {
	specs := []scSpec{
		{p: catalog.AWS, id: "p4de.24xlarge", model: "nvidia-a100-sxm-80gb", count: 8, mem: "80", vcpus: 96, memGiB: "1152"},
		{p: catalog.AWS, id: "g5.12xlarge", model: "nvidia-a10g-24gb", count: 4, mem: "22.3515625", vcpus: 48, memGiB: "192"},
		{p: catalog.AWS, id: "g5.48xlarge", model: "nvidia-a10g-24gb", count: 8, mem: "22.3515625", vcpus: 192, memGiB: "768"},
		{p: catalog.AWS, id: "g5.xlarge", model: "nvidia-a10g-24gb", count: 1, mem: "22.3515625", vcpus: 4, memGiB: "16"},
		{p: catalog.AWS, id: "p5.4xlarge", model: "nvidia-h100-sxm-80gb", count: 1, mem: "80", vcpus: 16, memGiB: "256"},
		{p: catalog.Alibaba, id: "ecs.l4x4", model: "nvidia-l4-24gb", count: 4, mem: "24", vcpus: 32, memGiB: "128"},
		{p: catalog.AWS, id: "g6f.large", model: "nvidia-l4-24gb", count: 1, share: "0.125", mem: "2.75", vcpus: 2, memGiB: "8"},
		{p: catalog.Alibaba, id: "ecs.unknown", model: "", count: 1, mem: "0", vcpus: 8, memGiB: "32"},
		{p: catalog.Alibaba, id: "ecs.suspect", model: "nvidia-h100-sxm-80gb", count: 8, mem: "80", vcpus: 8, memGiB: "32"},
		{p: catalog.Volcengine, id: "ecs.synthetic", model: "nvidia-h100-sxm-80gb", count: 8, mem: "80", vcpus: 8, memGiB: "32"},
	}
	snap := &catalog.Snapshot{Schema: catalog.SchemaVersion,
		FX: catalog.FXTable{Base: catalog.EUR, Date: "2025-11-28", Source: "test", Rates: map[catalog.Currency]decimal.Decimal{
			catalog.USD: catalog.Dec("1.1566"), catalog.CNY: catalog.Dec("8.1836")}}}
	for _, s := range specs {
		snap.Instances = append(snap.Instances, s.instance())
	}
	snap.Instances[0].Interconnect = "nvlink"
	snap.Instances[5].Interconnect = "pcie"
	od := catalog.OnDemand
	snap.Offers = []catalog.Offer{
		scOffer(catalog.AWS, "p4de.24xlarge", "us-east-1", od, "40.96", catalog.USD, catalog.PerHour),
		scOffer(catalog.AWS, "p4de.24xlarge", "us-west-2", od, "39.00", catalog.USD, catalog.PerHour),
		scOffer(catalog.AWS, "g5.12xlarge", "us-east-1", od, "5.672", catalog.USD, catalog.PerHour),
		scOffer(catalog.AWS, "g5.48xlarge", "us-east-1", od, "16.288", catalog.USD, catalog.PerHour),
		scOffer(catalog.AWS, "g5.xlarge", "us-east-1", od, "1.006", catalog.USD, catalog.PerHour),
		scOffer(catalog.AWS, "p5.4xlarge", "us-east-1", od, "6.88", catalog.USD, catalog.PerHour),
		scOffer(catalog.Alibaba, "ecs.l4x4", "cn-hangzhou", od, "20000", catalog.CNY, catalog.PerMonth),
		scOffer(catalog.AWS, "g6f.large", "us-east-1", od, "0.3", catalog.USD, catalog.PerHour),
		scOffer(catalog.Alibaba, "ecs.unknown", "cn-hangzhou", od, "3", catalog.CNY, catalog.PerHour),
		scOffer(catalog.Alibaba, "ecs.suspect", "cn-hangzhou", od, "1", catalog.CNY, catalog.PerHour),
		scOffer(catalog.Volcengine, "ecs.synthetic", "cn-beijing", od, "1", catalog.CNY, catalog.PerHour),
		scOffer(catalog.AWS, "p4de.24xlarge", "us-east-1", catalog.Spot, "12", catalog.USD, catalog.PerHour),
	}
	snap.Offers[1].Availability = catalog.SoldOut // the cheaper region is sold out
	snap.Offers[9].Suspect = "0.2% of its peers per GPU"
	snap.Offers[10].Synthetic = true
	return snap
}

func fitFleetAnswer(t *testing.T, in MemoryInput, cur catalog.Currency, fo FitOptions) MemoryOffers {
	t.Helper()
	e, err := EstimateMemory(in, loadTestModels(t))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := MemoryCandidates(fitFleet(), scGPUs(t), CandidateOptions{Billing: catalog.OnDemand, Currency: cur})
	if err != nil {
		t.Fatal(err)
	}
	return FitMemory(e, cs, fo)
}

type fitSummary struct {
	Instance, Verdict, Reason, Have, Price, Region string
	GPUsNeeded                                     int64
	Other, From                                    int
}

func summarize(rows []MemoryFitRow) []fitSummary {
	out := []fitSummary{}
	for _, r := range rows {
		out = append(out, fitSummary{r.Instance, r.Verdict, r.Reason, r.HaveGB.String(), r.Price.String(), r.Region, r.GPUsNeeded, r.OtherTypes, r.FitsFrom})
	}
	return out
}

// Llama 3.1 70B inference (172.01 GB): 8x A100 and 8x A10G hold it, cheapest
// first, each in its cheapest available region; 4x A10G, 4x L4 and one H100 do
// not, one row per GPU model with its largest configuration; suspect, synthetic
// and unknown are left out and counted.
func TestFitMemory_Llama70B(t *testing.T) {
	o := fitFleetAnswer(t, MemoryInput{Model: "llama-3.1-70b"}, catalog.USD, FitOptions{})
	if o.NeedGB.String() != "172.0132501504" || o.FitsTotal != 2 || o.MissesTotal != 5 {
		t.Errorf("need %s, %d fits, %d misses", o.NeedGB, o.FitsTotal, o.MissesTotal)
	}
	want := []fitSummary{
		{"aws/g5.48xlarge", FitFits, ReasonSplitPCIe, "192", "16.288", "us-east-1", 8, 0, 0}, // the A10G has no NVLink
		{"aws/p4de.24xlarge", FitFits, ReasonSplitNVLink, "640", "40.96", "us-east-1", 3, 0, 0},
	}
	if d := cmp.Diff(want, summarize(o.Fits)); d != "" {
		t.Errorf("fits (-want +got):\n%s", d)
	}
	// 20,000 CNY a month is 27.3972602739726027 CNY an hour (÷ 730 to 16
	// places), × 1.1566 / 8.1836 = 3.87209434 USD (to 8 places). The two 96 GB
	// rows are ordered by price; each has one more type of its GPU that misses
	// (g5.xlarge, g6f.large), and 8 A10G fit.
	wantMiss := []fitSummary{
		{"alibaba/ecs.l4x4", FitMisses, ReasonShort, "96", "3.87209434", "cn-hangzhou", 8, 1, 0},
		{"aws/g5.12xlarge", FitMisses, ReasonShort, "96", "5.672", "us-east-1", 8, 1, 8},
		{"aws/p5.4xlarge", FitMisses, ReasonShort, "80", "6.88", "us-east-1", 3, 0, 0},
	}
	if d := cmp.Diff(wantMiss, summarize(o.Misses)); d != "" {
		t.Errorf("misses (-want +got):\n%s", d)
	}
	if o.UnknownMemory != 1 || o.LeftOut != (LeftOut{NoOffer: 0, SuspectOrSynthetic: 2}) {
		t.Errorf("unknown %d, left out %+v", o.UnknownMemory, o.LeftOut)
	}
	if o.FXDate != "2025-11-28" || o.FXSource != "test" {
		t.Errorf("fx %s %s", o.FXDate, o.FXSource)
	}
}

// The same in CNY, with a GPU filter, a limit and a lower-bound estimate.
func TestFitMemory_Options(t *testing.T) {
	o := fitFleetAnswer(t, MemoryInput{Model: "llama-3.1-70b"}, catalog.CNY, FitOptions{Limit: 1})
	if len(o.Fits) != 1 || o.FitsTotal != 2 || o.Fits[0].Instance != "aws/g5.48xlarge" || o.Fits[0].Price.String() != "115.24682414" {
		t.Errorf("CNY, limit 1: %+v", summarize(o.Fits))
	}
	o = fitFleetAnswer(t, MemoryInput{Model: "llama-3.1-70b"}, catalog.USD, FitOptions{GPU: "nvidia-a10g-24gb"})
	if o.FitsTotal != 1 || o.MissesTotal != 2 || len(o.Misses) != 1 || o.Misses[0].Instance != "aws/g5.12xlarge" || o.Misses[0].OtherTypes != 1 || o.Misses[0].FitsFrom != 8 || o.UnknownMemory != 0 {
		t.Errorf("A10G only: fits %v misses %v", summarize(o.Fits), summarize(o.Misses))
	}
	// A 13B model without its architecture is a lower bound: the fits may fit.
	o = fitFleetAnswer(t, MemoryInput{Params: 13_000_000_000}, catalog.USD, FitOptions{})
	if !o.LowerBound || len(o.Fits) == 0 {
		t.Fatalf("lower bound %v, %d fits", o.LowerBound, len(o.Fits))
	}
	for _, f := range o.Fits {
		if f.Verdict != FitMayFit {
			t.Errorf("%s: %s on a lower bound", f.Instance, f.Verdict)
		}
	}
	// GPUs needed are exact: 48 GB on 24 GB GPUs is 2, 48.000000001 is 3.
	c := MemoryCandidate{Instance: "x/y", Devices: 4, MemoryEachGB: ptr(catalog.Dec("24")), Link: "nvlink"}
	if r := fitRow(c, catalog.Dec("48"), false); r.GPUsNeeded != 2 || r.NeedPerGPUGB.String() != "12" {
		t.Errorf("48 GB: %d GPUs, %s each", r.GPUsNeeded, r.NeedPerGPUGB)
	}
	if r := fitRow(c, catalog.Dec("48.000000001"), false); r.GPUsNeeded != 3 {
		t.Errorf("48.000000001 GB: %d GPUs", r.GPUsNeeded)
	}
	if r := fitRow(c, catalog.Dec("96"), false); r.Verdict != FitFits || r.Reason != ReasonSplitNVLink {
		t.Errorf("exactly full: %s %s", r.Verdict, r.Reason)
	}
	if _, err := MemoryCandidates(fitFleet(), scGPUs(t), CandidateOptions{Currency: "JPY"}); err == nil {
		t.Error("a currency the FX table lacks is an error")
	}
}
