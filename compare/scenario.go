package compare

import (
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Scenario is one use of GPUs (LLM training, video transcoding, …) as defined in
// data/scenarios.yaml: what an instance must have to do it at all (Requires), what
// makes it comfortable (Prefer), the figures that count as "full marks" (Targets)
// and how much each aspect weighs in the score (Weights).
type Scenario struct {
	ID       string `yaml:"id" json:"id"`
	Name     string `yaml:"name" json:"name"`
	NameZH   string `yaml:"name_zh" json:"name_zh"`
	Category string `yaml:"category" json:"category"` // training, inference, rendering, video, hpc, dev
	// Description and DescriptionZH say what the scenario is, in English and in
	// Chinese; the loader requires both.
	Description   string `yaml:"description" json:"description"`
	DescriptionZH string `yaml:"description_zh" json:"description_zh"`
	// Compute lists the throughput figures the scenario runs on, in order of
	// preference: the first one the GPU reference gives is used for the compute
	// score, the price basis "compute" and speeds from specs.
	Compute []Figure `yaml:"compute" json:"compute"`
	// Workloads are benchmark workloads (data/workloads.csv) whose cost per unit of
	// work scores the work_cost dimension, in order of preference: a workload id,
	// or for a published benchmark its id and scenario (WorkKey,
	// "mlperf-llama2-70b@Offline").
	Workloads  []string     `yaml:"workloads" json:"workloads,omitempty"`
	PriceBasis PriceBasis   `yaml:"price_basis" json:"price_basis"`
	Requires   Requirements `yaml:"requires" json:"requires"`
	Prefer     Preferences  `yaml:"prefer" json:"prefer"`
	Targets    Targets      `yaml:"targets" json:"targets"`
	Weights    Weights      `yaml:"weights" json:"weights"`
	// Interruptible says the work survives an interruption: it checkpoints
	// (training) or its items can be redone (batch inference, rendering), so
	// spot offers suit it and the scenario report ranks it on spot too, at the
	// risk-adjusted price (ScenarioReport.Spot). False when absent.
	Interruptible bool `yaml:"interruptible" json:"interruptible,omitempty"`
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
	// Training asks for hardware its maker offers for training; NativePrecision
	// (bf16 or fp8) for hardware that computes in that format natively. Both
	// read the GPU reference's capability facts (compare.CapabilityMiss).
	Training        bool      `yaml:"training" json:"training,omitempty"`
	NativePrecision Precision `yaml:"native_precision" json:"native_precision,omitempty"`
}

// Preferences are soft: falling short is a weakness (vcpus_per_gpu_low …) and
// lowers the balance score, never a reason not to fit.
type Preferences struct {
	VCPUsPerGPU *decimal.Decimal `yaml:"vcpus_per_gpu" json:"vcpus_per_gpu,omitempty"`
	// VCPUsFor says what the vCPUs are for ("data loading"), in English and in
	// Chinese: the "for" figure of vcpus_per_gpu_low ("12 vCPU per GPU is low
	// for data loading"). Both are required with VCPUsPerGPU.
	VCPUsFor        string           `yaml:"vcpus_for" json:"vcpus_for,omitempty"`
	VCPUsForZH      string           `yaml:"vcpus_for_zh" json:"vcpus_for_zh,omitempty"`
	MemoryGiBPerGPU *decimal.Decimal `yaml:"memory_gib_per_gpu" json:"memory_gib_per_gpu,omitempty"`
	// MemoryFor and MemoryForZH likewise for host memory ("staging data").
	MemoryFor   string `yaml:"memory_for" json:"memory_for,omitempty"`
	MemoryForZH string `yaml:"memory_for_zh" json:"memory_for_zh,omitempty"`
	LocalNVMe   bool   `yaml:"local_nvme" json:"local_nvme,omitempty"`
	RDMA        bool   `yaml:"rdma" json:"rdma,omitempty"`
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
	PricePerGPUMem   PriceBasis = "gpu_memory" // USD per GPU-memory-GB-hour (by the datasheet class)
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
