package compare

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
)

// ModelKind says which formulas apply to a model.
type ModelKind string

// Model kinds.
const (
	// KindTransformer is a decoder-only transformer language model: every
	// formula of the memory estimate applies.
	KindTransformer ModelKind = "transformer"
	// KindDiffusion is a diffusion model (a UNet with text encoders and a VAE):
	// the per-parameter formulas apply, the KV cache does not, and activations
	// depend on the image size and are not estimated.
	KindDiffusion ModelKind = "diffusion"
)

// Architecture is what the memory estimate needs to know of a model beyond its
// parameter count: the shapes its KV cache and activations scale with. Zero is
// unknown (or, for the MoE and MLA fields, not used by the model).
type Architecture struct {
	Layers         int  `json:"layers"`
	Hidden         int  `json:"hidden_size"`
	Heads          int  `json:"attention_heads"`
	KVHeads        int  `json:"kv_heads"`
	HeadDim        int  `json:"head_dim"`
	Intermediate   int  `json:"intermediate_size,omitempty"` // MLP width (per expert for MoE)
	Vocab          int  `json:"vocab_size,omitempty"`
	TiedEmbeddings bool `json:"tied_embeddings,omitempty"`
	AttentionBias  bool `json:"attention_bias,omitempty"` // q, k and v projections carry a bias
	Experts        int  `json:"experts,omitempty"`        // routed experts per MoE layer
	ActiveExperts  int  `json:"active_experts,omitempty"` // routed experts per token
	SharedExperts  int  `json:"shared_experts,omitempty"`
	KVLoraRank     int  `json:"kv_lora_rank,omitempty"`     // multi-head latent attention: the cached latent
	QKRopeHeadDim  int  `json:"qk_rope_head_dim,omitempty"` // and its decoupled RoPE key
	SlidingWindow  int  `json:"sliding_window,omitempty"`   // tokens a layer attends to; 0 is the whole context
}

// latent reports whether the model caches a compressed latent (MLA) instead of
// keys and values per head.
func (a Architecture) latent() bool { return a.KVLoraRank > 0 }

// kvKnown reports whether the KV cache of a transformer can be computed.
func (a Architecture) kvKnown() bool {
	if a.Layers <= 0 {
		return false
	}
	if a.latent() {
		return a.QKRopeHeadDim > 0
	}
	return a.KVHeads > 0 && a.HeadDim > 0
}

// activationsKnown reports whether the activation formula can be applied.
func (a Architecture) activationsKnown() bool {
	return a.Layers > 0 && a.Hidden > 0 && a.Heads > 0
}

// ModelSpec is one row of data/models.csv: a widely used open model with the
// figures the memory estimate needs and where they come from. Parameter counts
// are exact integers. MoE models count every expert in Params (memory) and the
// experts a token passes through in ActiveParams (compute).
type ModelSpec struct {
	ID   string    `json:"id"`
	Name string    `json:"name"`
	Kind ModelKind `json:"kind"`
	// Params are the parameters that are trained in full fine-tuning (for SDXL,
	// the UNet); FrozenParams are loaded but never trained (SDXL's text encoders
	// and VAE).
	Params       int64        `json:"params"`
	FrozenParams int64        `json:"frozen_params"`
	ActiveParams int64        `json:"active_params"`
	Arch         Architecture `json:"architecture"`
	// WeightsDType is the precision the weights are published in.
	WeightsDType string `json:"weights_dtype"`
	Source       string `json:"source"`
	SourceDate   string `json:"source_date"`
	Notes        string `json:"notes,omitempty"`
	Line         int    `json:"-"`
}

// ModelSet is the table of known models in file order.
type ModelSet struct {
	Models []ModelSpec
	byID   map[string]int
}

// Model returns the model with the given id.
func (s *ModelSet) Model(id string) (ModelSpec, bool) {
	if s == nil {
		return ModelSpec{}, false
	}
	i, ok := s.byID[id]
	if !ok {
		return ModelSpec{}, false
	}
	return s.Models[i], true
}

