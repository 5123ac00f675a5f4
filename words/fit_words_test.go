package words

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

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
// every literal key of static/fit.js and static/fit-page.js.
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
	for _, script := range []string{"fit.js", "fit-page.js"} {
		js, err := os.ReadFile(filepath.Join("..", "templates", "static", script))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`T\('(fit\.[a-z_.]*[a-z_])'\s*[,)]`).FindAllStringSubmatch(string(js), -1) {
			want[m[1]] = true
		}
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
