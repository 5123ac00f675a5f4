package compare

import (
	"github.com/shopspring/decimal"
)

// The GPU memory a model needs, per component, with every formula's figures.
//
// Formulas (bytes; P parameters, F frozen parameters, T trainable adapter
// parameters, w bytes per weight):
//
//   - weights: (P + F) × w, plus T × 2 for LoRA adapters (bf16).
//   - gradients: P × 2 in mixed precision (P × 4 in fp32); T × 2 for LoRA.
//   - optimizer (AdamW): P × 12 in mixed precision (fp32 master copy, momentum
//     and variance, 4 bytes each), P × 8 in fp32 (the weights are the master
//     copy); T × 12 for LoRA. With the 2-byte weights and gradients that is
//     Transformer Math 101's 16 bytes per parameter.
//   - activations (training): Korthikanti et al. 2022, for 16-bit activations
//     (× 2 in fp32), s tokens, b sequences, h hidden, L layers, a heads:
//     none: s·b·h·L·34 + 5·a·s²·b·L; selective: s·b·h·L·34; full: s·b·h·L·2 +
//     s·b·h·34 (each layer's input kept, one layer recomputed at a time).
//   - KV cache (inference): 2 × L × KV heads × head dim × tokens × sequences ×
//     bytes; with multi-head latent attention L × (kv_lora_rank +
//     qk_rope_head_dim) × tokens × sequences × bytes. Tokens are the context,
//     at most the sliding window.
//   - overhead: a share of the weights' bytes (20% by default: Transformer Math
//     101's "≤ 20%"), for the CUDA context, allocator, communication buffers and,
//     in inference, the transient activations.
//
// All arithmetic is exact decimal; GB (10⁹ bytes) and GiB (2³⁰ bytes) are
// rounded to 2 places, half away from zero, from the exact bytes.

// Component names, in display order.
const (
	CompWeights     = "weights"
	CompGradients   = "gradients"
	CompOptimizer   = "optimizer"
	CompActivations = "activations"
	CompKVCache     = "kv_cache"
	CompOverhead    = "overhead"
)

// Component statuses.
const (
	StatusEstimated         = "estimated"
	StatusNotApplicable     = "not_applicable"
	StatusInOverhead        = "in_overhead"        // inference activations: transient, within the overhead
	StatusNeedsArchitecture = "needs_architecture" // a custom model without layers, hidden size, heads
	StatusNotEstimated      = "not_estimated"      // no formula applies (diffusion activations)
)

// SizePlaces is the rounding of GB and GiB figures.
const SizePlaces = 2

var (
	gbBytes  = decimal.New(1, 9)
	gibBytes = decimal.NewFromInt(1 << 30)
)

// Term is one named figure of a formula.
type Term struct {
	Name  string          `json:"name"`
	Value decimal.Decimal `json:"value"`
}

// Size is an amount of memory: exact bytes, and GB and GiB rounded to 2 places.
type Size struct {
	Bytes decimal.Decimal `json:"bytes"`
	GB    decimal.Decimal `json:"gb"`
	GiB   decimal.Decimal `json:"gib"`
}

func sizeOf(bytes decimal.Decimal) Size {
	return Size{Bytes: bytes, GB: bytes.DivRound(gbBytes, SizePlaces), GiB: bytes.DivRound(gibBytes, SizePlaces)}
}

// MemoryComponent is one part of the memory: its formula (a code the CLI and the
// site put in words) with its terms, and its size. A component that does not
// apply, or cannot be estimated, says so in Status and counts zero.
type MemoryComponent struct {
	Component string `json:"component"`
	Status    string `json:"status"`
	Formula   string `json:"formula,omitempty"`
	Terms     []Term `json:"terms,omitempty"`
	Size
}

// DerivedFigure is a number the formulas use that is itself computed: the trainable
// parameters of LoRA adapters, or the tokens a sliding window keeps.
type DerivedFigure struct {
	Name    string          `json:"name"`
	Formula string          `json:"formula"`
	Terms   []Term          `json:"terms"`
	Value   decimal.Decimal `json:"value"`
}

// MemoryNote is something the reader should know about an estimate, as a code with
// its figures.
type MemoryNote struct {
	Code  string `json:"code"`
	Terms []Term `json:"terms,omitempty"`
}

