package sitegen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
)

// fitVector is one question to the memory estimator: a MemoryInput's JSON
// text and the offers asked for (billing kind, currency, GPU, limit).
type fitVector struct {
	note              string
	input             string
	billing, currency string
	gpu               string
	limit             int
}

// TestFitJS_Vectors holds the memory estimator's script to compare on the
// embedded catalog and models, as the site serves them (data/fit.json from
// newFitSite): every known model in every task, every precision (those a
// task refuses, and ones that do not exist), context lengths, batches,
// sequences, checkpointing, LoRA ranks and trainable shares, overheads and
// custom architectures at their ranges' ends, every refusal of the input, and
// the offers of every billing kind and currency, by GPU (capability refusals
// among them: inference-only chips for training, no native BF16 or FP8) and
// with a limit. Each answer must be `gpuatlas fit --format json`'s, to the
// byte.
func TestFitJS_Vectors(t *testing.T) {
	testlane.Long(t, "prices the embedded catalog and runs the estimator's script under node")
	nodeOrSkip(t)
	snap := datatest.Snapshot(t)
	ref := datatest.Load(t, catalog.LoadGPUReference)
	models := datatest.Load(t, compare.LoadModels)
	s, err := newFitSite(&siteModel{snap: snap, ref: ref, typeByKey: map[string]*typeView{}}, models)
	if err != nil {
		t.Fatal(err)
	}
	vs := fitVectors(t, s)
	if len(vs) < 200 {
		t.Fatalf("only %d vectors", len(vs))
	}
	calls := []jsCall{{Fn: "$set", Args: []any{"models", models.Models}}, {Fn: "$set", Args: []any{"data", json.RawMessage(s.data)}}}
	wants := make([]string, len(vs))
	for i, v := range vs {
		wants[i] = goFitVector(t, s, v)
		opts := map[string]any{"billing": v.billing, "currency": v.currency, "gpu": v.gpu, "limit": v.limit}
		calls = append(calls, jsCall{Fn: "answer", Args: []any{map[string]string{"$var": "models"}, map[string]string{"$var": "data"}, json.RawMessage(v.input), opts}})
	}
	got := runScript(t, "fit.js", "GPUAtlasFit", calls)[2:]
	seen := map[string]bool{}
	for i, v := range vs {
		name := vectorName("fit", i, v.note+" "+v.input)
		var g string
		if got[i].Error != "" || json.Unmarshal(got[i].OK, &g) != nil {
			t.Errorf("%s: script throws %s %q", name, got[i].Kind, got[i].Error)
			continue
		}
		if g != wants[i] {
			t.Errorf("%s: the script's answer differs from compare's %s", name, firstDiffText(wants[i], g))
		}
		fitCovered(wants[i], seen)
	}
	t.Logf("%d vectors, %d answers' bytes", len(vs), len(strings.Join(wants, "")))
	// The vectors reach what they claim: every task, formula, status, verdict,
	// placement, capability refusal and error code.
	for _, want := range fitMustCover {
		if !seen[want] {
			t.Errorf("no vector reaches %s", want)
		}
	}
}

// fitMustCover are the answers' codes every run must reach.
var fitMustCover = []string{
	`"task":"inference"`, `"task":"full"`, `"task":"lora"`, `"task":"qlora"`,
	`"formula":"kv"`, `"formula":"kv_mla"`, `"formula":"window"`, `"formula":"act_none"`, `"formula":"act_none_fp32"`,
	`"formula":"act_selective"`, `"formula":"act_selective_fp32"`, `"formula":"act_full"`, `"formula":"act_full_fp32"`,
	`"formula":"lora_rank"`, `"formula":"lora_share"`, `"formula":"weights_lora_frozen"`, `"formula":"weights_lora"`,
	`"formula":"weights_frozen"`, `"formula":"adamw_fp32"`, `"formula":"adamw_mixed"`, `"formula":"gradients_lora"`,
	`"status":"needs_architecture"`, `"status":"not_estimated"`, `"status":"in_overhead"`,
	`"verdict":"fits"`, `"verdict":"may_fit"`, `"verdict":"does_not_fit"`,
	`"reason":"single"`, `"reason":"split_nvlink"`, `"reason":"split_pcie"`, `"reason":"short"`,
	`"reason":"inference_only"`, `"reason":"no_native_bf16"`, `"reason":"no_native_fp8"`, `"reason":"training_unknown"`,
	`"reason":"native_precision_unknown"`, `"reason":"model_not_identified"`, `"reason":"split_link_unknown"`,
	`"other_types":`, `"fits_from":`, `"price_per_month":`, `"code":"moe"`, `"code":"mla"`, `"code":"quantised"`, `"code":"diffusion"`, `"code":"no_architecture"`,
	`"code":"unknown_model"`, `"code":"not_one_of"`, `"code":"missing"`, `"code":"out_of_range"`, `"code":"not_applicable"`,
	`"code":"conflict"`, `"code":"not_divisor"`,
}

