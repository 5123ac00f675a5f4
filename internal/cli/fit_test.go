package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
)

// runFitJSON runs gpuatlas fit --format json and decodes its answer.
func runFitJSON(t *testing.T, args ...string) compare.MemoryAnswer {
	t.Helper()
	code, out, errs := runCmd(runFit, append(args, "--format", "json")...)
	if code != ExitOK {
		t.Fatalf("fit %v: exit %d: %s", args, code, errs)
	}
	var a compare.MemoryAnswer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("fit output: %v", err)
	}
	return a
}

// The question against the embedded catalog: Llama 3.1 70B inference in
// BF16 at 8,192 tokens, batch 1. Weights ≈141 GB and a KV cache ≈2.7 GB with
// their terms; 8x A100 80 GB and 8x H100 instances among the fits; 4x A10G
// (g5.12xlarge) among the misses, with the reason in figures.
func TestFit_Llama70BInference(t *testing.T) {
	a := runFitJSON(t, "--model", "llama-3.1-70b", "--task", "inference", "--precision", "bf16", "--context", "8192", "--batch", "1")
	comps := map[string]compare.MemoryComponent{}
	for _, c := range a.Estimate.Components {
		comps[c.Component] = c
	}
	if w := comps["weights"]; w.GB.String() != "141.11" || w.Bytes.String() != "141107412992" || len(w.Terms) != 2 {
		t.Errorf("weights %+v", w)
	}
	if kv := comps["kv_cache"]; kv.GB.String() != "2.68" || kv.Bytes.String() != "2684354560" || len(kv.Terms) != 6 {
		t.Errorf("kv cache %+v", kv)
	}
	if a.Estimate.Total.GB.String() != "172.01" || a.Estimate.Total.GiB.String() != "160.2" {
		t.Errorf("total %+v", a.Estimate.Total)
	}
	fits := map[string]compare.MemoryFitRow{}
	for _, f := range a.Offers.Fits {
		fits[f.Instance] = f
	}
	if len(a.Offers.Fits) != a.Offers.FitsTotal {
		t.Errorf("--limit defaults to all: %d of %d", len(a.Offers.Fits), a.Offers.FitsTotal)
	}
	for _, k := range []string{"aws/p4de.24xlarge", "aws/p5.48xlarge"} {
		f, ok := fits[k]
		if !ok || f.Devices != 8 || f.Reason != compare.ReasonSplitNVLink || f.HaveGB.String() != "640" {
			t.Errorf("%s: %+v (want a fit, 8 GPUs over NVLink, 640 GB)", k, f)
		}
	}
	for i := 1; i < len(a.Offers.Fits); i++ {
		if a.Offers.Fits[i].Price.LessThan(a.Offers.Fits[i-1].Price) {
			t.Errorf("fits not cheapest first at %d", i)
		}
	}
	var g5 *compare.MemoryFitRow
	for i, m := range a.Offers.Misses {
		if m.Instance == "aws/g5.12xlarge" {
			g5 = &a.Offers.Misses[i]
		}
		if _, ok := fits[m.Instance]; ok {
			t.Errorf("%s both fits and misses", m.Instance)
		}
	}
	if g5 == nil || g5.Reason != compare.ReasonShort || g5.Devices != 4 || g5.HaveGB.String() != "96" || g5.MemorySource != compare.MemoryFromReference || g5.FitsFrom != 8 {
		t.Errorf("g5.12xlarge miss: %+v", g5)
	}
	for _, f := range a.Offers.Fits {
		if strings.Contains(f.Offer, "suspect") || f.Price.IsNegative() {
			t.Errorf("%s: %s", f.Instance, f.Price)
		}
	}
}

// The text says the arithmetic and the reasons, in English or Chinese (--lang,
// else LANG).
func TestFit_Text(t *testing.T) {
	args := []string{"--model", "llama-3.1-70b", "--limit", "3"}
	code, out, errs := runCmd(runFit, args...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	reportHas(t, out,
		"GPU memory for Llama 3.1 70B: Inference",
		"141.11 GB", "= 70,553,706,496 parameters × 2 bytes = 141,107,412,992 B",
		"= 2 × 80 layers × 8 KV heads × 128 head dim × 8,192 tokens × 1 sequences × 2 bytes = 2,684,354,560 B",
		"172.01 GB", "Fits: 62 instance types", "… 59 more (--limit 0 lists all)",
		"4x NVIDIA A10G, 24.00 GB each", "needs 172.01 GB in all; 4x NVIDIA A10G give 96.00 GB",
		"https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json (read 2026-12-01)",
	)
	for _, c := range []struct {
		args []string
		env  map[string]string
	}{
		{append(args, "--lang", "zh"), nil},
		{args, map[string]string{"LANG": "zh_CN.UTF-8"}},
	} {
		code, out, errs := runEnv(runFit, c.env, c.args...)
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		for _, want := range []string{"Llama 3.1 70B 所需 GPU 显存：推理", "70,553,706,496 个参数 × 2 字节", "共需 172.01 GB；4 张 NVIDIA A10G 只有 96.00 GB", "放得下：62 个实例规格"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v %v: text lacks %q", c.args, c.env, want)
			}
		}
	}
}

