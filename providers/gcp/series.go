package gcp

import "strings"

// The names a machine type's price is listed under in the Cloud Billing
// Catalog: a GPU machine type (accelerator-optimized: A2, A3, A4) is priced
// by its series' core and RAM SKUs ("A2 Instance Core running in Americas",
// "A2 Instance Ram running in Americas") plus its GPUs' SKU ("Nvidia Tesla
// A100 GPU running in Americas"), each per hour (RAM per GiB-hour). The spot
// SKUs carry the same words after "Spot Preemptible ".
//
// Sources: Google Cloud, "GPU machine types"
// (https://cloud.google.com/compute/docs/gpus, the machine series and their
// GPUs) and "VM instance pricing" (https://cloud.google.com/compute/vm-instance-pricing,
// the A2, A3 and A4 SKUs), read 2026-12-04.
const (
	docGPUs    = "https://cloud.google.com/compute/docs/gpus"
	docPricing = "https://cloud.google.com/compute/vm-instance-pricing"
	docDate    = "2026-12-04"
)

// seriesSKUs maps a machine type's name prefix to the words of its series'
// core and RAM SKUs. Longest prefix first: a3-megagpu and a3-ultragpu have
// SKUs of their own.
var seriesSKUs = []struct{ prefix, sku string }{
	{"a3-megagpu-", "A3 Mega"},
	{"a3-ultragpu-", "A3 Ultra"},
	{"a3-", "A3"},
	{"a2-", "A2"},
	{"a4-", "A4"},
	{"g2-", "G2"},
}

// SeriesSKU is the words of a machine type's core and RAM SKUs ("A2"); "" for
// a machine type outside the GPU series.
func SeriesSKU(machineType string) string {
	for _, s := range seriesSKUs {
		if strings.HasPrefix(machineType, s.prefix) {
			return s.sku
		}
	}
	return ""
}

// accelerator is what the adapter knows of an accelerator type name.
type accelerator struct {
	sku   string // the words of its SKU ("Nvidia Tesla A100 GPU")
	model string // its GPU model in data/gpus.csv
}

// accelerators maps Compute Engine's accelerator type names to their SKU's
// words and their GPU model (docGPUs: the A2 Standard types carry A100 40GB
// SXM4, A2 Ultra A100 80GB, A3 H100 80GB SXM5, A3 Ultra H200 141GB, A4 B200;
// N1 attaches V100 SXM2 16GB, P100 16GB and P4).
var accelerators = map[string]accelerator{
	"nvidia-tesla-a100":     {"Nvidia Tesla A100 GPU", "nvidia-a100-sxm-40gb"},
	"nvidia-a100-80gb":      {"Nvidia Tesla A100 80GB GPU", "nvidia-a100-sxm-80gb"},
	"nvidia-h100-80gb":      {"Nvidia H100 80GB GPU", "nvidia-h100-sxm-80gb"},
	"nvidia-h100-mega-80gb": {"Nvidia H100 80GB Mega GPU", "nvidia-h100-sxm-80gb"},
	"nvidia-h200-141gb":     {"Nvidia H200 141GB GPU", "nvidia-h200-sxm-141gb"},
	"nvidia-b200":           {"Nvidia B200 GPU", "nvidia-b200-180gb"},
	"nvidia-l4":             {"Nvidia L4 GPU", "nvidia-l4-24gb"},
	"nvidia-tesla-t4":       {"Nvidia Tesla T4 GPU", "nvidia-t4-16gb"},
	"nvidia-tesla-v100":     {"Nvidia Tesla V100 GPU", "nvidia-v100-sxm2-16gb"},
	"nvidia-tesla-p100":     {"Nvidia Tesla P100 GPU", "nvidia-p100-pcie-16gb"},
	"nvidia-tesla-p4":       {"Nvidia Tesla P4 GPU", "nvidia-p4-8gb"},
}

// AcceleratorSKU is the words of an accelerator type's SKU; "" for a type the
// adapter does not know.
func AcceleratorSKU(acceleratorType string) string { return accelerators[acceleratorType].sku }
