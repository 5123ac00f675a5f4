package sitegen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/data"
)

var decEq = cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })

func withModels(t testing.TB, o *Options) {
	ms, err := compare.LoadModels(data.FS)
	if err != nil {
		t.Fatal(err)
	}
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

// FitWords puts codes and figures into words; GroupDigits groups whole parts.
func TestFitWords(t *testing.T) {
	for in, want := range map[string]string{"0": "0", "999": "999", "8192": "8,192", "70553706496": "70,553,706,496",
		"28221482598.4": "28,221,482,598.4", "-1234.5": "-1,234.5", "0.125": "0.125"} {
		if got := GroupDigits(in); got != want {
			t.Errorf("GroupDigits(%s) = %s, want %s", in, got, want)
		}
	}
	w := NewFitWords(map[string]string{"fit.reason.short": "needs {need} GB in all; {devices}x {gpu} give {have} GB", "fit.sep": "; ",
		"fit.miss_more": "{n} more"})
	r := compare.MemoryFitRow{MemoryCandidate: compare.MemoryCandidate{Devices: 4, GPUName: "NVIDIA A10G"},
		NeedGB: catalog.Dec("172.0132501504"), HaveGB: catalog.Dec("96"), OtherTypes: 6}
	if got := w.MissReason(r); got != "needs 172.01 GB in all; 4x NVIDIA A10G give 96.00 GB; 6 more" {
		t.Errorf("MissReason: %q", got)
	}
	// A capability miss says its reason; a mapping that is not certain is
	// marked wherever the model's name is shown.
	w = NewFitWords(map[string]string{"fit.reason.no_native_bf16": "{gpu} has no native bf16", "fit.mapping_uncertain": "{gpu} (model uncertain)",
		"fit.hardware": "{devices}x {gpu}, {each} GB each"})
	r = compare.MemoryFitRow{MemoryCandidate: compare.MemoryCandidate{Devices: 8, GPUName: "NVIDIA V100 SXM2 16GB", MappingConfidence: "likely",
		MemoryEachGB: catalog.DecPtr("16")}, Reason: string(compare.ReasonNoNativeBF16)}
	if got := w.MissReason(r); got != "NVIDIA V100 SXM2 16GB (model uncertain) has no native bf16" {
		t.Errorf("MissReason (capability): %q", got)
	}
	if got := w.Hardware(r); got != "8x NVIDIA V100 SXM2 16GB (model uncertain), 16.00 GB each" {
		t.Errorf("Hardware (uncertain mapping): %q", got)
	}
}

// Every code the estimate can give has words in both languages: the formulas,
// statuses, notes and figures of every shared case (compare's golden file), the
// components, tasks, checkpointing modes, placements and input errors, and
// every literal key of static/fit.js.
func TestFitMessages_EveryCode(t *testing.T) {
	want := map[string]bool{}
	b, err := os.ReadFile(filepath.Join("..", "compare", "testdata", "fit_estimates.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases map[string]struct {
		Components []compare.MemoryComponent `json:"components"`
		Figures    []compare.DerivedFigure   `json:"figures"`
		Notes      []compare.MemoryNote      `json:"notes"`
		Input      compare.MemoryInput       `json:"input"`
		Error      *compare.InputError       `json:"error"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Error != nil {
			want["fit.err."+c.Error.Code] = true
			continue
		}
		for _, m := range c.Components {
			want["fit.comp."+m.Component] = true
			if m.Formula != "" {
				want["fit.formula."+m.Formula] = true
			} else {
				want["fit.status."+m.Status] = true
			}
		}
		for _, f := range c.Figures {
			want["fit.figure."+f.Formula] = true
		}
		for _, n := range c.Notes {
			want["fit.note."+n.Code] = true
		}
	}
	for _, k := range []string{"fit.status.not_applicable", "fit.status.in_overhead", "fit.status.needs_architecture", "fit.status.not_estimated",
		"fit.formula.act_none", "fit.formula.act_full_fp32", "fit.formula.act_none_fp32", "fit.formula.gradients", "fit.formula.gradients_lora",
		"fit.formula.adamw_lora", "fit.formula.weights_lora", "fit.note.mla", "fit.note.moe", "fit.err.conflict", "fit.err.not_applicable"} {
		want[k] = true
	}
	for _, code := range compare.Tasks {
		want["fit.task."+string(code)] = true
	}
	for _, code := range compare.CheckpointingModes {
		want["fit.ckpt."+string(code)] = true
	}
	for _, code := range []string{compare.ReasonSingle, compare.ReasonSplitNVLink, compare.ReasonSplitPCIe, compare.ReasonSplitLink, compare.ReasonShort, "short_one"} {
		want["fit.reason."+code] = true
	}
	for _, code := range compare.CapabilityMisses {
		want["fit.reason."+string(code)] = true
	}
	for _, s := range []compare.MemorySource{compare.MemoryFromReference, compare.MemoryFromProvider} {
		want["fit.memory_source."+string(s)] = true
	}
	js, err := os.ReadFile(filepath.Join("..", "templates", "static", "fit.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`T\('(fit\.[a-z_.]*[a-z_])'\s*[,)]`).FindAllStringSubmatch(string(js), -1) {
		want[m[1]] = true
	}
	if len(want) < 80 {
		t.Fatalf("only %d keys found: is the pattern out of date?", len(want))
	}
	for _, l := range loadTestLanguages(t) {
		for k := range want {
			if _, ok := l.messages[k]; !ok {
				t.Errorf("i18n/%s.fit.json lacks %q", l.Tag, k)
			}
		}
	}
}
