package compare

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/golden"
)

func estimate(t *testing.T, ms *ModelSet, in MemoryInput) MemoryEstimate {
	t.Helper()
	e, err := EstimateMemory(in, ms)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func comp(t *testing.T, e MemoryEstimate, name string) MemoryComponent {
	t.Helper()
	for _, c := range e.Components {
		if c.Component == name {
			return c
		}
	}
	t.Fatalf("no component %s", name)
	return MemoryComponent{}
}

func decStr(d decimal.Decimal) string { return d.String() }

// The example: Llama 3.1 70B inference in BF16 at 8,192 tokens, batch 1.
// Weights 70,553,706,496 × 2 bytes; KV cache 2 × 80 × 8 × 128 × 8,192 × 2 bytes;
// overhead 20% of the weights.
func TestEstimateMemory_Llama70BInference(t *testing.T) {
	ms := loadTestModels(t)
	e := estimate(t, ms, MemoryInput{Model: "llama-3.1-70b", Task: TaskInference, Precision: BF16, Context: 8192, Batch: 1})
	for _, c := range []struct {
		name, bytes, gb, gib string
	}{
		{CompWeights, "141107412992", "141.11", "131.42"},
		{CompKVCache, "2684354560", "2.68", "2.5"},
		{CompOverhead, "28221482598.4", "28.22", "26.28"},
		{CompGradients, "0", "0", "0"},
	} {
		got := comp(t, e, c.name)
		if decStr(got.Bytes) != c.bytes || decStr(got.GB) != c.gb || decStr(got.GiB) != c.gib {
			t.Errorf("%s: %s B, %s GB, %s GiB; want %s, %s, %s", c.name, got.Bytes, got.GB, got.GiB, c.bytes, c.gb, c.gib)
		}
	}
	if comp(t, e, CompActivations).Status != StatusInOverhead || comp(t, e, CompGradients).Status != StatusNotApplicable {
		t.Errorf("inference activations and gradients: %+v", e.Components)
	}
	if decStr(e.Total.Bytes) != "172013250150.4" || decStr(e.Total.GB) != "172.01" || e.LowerBound {
		t.Errorf("total %+v, lower bound %v", e.Total, e.LowerBound)
	}
	kv := comp(t, e, CompKVCache)
	want := []Term{{"layers", catalog.Dec("80")}, {"kv_heads", catalog.Dec("8")}, {"head_dim", catalog.Dec("128")}, {"tokens", catalog.Dec("8192")},
		{"sequences", catalog.Dec("1")}, {"bytes_per_value", catalog.Dec("2")}}
	if kv.Formula != "kv" || len(kv.Terms) != len(want) {
		t.Fatalf("kv formula %s %v", kv.Formula, kv.Terms)
	}
	for i, w := range want {
		if kv.Terms[i].Name != w.Name || !kv.Terms[i].Value.Equal(w.Value) {
			t.Errorf("kv term %d: %v, want %v", i, kv.Terms[i], w)
		}
	}
}

// Full training with AdamW is Transformer Math 101's 16 bytes per parameter
// (weights, gradients and optimizer states) in mixed precision, and in fp32;
// LoRA is 16 bytes per trainable parameter on top of the frozen weights.
func TestEstimateMemory_BytesPerParameter(t *testing.T) {
	ms := loadTestModels(t)
	perParam := func(e MemoryEstimate) decimal.Decimal {
		s := decimal.Zero
		for _, n := range []string{CompWeights, CompGradients, CompOptimizer} {
			s = s.Add(comp(t, e, n).Bytes)
		}
		return s
	}
	p := decimal.NewFromInt(8_030_261_248)
	for _, prec := range []Precision{BF16, FP16, FP32} {
		e := estimate(t, ms, MemoryInput{Model: "llama-3.1-8b", Task: TaskFull, Precision: prec})
		if got := perParam(e).Div(p); !got.Equal(decimal.NewFromInt(16)) {
			t.Errorf("full %s: %s bytes per parameter, want 16", prec, got)
		}
	}
	e := estimate(t, ms, MemoryInput{Model: "llama-3.1-8b", Task: TaskLoRA, TrainableShare: ptr(catalog.Dec("0.01"))})
	if e.TrainableParams != 80_302_612 {
		t.Errorf("1%% of 8,030,261,248 trainable: %d", e.TrainableParams)
	}
	want := p.Mul(decimal.NewFromInt(2)).Add(decimal.NewFromInt(e.TrainableParams * 16))
	if got := perParam(e); !got.Equal(want) {
		t.Errorf("lora: %s bytes, want the bf16 base plus 16 bytes per trainable parameter, %s", got, want)
	}
	q := estimate(t, ms, MemoryInput{Model: "llama-3.1-70b", Task: TaskQLoRA})
	if q.Input.Precision != INT4 || q.Input.Checkpointing != CheckpointFull || q.Input.LoRARank != 16 {
		t.Errorf("qlora defaults: %+v", q.Input)
	}
	// Rank 16 on every linear layer of Llama 3.1 70B: 16 × 80 × (16,384 + 18,432 + 16,384 + 110,592).
	if q.TrainableParams != 207_093_760 {
		t.Errorf("qlora rank 16 trainable: %d", q.TrainableParams)
	}
}

func ptr[T any](v T) *T { return &v }

// Korthikanti et al.'s activation memory, for a small made-up transformer:
// s = 10, b = 2, h = 64, L = 3, a = 4.
func TestEstimateMemory_Activations(t *testing.T) {
	in := MemoryInput{Params: 1_000_000, Arch: &Architecture{Layers: 3, Hidden: 64, Heads: 4, KVHeads: 4}, Task: TaskFull, Context: 10, Batch: 2}
	for _, c := range []struct {
		ckpt    Checkpointing
		prec    Precision
		formula string
		bytes   int64
	}{
		{CheckpointNone, BF16, "act_none", 10*2*64*3*34 + 5*4*10*10*2*3},
		{CheckpointSelective, BF16, "act_selective", 10 * 2 * 64 * 3 * 34},
		{CheckpointFull, BF16, "act_full", 10*2*64*3*2 + 10*2*64*34},
		{CheckpointSelective, FP32, "act_selective_fp32", 2 * 10 * 2 * 64 * 3 * 34},
	} {
		in.Checkpointing, in.Precision = c.ckpt, c.prec
		e, err := EstimateMemory(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		a := comp(t, e, CompActivations)
		if a.Formula != c.formula || !a.Bytes.Equal(decimal.NewFromInt(c.bytes)) {
			t.Errorf("%s %s: %s %s, want %s %d", c.ckpt, c.prec, a.Formula, a.Bytes, c.formula, c.bytes)
		}
	}
}

// Latent attention caches kv_lora_rank + rope elements per token and layer; a
// sliding window caps the tokens; a diffusion model and a model without its
// architecture give lower bounds.
func TestEstimateMemory_Kinds(t *testing.T) {
	ms := loadTestModels(t)
	ds := estimate(t, ms, MemoryInput{Model: "deepseek-v3", Precision: FP8, Context: 1000, Sequences: 2})
	if kv := comp(t, ds, CompKVCache); kv.Formula != "kv_mla" || !kv.Bytes.Equal(decimal.NewFromInt(61*(512+64)*1000*2*2)) {
		t.Errorf("deepseek kv: %s %s", kv.Formula, kv.Bytes)
	}
	mi := estimate(t, ms, MemoryInput{Model: "mistral-7b", Context: 32768})
	if kv := comp(t, mi, CompKVCache); !kv.Bytes.Equal(decimal.NewFromInt(2*32*8*128*4096*2)) || len(mi.Figures) != 1 || mi.Figures[0].Formula != "window" {
		t.Errorf("mistral kv %s, figures %+v", kv.Bytes, mi.Figures)
	}
	sd := estimate(t, ms, MemoryInput{Model: "sdxl-base-1.0", Task: TaskFull})
	if !sd.LowerBound || comp(t, sd, CompActivations).Status != StatusNotEstimated || sd.Input.Context != 0 {
		t.Errorf("sdxl full: lower bound %v, %+v", sd.LowerBound, sd.Components)
	}
	// The frozen text encoders and VAE are weights, not trained.
	if w, g := comp(t, sd, CompWeights), comp(t, sd, CompGradients); w.Formula != "weights_frozen" ||
		!w.Bytes.Equal(decimal.NewFromInt((2_567_463_684+901_374_183)*2)) || !g.Bytes.Equal(decimal.NewFromInt(2_567_463_684*2)) {
		t.Errorf("sdxl weights %s %s, gradients %s", w.Formula, w.Bytes, g.Bytes)
	}
	cu := estimate(t, ms, MemoryInput{Params: 13_000_000_000})
	if !cu.LowerBound || comp(t, cu, CompKVCache).Status != StatusNeedsArchitecture || cu.Notes[0].Code != "no_architecture" {
		t.Errorf("custom without architecture: %+v", cu)
	}
}

// Bad input names the field and what it accepts.
func TestEstimateMemory_InputErrors(t *testing.T) {
	ms := loadTestModels(t)
	for _, c := range []struct {
		in          MemoryInput
		field, code string
	}{
		{MemoryInput{}, "params", "missing"},
		{MemoryInput{Model: "gpt-5"}, "model", "unknown_model"},
		{MemoryInput{Model: "llama-3.1-8b", Params: 8e9}, "model", "conflict"},
		{MemoryInput{Params: 5}, "params", "out_of_range"},
		{MemoryInput{Model: "llama-3.1-8b", Task: "serve"}, "task", "not_one_of"},
		{MemoryInput{Model: "llama-3.1-8b", Precision: "fp4"}, "precision", "not_one_of"},
		{MemoryInput{Model: "llama-3.1-8b", Task: TaskFull, Precision: INT8}, "precision", "not_one_of"},
		{MemoryInput{Model: "llama-3.1-8b", Task: TaskQLoRA, Precision: BF16}, "precision", "not_one_of"},
		{MemoryInput{Model: "llama-3.1-8b", Task: TaskFull, KVPrecision: FP8}, "kv_precision", "not_applicable"},
		{MemoryInput{Model: "llama-3.1-8b", Context: -1}, "context", "out_of_range"},
		{MemoryInput{Model: "llama-3.1-8b", Context: 10_000_001}, "context", "out_of_range"},
		{MemoryInput{Model: "llama-3.1-8b", Batch: -1}, "batch", "out_of_range"},
		{MemoryInput{Model: "llama-3.1-8b", Task: TaskFull, Sequences: 2}, "sequences", "not_applicable"},
		{MemoryInput{Model: "llama-3.1-8b", Checkpointing: CheckpointFull}, "checkpointing", "not_applicable"},
		{MemoryInput{Model: "llama-3.1-8b", Task: TaskFull, Checkpointing: "some"}, "checkpointing", "not_one_of"},
		{MemoryInput{Model: "llama-3.1-8b", LoRARank: 8}, "lora_rank", "not_applicable"},
		{MemoryInput{Model: "llama-3.1-8b", Task: TaskLoRA, LoRARank: 70000}, "lora_rank", "out_of_range"},
		{MemoryInput{Model: "llama-3.1-8b", Task: TaskLoRA, TrainableShare: ptr(catalog.Dec("1.5"))}, "trainable_share", "out_of_range"},
		{MemoryInput{Model: "llama-3.1-8b", Task: TaskLoRA, TrainableShare: ptr(catalog.Dec("0.1")), LoRARank: 8}, "lora_rank", "conflict"},
		{MemoryInput{Model: "deepseek-v3", Task: TaskLoRA}, "trainable_share", "missing"},
		{MemoryInput{Model: "llama-3.1-8b", OverheadShare: ptr(catalog.Dec("-0.1"))}, "overhead_share", "out_of_range"},
		{MemoryInput{Params: 1e9, Arch: &Architecture{Layers: 2, Hidden: 64}}, "attention_heads", "missing"},
		{MemoryInput{Params: 1e9, Arch: &Architecture{Layers: 2, Hidden: 64, Heads: 4, KVHeads: 8}}, "kv_heads", "out_of_range"},
		{MemoryInput{Params: 1e9, Arch: &Architecture{Layers: 2, Hidden: 65, Heads: 4, KVHeads: 4}}, "head_dim", "missing"},
		// Grouped-query attention: 16 attention heads cannot share 6 KV heads.
		{MemoryInput{Params: 1e9, Arch: &Architecture{Layers: 2, Hidden: 2048, Heads: 16, KVHeads: 6}}, "kv_heads", "not_divisor"},
		{MemoryInput{Params: 1e9, Arch: &Architecture{Layers: 2, Hidden: 2048, Heads: 16, KVHeads: 3, HeadDim: 128}}, "kv_heads", "not_divisor"},
		{MemoryInput{Schema: 9, Model: "llama-3.1-8b"}, "schema", "not_one_of"},
	} {
		_, err := EstimateMemory(c.in, ms)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field || ie.Code != c.code {
			t.Errorf("%+v: error %v, want %s %s", c.in, err, c.field, c.code)
		}
	}
	if err := RangeError("context", 0); err.Min != "1" || err.Max != "10000000" || err.Error() != "context 0: must be 1 to 10000000" {
		t.Errorf("RangeError: %+v %v", err, err)
	}
}

// memoryCase is a case of testdata/fit_cases.json (shared with the site's
// script test in cmd/gpuatlas).
type memoryCase struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// Every shared case's estimate (or input error), as JSON, is a golden file:
// a change to any formula shows as a reviewed diff.
func TestEstimateMemory_Golden(t *testing.T) {
	ms := loadTestModels(t)
	b, err := os.ReadFile(filepath.Join("testdata", "fit_cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []memoryCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	out.WriteString("{\n")
	for i, c := range cases {
		var in MemoryInput
		dec := json.NewDecoder(bytes.NewReader(c.Input))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		var v any
		e, err := EstimateMemory(in, ms)
		var ie *InputError
		switch {
		case errors.As(err, &ie):
			v = map[string]any{"error": ie}
		case err != nil:
			t.Fatal(err)
		default:
			v = e
		}
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		sep := ","
		if i == len(cases)-1 {
			sep = ""
		}
		out.WriteString(" " + string(mustJSON(t, c.Name)) + ": " + string(j) + sep + "\n")
	}
	out.WriteString("}\n")
	golden.Check(t, filepath.Join("testdata", "fit_estimates.golden.json"), out.Bytes())
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
