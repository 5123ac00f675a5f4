// Package datatest hands tests the data embedded in this build (package data),
// decoded, and fails the test when it does not load: the catalog (Snapshot),
// the GPU reference, the workload registry, the known models and the
// scenarios. It is the one place the tests read the embedded catalog; a test
// that checks the decoding itself reads data.FS.
package datatest

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/data"
)

// CatalogName is the name errors give the embedded catalog.
const CatalogName = "data/catalog.json"

// CatalogBytes is the embedded catalog as committed.
func CatalogBytes(t testing.TB) []byte {
	t.Helper()
	v, err := data.FS.ReadFile("catalog.json")
	failOn(t, err)
	return v
}

// Snapshot is the embedded catalog, decoded.
func Snapshot(t testing.TB) *catalog.Snapshot {
	t.Helper()
	v, err := catalog.DecodeSnapshot(CatalogName, CatalogBytes(t))
	failOn(t, err)
	return v
}

// GPUReference is the embedded GPU reference and aliases.
func GPUReference(t testing.TB) *catalog.GPUReference {
	t.Helper()
	v, err := catalog.LoadGPUReference(data.FS)
	failOn(t, err)
	return v
}

// Workloads is the embedded benchmark workload registry.
func Workloads(t testing.TB) *catalog.WorkloadRegistry {
	t.Helper()
	v, err := catalog.LoadWorkloads(data.FS)
	failOn(t, err)
	return v
}

// Models are the embedded known models (models.csv).
func Models(t testing.TB) *compare.ModelSet {
	t.Helper()
	v, err := compare.LoadModels(data.FS)
	failOn(t, err)
	return v
}

// Scenarios are the embedded scenarios.
func Scenarios(t testing.TB) *compare.ScenarioSet {
	t.Helper()
	v, err := compare.LoadScenarios(data.FS)
	failOn(t, err)
	return v
}

// failOn fails t with err, when there is one.
func failOn(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