// ModelRef names the known model an estimate is for and its source.
type ModelRef struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	WeightsDType string `json:"weights_dtype"`
	Source       string `json:"source"`
	SourceDate   string `json:"source_date"`
}

// MemoryEstimate is the answer: the resolved input, the model's figures, each
// component and the total. LowerBound is set when a component could not be
// estimated (the total is then at least this much).
type MemoryEstimate struct {
	Schema          int               `json:"schema"`
	Input           MemoryInput       `json:"input"`
	Model           *ModelRef         `json:"model,omitempty"`
	Kind            ModelKind         `json:"kind"`
	Params          int64             `json:"params"`
	FrozenParams    int64             `json:"frozen_params"`
	ActiveParams    int64             `json:"active_params"`
	TrainableParams int64             `json:"trainable_params"`
	Figures         []DerivedFigure   `json:"figures"`
	Components      []MemoryComponent `json:"components"`
	Total           Size              `json:"total"`
	LowerBound      bool              `json:"lower_bound"`
	Notes           []MemoryNote      `json:"notes"`
}

func ni(n int64) decimal.Decimal { return decimal.NewFromInt(n) }

func term(name string, v decimal.Decimal) Term { return Term{Name: name, Value: v} }

func termInt(name string, v int64) Term { return Term{Name: name, Value: ni(v)} }

// EstimateMemory computes the memory the input needs. It is a pure function of
// the input and the known models.
func EstimateMemory(in MemoryInput, models *ModelSet) (MemoryEstimate, error) {
	r, err := resolve(in, models)
	if err != nil {
		return MemoryEstimate{}, err
	}
	in, m := r.in, r.model
	e := MemoryEstimate{Schema: MemorySchema, Input: in, Kind: m.Kind, Params: m.Params, FrozenParams: m.FrozenParams,
		ActiveParams: m.ActiveParams, Figures: []DerivedFigure{}, Notes: []MemoryNote{}}
	if m.ID != "" {
		e.Model = &ModelRef{ID: m.ID, Name: m.Name, WeightsDType: m.WeightsDType, Source: m.Source, SourceDate: m.SourceDate}
	}
	a := m.Arch
	if in.Task.lora() {
		e.TrainableParams = trainable(&e, in, m)
	}
	e.Components = []MemoryComponent{
		weightsComponent(in, m, e.TrainableParams),
		gradientsComponent(in, m, e.TrainableParams),
		optimizerComponent(in, m, e.TrainableParams),
		activationsComponent(in, m),
		kvComponent(&e, in, m),
	}
	w := e.Components[0].Bytes
	e.Components = append(e.Components, component(CompOverhead, "overhead", w.Mul(*in.OverheadShare),
		term("overhead_share", *in.OverheadShare), term("weights_bytes", w)))
	total := decimal.Zero
	for _, c := range e.Components {
		total = total.Add(c.Bytes)
		if c.Status == StatusNeedsArchitecture || c.Status == StatusNotEstimated {
			e.LowerBound = true
		}
	}
	e.Total = sizeOf(total)
	notes(&e, in, m, a)
	return e, nil
}

func component(name, formula string, bytes decimal.Decimal, terms ...Term) MemoryComponent {
	return MemoryComponent{Component: name, Status: StatusEstimated, Formula: formula, Terms: terms, Size: sizeOf(bytes)}
}

func absent(name, status string) MemoryComponent {
	return MemoryComponent{Component: name, Status: status, Size: sizeOf(decimal.Zero)}
}

// adapterBytes is what one LoRA adapter parameter holds in bf16 weights, and
// again in gradients; adamBytes the AdamW state of a mixed-precision parameter.
var (
	adapterBytes  = decimal.NewFromInt(2)
	adamBytes     = decimal.NewFromInt(12)
	adamFP32Bytes = decimal.NewFromInt(8)
)