// Training and other models: a QLoRA fine-tune shows the adapters' count, a
// model given by its parameters is a lower bound, a price in CNY.
func TestFit_Tasks(t *testing.T) {
	a := runFitJSON(t, "--model", "llama-3.1-70b", "--task", "qlora", "--context", "4096", "--currency", "CNY", "--limit", "5")
	if a.Estimate.Input.Precision != compare.INT4 || a.Estimate.TrainableParams != 207_093_760 || len(a.Offers.Fits) != 5 || a.Offers.Currency != "CNY" {
		t.Errorf("qlora: %+v %d fits", a.Estimate.Input, len(a.Offers.Fits))
	}
	a = runFitJSON(t, "--params", "70B", "--task", "lora", "--trainable-share", "1%")
	if a.Estimate.Params != 70_000_000_000 || !a.Estimate.LowerBound || a.Offers.LowerBound != true {
		t.Errorf("--params 70B lora: %+v", a.Estimate)
	}
	a = runFitJSON(t, "--params", "7e9", "--layers", "32", "--hidden", "4096", "--heads", "32", "--kv-heads", "8", "--overhead", "0")
	if a.Estimate.LowerBound || a.Estimate.Input.Arch == nil || a.Estimate.Input.Arch.HeadDim != 128 || !a.Estimate.Input.OverheadShare.IsZero() {
		t.Errorf("--params with architecture: %+v", a.Estimate.Input)
	}
	a = runFitJSON(t, "--model", "llama-3.1-70b", "--gpu", "nvidia-h100-sxm-80gb", "--billing", "spot")
	for _, f := range append(a.Offers.Fits, a.Offers.Misses...) {
		if f.GPUModel != "nvidia-h100-sxm-80gb" {
			t.Errorf("--gpu: %s has %s", f.Instance, f.GPUModel)
		}
	}
}

// Bad input is a usage error (exit 2) that names the flag and what it accepts.
func TestFit_UsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "gpt-5"}, `--model "gpt-5": not a known model; known: llama-3.1-8b, llama-3.1-70b`},
		{[]string{"--model", "llama-3.1-8b", "--batch", "-1"}, "--batch -1: must be 1 to 100000"},
		{[]string{"--model", "llama-3.1-8b", "--context", "0"}, "--context 0: must be 1 to 10000000"},
		{[]string{"--model", "llama-3.1-8b", "--context", "20000000"}, "--context 20000000: must be 1 to 10000000"},
		{[]string{"--params", "5"}, "--params \"5\": must be 1e6 to 1e13"},
		{[]string{"--params", "seven"}, "--params \"seven\": not a number"},
		{[]string{"--params", "7.5"}, "--params \"7.5\": not a whole number"},
		{[]string{}, "give --model ID or --params N"},
		{[]string{"--model", "llama-3.1-8b", "--params", "8e9"}, "--model and --params do not go together"},
		{[]string{"--model", "llama-3.1-8b", "--task", "train"}, `--task "train": want one of inference, full, lora, qlora`},
		{[]string{"--model", "llama-3.1-8b", "--task", "full", "--precision", "int4"}, `--precision "int4": want one of fp32, bf16, fp16 for --task full`},
		{[]string{"--model", "llama-3.1-8b", "--checkpointing", "full"}, "--checkpointing does not apply to --task inference"},
		{[]string{"--model", "deepseek-v3", "--task", "lora"}, "--trainable-share is required"},
		{[]string{"--model", "llama-3.1-8b", "--task", "lora", "--trainable-share", "150%"}, "--trainable-share: out of range: want 0 % to 100 % (as a share: 0 to 1)"},
		{[]string{"--model", "llama-3.1-8b", "--overhead", "lots"}, "--overhead: not a plain decimal number (at most 9 digits after the point): want 0 % to 100 % (as a share: 0 to 1)"},
		{[]string{"--params", "1e9", "--layers", "2"}, "--hidden is required with the other architecture flags"},
		{[]string{"--params", "1e9", "--layers", "24", "--hidden", "2048", "--heads", "16", "--kv-heads", "6"},
			"--kv-heads 6: must divide --heads (each KV head serves the same number of attention heads)"},
		{[]string{"--model", "llama-3.1-8b", "--lang", "fr"}, `--lang "fr": want en or zh`},
		{[]string{"--model", "llama-3.1-8b", "--format", "xml"}, `--format "xml"`},
		{[]string{"--model", "llama-3.1-8b", "--billing", "weekly"}, "--billing"},
		{[]string{"--model", "llama-3.1-8b", "--currency", "XYZ"}, `--currency "XYZ": the catalog's FX table`},
		{[]string{"--model", "llama-3.1-8b", "--gpu", "nvidia-x"}, `--gpu "nvidia-x": not a GPU model id`},
		{[]string{"--model", "llama-3.1-8b", "--limit", "-1"}, "--limit -1: must be 0 (all) or more"},
		{[]string{"--model", "llama-3.1-8b", "extra"}, `unexpected argument "extra"`},
	} {
		code, _, errs := runCmd(runFit, c.args...)
		if code != ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("fit %v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errs, c.want)
		}
	}
	if code, out, _ := runCmd(runFit, "--help"); code != ExitOK || !strings.Contains(out, "Usage: gpuatlas fit --model ID | --params N") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
	if code, out, _ := runCmd(Main); code != ExitUsage || !strings.Contains(out, "fit ") {
		t.Errorf("the command list lacks fit:\n%s", out)
	}
}

