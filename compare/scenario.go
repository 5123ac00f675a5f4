package compare

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
	"gopkg.in/yaml.v3"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Scenario is one use of GPUs (LLM training, video transcoding, …) as defined in
// data/scenarios.yaml: what an instance must have to do it at all (Requires), what
// makes it comfortable (Prefer), the figures that count as "full marks" (Targets)
// and how much each aspect weighs in the score (Weights).
type Scenario struct {
	ID          string `yaml:"id" json:"id"`
	Name        string `yaml:"name" json:"name"`
	NameZH      string `yaml:"name_zh" json:"name_zh,omitempty"`
	Category    string `yaml:"category" json:"category"` // training, inference, rendering, video, hpc, dev
	Description string `yaml:"description" json:"description"`
	// Compute lists the throughput figures the scenario runs on, in order of
	// preference: the first one the GPU reference gives is used for the compute
	// score, the price basis "compute" and speeds from specs.
	Compute []Figure `yaml:"compute" json:"compute"`
	// Workloads are benchmark workloads (data/workloads.csv) whose cost per unit of
	// work scores the work_cost dimension, in order of preference.
	Workloads  []string     `yaml:"workloads" json:"workloads,omitempty"`
	PriceBasis PriceBasis   `yaml:"price_basis" json:"price_basis"`
	Requires   Requirements `yaml:"requires" json:"requires"`
	Prefer     Preferences  `yaml:"prefer" json:"prefer"`
	Targets    Targets      `yaml:"targets" json:"targets"`
	Weights    Weights      `yaml:"weights" json:"weights"`
	// Line is where the scenario starts in its file.
	Line int `yaml:"-" json:"line"`
}

// Requirements are hard: an instance type that fails one does not fit. An unset
// field is no requirement. GPU counts are whole-device equivalents (a 1/4 vGPU
// slice is 0.25).
type Requirements struct {
	AcceleratorKinds      []catalog.AcceleratorKind `yaml:"accelerator_kinds" json:"accelerator_kinds,omitempty"`
	MinGPUs               *decimal.Decimal          `yaml:"min_gpus" json:"min_gpus,omitempty"`
	MaxGPUs               *decimal.Decimal          `yaml:"max_gpus" json:"max_gpus,omitempty"`
	MinGPUMemoryGiB       *decimal.Decimal          `yaml:"min_gpu_memory_gib" json:"min_gpu_memory_gib,omitempty"` // per device
	MinTotalGPUMemoryGiB  *decimal.Decimal          `yaml:"min_total_gpu_memory_gib" json:"min_total_gpu_memory_gib,omitempty"`
	MinFP64TFLOPS         *decimal.Decimal          `yaml:"min_fp64_tflops" json:"min_fp64_tflops,omitempty"` // whole instance
	NVLink                bool                      `yaml:"nvlink" json:"nvlink,omitempty"`                   // when more than one GPU
	MinNVENC              *decimal.Decimal          `yaml:"min_nvenc" json:"min_nvenc,omitempty"`             // encoders, whole instance
	RDMA                  bool                      `yaml:"rdma" json:"rdma,omitempty"`                       // EFA / RDMA / eRDMA for multi-node
	MinNetworkGbps        *decimal.Decimal          `yaml:"min_network_gbps" json:"min_network_gbps,omitempty"`
	MinVCPUsPerGPU        *decimal.Decimal          `yaml:"min_vcpus_per_gpu" json:"min_vcpus_per_gpu,omitempty"`
	MinMemoryGiBPerGPU    *decimal.Decimal          `yaml:"min_memory_gib_per_gpu" json:"min_memory_gib_per_gpu,omitempty"`
	LocalNVMe             bool                      `yaml:"local_nvme" json:"local_nvme,omitempty"`
	MinGPUMemoryBandwidth *decimal.Decimal          `yaml:"min_memory_bandwidth_gbs" json:"min_memory_bandwidth_gbs,omitempty"` // per device
}

// Preferences are soft: falling short is a weakness in words and lowers the
// balance score, never a reason not to fit.
type Preferences struct {
	VCPUsPerGPU *decimal.Decimal `yaml:"vcpus_per_gpu" json:"vcpus_per_gpu,omitempty"`
	// VCPUsFor says what the vCPUs are for, in the weakness sentence ("12 vCPU
	// per GPU is low for data loading"); "data loading" when empty.
	VCPUsFor        string           `yaml:"vcpus_for" json:"vcpus_for,omitempty"`
	MemoryGiBPerGPU *decimal.Decimal `yaml:"memory_gib_per_gpu" json:"memory_gib_per_gpu,omitempty"`
	// MemoryFor likewise for host memory; "staging data" when empty.
	MemoryFor string `yaml:"memory_for" json:"memory_for,omitempty"`
	LocalNVMe bool   `yaml:"local_nvme" json:"local_nvme,omitempty"`
	RDMA      bool   `yaml:"rdma" json:"rdma,omitempty"`
}

// Targets are the figures that score 1 in their dimension; less scores
// proportionally (capped at 1 above).
type Targets struct {
	TotalGPUMemoryGiB *decimal.Decimal `yaml:"total_gpu_memory_gib" json:"total_gpu_memory_gib,omitempty"`
	Compute           *decimal.Decimal `yaml:"compute" json:"compute,omitempty"`             // whole instance, in the compute figure's unit
	BandwidthGBs      *decimal.Decimal `yaml:"bandwidth_gbs" json:"bandwidth_gbs,omitempty"` // per device
	NetworkGbps       *decimal.Decimal `yaml:"network_gbps" json:"network_gbps,omitempty"`
}

// Weights say how much each dimension counts in the score. Zero leaves it out.
type Weights struct {
	Memory       decimal.Decimal `yaml:"memory" json:"memory"`
	Compute      decimal.Decimal `yaml:"compute" json:"compute"`
	Bandwidth    decimal.Decimal `yaml:"bandwidth" json:"bandwidth"`
	Interconnect decimal.Decimal `yaml:"interconnect" json:"interconnect"`
	Balance      decimal.Decimal `yaml:"balance" json:"balance"`
	Price        decimal.Decimal `yaml:"price" json:"price"`
	WorkCost     decimal.Decimal `yaml:"work_cost" json:"work_cost"`
}

// PriceBasis is what the price dimension divides the hourly price by.
type PriceBasis string

// Price bases.
const (
	PricePerInstance PriceBasis = "instance"   // USD per hour
	PricePerGPU      PriceBasis = "gpu"        // USD per GPU-hour
	PricePerGPUMem   PriceBasis = "gpu_memory" // USD per GPU-memory-GiB-hour
	PricePerCompute  PriceBasis = "compute"    // USD per (compute figure)-hour
)

// Dimension is one aspect of the score. The values are a public contract.
type Dimension string

// Dimensions, in the order they are shown.
const (
	DimMemory       Dimension = "memory"
	DimCompute      Dimension = "compute"
	DimBandwidth    Dimension = "bandwidth"
	DimInterconnect Dimension = "interconnect"
	DimBalance      Dimension = "balance"
	DimPrice        Dimension = "price"
	DimWorkCost     Dimension = "work_cost"
)

