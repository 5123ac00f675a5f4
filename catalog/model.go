package catalog

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Provider is the id of a cloud: aws, alibaba, tencent, huawei, volcengine,
// azure, gcp.
type Provider string

// The providers GPU Atlas knows. These ids are a public contract (exports, URLs).
const (
	AWS        Provider = "aws"
	Alibaba    Provider = "alibaba"
	Tencent    Provider = "tencent"
	Huawei     Provider = "huawei"
	Volcengine Provider = "volcengine"
	Azure      Provider = "azure"
	GCP        Provider = "gcp"
)

// Providers lists every known provider in display order.
var Providers = []Provider{AWS, Alibaba, Tencent, Huawei, Volcengine, Azure, GCP}

// ParseProvider checks that s names a known provider.
func ParseProvider(s string) (Provider, error) {
	for _, p := range Providers {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown provider %s (known: aws, alibaba, tencent, huawei, volcengine, azure, gcp)", Excerpt(s))
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
	// MemoryGiB is the memory of one device as the provider reports it: usable
	// memory, so an A10G reads 22.35 GiB. When the provider gives none, it is the
	// GPU reference's figure and MemoryFromReference is set (see Reconcile).
	MemoryGiB decimal.Decimal `json:"memory_gib"`
	// MemoryFromReference says MemoryGiB was missing from the provider's data
	// and filled from the GPU reference.
	MemoryFromReference bool `json:"memory_from_reference,omitempty"`
	// NominalMemoryGB is the GPU reference's memory class of one device as the
	// instance sees it: the model's memory as the vendor states it (A10G: 24)
	// times Share. Nil when the device is unmapped or the reference gives no
	// memory. Scenario rules and filters use it (RuleMemoryGiB).
	NominalMemoryGB *decimal.Decimal `json:"nominal_memory_gb,omitempty"`
	// MappingConfidence is certain, likely or uncertain, from the alias table.
	MappingConfidence string `json:"mapping_confidence,omitempty"`
}

// RuleMemoryGiB is the memory of one device that scenario rules, tiers and the
// explorer's gpu_memory filter use: the reference's nominal class where the
// reference knows the model (24 for an A10G that reports 22.35 GiB usable; 96 for
// a Trainium2 whatever the provider says), else what the provider reports. Zero
// is unknown. The nominal class is the vendor's figure, compared with GiB
// thresholds as it stands: the difference between a vendor's GB and the usable
// GiB a provider reports is what the class exists to hide.
func (a Accelerator) RuleMemoryGiB() decimal.Decimal {
	if a.NominalMemoryGB != nil && a.NominalMemoryGB.IsPositive() {
		return *a.NominalMemoryGB
	}
	return a.MemoryGiB
}

// UsableDiffers reports whether the provider's own figure differs from the
// nominal class, so that both are worth showing ("24 GB, 22.35 GiB usable").
func (a Accelerator) UsableDiffers() bool {
	return a.NominalMemoryGB != nil && a.MemoryGiB.IsPositive() && !a.MemoryFromReference &&
		!a.MemoryGiB.Round(2).Equal(a.NominalMemoryGB.Round(2))
}

// Units is the number of whole-device equivalents: Count × Share.
func (a Accelerator) Units() decimal.Decimal {
	return decimal.NewFromInt(int64(a.Count)).Mul(a.Share)
}

// vGPUFamilies are instance family prefixes a provider documents as vGPU
// families (Alibaba ECS documentation, "vGPU-accelerated instance families":
// sgn and vgn families). The alias table gives their slices' shares where it
// maps the device (sgn8ga-wy's RTX 5880 by memory: 1/4 is 12 GB); a device
// it cannot map (sgn8ia's "v8-2G" … "v8-48G") has no share it can tell, so
// it is not taken for a whole GPU.
var vGPUFamilies = map[Provider][]string{"alibaba": {"ecs.sgn", "ecs.vgn"}}

// Partial reports a type whose accelerators include a slice of a device: a
// share below 1 (a vGPU or a partitioned GPU), or an unmapped device of a
// documented vGPU family (share unknown). The explorer and gpuatlas find
// leave them out unless asked, so that a 2 GB slice is not the answer to
// "the cheapest GPU".
func (it InstanceType) Partial() bool {
	for _, a := range it.Accelerators {
		if a.Share.IsPositive() && a.Share.LessThan(decimal.NewFromInt(1)) {
			return true
		}
		if a.Model == "" && inVGPUFamily(it) {
			return true
		}
	}
	return false
}

func inVGPUFamily(it InstanceType) bool {
	for _, p := range vGPUFamilies[it.Provider] {
		if strings.HasPrefix(it.Family, p) {
			return true
		}
	}
	return false
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
	// Interconnect is how the type's accelerators talk to each other (LinkKinds:
	// nvswitch, nvlink, neuronlink, pcie, other) where the provider's API or its
	// documentation (data/interconnect.csv) says; empty is unknown.
	Interconnect string `json:"interconnect,omitempty"`
	// InterconnectBandwidth is the link's bandwidth per accelerator as the
	// provider states it, in InterconnectUnit (GB/s or GiB/s); nil where the
	// documentation gives no figure.
	InterconnectBandwidth *decimal.Decimal `json:"interconnect_bandwidth,omitempty"`
	InterconnectUnit      string           `json:"interconnect_unit,omitempty"`
	// InterconnectSource is the documentation the link comes from, with its date.
	InterconnectSource string `json:"interconnect_source,omitempty"`
	// LocalStorageGB is the instance store (local disk) in GB, and NVMe whether it is.
	LocalStorageGB int    `json:"local_storage_gb,omitempty"`
	LocalNVMe      bool   `json:"local_nvme,omitempty"`
	Network        string `json:"network,omitempty"` // as published: "3200 Gigabit", "4x 100 Gigabit", "Up to 25 Gigabit"
	// NetworkGbps is the network bandwidth of the whole instance in Gbit/s, all
	// its network cards together (AWS p5.48xlarge: 3200, not one card's 100); for
	// "Up to" figures, the burst figure. Scenario rules (min_network_gbps, the
	// network target) use it. Nil when unknown.
	NetworkGbps *decimal.Decimal `json:"network_gbps,omitempty"`
	// NetworkCards lists the instance's network cards with their own peak
	// bandwidth, where the provider describes them (AWS NetworkInfo.NetworkCards).
	NetworkCards []NetworkCard `json:"network_cards,omitempty"`
	// RDMA is the RDMA fabric the type supports: efa, rdma, eRDMA or empty.
	RDMA string `json:"rdma,omitempty"`
	// EFAInterfaces is the most Elastic Fabric Adapter interfaces the type takes
	// (AWS EfaInfo.MaximumEfaInterfaces); zero without EFA or where unknown.
	EFAInterfaces int    `json:"efa_interfaces,omitempty"`
	Generation    string `json:"generation"` // current or previous
	BareMetal     bool   `json:"bare_metal,omitempty"`
	Source        string `json:"source"`
	Synthetic     bool   `json:"synthetic,omitempty"`
	// Conflicts lists the specs where the provider and the GPU reference
	// disagree beyond rounding (see Reconcile); rules use the reference's figure.
	Conflicts []SpecConflict `json:"conflicts,omitempty"`
}

// NetworkCard is one network card of an instance type.
type NetworkCard struct {
	Index        int             `json:"index"`
	PeakGbps     decimal.Decimal `json:"peak_gbps"`
	BaselineGbps decimal.Decimal `json:"baseline_gbps"`
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

// GPUMemoryGiB is the accelerator memory of the whole instance as the provider
// reports it (usable), with figures the provider left out filled from the
// reference.
func (t InstanceType) GPUMemoryGiB() decimal.Decimal {
	n := decimal.Zero
	for _, a := range t.Accelerators {
		n = n.Add(a.TotalMemoryGiB())
	}
	return n
}

// RuleGPUMemoryGiB is the accelerator memory of the whole instance by the
// nominal class (Accelerator.RuleMemoryGiB): what scenario rules and filters use.
func (t InstanceType) RuleGPUMemoryGiB() decimal.Decimal {
	n := decimal.Zero
	for _, a := range t.Accelerators {
		n = n.Add(a.RuleMemoryGiB().Mul(decimal.NewFromInt(int64(a.Count))))
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
	Provider     Provider    `json:"provider"`
	InstanceType string      `json:"instance_type"`
	Region       string      `json:"region"`
	Zone         string      `json:"zone,omitempty"` // empty: the price holds for the whole region
	Billing      BillingKind `json:"billing"`
	Price        Price       `json:"price"`
	// PriceRange is the band the source gives around Price, where it gives one
	// (the AWS spot figures of the embedded catalog are a regional average
	// with the dataset's minimum and maximum): same currency and unit.
	PriceRange   *PriceRange  `json:"price_range,omitempty"`
	Availability Availability `json:"availability"`
	// Zones lists the zones a regional offer can be launched in, where known.
	Zones []string `json:"zones,omitempty"`
	// Includes says what the quoted price covers besides the instance (e.g. "40 GiB
	// ESSD system disk"); empty means the instance alone.
	Includes string `json:"includes,omitempty"`
	Source   string `json:"source"`
	// FetchedAt is when GPU Atlas retrieved the price (the crawl, or the day
	// the public data behind the embedded catalog was copied).
	FetchedAt time.Time `json:"fetched_at"`
	// ObservedAt is when the source says the price held: the crawl's time in a
	// live crawl (the API answered with it then), the date of a dataset or a
	// report otherwise; zero (omitted) where the source gives no date. Ages on
	// the site and staleness in `gpuatlas check` count from it.
	ObservedAt time.Time `json:"observed_at,omitzero"`
	// Synthetic marks a price that is not a real published price (no public data
	// exists for the provider); the site and exports show it as such.
	Synthetic bool `json:"synthetic,omitempty"`
	// Reported marks a price that no API or price list gave but a person
	// reported from the provider's console or purchase page; Source names the
	// report. It is real but unconfirmed, and always labelled.
	Reported bool `json:"reported,omitempty"`
	// Estimated marks a price that no source observed but was derived from
	// another (AWS spot: on-demand less the Spot Instance Advisor's average
	// saving). It is labelled as estimated in every output and never leads an
	// answer while an observed price exists for the same question (Observed,
	// PreferObserved).
	Estimated bool `json:"estimated,omitempty"`
	// Suspect is set when a plausibility check found the price implausible; it
	// holds the reason. Suspect prices are shown as such, never as fact.
	Suspect string `json:"suspect,omitempty"`
	// Interruption is what AWS's Spot Instance Advisor says of a spot offer's
	// type in its region (band and saving, dated); nil where it says nothing
	// (InterruptionStatus tells "no data" from "not published").
	Interruption *Interruption `json:"interruption,omitempty"`
	// Parts are what the price is made of where the provider prices a type in
	// parts (Google Cloud: the machine's vCPUs and memory, and its
	// accelerators), in the price's currency and unit; they add up to its
	// amount (Validate).
	Parts []PricePart `json:"parts,omitempty"`
}

// PricePart is one part of an offer's price.
type PricePart struct {
	Part   string          `json:"part"` // PartMachine or PartAccelerators
	Amount decimal.Decimal `json:"amount"`
}

// The parts of a price. The values are a public contract (the API).
const (
	PartMachine      = "machine"
	PartAccelerators = "accelerators"
)

// PriceRange is the lowest and highest price a source gives for an offer over
// its window (AWS spot: linux_spot_min and linux_spot_max of the dataset).
type PriceRange struct {
	Min decimal.Decimal `json:"min"`
	Max decimal.Decimal `json:"max"`
}

// Plausible reports whether the offer passed the plausibility rules
// (FlagImplausible). Only a plausible offer may lead an answer: a "from"
// price, a cheapest offer, a ranking entry or a TCO preset.
func (o Offer) Plausible() bool { return o.Suspect == "" }

// Leads reports whether the offer may lead a buyer's first answer: a "from"
// price, a cheapest offer, a ranking entry or a TCO preset. It must be
// plausible, not reported (read by a person from a purchase page: real,
// but unverified) and not estimated (derived from another price, not
// observed): every cheapest, "from" and default answer therefore rests on an
// observed price, and an estimate comes after every observed price of the
// same question. Such offers are still shown, marked. (A made-up offer is
// never published: `gpuatlas check` fails on one; test catalogs use them.)
func (o Offer) Leads() bool { return o.Plausible() && !o.Reported && !o.Estimated }

// Observed reports whether the price was observed at its source rather than
// estimated (Estimated).
func (o Offer) Observed() bool { return !o.Estimated }

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
	Zone         string       `json:"zone"` // empty: listed in the region, the source names no zone (Azure)
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

// CountryChina is the ISO 3166-1 code of China. A region in Hong Kong, Macao or
// Taiwan has its own code (HK, MO, TW), so "mainland China" is exactly the
// regions with country CN.
const CountryChina = "CN"

// Mainland reports whether the region is in mainland China (country CN, which
// excludes Hong Kong, Macao and Taiwan): what a country:cn filter selects.
func (r Region) Mainland() bool { return r.Country == CountryChina }

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

// NoPublicData is the coverage message of a provider whose catalog cannot be
// read without an account and that has not been crawled with one: its adapter
// is ready, and nothing public exists to fill the catalog with.
const NoPublicData = "adapter ready; no public catalog data; add credentials to crawl it"

// RegionFailure records a region whose crawl failed and why.
type RegionFailure struct {
	Region string `json:"region"`
	Reason string `json:"reason"`
}

// TypeFailure records an instance type whose offers in a region are
// incomplete: its price calls failed, after retries and the end-of-crawl
// sweep, while the rest of the region was crawled. Only its offers are kept
// from the previous snapshot (MergeCrawl), marked stale by this record.
type TypeFailure struct {
	Region       string `json:"region"`
	InstanceType string `json:"instance_type"`
	Reason       string `json:"reason"`
	// LastConfirmed is when the offers kept for the type were fetched (the
	// latest of them); zero when there were none to keep.
	LastConfirmed time.Time `json:"last_confirmed,omitzero"`
}

// Key identifies the failure's instance type in its region.
func (f TypeFailure) Key() string { return f.Region + "/" + f.InstanceType }

// Coverage is what one provider's crawl achieved.
type Coverage struct {
	Provider      Provider        `json:"provider"`
	Status        CoverageStatus  `json:"status"`
	Regions       int             `json:"regions"` // regions crawled successfully
	FailedRegions []RegionFailure `json:"failed_regions,omitempty"`
	// FailedTypes are the instance types whose offers are incomplete in a
	// region that was otherwise crawled (the status is then partial).
	FailedTypes []TypeFailure `json:"failed_types,omitempty"`
	// Message explains a skipped or stale provider ("no credentials", the error).
	Message string `json:"message,omitempty"`
	// Warnings say what an optional enrichment could not add to data that is
	// otherwise complete (the AWS spot bands when the Spot Instance Advisor
	// feed could not be fetched); they leave the status as it is.
	Warnings []string `json:"warnings,omitempty"`
	// LastOK is when the data was last confirmed by a successful crawl.
	LastOK   time.Time `json:"last_ok"`
	Requests int       `json:"requests,omitempty"`
	// Faults are the attempts that failed transiently (throttled, 5xx,
	// resets, timeouts) and were retried or given up on; Throttled those of
	// them the provider answered with its throttling error; Retries the
	// attempts after a call's first; Swept the calls made again at the end of
	// the provider's crawl. Like Requests, they say how hard the crawl had to
	// try, not what it found.
	Faults    int  `json:"faults,omitempty"`
	Throttled int  `json:"throttled,omitempty"`
	Retries   int  `json:"retries,omitempty"`
	Swept     int  `json:"swept,omitempty"`
	Synthetic bool `json:"synthetic,omitempty"`
	// Sources names the data the crawl read (API endpoints, fixture provenance).
	Sources []string `json:"sources,omitempty"`
}

// KeptStale says whether an offer of the coverage's provider is kept from an
// earlier crawl rather than confirmed by this one: the provider is stale, the
// offer's region failed, or its type's calls failed in its region and the offer
// is one of those kept (fetched no later than the type was last confirmed).
func (c Coverage) KeptStale(o Offer) bool {
	switch c.Status {
	case CoverageStale:
		return true
	case CoveragePartial:
	default:
		return false
	}
	for _, f := range c.FailedRegions {
		if f.Region == o.Region {
			return true
		}
	}
	for _, f := range c.FailedTypes {
		if f.Region == o.Region && f.InstanceType == o.InstanceType && !f.LastConfirmed.IsZero() && !o.FetchedAt.After(f.LastConfirmed) {
			return true
		}
	}
	return false
}

// UnmappedAccelerator is a provider's accelerator name that has no GPU model in
// the reference; reported in coverage and the crawl's output, never dropped.
type UnmappedAccelerator struct {
	Provider      Provider `json:"provider"`
	Name          string   `json:"name"`
	InstanceTypes []string `json:"instance_types"`
}
