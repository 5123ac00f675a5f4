package catalog

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// Provider is the id of a cloud: aws, alibaba, tencent, huawei, volcengine.
type Provider string

// The providers GPU Atlas knows. These ids are a public contract (exports, URLs).
const (
	AWS        Provider = "aws"
	Alibaba    Provider = "alibaba"
	Tencent    Provider = "tencent"
	Huawei     Provider = "huawei"
	Volcengine Provider = "volcengine"
)

// Providers lists every known provider in display order.
var Providers = []Provider{AWS, Alibaba, Tencent, Huawei, Volcengine}

// ParseProvider checks that s names a known provider.
func ParseProvider(s string) (Provider, error) {
	for _, p := range Providers {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown provider %s (known: aws, alibaba, tencent, huawei, volcengine)", Excerpt(s))
}

// BillingKind is how an offer is paid for. The values are a public contract: they
// appear as the billing column of the exports.
type BillingKind string

// Billing kinds.
const (
	OnDemand             BillingKind = "on_demand"
	Spot                 BillingKind = "spot"
	Reserved1yNoUpfront  BillingKind = "reserved_1y_no_upfront"
	Reserved1yAllUpfront BillingKind = "reserved_1y_all_upfront"
	Reserved3yNoUpfront  BillingKind = "reserved_3y_no_upfront"
	Reserved3yAllUpfront BillingKind = "reserved_3y_all_upfront"
	SubscriptionMonth    BillingKind = "subscription_month"
	SubscriptionYear     BillingKind = "subscription_year"
)

// BillingKinds lists every billing kind in display order.
var BillingKinds = []BillingKind{OnDemand, Spot, Reserved1yNoUpfront, Reserved1yAllUpfront,
	Reserved3yNoUpfront, Reserved3yAllUpfront, SubscriptionMonth, SubscriptionYear}

// ParseBillingKind checks that s names a known billing kind.
func ParseBillingKind(s string) (BillingKind, error) {
	for _, b := range BillingKinds {
		if string(b) == s {
			return b, nil
		}
	}
	return "", fmt.Errorf("unknown billing kind %q", s)
}

// TermHours is the length of the commitment a billing kind implies, in hours: the
// period an upfront payment is spread over. Zero for pay-as-you-go kinds.
func (b BillingKind) TermHours() decimal.Decimal {
	switch b {
	case Reserved1yNoUpfront, Reserved1yAllUpfront, SubscriptionYear:
		return HoursPerYear
	case Reserved3yNoUpfront, Reserved3yAllUpfront:
		return HoursPerYear.Mul(decimal.NewFromInt(3))
	case SubscriptionMonth:
		return HoursPerMonth
	}
	return decimal.Zero
}

// Availability says whether an offer can be bought now.
type Availability string

// Availability values.
const (
	Available Availability = "available"
	SoldOut   Availability = "sold_out"
	Unknown   Availability = "unknown"
)

// AcceleratorKind says what sort of device an accelerator is.
type AcceleratorKind string

// Accelerator kinds, as AWS separates them in DescribeInstanceTypes.
const (
	KindGPU       AcceleratorKind = "gpu"
	KindNPU       AcceleratorKind = "npu" // AWS Neuron (Inferentia2, Trainium), Huawei Ascend
	KindInference AcceleratorKind = "inference"
	KindFPGA      AcceleratorKind = "fpga"
	KindMedia     AcceleratorKind = "media"
)

// Accelerator is one kind of device attached to an instance type.
//
// Count is the number of devices the instance sees. Share is the fraction of one
// physical device each of them is (1 for a whole GPU; 0.125 for an AWS g6f.large
// L4 slice; 1/12 for Alibaba's A10*1/12 vGPU). Model is the canonical GPU model id,
// empty when the provider's name has no mapping (the name is then also listed in the
// snapshot's Unmapped list, never dropped).
type Accelerator struct {
	Kind         AcceleratorKind `json:"kind"`
	Model        string          `json:"model"`
	Name         string          `json:"name"`
	Manufacturer string          `json:"manufacturer,omitempty"`
	Count        int             `json:"count"`
	Share        decimal.Decimal `json:"share"`
	MemoryGiB    decimal.Decimal `json:"memory_gib"` // per device as the instance sees it
	// MappingConfidence is certain, likely or uncertain, from the alias table.
	MappingConfidence string `json:"mapping_confidence,omitempty"`
}

// Units is the number of whole-device equivalents: Count × Share.
func (a Accelerator) Units() decimal.Decimal {
	return decimal.NewFromInt(int64(a.Count)).Mul(a.Share)
}

// TotalMemoryGiB is the accelerator memory the instance sees in all.
func (a Accelerator) TotalMemoryGiB() decimal.Decimal {
	return a.MemoryGiB.Mul(decimal.NewFromInt(int64(a.Count)))
}

// InstanceType is one provider's instance type (flavor) with the facts its API gives.
type InstanceType struct {
	Provider     Provider        `json:"provider"`
	ID           string          `json:"id"`
	Family       string          `json:"family"`
	VCPUs        int             `json:"vcpus"`
	MemoryGiB    decimal.Decimal `json:"memory_gib"`
	CPUArch      string          `json:"cpu_arch,omitempty"`   // x86_64, arm64
	CPUVendor    string          `json:"cpu_vendor,omitempty"` // Intel, AMD, AWS
	Accelerators []Accelerator   `json:"accelerators"`
	// Interconnect is nvlink or pcie where the provider or the GPU reference says.
	Interconnect string `json:"interconnect,omitempty"`
	// LocalStorageGB is the instance store (local disk) in GB, and NVMe whether it is.
	LocalStorageGB int              `json:"local_storage_gb,omitempty"`
	LocalNVMe      bool             `json:"local_nvme,omitempty"`
	Network        string           `json:"network,omitempty"` // as published: "100 Gigabit", "Up to 25 Gigabit"
	NetworkGbps    *decimal.Decimal `json:"network_gbps,omitempty"`
	// RDMA is the RDMA fabric the type supports: efa, rdma, eRDMA or empty.
	RDMA       string `json:"rdma,omitempty"`
	Generation string `json:"generation"` // current or previous
	BareMetal  bool   `json:"bare_metal,omitempty"`
	Source     string `json:"source"`
	Synthetic  bool   `json:"synthetic,omitempty"`
}

// Key is provider/id, unique in a snapshot.
func (t InstanceType) Key() string { return string(t.Provider) + "/" + t.ID }

// GPUUnits is the total of whole-GPU equivalents over all accelerators.
func (t InstanceType) GPUUnits() decimal.Decimal {
	n := decimal.Zero
	for _, a := range t.Accelerators {
		n = n.Add(a.Units())
	}
	return n
}

// GPUMemoryGiB is the accelerator memory of the whole instance.
func (t InstanceType) GPUMemoryGiB() decimal.Decimal {
	n := decimal.Zero
	for _, a := range t.Accelerators {
		n = n.Add(a.TotalMemoryGiB())
	}
	return n
}

// PrimaryAccelerator is the first accelerator, which is the only one on every type
// seen so far; ok is false for a type without accelerators.
func (t InstanceType) PrimaryAccelerator() (Accelerator, bool) {
	if len(t.Accelerators) == 0 {
		return Accelerator{}, false
	}
	return t.Accelerators[0], true
}

// DeviceCount is the number of accelerator devices an instance type has (whole or
// partitioned): the most GPUs a run on it can use.
func (t InstanceType) DeviceCount() int {
	n := 0
	for _, a := range t.Accelerators {
		n += a.Count
	}
	return n
}

// Offer is one way to buy an instance type: in a region (and zone where the price
// or stock is per zone), with a billing kind and a price.
type Offer struct {
	Provider     Provider     `json:"provider"`
	InstanceType string       `json:"instance_type"`
	Region       string       `json:"region"`
	Zone         string       `json:"zone,omitempty"` // empty: the price holds for the whole region
	Billing      BillingKind  `json:"billing"`
	Price        Price        `json:"price"`
	Availability Availability `json:"availability"`
	// Zones lists the zones a regional offer can be launched in, where known.
	Zones []string `json:"zones,omitempty"`
	// Includes says what the quoted price covers besides the instance (e.g. "40 GiB
	// ESSD system disk"); empty means the instance alone.
	Includes  string    `json:"includes,omitempty"`
	Source    string    `json:"source"`
	FetchedAt time.Time `json:"fetched_at"`
	// Synthetic marks a price that is not a real published price (no public data
	// exists for the provider); the site and exports show it as such.
	Synthetic bool `json:"synthetic,omitempty"`
	// Suspect is set when a plausibility check found the price implausible; it
	// holds the reason. Suspect prices are shown as such, never as fact.
	Suspect string `json:"suspect,omitempty"`
}

// Key identifies an offer within a snapshot.
func (o Offer) Key() string {
	return string(o.Provider) + "/" + o.InstanceType + "/" + o.Region + "/" + o.Zone + "/" + string(o.Billing)
}

// InstanceKey is the key of the offer's instance type.
func (o Offer) InstanceKey() string { return string(o.Provider) + "/" + o.InstanceType }

// Placement says an instance type can be launched in a zone, and whether it is in
// stock there (AWS DescribeInstanceTypeOfferings, Alibaba DescribeAvailableResource,
// Tencent DescribeZoneInstanceConfigInfos).
type Placement struct {
	Provider     Provider     `json:"provider"`
	InstanceType string       `json:"instance_type"`
	Region       string       `json:"region"`
	Zone         string       `json:"zone"`
	Status       Availability `json:"status"`
}

// Key identifies a placement within a snapshot.
func (p Placement) Key() string {
	return string(p.Provider) + "/" + p.InstanceType + "/" + p.Region + "/" + p.Zone
}

// Region is a provider's region with display names and a cross-cloud geo key, so
// that Alibaba cn-shanghai, Tencent ap-shanghai and Volcano Engine cn-shanghai can be
// put side by side.
type Region struct {
	Provider Provider `json:"provider"`
	ID       string   `json:"id"`
	NameEN   string   `json:"name_en"`
	NameZH   string   `json:"name_zh"`
	Country  string   `json:"country"`
	City     string   `json:"city"`
	Geo      string   `json:"geo"`
}

// Key is provider/id.
func (r Region) Key() string { return string(r.Provider) + "/" + r.ID }

// CoverageStatus summarises how complete a provider's data in a snapshot is.
type CoverageStatus string

// Coverage statuses.
const (
	CoverageOK      CoverageStatus = "ok"
	CoveragePartial CoverageStatus = "partial"
	CoverageStale   CoverageStatus = "stale"
	CoverageSkipped CoverageStatus = "skipped"
	// CoverageFailed: the crawl failed and no earlier data exists to keep.
	CoverageFailed CoverageStatus = "failed"
)

// RegionFailure records a region whose crawl failed and why.
type RegionFailure struct {
	Region string `json:"region"`
	Reason string `json:"reason"`
}

// Coverage is what one provider's crawl achieved.
type Coverage struct {
	Provider      Provider        `json:"provider"`
	Status        CoverageStatus  `json:"status"`
	Regions       int             `json:"regions"` // regions crawled successfully
	FailedRegions []RegionFailure `json:"failed_regions,omitempty"`
	// Message explains a skipped or stale provider ("no credentials", the error).
	Message string `json:"message,omitempty"`
	// LastOK is when the data was last confirmed by a successful crawl.
	LastOK    time.Time `json:"last_ok"`
	Requests  int       `json:"requests,omitempty"`
	Synthetic bool      `json:"synthetic,omitempty"`
	// Sources names the data the crawl read (API endpoints, fixture provenance).
	Sources []string `json:"sources,omitempty"`
}

// UnmappedAccelerator is a provider's accelerator name that has no GPU model in
// the reference; reported in coverage and the crawl's output, never dropped.
type UnmappedAccelerator struct {
	Provider      Provider `json:"provider"`
	Name          string   `json:"name"`
	InstanceTypes []string `json:"instance_types"`
}
