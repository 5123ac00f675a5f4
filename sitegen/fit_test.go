package sitegen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
)

var decEq = cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })

func withModels(t testing.TB, o *Options) {
	ms := datatest.Load(t, compare.LoadModels)
	o.Models = ms
}

// rebuildCandidates reads data/fit.json as static/fit.js does (candidates()).
func rebuildCandidates(d fitData, b catalog.BillingKind, c catalog.Currency) compare.CandidateSet {
	cs := compare.CandidateSet{Billing: b, Currency: c, FXDate: d.FXDate, FXSource: d.FXSource, Candidates: []compare.MemoryCandidate{},
		LeftOut: d.LeftOut[string(b)]}
	for _, h := range d.Instances {
		cell, ok := d.Prices[string(b)][h.Instance]
		if !ok {
			continue
		}
		price, ok := cell.Prices[string(c)]
		if !ok {
			continue
		}
		o := cell.fitOffer
		if other, ok := cell.Other[string(c)]; ok {
			o = other
		}
		cs.Candidates = append(cs.Candidates, compare.MemoryCandidate{Instance: h.Instance, Provider: h.Provider, Type: h.Type,
			GPUModel: h.GPUModel, GPUName: h.GPUName, MappingConfidence: h.Mapping, Devices: h.Devices, Partial: h.Partial, MemoryEachGB: h.MemoryEachGB,
			MemorySource: h.MemorySource, MemoryEachReportedGiB: h.ReportedGiB, Link: h.Link, Training: h.Training, NativeBF16: h.NativeBF16, NativeFP8: h.NativeFP8, Offer: o.Offer, Region: o.Region, Availability: o.Availability,
			Price: price, NativePrice: o.NativePrice, NativeCurrency: o.NativeCurrency})
		if b.TermHours().IsPositive() { // as static/fit.js derives it
			pm := catalog.MonthlyFromHourly(price)
			cs.Candidates[len(cs.Candidates)-1].PricePerMonth = &pm
		}
	}
	return cs
}

// The estimator's data (data/fit.json) holds exactly compare's candidates for
// every billing kind and currency, so the script fits the offers `gpuatlas fit`
// fits; the page reads without JavaScript (the default answer in tables) in
// both languages, and the nav, scenario and GPU pages link to it.
func TestFitPage(t *testing.T) {
	out := buildSite(t, withModels)
	b, err := os.ReadFile(filepath.Join(out, "data", "fit.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d fitData
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	snap, ref := testSnapshot(t), testReference(t)
	if len(d.Billing) == 0 || len(d.Currencies) != 2 {
		t.Fatalf("billing %v, currencies %v", d.Billing, d.Currencies)
	}
	for _, bk := range d.Billing {
		for _, c := range d.Currencies {
			want, err := compare.MemoryCandidates(snap, ref, compare.CandidateOptions{Billing: bk, Currency: c})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, rebuildCandidates(d, bk, c), decEq); diff != "" {
				t.Errorf("%s %s: data/fit.json does not rebuild compare's candidates (-want +got):\n%s", bk, c, diff)
			}
		}
	}
	en, zh := readPage(t, out, "fit.html"), readPage(t, out, "zh/fit.html")
	wantContains(t, "fit.html", en, `id="fit-config"`, `id="fit-estimate"`, "GPU memory of Llama 3.1 70B, Inference: 172.01 GB (160.20 GiB)",
		"70,553,706,496 parameters × 2 bytes = 141,107,412,992 B", `static/fit.js?v=`, `href="/methodology.html"`)
	wantContains(t, "zh/fit.html", zh, "Llama 3.1 70B（推理）所需显存：172.01 GB（160.20 GiB）", "70,553,706,496 个参数 × 2 字节", `href="/zh/fit.html"`)
	// Each page opens in its language's currency, listed first in the control.
	wantContains(t, "fit.html", en, "in USD per hour", `<select id="fit-currency"><option value="USD">USD</option><option value="CNY">`)
	wantContains(t, "zh/fit.html", zh, "单位为每小时 CNY", `<select id="fit-currency"><option value="CNY">CNY</option><option value="USD">`)
	wantContains(t, "index.html", readPage(t, out, "index.html"), `<a href="/fit.html">Memory estimator</a>`)
	wantContains(t, "gpu page", readPage(t, out, "gpus/nvidia-a10-24gb.html"), `class="fit-link" href="/fit.html?gpu=nvidia-a10-24gb"`)
	// Nothing from a model row reaches the page unescaped.
	if strings.Contains(en, "<script>alert") {
		t.Error("unescaped script in fit.html")
	}

	// Without models there is no estimator and no link to it.
	plain := buildSite(t)
	if _, err := os.Stat(filepath.Join(plain, "fit.html")); !os.IsNotExist(err) {
		t.Errorf("fit.html without models: %v", err)
	}
	if strings.Contains(readPage(t, plain, "index.html"), "fit.html") {
		t.Error("the nav links the estimator without models")
	}
}
