package providers

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// SaneInstanceType returns it with every size the API gave as a negative
// number (vCPUs, memory, local storage, bandwidth, accelerator count, share
// and memory) recorded as zero, "unknown", and says what it changed. ok is
// false for a type without an id, which no catalog can hold: the runner drops
// it and its offers and says so in the coverage. The adapters' conversions
// pass numbers through as published; this is the one place that keeps a
// nonsensical answer out of the catalog.
func SaneInstanceType(it catalog.InstanceType) (out catalog.InstanceType, problems []string, ok bool) {
	if it.ID == "" {
		return it, []string{"the API described an instance type without an id; it was left out"}, false
	}
	note := func(field string, v any) {
		problems = append(problems, fmt.Sprintf("instance type %s: the API gave %s %v, recorded as unknown (0)", it.ID, field, v))
	}
	count := func(field string, n *int) {
		if *n < 0 {
			note(field, *n)
			*n = 0
		}
	}
	size := func(field string, d *decimal.Decimal) {
		if d.IsNegative() {
			note(field, *d)
			*d = decimal.Zero
		}
	}
	count("vCPUs", &it.VCPUs)
	size("memory GiB", &it.MemoryGiB)
	count("local storage GB", &it.LocalStorageGB)
	if it.NetworkGbps != nil && it.NetworkGbps.IsNegative() {
		note("network Gbit/s", *it.NetworkGbps)
		it.NetworkGbps, it.Network = nil, ""
	}
	if len(it.Accelerators) > 0 {
		accs := append([]catalog.Accelerator(nil), it.Accelerators...)
		for i := range accs {
			count("accelerator count", &accs[i].Count)
			size("accelerator share", &accs[i].Share)
			size("accelerator memory GiB", &accs[i].MemoryGiB)
		}
		it.Accelerators = accs
	}
	return it, problems, true
}
