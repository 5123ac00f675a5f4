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
	if it.VCPUs < 0 {
		note("vCPUs", it.VCPUs)
		it.VCPUs = 0
	}
	if it.MemoryGiB.IsNegative() {
		note("memory GiB", it.MemoryGiB)
		it.MemoryGiB = decimal.Zero
	}
	if it.LocalStorageGB < 0 {
		note("local storage GB", it.LocalStorageGB)
		it.LocalStorageGB = 0
	}
	if it.NetworkGbps != nil && it.NetworkGbps.IsNegative() {
		note("network Gbit/s", *it.NetworkGbps)
		it.NetworkGbps, it.Network = nil, ""
	}
	if len(it.Accelerators) > 0 {
		accs := append([]catalog.Accelerator(nil), it.Accelerators...)
		for i := range accs {
			a := &accs[i]
			if a.Count < 0 {
				note("accelerator count", a.Count)
				a.Count = 0
			}
			if a.Share.IsNegative() {
				note("accelerator share", a.Share)
				a.Share = decimal.Zero
			}
			if a.MemoryGiB.IsNegative() {
				note("accelerator memory GiB", a.MemoryGiB)
				a.MemoryGiB = decimal.Zero
			}
		}
		it.Accelerators = accs
	}
	return it, problems, true
}