// Dimensions lists the dimensions in display order.
var Dimensions = []Dimension{DimMemory, DimCompute, DimBandwidth, DimInterconnect, DimBalance, DimPrice, DimWorkCost}

// Of is the weight of dimension d.
func (w Weights) Of(d Dimension) decimal.Decimal {
	switch d {
	case DimMemory:
		return w.Memory
	case DimCompute:
		return w.Compute
	case DimBandwidth:
		return w.Bandwidth
	case DimInterconnect:
		return w.Interconnect
	case DimBalance:
		return w.Balance
	case DimPrice:
		return w.Price
	case DimWorkCost:
		return w.WorkCost
	}
	return decimal.Zero
}

// ScenarioSet is the table of scenarios in file order.
type ScenarioSet struct {
	Scenarios []Scenario
	byID      map[string]int
}

// Scenario returns the scenario with the given id.
func (s *ScenarioSet) Scenario(id string) (Scenario, bool) {
	if s == nil {
		return Scenario{}, false
	}
	i, ok := s.byID[id]
	if !ok {
		return Scenario{}, false
	}
	return s.Scenarios[i], true
}

// IDs lists the scenario ids in file order.
func (s *ScenarioSet) IDs() []string {
	ids := make([]string, len(s.Scenarios))
	for i, sc := range s.Scenarios {
		ids[i] = sc.ID
	}
	return ids
}

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
	set := &ScenarioSet{byID: map[string]int{}}
	for i := range doc.Scenarios {
		n := &doc.Scenarios[i]
		var s Scenario
		// Decode each entry through a strict decoder so that a misspelt key is an
		// error rather than a silently missing requirement.
		raw, err := yaml.Marshal(n)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n.Line, err)
		}
		d := yaml.NewDecoder(bytes.NewReader(raw))
		d.KnownFields(true)
		if err := d.Decode(&s); err != nil {
			return nil, fmt.Errorf("%s:%d: scenario %d: %v", name, n.Line, i+1, yamlMessage(err))
		}
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

// yamlMessage drops yaml.v3's "yaml: " prefix; its line numbers stay.
func yamlMessage(err error) string {
	return strings.TrimPrefix(strings.ReplaceAll(err.Error(), "yaml: ", ""), "unmarshal errors:\n  ")
}

