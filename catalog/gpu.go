package catalog

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// GPUModel is a canonical accelerator model with its reference specifications.
// Throughput figures are dense (without sparsity). A nil figure is unknown.
type GPUModel struct {
	ID           string          `json:"id"`
	Vendor       string          `json:"vendor"`
	Name         string          `json:"name"`
	Kind         AcceleratorKind `json:"kind"`
	Architecture string          `json:"architecture,omitempty"`
	// MemoryGB is the memory of one GPU as its maker states it, in
	// MemoryUnit: GB (10⁹ bytes, NVIDIA's and AMD's datasheets) or GiB (2³⁰
	// bytes: the AWS Neuron documentation states Inferentia and Trainium
	// memory in GiB). NominalGB converts it to GB for the rules.
	MemoryGB     *decimal.Decimal `json:"memory_gb,omitempty"`
	MemoryType   string           `json:"memory_type,omitempty"`
	BandwidthGBs *decimal.Decimal `json:"memory_bandwidth_gbs,omitempty"`
	FP64TFLOPS   *decimal.Decimal `json:"fp64_tflops,omitempty"`
	FP32TFLOPS   *decimal.Decimal `json:"fp32_tflops,omitempty"`
	TF32TFLOPS   *decimal.Decimal `json:"tf32_tflops,omitempty"`
	BF16TFLOPS   *decimal.Decimal `json:"bf16_tflops,omitempty"`
	FP16TFLOPS   *decimal.Decimal `json:"fp16_tflops,omitempty"`
	FP8TFLOPS    *decimal.Decimal `json:"fp8_tflops,omitempty"`
	INT8TOPS     *decimal.Decimal `json:"int8_tops,omitempty"`
	NVLinkGBs    *decimal.Decimal `json:"nvlink_gbs,omitempty"`
	TDPW         *decimal.Decimal `json:"tdp_w,omitempty"`
	NVENC        *int             `json:"nvenc,omitempty"`
	NVDEC        *int             `json:"nvdec,omitempty"`
	FormFactor   string           `json:"form_factor,omitempty"`
	LaunchDate   string           `json:"launch_date,omitempty"`
	// GPUsPerBoard is how many GPUs one board carries where it is more than
	// one (Tesla K80, Tesla M60, GRID K520: two). The row then describes ONE
	// of those GPUs (its own memory and throughput), which is what providers
	// count as a GPU: AWS's p2.16xlarge has 16 K80 GPUs on 8 boards. Nil is
	// one GPU per board.
	GPUsPerBoard *int `json:"gpus_per_board,omitempty"`
	// Training says whether the maker offers the accelerator for training
	// (yes) or for inference only (no: Inferentia, AI 100, transcoders);
	// NativeBF16 and NativeFP8 whether it computes in that format in hardware.
	// Each is yes, no or empty (unknown), from CapabilitySource (the maker's
	// architecture documentation). compare's fit rules read them.
	Training         Capability `json:"training,omitempty"`
	NativeBF16       Capability `json:"native_bf16,omitempty"`
	NativeFP8        Capability `json:"native_fp8,omitempty"`
	SoftwareStack    string     `json:"software_stack,omitempty"` // CUDA, ROCm, Neuron, CANN …
	CapabilitySource string     `json:"capability_source,omitempty"`
	// CapabilitySourceZH is CapabilitySource for the Chinese pages: the same
	// addresses, the glosses in Chinese. Required with CapabilitySource.
	CapabilitySourceZH string `json:"capability_source_zh,omitempty"`
	// MemoryUnit is the unit of MemoryGB as the maker states it: GB or GiB.
	MemoryUnit string `json:"memory_unit,omitempty"`
	Source     string `json:"source"`
	SourceDate string `json:"source_date"`
	Notes      string `json:"notes,omitempty"`
}

// GBPerGiB is how many GB (10⁹ bytes) one GiB (2³⁰ bytes) is, exactly.
var GBPerGiB = decimal.RequireFromString("1.073741824")