// trainable counts the LoRA adapters' parameters, from the trainable share or
// from the rank (adapters on every linear layer of attention and MLP, all
// experts' MLPs for MoE), and records how.
func trainable(e *MemoryEstimate, in MemoryInput, m ModelSpec) int64 {
	if in.TrainableShare != nil {
		v := ni(m.Params).Mul(*in.TrainableShare).Round(0)
		e.Figures = append(e.Figures, DerivedFigure{Name: "trainable_params", Formula: "lora_share",
			Terms: []Term{termInt("params", m.Params), term("trainable_share", *in.TrainableShare)}, Value: v})
		return v.IntPart()
	}
	a := m.Arch
	q, kv := int64(a.Heads)*int64(a.HeadDim), int64(a.KVHeads)*int64(a.HeadDim)
	h, f, mlps := int64(a.Hidden), int64(a.Intermediate), int64(max(a.Experts, 1)+a.SharedExperts)
	perLayer := (h + q) + 2*(h+kv) + (q + h) + mlps*3*(h+f)
	v := int64(in.LoRARank) * int64(a.Layers) * perLayer
	e.Figures = append(e.Figures, DerivedFigure{Name: "trainable_params", Formula: "lora_rank",
		Terms: []Term{termInt("lora_rank", int64(in.LoRARank)), termInt("layers", int64(a.Layers)), termInt("hidden", h),
			termInt("q_dim", q), termInt("kv_dim", kv), termInt("mlps", mlps), termInt("intermediate", f)}, Value: ni(v)})
	return v
}

func weightsComponent(in MemoryInput, m ModelSpec, t int64) MemoryComponent {
	wb := in.Precision.Bytes()
	p, f := ni(m.Params), ni(m.FrozenParams)
	base := p.Add(f).Mul(wb)
	switch {
	case in.Task.lora() && m.FrozenParams > 0:
		return component(CompWeights, "weights_lora_frozen", base.Add(ni(t).Mul(adapterBytes)),
			term("params", p), term("frozen_params", f), term("bytes_per_param", wb), termInt("trainable_params", t), term("adapter_bytes", adapterBytes))
	case in.Task.lora():
		return component(CompWeights, "weights_lora", base.Add(ni(t).Mul(adapterBytes)),
			term("params", p), term("bytes_per_param", wb), termInt("trainable_params", t), term("adapter_bytes", adapterBytes))
	case m.FrozenParams > 0:
		return component(CompWeights, "weights_frozen", base, term("params", p), term("frozen_params", f), term("bytes_per_param", wb))
	}
	return component(CompWeights, "weights", base, term("params", p), term("bytes_per_param", wb))
}

func gradientsComponent(in MemoryInput, m ModelSpec, t int64) MemoryComponent {
	switch {
	case in.Task == TaskFull:
		wb := in.Precision.Bytes()
		return component(CompGradients, "gradients", ni(m.Params).Mul(wb), termInt("params", m.Params), term("bytes_per_param", wb))
	case in.Task.lora():
		return component(CompGradients, "gradients_lora", ni(t).Mul(adapterBytes), termInt("trainable_params", t), term("bytes_per_param", adapterBytes))
	}
	return absent(CompGradients, StatusNotApplicable)
}

func optimizerComponent(in MemoryInput, m ModelSpec, t int64) MemoryComponent {
	switch {
	case in.Task == TaskFull && in.Precision == FP32:
		return component(CompOptimizer, "adamw_fp32", ni(m.Params).Mul(adamFP32Bytes), termInt("params", m.Params), term("bytes_per_param", adamFP32Bytes))
	case in.Task == TaskFull:
		return component(CompOptimizer, "adamw_mixed", ni(m.Params).Mul(adamBytes), termInt("params", m.Params), term("bytes_per_param", adamBytes))
	case in.Task.lora():
		return component(CompOptimizer, "adamw_lora", ni(t).Mul(adamBytes), termInt("trainable_params", t), term("bytes_per_param", adamBytes))
	}
	return absent(CompOptimizer, StatusNotApplicable)
}

