package azure

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The Resource SKUs API gives a size's vCPUs, memory and GPU count
// (capability "GPUs") but no GPU model, and its count is not always the
// number of whole GPUs: a size with a partition of one GPU (NVv4, NVadsA10 v5,
// NVads V710 v5, NGads V620) says 1, and AMD GPUs are often not counted at all
// (0). The model, the share of a partition and the count where the API says
// 0 come from the size's name, by the size-series pages of Microsoft Learn
// (docSeries + the page), read on docDate.
const (
	docSeries = "https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/"
	docDate   = "2026-12-04"
)

// series is one GPU size series: the sizes its pattern matches, their
// accelerator as GPU Atlas names it (Name: the vendor's spelling; Model: the
// GPU reference id, empty where the reference has no row for it) and the
// sizes whose devices differ from one whole GPU each.
type series struct {
	pattern *regexp.Regexp
	page    string // the Microsoft Learn page (after docSeries)
	kind    catalog.AcceleratorKind
	name    string
	vendor  string
	model   string
	// memoryGiB is one whole device's memory as the page states it ("" where
	// it states none).
	memoryGiB string
	// parts are the sizes that hold part of one device (share) or a count the
	// API does not give (count), by size name.
	parts map[string]part
}

// part is a size's devices where the name says more than the API: count
// devices, each a share of one.
type part struct {
	count int
	share string // "1/6"; "" is a whole device
}

// table lists the GPU size series, first match wins. The shares of the
// partitioned sizes are their pages' "GPU partition" column.
var table = []series{
	{pattern: regexp.MustCompile(`^Standard_NC\d+r?s_v3$`), page: "ncv3-series", kind: catalog.KindGPU,
		name: "NVIDIA Tesla V100 PCIe 16GB", vendor: "NVIDIA", memoryGiB: "16"},
	{pattern: regexp.MustCompile(`^Standard_NC\d+as_T4_v3$`), page: "ncast4v3-series", kind: catalog.KindGPU,
		name: "NVIDIA T4", vendor: "NVIDIA", model: "nvidia-t4-16gb", memoryGiB: "16"},
	{pattern: regexp.MustCompile(`^Standard_NC\d+ads_A10_v4$`), page: "nca10v4-series", kind: catalog.KindGPU,
		name: "NVIDIA A10", vendor: "NVIDIA", model: "nvidia-a10-24gb", memoryGiB: "24"},
	{pattern: regexp.MustCompile(`^Standard_NC\d+ads_A100_v4$`), page: "nca100v4-series", kind: catalog.KindGPU,
		name: "NVIDIA A100 80GB PCIe", vendor: "NVIDIA", model: "nvidia-a100-pcie-80gb", memoryGiB: "80"},
	{pattern: regexp.MustCompile(`^Standard_NCC?\d+adi?s_H100_v5$`), page: "ncadsh100v5-series", kind: catalog.KindGPU,
		name: "NVIDIA H100 NVL", vendor: "NVIDIA", model: "nvidia-h100-nvl-94gb", memoryGiB: "94"},
	{pattern: regexp.MustCompile(`^Standard_ND40r?s_v2$`), page: "ndv2-series", kind: catalog.KindGPU,
		name: "NVIDIA Tesla V100 SXM2 32GB", vendor: "NVIDIA", model: "nvidia-v100-sxm2-32gb", memoryGiB: "32"},
	{pattern: regexp.MustCompile(`^Standard_ND96asr_(A100_)?v4$`), page: "nda100v4-series", kind: catalog.KindGPU,
		name: "NVIDIA A100 SXM4 40GB", vendor: "NVIDIA", model: "nvidia-a100-sxm-40gb", memoryGiB: "40"},
	{pattern: regexp.MustCompile(`^Standard_ND96amsr?_A100_v4$`), page: "ndma100v4-series", kind: catalog.KindGPU,
		name: "NVIDIA A100 SXM4 80GB", vendor: "NVIDIA", model: "nvidia-a100-sxm-80gb", memoryGiB: "80"},
	{pattern: regexp.MustCompile(`^Standard_ND96is[a-z]*_(flex_|noIB_)?H100_v5$`), page: "ndh100v5-series", kind: catalog.KindGPU,
		name: "NVIDIA H100 SXM5 80GB", vendor: "NVIDIA", model: "nvidia-h100-sxm-80gb", memoryGiB: "80"},
	{pattern: regexp.MustCompile(`^Standard_ND96isr_H200_v5$`), page: "nd-h200-v5-series", kind: catalog.KindGPU,
		name: "NVIDIA H200 SXM", vendor: "NVIDIA", model: "nvidia-h200-sxm-141gb", memoryGiB: "141"},
	{pattern: regexp.MustCompile(`^Standard_ND96isr?_MI300X_v5$`), page: "ndmi300xv5-series", kind: catalog.KindGPU,
		name: "AMD Instinct MI300X", vendor: "AMD", memoryGiB: "192",
		parts: map[string]part{"Standard_ND96is_MI300X_v5": {count: 8}, "Standard_ND96isr_MI300X_v5": {count: 8}}},
	{pattern: regexp.MustCompile(`^Standard_NV\d+s_v[23]$`), page: "nvv3-series", kind: catalog.KindGPU,
		name: "NVIDIA Tesla M60", vendor: "NVIDIA", model: "nvidia-m60-16gb", memoryGiB: "8"},
	{pattern: regexp.MustCompile(`^Standard_NV\d+as_v4$`), page: "nvv4-series", kind: catalog.KindGPU,
		name: "AMD Radeon Instinct MI25", vendor: "AMD", memoryGiB: "16",
		parts: map[string]part{"Standard_NV4as_v4": {1, "1/8"}, "Standard_NV8as_v4": {1, "1/4"}, "Standard_NV16as_v4": {1, "1/2"}, "Standard_NV32as_v4": {1, ""}}},
	{pattern: regexp.MustCompile(`^Standard_NV\d+adm?s_A10_v5$`), page: "nvadsa10v5-series", kind: catalog.KindGPU,
		name: "NVIDIA A10", vendor: "NVIDIA", model: "nvidia-a10-24gb", memoryGiB: "24",
		parts: map[string]part{"Standard_NV6ads_A10_v5": {1, "1/6"}, "Standard_NV12ads_A10_v5": {1, "1/3"}, "Standard_NV18ads_A10_v5": {1, "1/2"},
			"Standard_NV36ads_A10_v5": {1, ""}, "Standard_NV36adms_A10_v5": {1, ""}, "Standard_NV72ads_A10_v5": {2, ""}}},
	{pattern: regexp.MustCompile(`^Standard_NV\d+adm?s_V710_v5$`), page: "nvadsv710-v5-series", kind: catalog.KindGPU,
		name: "AMD Radeon Pro V710", vendor: "AMD",
		parts: map[string]part{"Standard_NV4ads_V710_v5": {1, "1/6"}, "Standard_NV8ads_V710_v5": {1, "1/4"}, "Standard_NV12ads_V710_v5": {1, "1/2"},
			"Standard_NV24ads_V710_v5": {1, ""}, "Standard_NV28adms_V710_v5": {1, ""}}},
	{pattern: regexp.MustCompile(`^Standard_NG\d+adm?s_V620(_v1)?$`), page: "ngadsv620-series", kind: catalog.KindGPU,
		name: "AMD Radeon Pro V620", vendor: "AMD", memoryGiB: "32",
		parts: map[string]part{"Standard_NG8ads_V620_v1": {1, "1/4"}, "Standard_NG16ads_V620_v1": {1, "1/2"}, "Standard_NG32ads_V620_v1": {1, ""},
			"Standard_NG32adms_V620_v1": {1, ""}, "Standard_NG32adms_V620": {1, ""}}},
	{pattern: regexp.MustCompile(`^Standard_NP\d+s$`), page: "np-series", kind: catalog.KindFPGA,
		name: "Xilinx Alveo U250", vendor: "Xilinx"},
}

