// Package datatest hands tests the data embedded in this build (package data),
// decoded, and fails the test when it does not load: the catalog (Snapshot,
// CatalogBytes) and any table a loader reads from data.FS (Load: the GPU
// reference, workloads, models, scenarios). It is the one place the tests read
// the embedded catalog; a test that checks the decoding itself reads data.FS.
package datatest

import (
	"io/fs"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
)

// CatalogName is the name errors give the embedded catalog.
const CatalogName = "data/catalog.json"

// CatalogBytes is the embedded catalog as committed.
func CatalogBytes(t testing.TB) []byte {
	t.Helper()
	return Load(t, func(fsys fs.FS) ([]byte, error) { return fs.ReadFile(fsys, "catalog.json") })
}

// Snapshot is the embedded catalog, decoded.
func Snapshot(t testing.TB) *catalog.Snapshot {
	t.Helper()
	s, err := catalog.DecodeSnapshot(CatalogName, CatalogBytes(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Load is what load reads from the embedded data (catalog.LoadGPUReference,
// catalog.LoadWorkloads, compare.LoadModels, compare.LoadScenarios, …); it
// fails t when load does.
func Load[T any](t testing.TB, load func(fs.FS) (T, error)) T {
	t.Helper()
	v, err := load(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
