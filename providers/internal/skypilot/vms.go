package skypilot

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/providers/internal/fixture"
)

// RetrievedOn is the date GPU Atlas retrieved the catalogs (the shared real-data
// set): the manifests' retrieved date, the fetched_at of the embedded offers.
const RetrievedOn = "2026-11-30"

// DateNote is the manifest note that says what is known of the data's dates.
const DateNote = "Dates: GPU Atlas retrieved this data on " + RetrievedOn + " (retrieved, the offers' fetched_at). The source records no capture date and its commit's date could not be found, so when the prices held is unknown: the manifest has no observed date and the offers' observed_at is empty. The prices are at least as old as the retrieval."

// Catalog is one cloud's vms.csv in a SkyPilot catalog repository, at a commit.
type Catalog struct {
	Repo, Path, Commit string
}

// Provenance is the manifest's source line for the catalog, read from the local
// copy at local (e.g. ../shared/realdata/tencent/cvm_gpu_vms.csv).
func (c Catalog) Provenance(local string) string {
	return fmt.Sprintf("https://github.com/%s/blob/%s/%s (via %s, unchanged but LF line endings; no licence file in the repository)",
		c.Repo, c.Commit, c.Path, local)
}

// VM is one row of a vms.csv: an instance type in a zone. Prices are the
// catalog's USD figures (see RecoverCNY). The Row gives the columns only one
// cloud's catalog has.
type VM struct {
	InstanceType, AcceleratorName, AcceleratorCount, VCPUs, MemoryGiB string
	Price, Region, Zone, Family                                       string
	fixture.Row
}

// vmColumns are the columns every cloud's vms.csv has.
var vmColumns = []string{"InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB", "Price", "Region", "AvailabilityZone", "Generation"}

// ReadVMs reads a vms.csv that has the common columns and the extra ones; the
// counts and sizes must be numbers.
func ReadVMs(path string, extra ...string) ([]VM, error) {
	rows, err := fixture.ReadCSV(path, append(vmColumns[:len(vmColumns):len(vmColumns)], extra...)...)
	if err != nil {
		return nil, err
	}
	vms := make([]VM, 0, len(rows))
	for _, r := range rows {
		for _, n := range []string{"AcceleratorCount", "vCPUs", "MemoryGiB"} {
			if _, err := decimal.NewFromString(r.Get(n)); err != nil {
				return nil, r.Errorf("%s: %s %q is not a number", r.Get("InstanceType"), n, r.Get(n))
			}
		}
		vms = append(vms, VM{
			InstanceType: r.Get("InstanceType"), AcceleratorName: r.Get("AcceleratorName"), AcceleratorCount: r.Get("AcceleratorCount"),
			VCPUs: r.Get("vCPUs"), MemoryGiB: r.Get("MemoryGiB"),
			Price: r.Get("Price"), Region: r.Get("Region"), Zone: r.Get("AvailabilityZone"), Family: r.Get("Generation"),
			Row: r,
		})
	}
	return vms, nil
}
