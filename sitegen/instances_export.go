package sitegen

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// InstanceColumns are the columns of the instance types export (CSV, JSON and
// Parquet), in order. Like OfferColumns they are a contract: new columns go at the
// end.
var InstanceColumns = []string{
	"provider", "instance_type", "family", "vcpus", "memory_gib", "cpu_arch", "cpu_vendor",
	"gpu_model", "gpu_name", "accelerator_kind", "gpu_count", "gpu_memory_gib", "gpu_memory_gib_each",
	"interconnect", "local_storage_gb", "local_nvme", "network", "network_gbps", "rdma",
	"generation", "bare_metal", "source", "synthetic",
	"gpu_memory_class_gb_each", "gpu_memory_from_reference", "network_cards", "efa_interfaces", "spec_conflicts",
	"interconnect_bandwidth", "interconnect_unit", "interconnect_source",
}

// instanceRecord is a type's cells in InstanceColumns order, before CSV protection.
// Quantities are exact decimals as the catalog holds them.
func instanceRecord(t catalog.InstanceType) []string {
	acc, _ := t.PrimaryAccelerator()
	each, class := "", ""
	if len(t.Accelerators) > 0 {
		each = acc.MemoryGiB.String()
	}
	if acc.NominalMemoryGB != nil {
		class = acc.NominalMemoryGB.String()
	}
	gbps := ""
	if t.NetworkGbps != nil {
		gbps = t.NetworkGbps.String()
	}
	linkBandwidth := ""
	if t.InterconnectBandwidth != nil {
		linkBandwidth = t.InterconnectBandwidth.String()
	}
	disk := ""
	if t.LocalStorageGB > 0 {
		disk = fmt.Sprint(t.LocalStorageGB)
	}
	return []string{
		string(t.Provider), t.ID, t.Family, fmt.Sprint(t.VCPUs), t.MemoryGiB.String(), t.CPUArch, t.CPUVendor,
		acc.Model, acc.Name, string(acc.Kind), t.GPUUnits().String(), t.GPUMemoryGiB().String(), each,
		t.Interconnect, disk, fmt.Sprint(t.LocalNVMe), t.Network, gbps, t.RDMA,
		t.Generation, fmt.Sprint(t.BareMetal), t.Source, fmt.Sprint(t.Synthetic),
		class, fmt.Sprint(acc.MemoryFromReference), fmt.Sprint(len(t.NetworkCards)), fmt.Sprint(t.EFAInterfaces),
		conflictsText(t.Conflicts),
		linkBandwidth, t.InterconnectUnit, t.InterconnectSource,
	}
}

// conflictsText is a type's spec conflicts in one cell:
// "gpu_memory_per_device Trainium2: provider 512 GiB, reference 96 GB", joined
// with "; ".
func conflictsText(cs []catalog.SpecConflict) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s %s: provider %s %s, reference %s GB", c.Field, c.Accelerator, c.ProviderValue, c.Unit, c.ReferenceValue)
	}
	return strings.Join(parts, "; ")
}

// WriteInstancesCSV writes one row per instance type with InstanceColumns, in the
// snapshot's canonical order, protected against formula injection.
func WriteInstancesCSV(w io.Writer, s *catalog.Snapshot) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(InstanceColumns); err != nil {
		return err
	}
	for _, t := range canonicalCopy(s).Instances {
		rec := instanceRecord(t)
		for i := range rec {
			rec[i] = SafeCSVCell(rec[i])
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteInstancesJSON writes the same rows as WriteInstancesCSV as a JSON array of
// objects keyed by InstanceColumns; quantities stay strings (exact decimals),
// vcpus is a number and the flags are booleans.
func WriteInstancesJSON(w io.Writer, s *catalog.Snapshot) error {
	var recs [][]string
	for _, t := range canonicalCopy(s).Instances {
		recs = append(recs, instanceRecord(t))
	}
	return writeRecordsJSON(w, InstanceColumns, recs, func(col string) bool {
		switch col {
		case "vcpus", "local_nvme", "bare_metal", "synthetic", "gpu_memory_from_reference", "network_cards", "efa_interfaces":
			return true
		}
		return false
	})
}