// CheckWorkloads reports scenario workloads that the registry does not know.
func (s *ScenarioSet) CheckWorkloads(reg *catalog.WorkloadRegistry) error {
	var bad []string
	for _, sc := range s.Scenarios {
		for _, w := range sc.Workloads {
			if _, ok := reg.Workload(w); !ok {
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

// Verdict says whether an instance type fits a scenario. The values are a public
// contract.
type Verdict string

// Verdicts.
const (
	Fits       Verdict = "fits"
	MayFit     Verdict = "unknown" // no requirement fails, but at least one is unknown
	DoesNotFit Verdict = "does_not_fit"
)

// CheckStatus is the outcome of one requirement.
type CheckStatus string

// Check outcomes.
const (
	Pass        CheckStatus = "pass"
	Fail        CheckStatus = "fail"
	UnknownSpec CheckStatus = "unknown"
)

// Check is one hard requirement applied to an instance type, with the figures in
// words: "8 × 80 GiB = 640 GiB ≥ 320 GiB".
type Check struct {
	Requirement string      `json:"requirement"`
	Status      CheckStatus `json:"status"`
	Detail      string      `json:"detail"`
}

// Dimension statuses.
const (
	Scored        = "scored"
	NotScoredYet  = "unknown"        // the figure is unknown: counted as 0 and said so
	NotApplicable = "not_applicable" // left out of the weights (no benchmark, single GPU…)
)

// DimensionScore is one dimension's share of a score. Value is in [0, 1], rounded
// to ScorePlaces; an unknown figure scores 0 and says so in Detail; a dimension
// that does not apply to the offer is left out of the weighted mean.
type DimensionScore struct {
	Dimension Dimension       `json:"dimension"`
	Weight    decimal.Decimal `json:"weight"`
	Status    string          `json:"status"`
	Value     decimal.Decimal `json:"value"`
	Detail    string          `json:"detail"`
	// Figure and Target are the dimension's own figure and what scores 1, in
	// words ("31.24 TFLOPS", "100 TFLOPS"), for short strength and weakness phrases.
	Figure string `json:"figure,omitempty"`
	Target string `json:"target,omitempty"`
}

// ScorePlaces is the rounding of a dimension's value; a score (0-100) is rounded to
// 2 places. Both half away from zero.
const ScorePlaces = 4

// Tier is a class of GPU by memory per device, the rows of the scenario × tier
// matrix. The values are a public contract.
type Tier string

// Tiers, largest first.
const (
	Tier80Plus  Tier = "80gb-plus"
	Tier40To79  Tier = "40-79gb"
	Tier20To39  Tier = "20-39gb"
	TierUnder20 Tier = "under-20gb"
	TierPartial Tier = "partial-gpu" // vGPU slices and partitioned GPUs
	TierUnknown Tier = "unknown"     // no memory figure
)

// Tiers lists the tiers in display order.
var Tiers = []Tier{Tier80Plus, Tier40To79, Tier20To39, TierUnder20, TierPartial, TierUnknown}

// Label is the tier as shown.
func (t Tier) Label() string {
	switch t {
	case Tier80Plus:
		return "80 GiB or more per GPU"
	case Tier40To79:
		return "40-79 GiB per GPU"
	case Tier20To39:
		return "20-39 GiB per GPU"
	case TierUnder20:
		return "under 20 GiB per GPU"
	case TierPartial:
		return "partial GPU (vGPU slice)"
	}
	return "GPU memory unknown"
}

// OfferFit is how one offer suits one scenario: the verdict with a check per
// requirement, the score with its dimensions, strengths, weaknesses, unknowns and
// a one-line summary. Everything a scenario page row shows.
type OfferFit struct {
	Scenario string `json:"scenario"`
	// Instance is the instance type (in Go only: the JSON has its key and the
	// figures below; the full record is in the catalog export).
	Instance    catalog.InstanceType `json:"-"`
	InstanceKey string               `json:"instance"`
	Offer       catalog.Offer        `json:"offer"`
	OfferKey    string               `json:"offer_key"`
	// Hardware is the accelerators in words: "8x NVIDIA A100 80GB (80 GiB each), NVLink".
	Hardware  string          `json:"hardware"`
	GPUModel  string          `json:"gpu_model,omitempty"`
	GPUUnits  decimal.Decimal `json:"gpu_units"`
	VCPUs     int             `json:"vcpus"`
	MemoryGiB decimal.Decimal `json:"memory_gib"`
	Tier      Tier            `json:"tier"`
	// USDPerHour is the effective hourly price in USD (upfront spread over the
	// term, through the snapshot's FX table); nil when it cannot be computed.
	USDPerHour *decimal.Decimal `json:"usd_per_hour"`
	// NativePerHour is the same in the offer's own currency, before conversion.
	NativePerHour  *decimal.Decimal `json:"native_per_hour"`
	NativeCurrency catalog.Currency `json:"native_currency"`
	// OtherOffers counts further offers of this type and billing kind (other
	// regions or zones) that ranked below this one, its cheapest.
	OtherOffers int              `json:"other_offers"`
	Verdict     Verdict          `json:"verdict"`
	Score       decimal.Decimal  `json:"score"` // 0-100; zero when it does not fit
	Checks      []Check          `json:"checks"`
	Dimensions  []DimensionScore `json:"dimensions,omitempty"`
	Strengths   []string         `json:"strengths,omitempty"`
	Weaknesses  []string         `json:"weaknesses,omitempty"`
	Unknowns    []string         `json:"unknowns,omitempty"`
	// WorkCost is the offer's best cost per unit of work for the scenario's
	// workloads, when a benchmark gives one (measured or estimated).
	WorkCost *WorkCost `json:"work_cost,omitempty"`
	// Summary: "fits: 8x 80 GiB NVIDIA A100, NVLink; weakness: 12 vCPU per GPU is
	// low for data loading (prefer 16)".
	Summary string `json:"summary"`
}

// Cell is one cell of a matrix: the best offers of a provider (or tier) for a
// scenario, with how many were considered.
type Cell struct {
	Key    string     `json:"key"` // provider id or tier
	Label  string     `json:"label"`
	Best   []OfferFit `json:"best"`
	Fits   int        `json:"fits"`    // instance types that fit
	MayFit int        `json:"may_fit"` // instance types with unknown requirements
	Types  int        `json:"types"`   // instance types considered
	Reason string     `json:"reason"`  // why the cell is empty, when it is
}

// ScenarioRanking is one scenario's result: every instance type ranked by its
// cheapest offer of the chosen billing kind, and the matrix cells.
type ScenarioRanking struct {
	Scenario Scenario `json:"scenario"`
	// Ranked holds the types that fit, then those that may fit, best first
	// (verdict, score descending, USD per hour ascending, instance key).
	Ranked []OfferFit `json:"ranked"`
	// Rejected holds the types that do not fit, by instance key, with only
	// their failing checks (also in the summary).
	Rejected   []OfferFit `json:"rejected"`
	ByProvider []Cell     `json:"by_provider"`
	ByTier     []Cell     `json:"by_tier"`
}

// Matrix is every scenario's ranking over one snapshot.
type Matrix struct {
	Billing   catalog.BillingKind `json:"billing"`
	Region    string              `json:"region,omitempty"`
	Providers []catalog.Provider  `json:"providers"`
	Tiers     []Tier              `json:"tiers"`
	Scenarios []ScenarioRanking   `json:"scenarios"`
}

// MatrixOptions choose what the matrix ranks.
type MatrixOptions struct {
	// Billing is the billing kind whose offers are priced; on_demand when empty.
	Billing catalog.BillingKind
	// Region, when set, keeps only offers in that region id.
	Region string
	// Providers, when set, keeps only those providers.
	Providers []catalog.Provider
	// PerCell is how many offers a matrix cell lists; 3 when zero.
	PerCell int
	// Costs are cost-per-work figures (CostPerWork) for the work_cost dimension.
	Costs []WorkCost
}

// BuildMatrix ranks the snapshot's instance types for every scenario. Each type is
// represented by its cheapest offer of the billing kind (available before sold
// out, then USD per hour, then offer key); types without such an offer are left
// out. The order of everything is deterministic.
func BuildMatrix(scenarios []Scenario, snap *catalog.Snapshot, gpus *catalog.GPUReference, opts MatrixOptions) Matrix {
	if opts.Billing == "" {
		opts.Billing = catalog.OnDemand
	}
	if opts.PerCell <= 0 {
		opts.PerCell = 3
	}
	m := Matrix{Billing: opts.Billing, Region: opts.Region, Tiers: Tiers}
	providers := opts.Providers
	if len(providers) == 0 {
		providers = catalog.Providers
	}
	keep := map[catalog.Provider]bool{}
	for _, p := range providers {
		keep[p] = true
	}
	present := map[catalog.Provider]bool{}
	reps := representatives(snap, opts, keep)
	for _, r := range reps {
		present[r.offer.Provider] = true
	}
	for _, p := range catalog.Providers {
		if present[p] {
			m.Providers = append(m.Providers, p)
		}
	}
	for _, s := range scenarios {
		m.Scenarios = append(m.Scenarios, rankScenario(s, reps, gpus, opts, m.Providers))
	}
	return m
}

// RankScenario is BuildMatrix for one scenario.
func RankScenario(s Scenario, snap *catalog.Snapshot, gpus *catalog.GPUReference, opts MatrixOptions) ScenarioRanking {
	m := BuildMatrix([]Scenario{s}, snap, gpus, opts)
	return m.Scenarios[0]
}

// representative is one instance type with its cheapest offer of the billing kind.
type representative struct {
	typ    catalog.InstanceType
	offer  catalog.Offer
	usd    *decimal.Decimal
	native *decimal.Decimal
	others int
}

func representatives(snap *catalog.Snapshot, opts MatrixOptions, keep map[catalog.Provider]bool) []representative {
	if snap == nil {
		return nil
	}
	types := make(map[string]catalog.InstanceType, len(snap.Instances))
	for _, t := range snap.Instances {
		types[t.Key()] = t
	}
	best := map[string]*representative{}
	for _, o := range snap.Offers {
		if o.Billing != opts.Billing || !keep[o.Provider] || (opts.Region != "" && o.Region != opts.Region) {
			continue
		}
		t, ok := types[o.InstanceKey()]
		if !ok || len(t.Accelerators) == 0 {
			continue
		}
		r := representative{typ: t, offer: o}
		if h, err := o.Price.Hourly(o.Billing.TermHours()); err == nil {
			r.native = &h
			if usd, err := usdPerHour(snap.FX, o); err == nil {
				r.usd = &usd
			}
		}
		cur, seen := best[t.Key()]
		if !seen {
			best[t.Key()] = &r
			continue
		}
		if cheaper(r, *cur) {
			r.others = cur.others + 1
			best[t.Key()] = &r
		} else {
			cur.others++
		}
	}
	out := make([]representative, 0, len(best))
	for _, k := range sortedKeys(best) {
		out = append(out, *best[k])
	}
	return out
}

func cheaper(a, b representative) bool {
	if (a.offer.Availability == catalog.SoldOut) != (b.offer.Availability == catalog.SoldOut) {
		return b.offer.Availability == catalog.SoldOut
	}
	switch {
	case a.usd != nil && b.usd == nil:
		return true
	case a.usd == nil && b.usd != nil:
		return false
	case a.usd != nil && !a.usd.Equal(*b.usd):
		return a.usd.LessThan(*b.usd)
	}
	return a.offer.Key() < b.offer.Key()
}

func rankScenario(s Scenario, reps []representative, gpus *catalog.GPUReference, opts MatrixOptions, providers []catalog.Provider) ScenarioRanking {
	res := ScenarioRanking{Scenario: s}
	var cands []*OfferFit
	var sps []specs
	for _, r := range reps {
		f, sp := evaluate(s, gpus, r, opts.Costs)
		if f.Verdict == DoesNotFit {
			f.Summary = summary(f)
			// Only the failing checks say why; the rest would make a full matrix
			// several times larger.
			var fails []Check
			for _, c := range f.Checks {
				if c.Status == Fail {
					fails = append(fails, c)
				}
			}
			f.Checks = fails
			res.Rejected = append(res.Rejected, f)
			continue
		}
		cands = append(cands, &f)
		sps = append(sps, sp)
	}
	scoreAll(s, cands, sps)
	for _, f := range cands {
		f.Summary = summary(*f)
		res.Ranked = append(res.Ranked, *f)
	}
	sort.SliceStable(res.Ranked, func(i, j int) bool { return rankLess(res.Ranked[i], res.Ranked[j]) })

	for _, p := range providers {
		res.ByProvider = append(res.ByProvider, cell(string(p), string(p), res, opts.PerCell, func(f OfferFit) bool { return f.Offer.Provider == p }))
	}
	for _, t := range Tiers {
		res.ByTier = append(res.ByTier, cell(string(t), t.Label(), res, opts.PerCell, func(f OfferFit) bool { return f.Tier == t }))
	}
	return res
}

func rankLess(a, b OfferFit) bool {
	if a.Verdict != b.Verdict {
		return a.Verdict == Fits
	}
	if !a.Score.Equal(b.Score) {
		return a.Score.GreaterThan(b.Score)
	}
	switch {
	case a.USDPerHour != nil && b.USDPerHour == nil:
		return true
	case a.USDPerHour == nil && b.USDPerHour != nil:
		return false
	case a.USDPerHour != nil && !a.USDPerHour.Equal(*b.USDPerHour):
		return a.USDPerHour.LessThan(*b.USDPerHour)
	}
	return a.InstanceKey < b.InstanceKey
}

func cell(key, label string, res ScenarioRanking, n int, in func(OfferFit) bool) Cell {
	c := Cell{Key: key, Label: label, Best: []OfferFit{}}
	for _, f := range res.Ranked {
		if !in(f) {
			continue
		}
		c.Types++
		if f.Verdict == Fits {
			c.Fits++
		} else {
			c.MayFit++
		}
		if len(c.Best) < n {
			c.Best = append(c.Best, f)
		}
	}
	rejected := 0
	for _, f := range res.Rejected {
		if in(f) {
			c.Types++
			rejected++
		}
	}
	switch {
	case c.Types == 0:
		c.Reason = "no offers"
	case len(c.Best) == 0:
		c.Reason = fmt.Sprintf("none of %d instance types fits", rejected)
	}
	return c
}

// evaluate applies the requirements and the spec dimensions; price and work cost
// are scored by scoreAll, which needs every candidate.
func evaluate(s Scenario, gpus *catalog.GPUReference, r representative, costs []WorkCost) (OfferFit, specs) {
	t := r.typ
	sp := specsOf(gpus, t)
	f := OfferFit{
		Scenario: s.ID, Instance: t, InstanceKey: t.Key(), Offer: r.offer, OfferKey: r.offer.Key(),
		Hardware: sp.hardware(), GPUModel: sp.model.ID, GPUUnits: sp.units, VCPUs: t.VCPUs, MemoryGiB: t.MemoryGiB,
		Tier: sp.tier(), USDPerHour: r.usd, NativePerHour: r.native, NativeCurrency: r.offer.Price.Currency,
		OtherOffers: r.others,
	}
	f.Checks = checks(s, sp)
	f.Verdict = Fits
	for _, c := range f.Checks {
		switch c.Status {
		case Fail:
			f.Verdict = DoesNotFit
		case UnknownSpec:
			if f.Verdict == Fits {
				f.Verdict = MayFit
			}
			f.Unknowns = append(f.Unknowns, c.Detail)
		}
	}
	if f.Verdict == DoesNotFit {
		f.Score = decimal.Zero
		return f, sp
	}
	f.WorkCost = bestWorkCost(s, r.offer.Key(), costs)
	f.Dimensions = specDimensions(s, sp)
	f.Weaknesses = append(f.Weaknesses, preferenceWeaknesses(s, sp)...)
	return f, sp
}

// specs are the facts of an instance type a scenario looks at, with the GPU
// reference resolved. Pointers are nil when unknown.
type specs struct {
	gpus     *catalog.GPUReference
	t        catalog.InstanceType
	model    catalog.GPUModel // the primary accelerator's model; zero when unmapped
	mapped   bool
	units    decimal.Decimal // whole-GPU equivalents
	devices  int
	partial  bool             // any accelerator is a slice of a device
	memEach  *decimal.Decimal // GiB per device as the instance sees it
	memFrom  string           // "" (instance) or "from the GPU reference"
	memTotal *decimal.Decimal
	link     string // nvlink, pcie, single, unknown
	linkWhy  string
}

func specsOf(gpus *catalog.GPUReference, t catalog.InstanceType) specs {
	sp := specs{gpus: gpus, t: t, devices: t.DeviceCount()}
	for _, a := range t.Accelerators {
		sp.units = sp.units.Add(acceleratorUnits(a))
		if !a.Share.IsZero() && a.Share.LessThan(decimal.NewFromInt(1)) {
			sp.partial = true
		}
	}
	a, ok := t.PrimaryAccelerator()
	if ok && gpus != nil {
		sp.model, sp.mapped = gpus.Model(a.Model)
	}
	// Memory per device: what the instance reports, else the reference's figure
	// (which is in GB as the vendor states it, close enough to flag but said).
	if ok && a.MemoryGiB.IsPositive() {
		m := a.MemoryGiB
		sp.memEach = &m
	} else if sp.mapped && sp.model.MemoryGB != nil && !sp.partial {
		m := *sp.model.MemoryGB
		sp.memEach, sp.memFrom = &m, " (from the GPU reference)"
	}
	if sp.memEach != nil {
		total := decimal.Zero
		for _, acc := range t.Accelerators {
			mem := acc.MemoryGiB
			if !mem.IsPositive() {
				mem = *sp.memEach
			}
			total = total.Add(mem.Mul(decimal.NewFromInt(int64(acc.Count))))
		}
		sp.memTotal = &total
	}
	sp.link, sp.linkWhy = linkOf(sp)
	return sp
}

// linkOf says how the GPUs of a type talk to each other. The provider's
// Interconnect field wins; otherwise an SXM part is on an NVLink baseboard (HGX),
// a model with no NVLink (nvlink_gbs 0) is PCIe only, and a PCIe card whose model
// supports an NVLink bridge is unknown (the bridge is optional).
func linkOf(sp specs) (string, string) {
	if sp.devices <= 1 {
		return "single", "one GPU"
	}
	switch strings.ToLower(sp.t.Interconnect) {
	case "nvlink":
		return "nvlink", "NVLink (as the provider states)"
	case "pcie":
		return "pcie", "PCIe only (as the provider states)"
	}
	if !sp.mapped {
		return "unknown", "GPU interconnect unknown (GPU model not mapped)"
	}
	name := sp.model.Name
	switch {
	case sp.model.NVLinkGBs != nil && sp.model.NVLinkGBs.IsZero():
		return "pcie", fmt.Sprintf("PCIe only (%s has no NVLink)", name)
	case strings.HasPrefix(strings.ToUpper(sp.model.FormFactor), "SXM"):
		return "nvlink", fmt.Sprintf("NVLink (%s is an %s part)", name, sp.model.FormFactor)
	case sp.model.NVLinkGBs == nil:
		return "unknown", fmt.Sprintf("NVLink unknown (not in the GPU reference for %s)", name)
	}
	return "unknown", fmt.Sprintf("NVLink unknown (%s supports an NVLink bridge; the provider does not say whether it is fitted)", name)
}

func (sp specs) gpuName() string {
	if sp.mapped {
		return sp.model.Name
	}
	if a, ok := sp.t.PrimaryAccelerator(); ok {
		return a.Name + " (unmapped)"
	}
	return "no accelerator"
}

func (sp specs) hardware() string {
	a, ok := sp.t.PrimaryAccelerator()
	if !ok {
		return "no accelerator"
	}
	var b strings.Builder
	if sp.partial {
		fmt.Fprintf(&b, "%dx %s slice (%s of a GPU each)", a.Count, sp.gpuName(), a.Share)
	} else {
		fmt.Fprintf(&b, "%dx %s", a.Count, sp.gpuName())
	}
	if sp.memEach != nil {
		fmt.Fprintf(&b, ", %s GiB each%s", sp.memEach.Round(2), sp.memFrom)
	}
	switch sp.link {
	case "nvlink":
		b.WriteString(", NVLink")
	case "pcie":
		b.WriteString(", PCIe")
	}
	if len(sp.t.Accelerators) > 1 {
		fmt.Fprintf(&b, " (+%d more accelerator kinds)", len(sp.t.Accelerators)-1)
	}
	return b.String()
}

func (sp specs) tier() Tier {
	switch {
	case sp.partial:
		return TierPartial
	case sp.memEach == nil:
		return TierUnknown
	case sp.memEach.GreaterThanOrEqual(decimal.NewFromInt(80)):
		return Tier80Plus
	case sp.memEach.GreaterThanOrEqual(decimal.NewFromInt(40)):
		return Tier40To79
	case sp.memEach.GreaterThanOrEqual(decimal.NewFromInt(20)):
		return Tier20To39
	}
	return TierUnder20
}

// perGPU is x divided by GPU units, rounded to 2 places.
func (sp specs) perGPU(x decimal.Decimal) decimal.Decimal {
	if !sp.units.IsPositive() {
		return decimal.Zero
	}
	return x.DivRound(sp.units, 2)
}

// compute is the first of the scenario's figures the reference gives for every
// accelerator: total, the terms in words, and the figure used.
func (sp specs) compute(figs []Figure) (decimal.Decimal, string, Figure, bool) {
	if sp.gpus == nil {
		return decimal.Zero, "", "", false
	}
	for _, f := range figs {
		if v, terms, ok := instanceFigure(sp.gpus, sp.t, f); ok {
			return v, terms, f, true
		}
	}
	return decimal.Zero, "", "", false
}

func checks(s Scenario, sp specs) []Check {
	r := s.Requires
	var out []Check
	add := func(req string, st CheckStatus, format string, args ...any) {
		out = append(out, Check{Requirement: req, Status: st, Detail: fmt.Sprintf(format, args...)})
	}
	if len(r.AcceleratorKinds) > 0 {
		kinds := make([]string, len(r.AcceleratorKinds))
		for i, k := range r.AcceleratorKinds {
			kinds[i] = string(k)
		}
		ok := true
		var got []string
		for _, a := range sp.t.Accelerators {
			got = append(got, string(a.Kind))
			if !containsKind(r.AcceleratorKinds, a.Kind) {
				ok = false
			}
		}
		if ok {
			add("accelerator_kinds", Pass, "accelerator kind %s", strings.Join(got, ", "))
		} else {
			add("accelerator_kinds", Fail, "accelerator kind %s is not %s", strings.Join(got, ", "), strings.Join(kinds, " or "))
		}
	}
	if r.MinGPUs != nil {
		if sp.units.GreaterThanOrEqual(*r.MinGPUs) {
			add("min_gpus", Pass, "%s GPUs ≥ %s", sp.units, r.MinGPUs)
		} else {
			add("min_gpus", Fail, "%s GPUs < %s required", sp.units, r.MinGPUs)
		}
	}
	if r.MaxGPUs != nil {
		if sp.units.LessThanOrEqual(*r.MaxGPUs) {
			add("max_gpus", Pass, "%s GPUs ≤ %s", sp.units, r.MaxGPUs)
		} else {
			add("max_gpus", Fail, "%s GPUs > %s (more than the scenario uses)", sp.units, r.MaxGPUs)
		}
	}
	if r.MinGPUMemoryGiB != nil {
		switch {
		case sp.memEach == nil:
			add("min_gpu_memory_gib", UnknownSpec, "GPU memory unknown for %s", sp.gpuName())
		case sp.memEach.GreaterThanOrEqual(*r.MinGPUMemoryGiB):
			add("min_gpu_memory_gib", Pass, "%s GiB per GPU%s ≥ %s GiB", sp.memEach, sp.memFrom, r.MinGPUMemoryGiB)
		default:
			add("min_gpu_memory_gib", Fail, "%s GiB per GPU%s < %s GiB required", sp.memEach, sp.memFrom, r.MinGPUMemoryGiB)
		}
	}
	if r.MinTotalGPUMemoryGiB != nil {
		switch {
		case sp.memTotal == nil:
			add("min_total_gpu_memory_gib", UnknownSpec, "GPU memory unknown for %s", sp.gpuName())
		case sp.memTotal.GreaterThanOrEqual(*r.MinTotalGPUMemoryGiB):
			add("min_total_gpu_memory_gib", Pass, "%s GiB GPU memory in all ≥ %s GiB", sp.memTotal, r.MinTotalGPUMemoryGiB)
		default:
			add("min_total_gpu_memory_gib", Fail, "%s GiB GPU memory in all < %s GiB required", sp.memTotal, r.MinTotalGPUMemoryGiB)
		}
	}
	if r.MinGPUMemoryBandwidth != nil {
		switch {
		case !sp.mapped || sp.model.BandwidthGBs == nil:
			add("min_memory_bandwidth_gbs", UnknownSpec, "memory bandwidth unknown for %s", sp.gpuName())
		case sp.model.BandwidthGBs.GreaterThanOrEqual(*r.MinGPUMemoryBandwidth):
			add("min_memory_bandwidth_gbs", Pass, "%s GB/s memory bandwidth ≥ %s GB/s", sp.model.BandwidthGBs, r.MinGPUMemoryBandwidth)
		default:
			add("min_memory_bandwidth_gbs", Fail, "%s GB/s memory bandwidth < %s GB/s required", sp.model.BandwidthGBs, r.MinGPUMemoryBandwidth)
		}
	}
	if r.MinFP64TFLOPS != nil {
		v, terms, ok := instanceFigure(sp.gpus, sp.t, FigureFP64)
		switch {
		case !ok:
			add("min_fp64_tflops", UnknownSpec, "FP64 throughput unknown for %s (not in the GPU reference)", sp.gpuName())
		case v.GreaterThanOrEqual(*r.MinFP64TFLOPS):
			add("min_fp64_tflops", Pass, "FP64 %s = %s TFLOPS ≥ %s", terms, v, r.MinFP64TFLOPS)
		default:
			add("min_fp64_tflops", Fail, "FP64 %s = %s TFLOPS < %s required", terms, v, r.MinFP64TFLOPS)
		}
	}
	if r.NVLink && sp.devices > 1 {
		switch sp.link {
		case "nvlink":
			add("nvlink", Pass, "%s", sp.linkWhy)
		case "pcie":
			add("nvlink", Fail, "no NVLink: %s", sp.linkWhy)
		default:
			add("nvlink", UnknownSpec, "%s", sp.linkWhy)
		}
	}
	if r.MinNVENC != nil {
		v, _, ok := instanceFigure(sp.gpus, sp.t, FigureNVENC)
		switch {
		case !ok:
			add("min_nvenc", UnknownSpec, "NVENC unknown for %s (not in the GPU reference)", sp.gpuName())
		case v.IsZero():
			add("min_nvenc", Fail, "no hardware video encoder: %s has no NVENC", sp.gpuName())
		case v.GreaterThanOrEqual(*r.MinNVENC):
			add("min_nvenc", Pass, "%s NVENC engines ≥ %s", v, r.MinNVENC)
		default:
			add("min_nvenc", Fail, "%s NVENC engines < %s required", v, r.MinNVENC)
		}
	}
	if r.RDMA {
		if sp.t.RDMA != "" {
			add("rdma", Pass, "%s for multi-node traffic", strings.ToUpper(sp.t.RDMA))
		} else {
			add("rdma", Fail, "no RDMA/EFA listed for multi-node traffic")
		}
	}
	if r.MinNetworkGbps != nil {
		switch {
		case sp.t.NetworkGbps == nil:
			add("min_network_gbps", UnknownSpec, "network bandwidth unknown (%s)", orNone(sp.t.Network, "not published"))
		case sp.t.NetworkGbps.GreaterThanOrEqual(*r.MinNetworkGbps):
			add("min_network_gbps", Pass, "%s Gbps network ≥ %s", sp.t.NetworkGbps, r.MinNetworkGbps)
		default:
			add("min_network_gbps", Fail, "%s Gbps network < %s Gbps required", sp.t.NetworkGbps, r.MinNetworkGbps)
		}
	}
	if r.MinVCPUsPerGPU != nil {
		v := sp.perGPU(decimal.NewFromInt(int64(sp.t.VCPUs)))
		if v.GreaterThanOrEqual(*r.MinVCPUsPerGPU) {
			add("min_vcpus_per_gpu", Pass, "%s vCPU per GPU ≥ %s", v, r.MinVCPUsPerGPU)
		} else {
			add("min_vcpus_per_gpu", Fail, "%s vCPU per GPU < %s required", v, r.MinVCPUsPerGPU)
		}
	}
	if r.MinMemoryGiBPerGPU != nil {
		v := sp.perGPU(sp.t.MemoryGiB)
		if v.GreaterThanOrEqual(*r.MinMemoryGiBPerGPU) {
			add("min_memory_gib_per_gpu", Pass, "%s GiB host memory per GPU ≥ %s GiB", v, r.MinMemoryGiBPerGPU)
		} else {
			add("min_memory_gib_per_gpu", Fail, "%s GiB host memory per GPU < %s GiB required", v, r.MinMemoryGiBPerGPU)
		}
	}
	if r.LocalNVMe {
		if sp.t.LocalNVMe {
			add("local_nvme", Pass, "local NVMe (%d GB)", sp.t.LocalStorageGB)
		} else {
			add("local_nvme", Fail, "no local NVMe listed")
		}
	}
	return out
}

func containsKind(ks []catalog.AcceleratorKind, k catalog.AcceleratorKind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// ratio is min(1, x / target) rounded to ScorePlaces.
func ratio(x, target decimal.Decimal) decimal.Decimal {
	if !target.IsPositive() {
		return decimal.Zero
	}
	r := x.DivRound(target, ScorePlaces)
	if r.GreaterThan(decimal.NewFromInt(1)) {
		return decimal.NewFromInt(1)
	}
	return r
}

func specDimensions(s Scenario, sp specs) []DimensionScore {
	var out []DimensionScore
	add := func(d Dimension, status string, v decimal.Decimal, format string, args ...any) {
		w := s.Weights.Of(d)
		if !w.IsPositive() {
			return
		}
		out = append(out, DimensionScore{Dimension: d, Weight: w, Status: status, Value: v, Detail: fmt.Sprintf(format, args...)})
	}
	figure := func(fig, target string) {
		if len(out) > 0 {
			out[len(out)-1].Figure, out[len(out)-1].Target = fig, target
		}
	}
	if t := s.Targets.TotalGPUMemoryGiB; t != nil {
		if sp.memTotal == nil {
			add(DimMemory, NotScoredYet, decimal.Zero, "GPU memory unknown for %s: scored 0", sp.gpuName())
		} else {
			add(DimMemory, Scored, ratio(*sp.memTotal, *t), "%s GiB GPU memory of %s GiB target", sp.memTotal, t)
			figure(sp.memTotal.String()+" GiB", t.String()+" GiB")
		}
	}
	if t := s.Targets.Compute; t != nil {
		if v, terms, f, ok := sp.compute(s.Compute); ok {
			add(DimCompute, Scored, ratio(v, *t), "%s = %s %s of %s target", terms, v, f.Unit(), t)
			figure(v.String()+" "+f.Unit(), t.String()+" "+f.Unit())
		} else {
			add(DimCompute, NotScoredYet, decimal.Zero, "%s unknown for %s: scored 0", figureNames(s.Compute), sp.gpuName())
		}
	}
	if t := s.Targets.BandwidthGBs; t != nil {
		if sp.mapped && sp.model.BandwidthGBs != nil {
			add(DimBandwidth, Scored, ratio(*sp.model.BandwidthGBs, *t), "%s GB/s memory bandwidth per GPU of %s GB/s target", sp.model.BandwidthGBs, t)
			figure(sp.model.BandwidthGBs.String()+" GB/s", t.String()+" GB/s")
		} else {
			add(DimBandwidth, NotScoredYet, decimal.Zero, "memory bandwidth unknown for %s: scored 0", sp.gpuName())
		}
	}
	if s.Weights.Interconnect.IsPositive() {
		// The mean of the parts that apply: the GPU link (for more than one GPU),
		// network bandwidth (when the scenario sets a target), RDMA (when required
		// or preferred). An unknown part scores 0.
		var parts []string
		sum, n := decimal.Zero, 0
		unknown := false
		if sp.devices > 1 {
			n++
			switch sp.link {
			case "nvlink":
				sum = sum.Add(decimal.NewFromInt(1))
				parts = append(parts, "NVLink 1")
			case "pcie":
				parts = append(parts, "PCIe 0")
			default:
				unknown = true
				parts = append(parts, "NVLink unknown 0")
			}
		}
		if t := s.Targets.NetworkGbps; t != nil {
			n++
			if sp.t.NetworkGbps == nil {
				unknown = true
				parts = append(parts, "network unknown 0")
			} else {
				v := ratio(*sp.t.NetworkGbps, *t)
				sum = sum.Add(v)
				parts = append(parts, fmt.Sprintf("network %s/%s Gbps %s", sp.t.NetworkGbps, t, v))
			}
		}
		if s.Requires.RDMA || s.Prefer.RDMA {
			n++
			if sp.t.RDMA != "" {
				sum = sum.Add(decimal.NewFromInt(1))
				parts = append(parts, strings.ToUpper(sp.t.RDMA)+" 1")
			} else {
				parts = append(parts, "no RDMA 0")
			}
		}
		switch {
		case n == 0:
			add(DimInterconnect, NotApplicable, decimal.Zero, "not applicable: one GPU and no network target")
		default:
			st := Scored
			if unknown {
				st = NotScoredYet
			}
			add(DimInterconnect, st, sum.DivRound(decimal.NewFromInt(int64(n)), ScorePlaces), "mean of %s", strings.Join(parts, ", "))
		}
	}
	if s.Weights.Balance.IsPositive() {
		var parts []string
		sum, n := decimal.Zero, 0
		if p := s.Prefer.VCPUsPerGPU; p != nil {
			v := sp.perGPU(decimal.NewFromInt(int64(sp.t.VCPUs)))
			r := ratio(v, *p)
			sum, n = sum.Add(r), n+1
			parts = append(parts, fmt.Sprintf("%s/%s vCPU per GPU %s", v, p, r))
		}
		if p := s.Prefer.MemoryGiBPerGPU; p != nil {
			v := sp.perGPU(sp.t.MemoryGiB)
			r := ratio(v, *p)
			sum, n = sum.Add(r), n+1
			parts = append(parts, fmt.Sprintf("%s/%s GiB host memory per GPU %s", v, p, r))
		}
		if s.Prefer.LocalNVMe {
			n++
			if sp.t.LocalNVMe {
				sum = sum.Add(decimal.NewFromInt(1))
				parts = append(parts, "local NVMe 1")
			} else {
				parts = append(parts, "no local NVMe 0")
			}
		}
		add(DimBalance, Scored, sum.DivRound(decimal.NewFromInt(int64(n)), ScorePlaces), "mean of %s", strings.Join(parts, ", "))
	}
	return out
}

func figureNames(fs []Figure) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Label()
	}
	return strings.Join(names, ", ")
}

func preferenceWeaknesses(s Scenario, sp specs) []string {
	var out []string
	if p := s.Prefer.VCPUsPerGPU; p != nil {
		if v := sp.perGPU(decimal.NewFromInt(int64(sp.t.VCPUs))); v.LessThan(*p) {
			out = append(out, fmt.Sprintf("%s vCPU per GPU is low for %s (prefer %s)", v, orNone(s.Prefer.VCPUsFor, "data loading"), p))
		}
	}
	if p := s.Prefer.MemoryGiBPerGPU; p != nil {
		if v := sp.perGPU(sp.t.MemoryGiB); v.LessThan(*p) {
			out = append(out, fmt.Sprintf("%s GiB host memory per GPU is low for %s (prefer %s)", v, orNone(s.Prefer.MemoryFor, "staging data"), p))
		}
	}
	if s.Prefer.LocalNVMe && !sp.t.LocalNVMe {
		out = append(out, "no local NVMe for datasets and checkpoints")
	}
	if s.Prefer.RDMA && sp.t.RDMA == "" {
		out = append(out, "no RDMA/EFA: single node only")
	}
	return out
}

// bestWorkCost picks the offer's cost per unit of work for the scenario: the first
// of its workloads with a figure, measured before estimated, then the lowest cost,
// then the first run.
func bestWorkCost(s Scenario, offerKey string, costs []WorkCost) *WorkCost {
	for _, w := range s.Workloads {
		var best *WorkCost
		for i := range costs {
			c := &costs[i]
			if c.Workload != w || c.OfferKey != offerKey {
				continue
			}
			if best == nil || (c.Basis == Measured && best.Basis != Measured) ||
				(c.Basis == best.Basis && (c.CostPerUnit.LessThan(best.CostPerUnit) ||
					(c.CostPerUnit.Equal(best.CostPerUnit) && c.RunRef < best.RunRef))) {
				best = c
			}
		}
		if best != nil {
			c := *best
			return &c
		}
	}
	return nil
}

// priceUnit is what the offer's price is divided by for the price dimension.
func priceUnit(s Scenario, sp specs) (decimal.Decimal, string, bool) {
	switch s.PriceBasis {
	case PricePerInstance:
		return decimal.NewFromInt(1), "hour", true
	case PricePerGPU:
		return sp.units, "GPU-hour", sp.units.IsPositive()
	case PricePerGPUMem:
		if sp.memTotal == nil || !sp.memTotal.IsPositive() {
			return decimal.Zero, "GPU-memory-GiB-hour", false
		}
		return *sp.memTotal, "GPU-memory-GiB-hour", true
	}
	v, _, fig, ok := sp.compute(s.Compute)
	if !ok || !v.IsPositive() {
		return decimal.Zero, "compute-hour", false
	}
	return v, fig.Unit() + "-hour", true
}

// scoreAll adds the relative dimensions (price and work cost: the best candidate
// scores 1, others best/theirs) and computes every score and the strengths.
func scoreAll(s Scenario, cands []*OfferFit, sps []specs) {
	type pp struct {
		v    decimal.Decimal
		unit string
		ok   bool
	}
	prices := make([]pp, len(cands))
	var bestPrice *decimal.Decimal
	for i, f := range cands {
		if f.USDPerHour == nil || !f.USDPerHour.IsPositive() {
			continue
		}
		u, unit, ok := priceUnit(s, sps[i])
		if !ok {
			prices[i] = pp{unit: unit}
			continue
		}
		v := f.USDPerHour.DivRound(u, 8)
		prices[i] = pp{v, unit, true}
		if bestPrice == nil || v.LessThan(*bestPrice) {
			bestPrice = &v
		}
	}
	bestCost := map[string]decimal.Decimal{}
	for _, f := range cands {
		if c := f.WorkCost; c != nil && c.CostPerUnit.IsPositive() {
			if b, ok := bestCost[c.Workload]; !ok || c.CostPerUnit.LessThan(b) {
				bestCost[c.Workload] = c.CostPerUnit
			}
		}
	}
	for i, f := range cands {
		if s.Weights.Price.IsPositive() {
			d := DimensionScore{Dimension: DimPrice, Weight: s.Weights.Price}
			switch {
			case f.USDPerHour == nil:
				d.Status, d.Detail = NotScoredYet, "price in USD unknown (no FX rate or no hourly price): scored 0"
			case !prices[i].ok:
				d.Status, d.Detail = NotScoredYet, fmt.Sprintf("USD per %s unknown (%s unknown): scored 0", orNone(prices[i].unit, "unit"), s.PriceBasis)
			default:
				d.Status = Scored
				d.Value = bestPrice.DivRound(prices[i].v, ScorePlaces)
				d.Detail = fmt.Sprintf("%s USD per %s; best %s", prices[i].v, prices[i].unit, bestPrice)
				d.Figure = fmt.Sprintf("%s USD per %s, %s× the best", prices[i].v.Round(4), prices[i].unit, prices[i].v.DivRound(*bestPrice, 1).StringFixed(1))
			}
			f.Dimensions = append(f.Dimensions, d)
		}
		if s.Weights.WorkCost.IsPositive() {
			d := DimensionScore{Dimension: DimWorkCost, Weight: s.Weights.WorkCost}
			if c := f.WorkCost; c != nil && c.CostPerUnit.IsPositive() {
				b := bestCost[c.Workload]
				d.Status, d.Value = Scored, b.DivRound(c.CostPerUnit, ScorePlaces)
				d.Detail = fmt.Sprintf("%s %s %s (%s); best %s", c.Basis, c.CostPerUnit, c.UnitLabel, c.Workload, b)
				d.Figure = fmt.Sprintf("%s %s, %s", c.CostPerUnit, c.UnitLabel, c.Basis)
			} else {
				d.Status, d.Detail = NotApplicable, "no benchmark for "+strings.Join(s.Workloads, ", ")+": not scored"
			}
			f.Dimensions = append(f.Dimensions, d)
		}
		f.Score = weightedScore(f.Dimensions)
		for _, d := range f.Dimensions {
			switch {
			case d.Status == NotScoredYet:
				f.Unknowns = append(f.Unknowns, string(d.Dimension)+": "+d.Detail)
			case d.Status != Scored || d.Dimension == DimBalance:
				// Balance speaks through the preference weaknesses, which say which
				// figure falls short.
			case d.Value.GreaterThanOrEqual(strongAt):
				f.Strengths = append(f.Strengths, phrase(d, true))
			case d.Value.LessThan(weakBelow):
				f.Weaknesses = append(f.Weaknesses, phrase(d, false))
			}
		}
	}
}

// A dimension at or above strongAt is a strength, below weakBelow a weakness.
var (
	strongAt  = decimal.RequireFromString("0.8")
	weakBelow = decimal.RequireFromString("0.4")
)

// weightedScore is 100 × Σ weight×value / Σ weight over the dimensions that apply,
// rounded to 2 places.
func weightedScore(ds []DimensionScore) decimal.Decimal {
	num, den := decimal.Zero, decimal.Zero
	for _, d := range ds {
		if d.Status == NotApplicable {
			continue
		}
		num = num.Add(d.Weight.Mul(d.Value))
		den = den.Add(d.Weight)
	}
	if !den.IsPositive() {
		return decimal.Zero
	}
	return num.Mul(decimal.NewFromInt(100)).DivRound(den, 2)
}

func summary(f OfferFit) string {
	var b strings.Builder
	switch f.Verdict {
	case Fits:
		b.WriteString("fits: " + f.Hardware)
		if len(f.Strengths) > 0 {
			b.WriteString("; strengths: " + strings.Join(f.Strengths, ", "))
		}
	case MayFit:
		var unknown []string
		for _, c := range f.Checks {
			if c.Status == UnknownSpec {
				unknown = append(unknown, c.Detail)
			}
		}
		b.WriteString("may fit: " + f.Hardware + "; unknown: " + strings.Join(unknown, "; "))
		return b.String() + weaknessText(f.Weaknesses)
	default:
		var fails []string
		for _, c := range f.Checks {
			if c.Status == Fail {
				fails = append(fails, c.Detail)
			}
		}
		return "does not fit: " + strings.Join(fails, "; ")
	}
	return b.String() + weaknessText(f.Weaknesses)
}

func weaknessText(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return "; weakness: " + ws[0]
	}
	return "; weaknesses: " + strings.Join(ws, "; ")
}

// Describe lists the requirements in words, for the scenario's page and the CLI:
// "at least 8 GPUs", "NVLink between GPUs".
func (r Requirements) Describe() []string {
	var out []string
	add := func(v *decimal.Decimal, format string) {
		if v != nil {
			out = append(out, fmt.Sprintf(format, v))
		}
	}
	if len(r.AcceleratorKinds) > 0 {
		ks := make([]string, len(r.AcceleratorKinds))
		for i, k := range r.AcceleratorKinds {
			ks[i] = string(k)
		}
		out = append(out, "accelerator: "+strings.Join(ks, " or "))
	}
	add(r.MinGPUs, "at least %s GPUs")
	if r.MaxGPUs != nil && r.MaxGPUs.Equal(decimal.NewFromInt(1)) {
		out = append(out, "at most 1 GPU")
	} else {
		add(r.MaxGPUs, "at most %s GPUs")
	}
	add(r.MinGPUMemoryGiB, "at least %s GiB per GPU")
	add(r.MinTotalGPUMemoryGiB, "at least %s GiB GPU memory in all")
	add(r.MinGPUMemoryBandwidth, "at least %s GB/s memory bandwidth per GPU")
	add(r.MinFP64TFLOPS, "at least %s FP64 TFLOPS in all")
	if r.NVLink {
		out = append(out, "NVLink between GPUs (when more than one)")
	}
	add(r.MinNVENC, "at least %s hardware video encoders (NVENC)")
	if r.RDMA {
		out = append(out, "RDMA/EFA for multi-node traffic")
	}
	add(r.MinNetworkGbps, "at least %s Gbps network")
	add(r.MinVCPUsPerGPU, "at least %s vCPU per GPU")
	add(r.MinMemoryGiBPerGPU, "at least %s GiB host memory per GPU")
	if r.LocalNVMe {
		out = append(out, "local NVMe")
	}
	return out
}

// phrase is a dimension as a short strength or weakness: "low compute (31.24 of
// 100 TFLOPS)", "price: 3.2x the best per TFLOPS-hour".
func phrase(d DimensionScore, strong bool) string {
	words := map[Dimension][2]string{
		DimMemory:       {"little GPU memory", "ample GPU memory"},
		DimCompute:      {"low compute", "high compute"},
		DimBandwidth:    {"low memory bandwidth", "high memory bandwidth"},
		DimInterconnect: {"weak interconnect", "strong interconnect"},
		DimBalance:      {"unbalanced CPU/memory per GPU", "balanced CPU/memory per GPU"},
		DimPrice:        {"expensive", "good price"},
		DimWorkCost:     {"costly per unit of work", "low cost per unit of work"},
	}[d.Dimension]
	w := words[0]
	if strong {
		w = words[1]
	}
	switch {
	case d.Figure != "" && d.Target != "":
		return fmt.Sprintf("%s (%s of %s)", w, d.Figure, d.Target)
	case d.Figure != "":
		return fmt.Sprintf("%s (%s)", w, d.Figure)
	}
	return w
}
