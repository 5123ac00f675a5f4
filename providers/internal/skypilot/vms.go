package skypilot

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/providers/internal/fixture"
)

// RetrievedOn is the date GPU Atlas retrieved the catalogs (the shared real-data
// set): the catalogs record no capture date and their commits' dates could not
// be found, so it is the manifests' as_of and the prices are at least this old.
const RetrievedOn = "2026-11-30"

// AsOfNote is the manifest note that says what as_of means for these catalogs.
const AsOfNote = "as_of " + RetrievedOn + " is the date GPU Atlas retrieved this data, not the date it was captured: the source records no capture date and its commit's date could not be found. The prices are at least this old; their capture date is unknown."

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