// seriesOf returns the series of a size name; ok is false for a size GPU Atlas
// does not know (the API's GPU count alone then says whether it has GPUs).
func seriesOf(size string) (series, bool) {
	for _, s := range table {
		if s.pattern.MatchString(size) {
			return s, true
		}
	}
	return series{}, false
}

// devices says how many devices a size has and what share of one each is:
// the table's entry for the size where it has one, else the API's count of
// whole devices. ok is false when neither gives a device.
func (s series) devices(size string, apiCount int) (count int, share decimal.Decimal, ok bool) {
	if p, found := s.parts[size]; found {
		share = decimal.NewFromInt(1)
		if p.share != "" {
			var err error
			if share, err = catalog.ParseShare(p.share); err != nil {
				return 0, decimal.Zero, false
			}
		}
		return p.count, share, p.count > 0
	}
	return apiCount, decimal.NewFromInt(1), apiCount > 0
}

// deviceMemory is the memory one device of a size holds: the whole device's
// memory divided as its share says (a 1/6 A10 holds 4 GiB); zero where the
// page states none.
func (s series) deviceMemory(size string) decimal.Decimal {
	whole, err := decimal.NewFromString(s.memoryGiB)
	if err != nil {
		return decimal.Zero
	}
	num, den, frac := strings.Cut(s.parts[size].share, "/")
	if !frac {
		return whole
	}
	n, err1 := decimal.NewFromString(num)
	d, err2 := decimal.NewFromString(den)
	if err1 != nil || err2 != nil || !d.IsPositive() {
		return decimal.Zero
	}
	return whole.Mul(n).Div(d)
}