// NominalGB is the model's memory in GB, converted exactly from GiB where the
// maker states it in GiB; nil when unknown.
func (m GPUModel) NominalGB() *decimal.Decimal {
	if m.MemoryGB == nil {
		return nil
	}
	if m.MemoryUnit == "GiB" {
		gb := m.MemoryGB.Mul(GBPerGiB)
		return &gb
	}
	return m.MemoryGB
}

// Capability is a yes/no fact about an accelerator; empty is unknown.
type Capability string

// Capability values.
const (
	CapabilityYes     Capability = "yes"
	CapabilityNo      Capability = "no"
	CapabilityUnknown Capability = ""
)

// GPUAlias maps a name a provider's API uses to a canonical model. Provider "*"
// applies to every provider. Share is the fraction of the device a vGPU slice name
// stands for (zero for a whole device).
type GPUAlias struct {
	Provider string
	Name     string
	Model    string // empty: known name with no established model (reported as unmapped)
	Share    decimal.Decimal
	// MemoryGiB, when set, restricts the alias to devices with about this much
	// memory (within 10%): one name, several variants (AWS "A100" is 40 GB on
	// p4d and 80 GB on p4de). A row without memory is the name's default.
	MemoryGiB  *decimal.Decimal
	Confidence string // certain, likely, uncertain
	Evidence   string
	Line       int
}

// GPUReference is the table of GPU models and the aliases providers use for them.
type GPUReference struct {
	Models  []GPUModel
	Aliases []GPUAlias
	byID    map[string]int
	byAlias map[string]int // provider + "\x00" + normalized name -> index in Aliases
	// Sources are the figure-level sources (data/gpu_sources.csv), where the
	// data folder has them.
	Sources []FigureSource
	// byMemory lists, per provider + name, the aliases restricted by memory.
	byMemory map[string][]int
	// Links is the documented accelerator links of instance types
	// (data/interconnect.csv), applied by Reconcile; nil applies none.
	Links *Interconnects
}

// Match is the result of resolving a provider's accelerator name.
type Match struct {
	Model      string
	Share      decimal.Decimal // zero for a whole device
	Confidence string
}

