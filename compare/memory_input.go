package compare

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// The memory estimate's input: what is run (a known model or a parameter count
// with an optional architecture), how (task, precision, checkpointing, LoRA) and
// on how much (context, batch, concurrent sequences). Resolve checks it and fills
// the defaults; a bad field is an InputError naming the field and the accepted
// values, which the CLI turns into a usage error on the matching flag and the
// site into a message next to the control.

// MemorySchema is the version of the estimate's JSON (MemoryInput,
// MemoryEstimate, MemoryOffers). The site's estimator (static/fit.js) writes the
// same JSON and is tested to agree with it to the byte.
const MemorySchema = 1

// Precision is the number format of weights or of the KV cache.
type Precision string

// Precisions.
const (
	FP32 Precision = "fp32"
	BF16 Precision = "bf16"
	FP16 Precision = "fp16"
	FP8  Precision = "fp8"
	INT8 Precision = "int8"
	INT4 Precision = "int4"
)

// Precisions lists the precisions in display order.
var Precisions = []Precision{FP32, BF16, FP16, FP8, INT8, INT4}

// ParsePrecision checks a precision name ("fp16" and "bf16" are both 2 bytes).
func ParsePrecision(s string) (Precision, error) {
	for _, p := range Precisions {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("precision %q is not one of %s", s, joinCodes(Precisions))
}

// Bytes is the storage of one value: 4, 2, 2, 1, 1 or 0.5 bytes. Quantisation
// scales (int4, int8, fp8) are not counted (see the estimate's notes).
func (p Precision) Bytes() decimal.Decimal {
	switch p {
	case FP32:
		return decimal.NewFromInt(4)
	case BF16, FP16:
		return decimal.NewFromInt(2)
	case FP8, INT8:
		return decimal.NewFromInt(1)
	case INT4:
		return decimal.New(5, -1)
	}
	return decimal.Zero
}

// Task is what the memory is for.
type Task string

// Tasks.
const (
	TaskInference Task = "inference"
	// TaskFull is full fine-tuning or pre-training: every parameter is trained
	// with AdamW, in mixed precision (bf16/fp16 weights and gradients, an fp32
	// master copy and two fp32 moments) or in plain fp32.
	TaskFull Task = "full"
	// TaskLoRA trains low-rank adapters on a frozen base at the weight
	// precision; TaskQLoRA is the same on a 4-bit base.
	TaskLoRA  Task = "lora"
	TaskQLoRA Task = "qlora"
)

// Tasks lists the tasks in display order.
var Tasks = []Task{TaskInference, TaskFull, TaskLoRA, TaskQLoRA}

func (t Task) training() bool { return t == TaskFull || t == TaskLoRA || t == TaskQLoRA }
func (t Task) lora() bool     { return t == TaskLoRA || t == TaskQLoRA }

// Checkpointing is how much of the activations training keeps for the backward
// pass (Korthikanti et al. 2022): none (everything, attention scores included),
// selective (the attention core is recomputed, which FlashAttention also
// achieves) or full (only each layer's input; one layer is recomputed at a time).
type Checkpointing string

// Checkpointing modes.
const (
	CheckpointNone      Checkpointing = "none"
	CheckpointSelective Checkpointing = "selective"
	CheckpointFull      Checkpointing = "full"
)

// CheckpointingModes lists the modes in display order.
var CheckpointingModes = []Checkpointing{CheckpointNone, CheckpointSelective, CheckpointFull}

// Limits of the input: guards against typos, not statements about models.
const (
	minParams      = 1e6
	maxParams      = 1e13
	maxContext     = 10_000_000
	maxBatch       = 100_000
	maxSequences   = 1_000_000
	maxLoRARank    = 65_536
	maxLayers      = 10_000
	maxHidden      = 1_000_000
	maxHeads       = 100_000
	defaultLoRA    = 16
	defaultContext = 8192
)

// DefaultOverheadShare is the framework overhead as a share of the weights:
// Transformer Math 101 puts the overhead on top of model memory at "typically
// ≤ 20%" and inference at about 1.2 × the model memory.
var DefaultOverheadShare = decimal.New(2, -1)

// MemoryInput is what the estimate is asked. Zero fields take their defaults in
// Resolve; the resolved input is part of every estimate, so that its JSON alone
// reproduces the result.
type MemoryInput struct {
	Schema int `json:"schema"`
	// Model is the id of a known model (data/models.csv); empty for a custom
	// model given by Params and, optionally, Arch.
	Model  string        `json:"model,omitempty"`
	Params int64         `json:"params,omitempty"`
	Arch   *Architecture `json:"architecture,omitempty"`
	Task   Task          `json:"task"`
	// Precision is the weights' precision (the frozen base's for LoRA).
	Precision Precision `json:"precision"`
	// KVPrecision is the KV cache's precision (inference only).
	KVPrecision Precision `json:"kv_precision,omitempty"`
	// Context is the tokens per sequence (prompt and output).
	Context int `json:"context"`
	// Batch is the sequences per training step, or served together.
	Batch int `json:"batch"`
	// Sequences is, for inference, the concurrent sequences whose KV cache is
	// held; Batch when zero.
	Sequences     int           `json:"sequences,omitempty"`
	Checkpointing Checkpointing `json:"checkpointing,omitempty"`
	// LoRARank is the adapters' rank; TrainableShare, when set, gives the
	// trainable parameters as a share of the model's instead.
	LoRARank       int              `json:"lora_rank,omitempty"`
	TrainableShare *decimal.Decimal `json:"trainable_share,omitempty"`
	// OverheadShare is the framework overhead as a share of the weights.
	OverheadShare *decimal.Decimal `json:"overhead_share,omitempty"`
}

// InputError is a bad field of a MemoryInput: the field (its JSON name), what is
// wrong (a code) and the accepted values, for the CLI and the site to put in
// words.
type InputError struct {
	Field string `json:"field"`
	// Code is out_of_range (Min, Max), not_one_of (Allowed), unknown_model
	// (Allowed), missing, conflict (With), not_applicable (With: the task),
	// not_divisor (Value does not divide With's value: kv_heads of
	// attention_heads).
	Code    string   `json:"code"`
	Value   string   `json:"value,omitempty"`
	Min     string   `json:"min,omitempty"`
	Max     string   `json:"max,omitempty"`
	Allowed []string `json:"allowed,omitempty"`
	With    string   `json:"with,omitempty"`
}

func (e *InputError) Error() string {
	switch e.Code {
	case "out_of_range":
		return fmt.Sprintf("%s %s: must be %s to %s", e.Field, e.Value, e.Min, e.Max)
	case "not_one_of", "unknown_model":
		return fmt.Sprintf("%s %q: not one of %s", e.Field, e.Value, strings.Join(e.Allowed, ", "))
	case "missing":
		return fmt.Sprintf("%s is required%s", e.Field, withText(e.With))
	case "conflict":
		return fmt.Sprintf("%s and %s do not go together", e.Field, e.With)
	case "not_applicable":
		return fmt.Sprintf("%s does not apply to task %s", e.Field, e.With)
	case "not_divisor":
		return fmt.Sprintf("%s %s: must divide %s", e.Field, e.Value, e.With)
	}
	return e.Field + ": " + e.Code
}

func withText(w string) string {
	if w == "" {
		return ""
	}
	return " (" + w + ")"
}

// intRanges are the accepted ranges of the integer fields.
var intRanges = map[string][2]int64{
	"params": {minParams, maxParams}, "context": {1, maxContext}, "batch": {1, maxBatch}, "sequences": {1, maxSequences},
	"lora_rank": {1, maxLoRARank}, "layers": {1, maxLayers}, "hidden_size": {1, maxHidden}, "attention_heads": {1, maxHeads},
	"head_dim": {1, maxHidden},
}

// RangeError is the error of an integer field given a value outside its
// accepted range, for callers that tell a given zero from an absent field
// (MemoryInput takes zero as "the default").
func RangeError(field string, v int64) *InputError {
	r, ok := intRanges[field]
	if !ok {
		return &InputError{Field: field, Code: "out_of_range", Value: strconv.FormatInt(v, 10)}
	}
	return outOfRange(field, v, r[0], r[1])
}

func outOfRange(field string, v, lo, hi int64) *InputError {
	return &InputError{Field: field, Code: "out_of_range", Value: strconv.FormatInt(v, 10),
		Min: strconv.FormatInt(lo, 10), Max: strconv.FormatInt(hi, 10)}
}

func joinCodes[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

func codes[T ~string](xs []T) []string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return s
}

// resolved is a checked input with its model.
type resolved struct {
	in    MemoryInput
	model ModelSpec // the known model, or a custom one (ID empty)
}

// Resolve checks the input against the known models and fills its defaults:
// task inference, precision bf16 (int4 for qlora), KV cache at the weights'
// precision or bf16 (fp32 with fp32 weights, else bf16), context 8,192, batch 1,
// sequences = batch, checkpointing selective (full for LoRA and QLoRA), LoRA rank
// 16 and an overhead of 20% of the weights.
func (in MemoryInput) Resolve(models *ModelSet) (MemoryInput, ModelSpec, error) {
	r, err := resolve(in, models)
	return r.in, r.model, err
}

func resolve(in MemoryInput, models *ModelSet) (resolved, error) {
	if in.Schema != 0 && in.Schema != MemorySchema {
		return resolved{}, &InputError{Field: "schema", Code: "not_one_of", Value: strconv.Itoa(in.Schema), Allowed: []string{strconv.Itoa(MemorySchema)}}
	}
	in.Schema = MemorySchema
	var m ModelSpec
	switch {
	case in.Model != "" && (in.Params != 0 || in.Arch != nil):
		field := "params"
		if in.Params == 0 {
			field = "architecture"
		}
		return resolved{}, &InputError{Field: "model", Code: "conflict", With: field}
	case in.Model != "":
		known, ok := models.Model(in.Model)
		if !ok {
			return resolved{}, &InputError{Field: "model", Code: "unknown_model", Value: in.Model, Allowed: models.IDs()}
		}
		m = known
	default:
		if in.Params == 0 {
			return resolved{}, &InputError{Field: "params", Code: "missing", With: "model"}
		}
		if in.Params < minParams || in.Params > maxParams {
			return resolved{}, RangeError("params", in.Params)
		}
		m = ModelSpec{Kind: KindTransformer, Params: in.Params, ActiveParams: in.Params}
		if in.Arch != nil {
			a, err := customArch(*in.Arch)
			if err != nil {
				return resolved{}, err
			}
			in.Arch, m.Arch = &a, a
		}
	}

	if in.Task == "" {
		in.Task = TaskInference
	}
	if !contains(Tasks, in.Task) {
		return resolved{}, &InputError{Field: "task", Code: "not_one_of", Value: string(in.Task), Allowed: codes(Tasks)}
	}
	if err := resolvePrecision(&in); err != nil {
		return resolved{}, err
	}
	if in.Context == 0 && m.Kind == KindTransformer {
		in.Context = defaultContext
	}
	if in.Batch == 0 {
		in.Batch = 1
	}
	switch {
	case in.Context < 0 || in.Context > maxContext || (in.Context == 0 && m.Kind == KindTransformer):
		return resolved{}, RangeError("context", int64(in.Context))
	case in.Batch < 1 || in.Batch > maxBatch:
		return resolved{}, RangeError("batch", int64(in.Batch))
	}
	if err := resolveTaskFields(&in); err != nil {
		return resolved{}, err
	}
	if in.OverheadShare == nil {
		s := DefaultOverheadShare
		in.OverheadShare = &s
	} else if in.OverheadShare.IsNegative() || in.OverheadShare.GreaterThan(one) {
		return resolved{}, &InputError{Field: "overhead_share", Code: "out_of_range", Value: in.OverheadShare.String(), Min: "0", Max: "1"}
	}
	if in.Task.lora() && in.TrainableShare == nil && !loraCountable(m) {
		return resolved{}, &InputError{Field: "trainable_share", Code: "missing", With: "lora_rank_needs_architecture"}
	}
	return resolved{in: in, model: m}, nil
}

// resolvePrecision checks and defaults the weights' and the KV cache's precision.
func resolvePrecision(in *MemoryInput) error {
	if in.Precision == "" {
		in.Precision = BF16
		if in.Task == TaskQLoRA {
			in.Precision = INT4
		}
	}
	if _, err := ParsePrecision(string(in.Precision)); err != nil {
		return &InputError{Field: "precision", Code: "not_one_of", Value: string(in.Precision), Allowed: codes(Precisions)}
	}
	switch {
	case in.Task == TaskFull && in.Precision != FP32 && in.Precision != BF16 && in.Precision != FP16:
		return &InputError{Field: "precision", Code: "not_one_of", Value: string(in.Precision), Allowed: []string{"fp32", "bf16", "fp16"}, With: string(in.Task)}
	case in.Task == TaskQLoRA && in.Precision != INT4:
		return &InputError{Field: "precision", Code: "not_one_of", Value: string(in.Precision), Allowed: []string{"int4"}, With: string(in.Task)}
	}
	if in.Task != TaskInference {
		if in.KVPrecision != "" {
			return &InputError{Field: "kv_precision", Code: "not_applicable", With: string(in.Task)}
		}
		return nil
	}
	if in.KVPrecision == "" {
		in.KVPrecision = BF16
		if in.Precision == FP32 {
			in.KVPrecision = FP32
		}
	}
	if _, err := ParsePrecision(string(in.KVPrecision)); err != nil {
		return &InputError{Field: "kv_precision", Code: "not_one_of", Value: string(in.KVPrecision), Allowed: codes(Precisions)}
	}
	return nil
}

// resolveTaskFields checks and defaults what only some tasks take: sequences
// (inference), checkpointing (training), LoRA rank and trainable share (LoRA).
func resolveTaskFields(in *MemoryInput) error {
	t := string(in.Task)
	if in.Task == TaskInference {
		if in.Sequences == 0 {
			in.Sequences = in.Batch
		}
		if in.Sequences < 1 || in.Sequences > maxSequences {
			return RangeError("sequences", int64(in.Sequences))
		}
	} else if in.Sequences != 0 {
		return &InputError{Field: "sequences", Code: "not_applicable", With: t}
	}
	if in.Task.training() {
		if in.Checkpointing == "" {
			in.Checkpointing = CheckpointSelective
			if in.Task.lora() {
				in.Checkpointing = CheckpointFull
			}
		}
		if !contains(CheckpointingModes, in.Checkpointing) {
			return &InputError{Field: "checkpointing", Code: "not_one_of", Value: string(in.Checkpointing), Allowed: codes(CheckpointingModes)}
		}
	} else if in.Checkpointing != "" {
		return &InputError{Field: "checkpointing", Code: "not_applicable", With: t}
	}
	if !in.Task.lora() {
		switch {
		case in.LoRARank != 0:
			return &InputError{Field: "lora_rank", Code: "not_applicable", With: t}
		case in.TrainableShare != nil:
			return &InputError{Field: "trainable_share", Code: "not_applicable", With: t}
		}
		return nil
	}
	if in.TrainableShare != nil {
		if !in.TrainableShare.IsPositive() || in.TrainableShare.GreaterThan(one) {
			return &InputError{Field: "trainable_share", Code: "out_of_range", Value: in.TrainableShare.String(), Min: "0 (exclusive)", Max: "1"}
		}
		if in.LoRARank != 0 {
			return &InputError{Field: "lora_rank", Code: "conflict", With: "trainable_share"}
		}
		return nil
	}
	if in.LoRARank == 0 {
		in.LoRARank = defaultLoRA
	}
	if in.LoRARank < 1 || in.LoRARank > maxLoRARank {
		return RangeError("lora_rank", int64(in.LoRARank))
	}
	return nil
}

// customArch checks a custom model's architecture: layers, hidden size,
// attention heads and KV heads are needed together; the head dimension defaults
// to hidden / heads.
func customArch(a Architecture) (Architecture, error) {
	out := Architecture{Layers: a.Layers, Hidden: a.Hidden, Heads: a.Heads, KVHeads: a.KVHeads, HeadDim: a.HeadDim}
	for _, f := range []struct {
		name     string
		v, hi    int
		required bool
	}{
		{"layers", a.Layers, maxLayers, true},
		{"hidden_size", a.Hidden, maxHidden, true},
		{"attention_heads", a.Heads, maxHeads, true},
		{"kv_heads", a.KVHeads, a.Heads, true},
		{"head_dim", a.HeadDim, maxHidden, false},
	} {
		switch {
		case f.v == 0 && f.required:
			return out, &InputError{Field: f.name, Code: "missing", With: "architecture"}
		case f.v == 0:
		case f.v < 1 || f.v > f.hi:
			return out, outOfRange(f.name, int64(f.v), 1, int64(f.hi))
		}
	}
	// Grouped-query attention shares each KV head among the same number of
	// attention heads: the KV heads divide the attention heads.
	if out.Heads%out.KVHeads != 0 {
		return out, &InputError{Field: "kv_heads", Code: "not_divisor", Value: strconv.Itoa(out.KVHeads), With: "attention_heads"}
	}
	if out.HeadDim == 0 {
		if out.Hidden%out.Heads != 0 {
			return out, &InputError{Field: "head_dim", Code: "missing", With: "hidden_size_not_divisible"}
		}
		out.HeadDim = out.Hidden / out.Heads
	}
	return out, nil
}

// loraCountable reports whether the adapters' parameters can be counted from
// the rank: a transformer with ordinary attention (not latent) and a known MLP
// width.
func loraCountable(m ModelSpec) bool {
	a := m.Arch
	return m.Kind == KindTransformer && !a.latent() && a.Layers > 0 && a.Hidden > 0 && a.Heads > 0 &&
		a.KVHeads > 0 && a.HeadDim > 0 && a.Intermediate > 0
}

func contains[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
