package compare

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"
	"unicode"

	"github.com/shopspring/decimal"
	"gopkg.in/yaml.v3"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// LoadScenarios reads scenarios.yaml from fsys (the data folder).
func LoadScenarios(fsys fs.FS) (*ScenarioSet, error) {
	b, err := fs.ReadFile(fsys, "scenarios.yaml")
	if err != nil {
		return nil, fmt.Errorf("load scenarios: %w", err)
	}
	return ParseScenarios("data/scenarios.yaml", b)
}

// ParseScenarios reads a scenarios file: a mapping with one key, scenarios, holding
// a list of scenarios. Unknown keys are errors. Errors name the file and line.
func ParseScenarios(name string, data []byte) (*ScenarioSet, error) {
	var doc struct {
		Scenarios []yaml.Node `yaml:"scenarios"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file: want a scenarios: list", name)
		}
		return nil, fmt.Errorf("%s: %v", name, yamlMessage(err))
	}
	if len(doc.Scenarios) == 0 {
		return nil, fmt.Errorf("%s: no scenarios: want a scenarios: list", name)
	}
	// Decode the entries again through a strict decoder over the whole file, so
	// that a misspelt key is an error (not a silently missing requirement) and
	// its line is the file's.
	var typed struct {
		Scenarios []Scenario `yaml:"scenarios"`
	}
	strict := yaml.NewDecoder(bytes.NewReader(data))
	strict.KnownFields(true)
	if err := strict.Decode(&typed); err != nil {
		return nil, fmt.Errorf("%s", fileLines(name, doc.Scenarios, err))
	}
	set := &ScenarioSet{byID: map[string]int{}}
	for i := range doc.Scenarios {
		n := &doc.Scenarios[i]
		s := typed.Scenarios[i]
		s.Line = n.Line
		if err := s.validate(); err != nil {
			return nil, fmt.Errorf("%s:%d: scenario %q: %w", name, n.Line, s.ID, err)
		}
		if prev, dup := set.byID[s.ID]; dup {
			return nil, fmt.Errorf("%s:%d: duplicate scenario %q (first on line %d)", name, n.Line, s.ID, set.Scenarios[prev].Line)
		}
		set.byID[s.ID] = len(set.Scenarios)
		set.Scenarios = append(set.Scenarios, s)
	}
	return set, nil
}

// hasHan reports whether s has a Chinese (Han) character.
func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// yamlLine is one of yaml.v3's messages that name a line.
var yamlLine = regexp.MustCompile(`^line (\d+): (.*?)(?: in type [\w.*\[\]]+)?$`)

// fileLines words a strict decoder's error as file:line: message, one line
// per problem, without the Go type names yaml.v3 adds. An error without a line
// (a value's own decoder failed, a decimal say) is put on the line of the
// first scenario that fails to decode alone.
func fileLines(name string, nodes []yaml.Node, err error) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		for i := range nodes {
			var s Scenario
			if e := nodes[i].Decode(&s); e != nil {
				return fmt.Sprintf("%s:%d: scenario %d: %s", name, nodes[i].Line, i+1, yamlMessage(e))
			}
		}
		return name + ": " + yamlMessage(err)
	}
	out := make([]string, 0, len(te.Errors))
	for _, e := range te.Errors {
		if m := yamlLine.FindStringSubmatch(e); m != nil {
			out = append(out, name+":"+m[1]+": "+m[2])
		} else {
			out = append(out, name+": "+e)
		}
	}
	return strings.Join(out, "\n")
}

// yamlMessage drops yaml.v3's "yaml: " prefix; its line numbers stay.
func yamlMessage(err error) string {
	return strings.TrimPrefix(strings.ReplaceAll(err.Error(), "yaml: ", ""), "unmarshal errors:\n  ")
}

// CheckWorkloads reports scenario workloads that the registry does not know. A
// scenario names a workload ("llm-inference-70b") or a workload in one
// scenario of a published benchmark ("mlperf-llama2-70b@Offline", a work key).
func (s *ScenarioSet) CheckWorkloads(reg *catalog.WorkloadRegistry) error {
	var bad []string
	for _, sc := range s.Scenarios {
		for _, w := range sc.Workloads {
			id, _, _ := strings.Cut(w, "@")
			if _, ok := reg.Workload(id); !ok {
				bad = append(bad, fmt.Sprintf("line %d: scenario %q: workload %q is not in the workload registry", sc.Line, sc.ID, w))
			}
		}
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "; "))
	}
	return nil
}

func (s Scenario) validate() error {
	if s.ID == "" || s.ID != strings.ToLower(s.ID) || strings.ContainsAny(s.ID, " /,") {
		return fmt.Errorf("id %q must be a non-empty lower-case slug", s.ID)
	}
	if s.Name == "" || s.Description == "" || s.Category == "" {
		return errors.New("name, category and description must be set")
	}
	// Both languages are first-class: a scenario without its Chinese name or
	// description, or a preference without what it is for in both languages,
	// would show English on the Chinese pages.
	if s.NameZH == "" || s.DescriptionZH == "" {
		return errors.New("name_zh and description_zh must be set (the scenario in Chinese)")
	}
	if p := s.Prefer; p.VCPUsPerGPU != nil && (p.VCPUsFor == "" || p.VCPUsForZH == "") {
		return errors.New("prefer.vcpus_per_gpu needs vcpus_for and vcpus_for_zh (what the vCPUs are for, in English and Chinese)")
	}
	if p := s.Prefer; p.MemoryGiBPerGPU != nil && (p.MemoryFor == "" || p.MemoryForZH == "") {
		return errors.New("prefer.memory_gib_per_gpu needs memory_for and memory_for_zh (what the memory is for, in English and Chinese)")
	}
	for _, t := range []struct{ name, v string }{{"name", s.Name}, {"description", s.Description},
		{"vcpus_for", s.Prefer.VCPUsFor}, {"memory_for", s.Prefer.MemoryFor}} {
		if t.v != "" && hasHan(t.v) {
			return fmt.Errorf("%s is written in Chinese; it is the English text (the Chinese goes in %s_zh)", t.name, t.name)
		}
	}
	for _, t := range []struct{ name, v string }{{"name_zh", s.NameZH}, {"description_zh", s.DescriptionZH},
		{"vcpus_for_zh", s.Prefer.VCPUsForZH}, {"memory_for_zh", s.Prefer.MemoryForZH}} {
		if t.v != "" && !hasHan(t.v) {
			return fmt.Errorf("%s %q has no Chinese in it", t.name, t.v)
		}
	}
	if len(s.Compute) == 0 {
		return errors.New("compute must list at least one figure (fp64, fp32, tf32, bf16, fp16, fp8, int8, nvenc)")
	}
	for _, f := range s.Compute {
		if _, err := ParseFigure(string(f)); err != nil {
			return fmt.Errorf("compute: %w", err)
		}
	}
	switch s.PriceBasis {
	case PricePerInstance, PricePerGPU, PricePerGPUMem, PricePerCompute:
	default:
		return fmt.Errorf("price_basis %q is not one of instance, gpu, gpu_memory, compute", s.PriceBasis)
	}
	for _, k := range s.Requires.AcceleratorKinds {
		switch k {
		case catalog.KindGPU, catalog.KindNPU, catalog.KindInference, catalog.KindFPGA, catalog.KindMedia:
		default:
			return fmt.Errorf("requires.accelerator_kinds: %q is not one of gpu, npu, inference, fpga, media", k)
		}
	}
	r := s.Requires
	if p := r.NativePrecision; p != "" && p != BF16 && p != FP8 {
		return fmt.Errorf("requires.native_precision %q is not one of bf16, fp8", p)
	}
	for _, f := range []struct {
		name string
		v    *decimal.Decimal
	}{{"requires.min_gpus", r.MinGPUs}, {"requires.max_gpus", r.MaxGPUs}, {"requires.min_gpu_memory_gib", r.MinGPUMemoryGiB},
		{"requires.min_total_gpu_memory_gib", r.MinTotalGPUMemoryGiB}, {"requires.min_fp64_tflops", r.MinFP64TFLOPS},
		{"requires.min_nvenc", r.MinNVENC}, {"requires.min_network_gbps", r.MinNetworkGbps},
		{"requires.min_vcpus_per_gpu", r.MinVCPUsPerGPU}, {"requires.min_memory_gib_per_gpu", r.MinMemoryGiBPerGPU},
		{"requires.min_memory_bandwidth_gbs", r.MinGPUMemoryBandwidth},
		{"prefer.vcpus_per_gpu", s.Prefer.VCPUsPerGPU}, {"prefer.memory_gib_per_gpu", s.Prefer.MemoryGiBPerGPU},
		{"targets.total_gpu_memory_gib", s.Targets.TotalGPUMemoryGiB}, {"targets.compute", s.Targets.Compute},
		{"targets.bandwidth_gbs", s.Targets.BandwidthGBs}, {"targets.network_gbps", s.Targets.NetworkGbps}} {
		if f.v != nil && !f.v.IsPositive() {
			return fmt.Errorf("%s must be positive, got %s", f.name, f.v)
		}
	}
	if r.MinGPUs != nil && r.MaxGPUs != nil && r.MinGPUs.GreaterThan(*r.MaxGPUs) {
		return fmt.Errorf("requires.min_gpus %s is above max_gpus %s", r.MinGPUs, r.MaxGPUs)
	}
	total := decimal.Zero
	for _, d := range Dimensions {
		w := s.Weights.Of(d)
		if w.IsNegative() {
			return fmt.Errorf("weights.%s must not be negative", d)
		}
		total = total.Add(w)
	}
	if !total.IsPositive() {
		return errors.New("weights: at least one weight must be positive")
	}
	need := []struct {
		dim Dimension
		ok  bool
		why string
	}{
		{DimMemory, s.Targets.TotalGPUMemoryGiB != nil, "targets.total_gpu_memory_gib"},
		{DimCompute, s.Targets.Compute != nil, "targets.compute"},
		{DimBandwidth, s.Targets.BandwidthGBs != nil, "targets.bandwidth_gbs"},
		{DimBalance, s.Prefer.VCPUsPerGPU != nil || s.Prefer.MemoryGiBPerGPU != nil || s.Prefer.LocalNVMe, "a prefer: entry"},
		{DimWorkCost, len(s.Workloads) > 0, "workloads"},
	}
	for _, n := range need {
		if s.Weights.Of(n.dim).IsPositive() && !n.ok {
			return fmt.Errorf("weights.%s is positive but %s is not set", n.dim, n.why)
		}
	}
	return nil
}