// fitCovered notes which of fitMustCover an answer holds.
func fitCovered(answer string, seen map[string]bool) {
	for _, s := range fitMustCover {
		if !seen[s] && strings.Contains(answer, s) {
			seen[s] = true
		}
	}
}

// goFitVector is compare's answer to a vector as `gpuatlas fit --format json`
// writes it (compact), or {"error": …} for a bad input.
func goFitVector(t *testing.T, s *fitSite, v fitVector) string {
	t.Helper()
	var in compare.MemoryInput
	d := json.NewDecoder(strings.NewReader(v.input))
	d.DisallowUnknownFields()
	if err := d.Decode(&in); err != nil {
		t.Fatalf("%s: %v", v.note, err)
	}
	var out any
	est, err := compare.EstimateMemory(in, s.models)
	var ie *compare.InputError
	switch {
	case errors.As(err, &ie):
		out = map[string]any{"error": ie}
	case err != nil:
		t.Fatalf("%s: %v", v.note, err)
	default:
		cs, ok := s.sets[fitSetKey(catalog.BillingKind(v.billing), catalog.Currency(v.currency))]
		if !ok {
			t.Fatalf("%s: no candidates for %s in %s", v.note, v.billing, v.currency)
		}
		out = compare.MemoryAnswer{Schema: compare.MemorySchema, Estimate: est, Offers: compare.FitMemory(est, cs, compare.FitOptions{Limit: v.limit, GPU: v.gpu})}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// firstDiffText shows where two texts part.
func firstDiffText(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-100)
	return fmt.Sprintf("at byte %d:\n  compare: …%s\n  script:  …%s", i, a[lo:min(len(a), i+100)], b[lo:min(len(b), i+100)])
}

// fitVectors are the questions: inputs across every rule's edges, asked of
// the on-demand offers in USD with a short limit (the offers' rules have
// vectors of their own), and the offers' vectors: every billing kind and
// currency, each GPU the capability rule refuses for some task, limits.
func fitVectors(t *testing.T, s *fitSite) []fitVector {
	var out []fitVector
	ask := func(note string, in map[string]any) {
		out = append(out, fitVector{note: note, input: mustMarshal(t, in), billing: string(catalog.OnDemand), currency: string(catalog.USD), limit: 3})
	}
	tasks := []string{"inference", "full", "lora", "qlora"}
	precisions := []string{"fp32", "bf16", "fp16", "fp8", "int8", "int4", "fp4", "BF16", ""}
	for _, m := range s.models.Models {
		for _, task := range tasks {
			ask(m.ID+" "+task, map[string]any{"model": m.ID, "task": task})
			if task == "lora" || task == "qlora" {
				ask(m.ID+" "+task+" share", map[string]any{"model": m.ID, "task": task, "trainable_share": "0.01"})
			}
			for _, p := range precisions {
				ask(m.ID+" "+task+" "+p, map[string]any{"model": m.ID, "task": task, "precision": p})
			}
		}
		for _, c := range []int{1, 4096, 131072, 10000000} {
			ask(fmt.Sprint(m.ID, " context ", c), map[string]any{"model": m.ID, "context": c, "batch": 2})
		}
		ask(m.ID+" full, no checkpointing, fp32", map[string]any{"model": m.ID, "task": "full", "precision": "fp32", "checkpointing": "none", "context": 2048})
		ask(m.ID+" lora rank 64, full checkpointing, fp32", map[string]any{"model": m.ID, "task": "lora", "precision": "fp32", "lora_rank": 64, "checkpointing": "full"})
	}
	ask("unknown task training", map[string]any{"model": "llama-3.1-8b", "task": "training"})
	ask("unknown model", map[string]any{"model": "gpt-5"})
	ask("schema 2", map[string]any{"model": "llama-3.1-8b", "schema": 2})
	ask("schema 1", map[string]any{"model": "llama-3.1-8b", "schema": 1})
	fitWindowVectors(ask)
	fitRangeVectors(ask)
	fitCustomVectors(ask)
	return append(out, fitOfferVectors(t, s)...)
}

// fitWindowVectors: a sliding window (Mistral 7B's 4,096 tokens) against the
// context, and the KV cache's precision.
func fitWindowVectors(ask func(string, map[string]any)) {
	for _, c := range []int{4095, 4096, 4097, 32768} {
		ask(fmt.Sprint("mistral context ", c), map[string]any{"model": "mistral-7b", "context": c})
	}
	for _, kv := range []string{"fp32", "bf16", "fp16", "fp8", "int8", "int4", "fp4"} {
		ask("kv "+kv, map[string]any{"model": "llama-3.1-70b", "kv_precision": kv, "sequences": 8})
		ask("deepseek kv "+kv, map[string]any{"model": "deepseek-v3", "precision": "fp8", "kv_precision": kv})
		ask("kv "+kv+" for training", map[string]any{"model": "llama-3.1-8b", "task": "lora", "kv_precision": kv})
	}
}

// fitRangeVectors: every integer field and share at its range's ends and
// beyond, and the fields a task does not take.
func fitRangeVectors(ask func(string, map[string]any)) {
	for _, c := range []int{-1, 0, 1, 2, 10000000, 10000001} {
		ask(fmt.Sprint("context ", c), map[string]any{"model": "llama-3.1-8b", "context": c})
		ask(fmt.Sprint("sdxl context ", c), map[string]any{"model": "sdxl-base-1.0", "context": c})
	}
	for _, b := range []int{-1, 0, 1, 8, 100000, 100001} {
		ask(fmt.Sprint("batch ", b), map[string]any{"model": "llama-3.1-8b", "batch": b})
		ask(fmt.Sprint("full batch ", b), map[string]any{"model": "qwen2.5-7b", "task": "full", "batch": b, "context": 4096})
	}
	for _, n := range []int{-1, 1, 16, 1000000, 1000001} {
		ask(fmt.Sprint("sequences ", n), map[string]any{"model": "llama-3.1-8b", "sequences": n})
		ask(fmt.Sprint("sequences for training ", n), map[string]any{"model": "llama-3.1-8b", "task": "full", "sequences": n})
	}
	for _, task := range []string{"inference", "full", "lora", "qlora"} {
		for _, ck := range []string{"none", "selective", "full", "some"} {
			ask("checkpointing "+ck+" "+task, map[string]any{"model": "qwen2.5-72b", "task": task, "checkpointing": ck})
		}
		ask("rank for "+task, map[string]any{"model": "llama-3.1-8b", "task": task, "lora_rank": 8})
		ask("share for "+task, map[string]any{"model": "llama-3.1-8b", "task": task, "trainable_share": "0.01"})
	}
	for _, r := range []int{-1, 1, 8, 64, 65536, 65537} {
		ask(fmt.Sprint("lora rank ", r), map[string]any{"model": "mixtral-8x7b", "task": "lora", "lora_rank": r})
	}
	for _, sh := range []string{"0", "0.001", "0.5", "1", "1.5", "-0.1", "0.10", "1e-3"} {
		ask("trainable share "+sh, map[string]any{"model": "deepseek-v3", "task": "qlora", "trainable_share": sh})
	}
	ask("share and rank", map[string]any{"model": "llama-3.1-8b", "task": "lora", "lora_rank": 8, "trainable_share": "0.01"})
	ask("deepseek lora without a share", map[string]any{"model": "deepseek-v3", "task": "lora"})
	for _, o := range []string{"0", "0.2", "0.125", "1", "1.01", "-0.01", "0.50", "2e-1"} {
		ask("overhead "+o, map[string]any{"model": "llama-3.1-70b", "overhead_share": o})
	}
}

// fitCustomVectors: a model given by its parameters, with and without an
// architecture, every architecture field at its ends, and a model named with
// parameters or an architecture.
func fitCustomVectors(ask func(string, map[string]any)) {
	for _, p := range []int64{999999, 1000000, 7000000000, 10000000000000, 10000000000001, -5} {
		ask(fmt.Sprint("params ", p), map[string]any{"params": p})
	}
	arch := func(l, h, heads, kv, hd int) map[string]any {
		a := map[string]any{}
		for k, v := range map[string]int{"layers": l, "hidden_size": h, "attention_heads": heads, "kv_heads": kv, "head_dim": hd} {
			if v != 0 {
				a[k] = v
			}
		}
		return a
	}
	archs := []struct {
		note string
		a    map[string]any
	}{
		{"full", arch(32, 4096, 32, 8, 128)}, {"head dim from hidden", arch(26, 3072, 24, 24, 0)}, {"no layers", arch(0, 4096, 32, 8, 0)},
		{"no hidden", arch(32, 0, 32, 8, 0)}, {"no heads", arch(32, 4096, 0, 8, 0)}, {"no kv heads", arch(32, 4096, 32, 0, 0)},
		{"kv heads over heads", arch(24, 2048, 16, 32, 0)}, {"kv heads not a divisor", arch(24, 2048, 16, 6, 0)},
		{"hidden not divisible", arch(24, 2050, 16, 8, 0)}, {"layers 10000", arch(10000, 1024, 8, 8, 0)}, {"layers 10001", arch(10001, 1024, 8, 8, 0)},
		{"hidden 1000001", arch(2, 1000001, 1, 1, 0)}, {"heads 100001", arch(2, 100001, 100001, 1, 0)}, {"head dim 1000001", arch(2, 64, 8, 8, 1000001)},
		{"negative layers", arch(-1, 64, 8, 8, 0)}, {"negative head dim", arch(2, 64, 8, 8, -3)},
	}
	for _, a := range archs {
		for _, task := range []string{"inference", "full", "lora"} {
			ask("custom "+a.note+" "+task, map[string]any{"params": 7000000000, "architecture": a.a, "task": task, "context": 2048})
		}
	}
	ask("custom lora share", map[string]any{"params": 34000000000, "architecture": arch(48, 8192, 64, 8, 0), "task": "lora", "trainable_share": "0.02"})
	ask("custom qlora without an architecture", map[string]any{"params": 13000000000, "task": "qlora"})
	ask("custom qlora share without an architecture", map[string]any{"params": 13000000000, "task": "qlora", "trainable_share": "0.005"})
	ask("model and params", map[string]any{"model": "llama-3.1-8b", "params": 8000000000})
	ask("model and architecture", map[string]any{"model": "llama-3.1-8b", "architecture": arch(32, 4096, 32, 8, 0)})
	ask("nothing", map[string]any{})
}

// fitOfferVectors: the offers of every billing kind and currency the site
// prices, whole and limited; by each GPU (a training task and FP8 and BF16
// inference on each, so that every capability refusal shows); a GPU with no
// offer; splits over several GPUs.
func fitOfferVectors(t *testing.T, s *fitSite) []fitVector {
	var out []fitVector
	add := func(note string, in map[string]any, b catalog.BillingKind, c catalog.Currency, gpu string, limit int) {
		out = append(out, fitVector{note: note, input: mustMarshal(t, in), billing: string(b), currency: string(c), gpu: gpu, limit: limit})
	}
	for _, b := range s.billing {
		for _, c := range s.currencies {
			add("llama 70b", map[string]any{"model": "llama-3.1-70b"}, b, c, "", 0)
			add("llama 405b fp8 limit 1", map[string]any{"model": "llama-3.1-405b", "precision": "fp8"}, b, c, "", 1)
			add("sdxl", map[string]any{"model": "sdxl-base-1.0", "precision": "fp16"}, b, c, "", 5)
		}
	}
	gpus := map[string]bool{}
	for _, cs := range s.sets {
		for _, c := range cs.Candidates {
			if c.GPUModel != "" {
				gpus[c.GPUModel] = true
			}
		}
	}
	ids := make([]string, 0, len(gpus))
	for id := range gpus {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range append(ids, "no-such-gpu") {
		add("qlora on "+id, map[string]any{"model": "llama-3.1-8b", "task": "qlora"}, catalog.OnDemand, catalog.USD, id, 0)
		add("fp8 on "+id, map[string]any{"model": "llama-3.1-70b", "precision": "fp8"}, catalog.OnDemand, catalog.USD, id, 0)
		add("bf16 on "+id, map[string]any{"model": "llama-3.1-8b", "context": 1024}, catalog.OnDemand, catalog.CNY, id, 0)
	}
	for _, limit := range []int{0, 1, 2, 10, 1000} {
		add(fmt.Sprint("limit ", limit), map[string]any{"model": "llama-3.1-405b", "precision": "int4"}, catalog.OnDemand, catalog.USD, "", limit)
	}
	add("deepseek training", map[string]any{"model": "deepseek-v3", "task": "full"}, catalog.OnDemand, catalog.USD, "", 0)
	add("custom no architecture may fit", map[string]any{"params": 20000000000}, catalog.OnDemand, catalog.USD, "", 0)
	return out
}