// activationsComponent applies Korthikanti et al.'s activation memory per
// transformer layer to training; inference activations are transient and
// counted in the overhead.
func activationsComponent(in MemoryInput, m ModelSpec) MemoryComponent {
	switch {
	case !in.Task.training():
		return absent(CompActivations, StatusInOverhead)
	case m.Kind == KindDiffusion:
		return absent(CompActivations, StatusNotEstimated)
	case !m.Arch.activationsKnown():
		return absent(CompActivations, StatusNeedsArchitecture)
	}
	a := m.Arch
	s, b, h, l := ni(int64(in.Context)), ni(int64(in.Batch)), ni(int64(a.Hidden)), ni(int64(a.Layers))
	sbh := s.Mul(b).Mul(h)
	var bytes decimal.Decimal
	var formula string
	terms := []Term{term("tokens", s), term("batch", b), term("hidden", h), term("layers", l)}
	switch in.Checkpointing {
	case CheckpointNone:
		heads := ni(int64(a.Heads))
		bytes = sbh.Mul(l).Mul(ni(34)).Add(ni(5).Mul(heads).Mul(s).Mul(s).Mul(b).Mul(l))
		formula = "act_none"
		terms = append(terms, term("heads", heads))
	case CheckpointSelective:
		bytes = sbh.Mul(l).Mul(ni(34))
		formula = "act_selective"
	default:
		bytes = sbh.Mul(l).Mul(ni(2)).Add(sbh.Mul(ni(34)))
		formula = "act_full"
	}
	if in.Precision == FP32 {
		bytes = bytes.Mul(ni(2))
		formula += "_fp32"
	}
	return component(CompActivations, formula, bytes, terms...)
}

// kvComponent is the KV cache of inference.
func kvComponent(e *MemoryEstimate, in MemoryInput, m ModelSpec) MemoryComponent {
	a := m.Arch
	switch {
	case in.Task != TaskInference || m.Kind == KindDiffusion:
		return absent(CompKVCache, StatusNotApplicable)
	case !a.kvKnown():
		return absent(CompKVCache, StatusNeedsArchitecture)
	}
	tokens := int64(in.Context)
	if a.SlidingWindow > 0 && int64(a.SlidingWindow) < tokens {
		tokens = int64(a.SlidingWindow)
		e.Figures = append(e.Figures, DerivedFigure{Name: "kv_tokens", Formula: "window",
			Terms: []Term{termInt("context", int64(in.Context)), termInt("sliding_window", int64(a.SlidingWindow))}, Value: ni(tokens)})
	}
	kb := in.KVPrecision.Bytes()
	l, t, n := ni(int64(a.Layers)), ni(tokens), ni(int64(in.Sequences))
	if a.latent() {
		r, rope := ni(int64(a.KVLoraRank)), ni(int64(a.QKRopeHeadDim))
		return component(CompKVCache, "kv_mla", l.Mul(r.Add(rope)).Mul(t).Mul(n).Mul(kb),
			term("layers", l), term("kv_lora_rank", r), term("qk_rope_head_dim", rope), term("tokens", t), term("sequences", n), term("bytes_per_value", kb))
	}
	kvh, hd := ni(int64(a.KVHeads)), ni(int64(a.HeadDim))
	return component(CompKVCache, "kv", ni(2).Mul(l).Mul(kvh).Mul(hd).Mul(t).Mul(n).Mul(kb),
		term("layers", l), term("kv_heads", kvh), term("head_dim", hd), term("tokens", t), term("sequences", n), term("bytes_per_value", kb))
}

// notes lists what the reader should know: MoE experts, latent attention,
// quantisation, diffusion, a missing architecture, approximate activations.
func notes(e *MemoryEstimate, in MemoryInput, m ModelSpec, a Architecture) {
	add := func(code string, terms ...Term) { e.Notes = append(e.Notes, MemoryNote{Code: code, Terms: terms}) }
	if a.Experts > 0 {
		add("moe", termInt("experts", int64(a.Experts)), termInt("active_experts", int64(a.ActiveExperts)),
			termInt("params", m.Params), termInt("active_params", m.ActiveParams))
	}
	if a.latent() && in.Task == TaskInference {
		add("mla")
	}
	switch in.Precision {
	case FP8, INT8, INT4:
		add("quantised", term("bytes_per_param", in.Precision.Bytes()))
	}
	if m.Kind == KindDiffusion {
		add("diffusion")
	}
	if m.Kind == KindTransformer && !a.activationsKnown() {
		add("no_architecture")
	}
	if in.Task.training() && m.Kind == KindTransformer && a.activationsKnown() {
		add("activations_approximate")
	}
}