func TestParseParams(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"70e9", 70_000_000_000}, {"70B", 70_000_000_000}, {"7.24b", 7_240_000_000}, {"1.5T", 1_500_000_000_000},
		{"7241732096", 7_241_732_096}, {"500M", 500_000_000}, {" 8e9 ", 8_000_000_000}, // spaces around are trimmed
	} {
		got, err := parseParams(c.in)
		if err != nil || got != c.want {
			t.Errorf("parseParams(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

// Full training in FP32 is not called mixed precision, in either language;
// in BF16 it is, naming the precision.
func TestFit_FullTrainingPrecisionWords(t *testing.T) {
	for _, c := range []struct {
		lang, precision string
		want, not       []string
	}{
		{"en", "fp32", []string{"FP32 throughout"}, []string{"mixed precision"}},
		{"zh", "fp32", []string{"全程 FP32"}, []string{"混合精度"}},
		{"en", "bf16", []string{"mixed precision: BF16 weights and gradients"}, []string{"FP32 throughout"}},
		{"zh", "bf16", []string{"混合精度：BF16 权重和梯度"}, []string{"全程 FP32"}},
	} {
		code, out, errs := runCmd(runFit, "--model", "llama-3.1-8b", "--task", "full", "--precision", c.precision, "--lang", c.lang, "--limit", "1")
		if code != ExitOK {
			t.Fatalf("%s %s: exit %d: %s", c.lang, c.precision, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s %s: the text lacks %q:\n%s", c.lang, c.precision, w, out)
			}
		}
		for _, w := range c.not {
			if strings.Contains(out, w) {
				t.Errorf("%s %s: the text says %q:\n%s", c.lang, c.precision, w, out)
			}
		}
	}
}

// The two training questions against the embedded catalog: a 70B
// QLoRA fine-tune and an 8B full bf16 fine-tune list among their fits only
// hardware whose model is identified, that its maker offers for training and
// that computes in bf16 natively (data/gpus.csv), and the rest miss with the
// reason: Alibaba's VG1000 (model not identified), Inferentia2 (inference
// only), V100 and T4 (no native bf16).
func TestFit_TrainingFitsOnlyCapableHardware(t *testing.T) {
	ref := datatest.Load(t, catalog.LoadGPUReference)
	for _, args := range [][]string{
		{"--model", "llama-3.1-70b", "--task", "qlora"},
		{"--model", "llama-3.1-8b", "--task", "full", "--precision", "bf16"},
	} {
		a := runFitJSON(t, args...)
		if a.Offers.FitsTotal == 0 {
			t.Fatalf("%v: no fits", args)
		}
		for _, f := range a.Offers.Fits {
			m, ok := ref.Model(f.GPUModel)
			if !ok || m.Training != catalog.CapabilityYes || m.NativeBF16 != catalog.CapabilityYes {
				t.Errorf("%v: %s (%s, %q) fits; want only identified training hardware with native bf16", args, f.Instance, f.GPUName, f.GPUModel)
			}
		}
		why := map[string]string{}
		for _, m := range a.Offers.Misses {
			why[m.GPUModel+"|"+m.GPUName] = m.Reason
			// the memory unit rule: Alibaba reports 64 for the VG1000, kept in
			// its unit (GiB), never shown as 68.72 "GB"
			if m.GPUName == "VG1000" && (m.MemoryEachReportedGiB == nil || m.MemoryEachReportedGiB.String() != "64") {
				t.Errorf("%v: VG1000 reported memory %v, want 64 GiB as the provider reports it", args, m.MemoryEachReportedGiB)
			}
		}
		for gpu, want := range map[string]string{"|VG1000": "model_not_identified", "aws-inferentia2|AWS Inferentia2": "inference_only",
			"nvidia-t4-16gb|NVIDIA T4": "no_native_bf16"} {
			if why[gpu] != want {
				t.Errorf("%v: %s misses with %q, want %q", args, gpu, why[gpu], want)
			}
		}
	}
}