// NormalizeAcceleratorName is how provider names are compared: lower case, inner
// whitespace collapsed to one space, trimmed.
func NormalizeAcceleratorName(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// Model returns the GPU model with the given id.
func (r *GPUReference) Model(id string) (GPUModel, bool) {
	i, ok := r.byID[id]
	if !ok {
		return GPUModel{}, false
	}
	return r.Models[i], true
}

// Resolve maps a provider's accelerator name to a model. A provider-specific alias
// wins over a "*" alias; an exact canonical id also matches. ok is false when the
// name is unknown or known without a model: the caller must report it.
func (r *GPUReference) Resolve(provider Provider, name string) (Match, bool) {
	return r.ResolveDevice(provider, name, decimal.Zero)
}

// ResolveDevice is Resolve with the device memory the provider reports: an alias
// restricted to a matching memory size wins over the name's default. Zero memory
// means unknown.
func (r *GPUReference) ResolveDevice(provider Provider, name string, memoryGiB decimal.Decimal) (Match, bool) {
	n := NormalizeAcceleratorName(name)
	for _, p := range []string{string(provider), "*"} {
		if memoryGiB.IsPositive() {
			for _, i := range r.byMemory[p+"\x00"+n] {
				a := r.Aliases[i]
				tolerance := a.MemoryGiB.Div(decimal.NewFromInt(10))
				if memoryGiB.Sub(*a.MemoryGiB).Abs().LessThanOrEqual(tolerance) && a.Model != "" {
					return Match{Model: a.Model, Share: a.Share, Confidence: a.Confidence}, true
				}
			}
		}
		if i, ok := r.byAlias[p+"\x00"+n]; ok {
			a := r.Aliases[i]
			if a.Model == "" {
				return Match{Confidence: a.Confidence}, false
			}
			return Match{Model: a.Model, Share: a.Share, Confidence: a.Confidence}, true
		}
	}
	if _, ok := r.byID[n]; ok {
		return Match{Model: n, Confidence: "certain"}, true
	}
	return Match{}, false
}

// ParseGPUReference reads the models table (gpus.csv) and the alias table
// (gpu_aliases.csv). Errors name the file and line.
func ParseGPUReference(modelsName string, models io.Reader, aliasesName string, aliases io.Reader) (*GPUReference, error) {
	ref := &GPUReference{byID: map[string]int{}, byAlias: map[string]int{}, byMemory: map[string][]int{}}
	err := readCSV(modelsName, models, []string{"id", "vendor", "name", "kind", "memory_gb", "source"}, func(line int, get func(string) string) error {
		m := GPUModel{
			ID: get("id"), Vendor: get("vendor"), Name: get("name"), Kind: AcceleratorKind(get("kind")),
			Architecture: get("architecture"), MemoryType: get("memory_type"), FormFactor: get("form_factor"),
			LaunchDate: get("launch_date"), Source: get("source"), SourceDate: get("source_date"), Notes: get("notes"),
			Training: Capability(get("training")), NativeBF16: Capability(get("native_bf16")), NativeFP8: Capability(get("native_fp8")),
			SoftwareStack: get("software_stack"), CapabilitySource: get("capability_source"), MemoryUnit: get("memory_unit"),
			CapabilitySourceZH: get("capability_source_zh"),
		}
		switch m.MemoryUnit {
		case "":
			m.MemoryUnit = "GB" // the column is memory_gb: GB unless it says otherwise
		case "GB", "GiB":
		default:
			return fmt.Errorf("memory_unit %q is not GB or GiB", m.MemoryUnit)
		}
		for _, c := range []struct {
			col string
			v   Capability
		}{{"training", m.Training}, {"native_bf16", m.NativeBF16}, {"native_fp8", m.NativeFP8}} {
			if c.v != CapabilityYes && c.v != CapabilityNo && c.v != CapabilityUnknown {
				return fmt.Errorf("%s %q is not yes, no or empty (unknown)", c.col, c.v)
			}
		}
		if (m.Training != "" || m.NativeBF16 != "" || m.NativeFP8 != "") && m.CapabilitySource == "" {
			return errors.New("capability_source is empty: training and native precisions must cite where they come from")
		}
		if err := sameAddresses(m.CapabilitySource, m.CapabilitySourceZH); err != nil {
			return err
		}
		if m.ID == "" || m.ID != strings.ToLower(m.ID) || strings.ContainsAny(m.ID, " /") {
			return fmt.Errorf("id %q must be a non-empty lower-case slug", m.ID)
		}
		if _, dup := ref.byID[m.ID]; dup {
			return fmt.Errorf("duplicate model id %q", m.ID)
		}
		switch m.Kind {
		case KindGPU, KindNPU, KindInference, KindFPGA, KindMedia:
		default:
			return fmt.Errorf("kind %q is not one of gpu, npu, inference, fpga, media", m.Kind)
		}
		if m.Source == "" {
			return errors.New("source is empty: every row must cite where its figures come from")
		}
		decs := []struct {
			col string
			dst **decimal.Decimal
		}{
			{"memory_gb", &m.MemoryGB}, {"memory_bandwidth_gbs", &m.BandwidthGBs}, {"fp64_tflops", &m.FP64TFLOPS},
			{"fp32_tflops", &m.FP32TFLOPS}, {"tf32_tflops", &m.TF32TFLOPS}, {"bf16_tflops", &m.BF16TFLOPS},
			{"fp16_tflops", &m.FP16TFLOPS}, {"fp8_tflops", &m.FP8TFLOPS}, {"int8_tops", &m.INT8TOPS},
			{"nvlink_gbs", &m.NVLinkGBs}, {"tdp_w", &m.TDPW},
		}
		for _, d := range decs {
			v := get(d.col)
			if v == "" {
				continue
			}
			x, err := decimal.NewFromString(v)
			if err != nil || x.IsNegative() {
				return fmt.Errorf("%s %q is not a non-negative number", d.col, v)
			}
			*d.dst = &x
		}
		ints := []struct {
			col string
			dst **int
		}{{"nvenc", &m.NVENC}, {"nvdec", &m.NVDEC}, {"gpus_per_board", &m.GPUsPerBoard}}
		for _, d := range ints {
			v := get(d.col)
			if v == "" {
				continue
			}
			var n int
			if _, err := fmt.Sscanf(v, "%d", &n); err != nil || n < 0 || fmt.Sprint(n) != v {
				return fmt.Errorf("%s %q is not a non-negative whole number", d.col, v)
			}
			*d.dst = &n
		}
		if m.GPUsPerBoard != nil && *m.GPUsPerBoard < 1 {
			return fmt.Errorf("gpus_per_board %d is not at least 1", *m.GPUsPerBoard)
		}
		ref.byID[m.ID] = len(ref.Models)
		ref.Models = append(ref.Models, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = readCSV(aliasesName, aliases, []string{"provider", "name", "model", "share", "confidence", "evidence"}, func(line int, get func(string) string) error {
		a := GPUAlias{Provider: get("provider"), Name: get("name"), Model: get("model"), Confidence: get("confidence"), Evidence: get("evidence"), Line: line}
		if a.Provider != "*" {
			if _, err := ParseProvider(a.Provider); err != nil {
				return err
			}
		}
		if strings.TrimSpace(a.Name) == "" {
			return errors.New("name is empty")
		}
		if a.Model != "" {
			if _, ok := ref.byID[a.Model]; !ok {
				return fmt.Errorf("model %q is not in %s", a.Model, modelsName)
			}
		}
		switch a.Confidence {
		case "certain", "likely", "uncertain":
		default:
			return fmt.Errorf("confidence %q is not one of certain, likely, uncertain", a.Confidence)
		}
		if s := get("share"); s != "" {
			share, err := ParseShare(s)
			if err != nil {
				return err
			}
			a.Share = share
		}
		key := a.Provider + "\x00" + NormalizeAcceleratorName(a.Name)
		if m := get("memory_gib"); m != "" {
			mem, err := decimal.NewFromString(m)
			if err != nil || !mem.IsPositive() {
				return fmt.Errorf("memory_gib %q is not a positive number", m)
			}
			a.MemoryGiB = &mem
			for _, i := range ref.byMemory[key] {
				if ref.Aliases[i].MemoryGiB.Equal(mem) {
					return fmt.Errorf("alias %s %q with memory %s is already defined on line %d", a.Provider, a.Name, m, ref.Aliases[i].Line)
				}
			}
			ref.byMemory[key] = append(ref.byMemory[key], len(ref.Aliases))
			ref.Aliases = append(ref.Aliases, a)
			return nil
		}
		if prev, dup := ref.byAlias[key]; dup {
			return fmt.Errorf("alias %s %q is already defined on line %d", a.Provider, a.Name, ref.Aliases[prev].Line)
		}
		ref.byAlias[key] = len(ref.Aliases)
		ref.Aliases = append(ref.Aliases, a)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(ref.Models, func(i, j int) bool { return ref.Models[i].ID < ref.Models[j].ID })
	for i, m := range ref.Models {
		ref.byID[m.ID] = i
	}
	return ref, nil
}

// ParseShare parses a device share written as a fraction ("1/12") or a decimal
// ("0.125"). Non-terminating fractions are rounded to 6 decimal places.
func ParseShare(s string) (decimal.Decimal, error) {
	num, den, isFrac := strings.Cut(s, "/")
	if !isFrac {
		d, err := decimal.NewFromString(s)
		if err != nil || !d.IsPositive() || d.GreaterThan(decimal.NewFromInt(1)) {
			return decimal.Zero, fmt.Errorf("share %q is not a number in (0, 1]", s)
		}
		return d, nil
	}
	n, err1 := decimal.NewFromString(strings.TrimSpace(num))
	d, err2 := decimal.NewFromString(strings.TrimSpace(den))
	if err1 != nil || err2 != nil || !n.IsPositive() || !d.IsPositive() || n.GreaterThan(d) {
		return decimal.Zero, fmt.Errorf("share %q is not a fraction such as 1/12", s)
	}
	return n.DivRound(d, 6), nil
}

// readCSV reads a CSV file with a header row, checks the required columns exist,
// and calls row for each record with its 1-based line number. Errors are prefixed
// with name:line. It reads at most MaxDataFileBytes ("name: larger than 10 MB").
func readCSV(name string, r io.Reader, required []string, row func(line int, get func(string) string) error) error {
	cr := csv.NewReader(LimitReader(name, r, MaxDataFileBytes))
	cr.FieldsPerRecord = -1
	var tooLarge *TooLargeError
	header, err := cr.Read()
	if errors.As(err, &tooLarge) {
		return tooLarge
	}
	if err != nil {
		return fmt.Errorf("%s:1: read header: %w", name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(h)] = i
	}
	for _, req := range required {
		if _, ok := col[req]; !ok {
			return fmt.Errorf("%s:1: missing column %q", name, req)
		}
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		line, _ := cr.FieldPos(0)
		if errors.As(err, &tooLarge) {
			return tooLarge
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return fmt.Errorf("%s:%d: %w", name, pe.Line, pe.Err)
			}
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if len(rec) != len(header) {
			return fmt.Errorf("%s:%d: %d fields, the header has %d", name, line, len(rec), len(header))
		}
		get := func(c string) string {
			i, ok := col[c]
			if !ok {
				return ""
			}
			return strings.TrimSpace(rec[i])
		}
		if err := row(line, get); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
}

// LoadGPUReference reads gpus.csv, gpu_aliases.csv and interconnect.csv from
// fsys (the data folder).
func LoadGPUReference(fsys fs.FS) (*GPUReference, error) {
	m, err := fsys.Open("gpus.csv")
	if err != nil {
		return nil, fmt.Errorf("load gpu reference: %w", err)
	}
	defer func() { _ = m.Close() }() // read-only: a close error loses nothing
	a, err := fsys.Open("gpu_aliases.csv")
	if err != nil {
		return nil, fmt.Errorf("load gpu reference: %w", err)
	}
	defer func() { _ = a.Close() }() // read-only: a close error loses nothing
	ref, err := ParseGPUReference("data/gpus.csv", m, "data/gpu_aliases.csv", a)
	if err != nil {
		return nil, err
	}
	// A data folder without the links table (a test's) applies none.
	if _, err := fs.Stat(fsys, "interconnect.csv"); err == nil {
		if ref.Links, err = LoadInterconnects(fsys); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("load gpu reference: %w", err)
	}
	// The figure-level sources are optional: a data folder without them has
	// the row-level sources of gpus.csv only.
	s, err := fsys.Open("gpu_sources.csv")
	if errors.Is(err, fs.ErrNotExist) {
		return ref, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load gpu reference: %w", err)
	}
	defer func() { _ = s.Close() }() // read-only: a close error loses nothing
	if ref.Sources, err = parseGPUSources("data/gpu_sources.csv", s, ref); err != nil {
		return nil, err
	}
	return ref, nil
}

// addressPattern is a web address in a source text.
var addressPattern = regexp.MustCompile(`https?://[^\s;]+`)

// SourceAddresses are the start and end of each web address in a source
// text, the addresses a translated source keeps as written.
func SourceAddresses(s string) [][]int { return addressPattern.FindAllStringIndex(s, -1) }

// sameAddresses checks a capability source's Chinese text: given with the
// English one, citing the same addresses in the same order.
func sameAddresses(en, zh string) error {
	switch {
	case en == "" && zh == "":
		return nil
	case zh == "":
		return errors.New("capability_source_zh is empty: the Chinese pages need the capability source in Chinese (the same addresses, the glosses translated)")
	case en == "":
		return errors.New("capability_source_zh without capability_source: add the source in English")
	}
	a, b := addressPattern.FindAllString(en, -1), addressPattern.FindAllString(zh, -1)
	if !slices.Equal(a, b) {
		return fmt.Errorf("capability_source_zh cites %q, capability_source %q: the two must cite the same addresses", b, a)
	}
	return nil
}
