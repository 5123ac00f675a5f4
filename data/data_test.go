package data_test

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/data"
)

// The committed tables must load: a broken row fails here with file:line.
func TestCommittedTablesLoad(t *testing.T) {
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref.Models) < 40 || len(ref.Aliases) < 100 {
		t.Errorf("reference looks truncated: %d models, %d aliases", len(ref.Models), len(ref.Aliases))
	}
	for _, m := range ref.Models {
		if m.Source == "" || m.SourceDate == "" {
			t.Errorf("%s: no source or source date", m.ID)
		}
	}
	workloads, err := catalog.LoadWorkloads(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	set, err := compare.LoadScenarios(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	if err := set.CheckWorkloads(workloads); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.LoadRegionTable(data.FS); err != nil {
		t.Fatal(err)
	}
	b, err := data.FS.ReadFile("catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.DecodeSnapshot("data/catalog.json", b); err != nil {
		t.Fatal(err)
	}
}

// Every AWS accelerator name the real data uses maps to a model.
func TestAliases_AWSNames(t *testing.T) {
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"A10G", "L4", "L40S", "H100", "H200", "B200", "B300", "T4", "T4g", "V100", "A100",
		"RTX PRO Server 6000", "RTX PRO 4500", "Radeon Pro V520", "Inferentia", "Inferentia2", "Trainium", "Trainium2", "Qualcomm AI100"} {
		if _, ok := ref.Resolve(catalog.AWS, name); !ok {
			t.Errorf("aws accelerator %q has no model", name)
		}
	}
}