// IDs lists the model ids in file order.
func (s *ModelSet) IDs() []string {
	if s == nil {
		return nil
	}
	ids := make([]string, len(s.Models))
	for i, m := range s.Models {
		ids[i] = m.ID
	}
	return ids
}

// maxModelsBytes bounds what ParseModels reads: the committed table is a few
// kilobytes.
const maxModelsBytes = 1 << 20

var (
	modelIDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,63}$`)
	datePattern    = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// modelColumns are the columns data/models.csv must have.
var modelColumns = []string{"id", "name", "kind", "params", "frozen_params", "active_params", "layers", "hidden_size",
	"attention_heads", "kv_heads", "head_dim", "intermediate_size", "vocab_size", "tied_embeddings", "attention_bias",
	"experts", "active_experts", "shared_experts", "kv_lora_rank", "qk_rope_head_dim", "sliding_window", "weights_dtype",
	"source", "source_date", "notes"}

// LoadModels reads models.csv from fsys (the data folder).
func LoadModels(fsys fs.FS) (*ModelSet, error) {
	f, err := fsys.Open("models.csv")
	if err != nil {
		return nil, fmt.Errorf("load models: %w", err)
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	return ParseModels("data/models.csv", f)
}

// ParseModels reads a models table. Every error names the file and line.
func ParseModels(name string, r io.Reader) (*ModelSet, error) {
	lr := &io.LimitedReader{R: r, N: maxModelsBytes + 1}
	cr := csv.NewReader(lr)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s:1: read header: %w", name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(h)] = i
	}
	for _, c := range modelColumns {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("%s:1: missing column %q", name, c)
		}
	}
	set := &ModelSet{byID: map[string]int{}}
	for {
		rec, err := cr.Read()
		if lr.N <= 0 {
			return nil, fmt.Errorf("%s: larger than %d bytes", name, maxModelsBytes)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%s:%d: %w", name, pe.Line, pe.Err)
			}
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		get := func(c string) string { return strings.TrimSpace(rec[col[c]]) }
		m, err := parseModelRow(get)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if prev, dup := set.byID[m.ID]; dup {
			return nil, fmt.Errorf("%s:%d: model %q is already defined on line %d", name, line, m.ID, set.Models[prev].Line)
		}
		m.Line = line
		set.byID[m.ID] = len(set.Models)
		set.Models = append(set.Models, m)
	}
	if len(set.Models) == 0 {
		return nil, fmt.Errorf("%s: no models", name)
	}
	return set, nil
}

// parseModelRow turns one row into a ModelSpec and checks it.
func parseModelRow(get func(string) string) (ModelSpec, error) {
	m := ModelSpec{ID: get("id"), Name: get("name"), Kind: ModelKind(get("kind")), WeightsDType: get("weights_dtype"),
		Source: get("source"), SourceDate: get("source_date"), Notes: get("notes")}
	if !modelIDPattern.MatchString(m.ID) {
		return m, fmt.Errorf("id %q must be a lower-case slug (letters, digits, '.', '-')", m.ID)
	}
	if m.Name == "" {
		return m, fmt.Errorf("model %s: name is empty", m.ID)
	}
	if m.Kind != KindTransformer && m.Kind != KindDiffusion {
		return m, fmt.Errorf("model %s: kind %q must be transformer or diffusion", m.ID, m.Kind)
	}
	if !strings.HasPrefix(m.Source, "https://") {
		return m, fmt.Errorf("model %s: source must be an https URL (the published config.json or model card)", m.ID)
	}
	if !datePattern.MatchString(m.SourceDate) {
		return m, fmt.Errorf("model %s: source_date %q must be YYYY-MM-DD (the date the source was read)", m.ID, m.SourceDate)
	}
	if _, err := ParsePrecision(m.WeightsDType); err != nil {
		return m, fmt.Errorf("model %s: weights_dtype: %w", m.ID, err)
	}
	var err error
	bigint := func(c string, dst *int64, required bool) {
		if err != nil {
			return
		}
		s := get(c)
		if s == "" && !required {
			return
		}
		v, perr := strconv.ParseInt(s, 10, 64)
		if perr != nil || v < 0 || v > maxParams {
			err = fmt.Errorf("model %s: %s %q must be a whole number from 0 to %d", m.ID, c, s, int64(maxParams))
			return
		}
		*dst = v
	}
	bigint("params", &m.Params, true)
	bigint("frozen_params", &m.FrozenParams, false)
	bigint("active_params", &m.ActiveParams, true)
	small := func(c string, dst *int) {
		if err != nil {
			return
		}
		s := get(c)
		if s == "" {
			return
		}
		v, perr := strconv.Atoi(s)
		if perr != nil || v < 0 || v > 10_000_000 {
			err = fmt.Errorf("model %s: %s %q must be a whole number from 0 to 10000000", m.ID, c, s)
			return
		}
		*dst = v
	}
	a := &m.Arch
	for _, f := range []struct {
		c   string
		dst *int
	}{
		{"layers", &a.Layers}, {"hidden_size", &a.Hidden}, {"attention_heads", &a.Heads}, {"kv_heads", &a.KVHeads},
		{"head_dim", &a.HeadDim}, {"intermediate_size", &a.Intermediate}, {"vocab_size", &a.Vocab}, {"experts", &a.Experts},
		{"active_experts", &a.ActiveExperts}, {"shared_experts", &a.SharedExperts}, {"kv_lora_rank", &a.KVLoraRank},
		{"qk_rope_head_dim", &a.QKRopeHeadDim}, {"sliding_window", &a.SlidingWindow},
	} {
		small(f.c, f.dst)
	}
	boolean := func(c string, dst *bool) {
		if err != nil {
			return
		}
		switch get(c) {
		case "", "false":
		case "true":
			*dst = true
		default:
			err = fmt.Errorf("model %s: %s %q must be true, false or empty", m.ID, c, get(c))
		}
	}
	boolean("tied_embeddings", &a.TiedEmbeddings)
	boolean("attention_bias", &a.AttentionBias)
	if err != nil {
		return m, err
	}
	return m, m.check()
}

// check says what is inconsistent in a row.
func (m ModelSpec) check() error {
	a := m.Arch
	switch {
	case m.Params < minParams:
		return fmt.Errorf("model %s: params %d is below %d", m.ID, m.Params, int64(minParams))
	case m.ActiveParams == 0 || m.ActiveParams > m.Params:
		return fmt.Errorf("model %s: active_params %d must be from 1 to params (%d)", m.ID, m.ActiveParams, m.Params)
	case (a.Experts == 0) != (a.ActiveExperts == 0) || a.ActiveExperts > a.Experts:
		return fmt.Errorf("model %s: experts and active_experts go together, active_experts ≤ experts", m.ID)
	case a.Experts == 0 && m.ActiveParams != m.Params:
		return fmt.Errorf("model %s: a dense model's active_params must equal params", m.ID)
	case (a.KVLoraRank == 0) != (a.QKRopeHeadDim == 0):
		return fmt.Errorf("model %s: kv_lora_rank and qk_rope_head_dim go together (multi-head latent attention)", m.ID)
	}
	if m.Kind == KindTransformer {
		if !a.activationsKnown() || !a.kvKnown() {
			return fmt.Errorf("model %s: a transformer needs layers, hidden_size, attention_heads and either kv_heads with head_dim or kv_lora_rank with qk_rope_head_dim", m.ID)
		}
		if !a.latent() && a.KVHeads > a.Heads {
			return fmt.Errorf("model %s: kv_heads %d exceeds attention_heads %d", m.ID, a.KVHeads, a.Heads)
		}
		if !a.latent() && a.Heads%a.KVHeads != 0 {
			return fmt.Errorf("model %s: kv_heads %d does not divide attention_heads %d (each KV head serves the same number of attention heads)", m.ID, a.KVHeads, a.Heads)
		}
	}
	if m.Kind == KindDiffusion && (a.Layers != 0 || a.SlidingWindow != 0) {
		return fmt.Errorf("model %s: a diffusion model has no transformer layers in this table", m.ID)
	}
	return nil
}
