package duckdbtest

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/sitegen"
	"github.com/gpuatlas/gpuatlas/templates"
)

// apiExample is the DuckDB example of the API page as the page prints it.
var apiExample = regexp.MustCompile(`(?s)<code id="api-duckdb-example">(.*?)</code>`)

// TestDuckDB_ReadsTheAPI runs the API page's DuckDB example (read_json_auto
// over an offers document) on the embedded catalog's AWS offers document, as
// the page tells a reader to fetch it, and checks its answer against the
// document read in Go: the cheapest on-demand offers per GPU-hour that are
// neither suspect nor reported.
func TestDuckDB_ReadsTheAPI(t *testing.T) {
	duckDB(t)
	snap, err := catalog.ReadSnapshot(filepath.Join(root, "data", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	ref := datatest.Load(t, catalog.LoadGPUReference)
	site := filepath.Join(t.TempDir(), "site")
	testlane.Count("site-build", t.Name())
	if _, err := sitegen.Build(sitegen.Options{Snapshot: snap, Reference: ref, Templates: templates.FS, OutDir: site}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(site, "api.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := apiExample.FindSubmatch(page)
	if m == nil {
		t.Fatal("api.html has no DuckDB example")
	}
	sql := html.UnescapeString(string(m[1]))
	doc, err := os.ReadFile(filepath.Join(site, "api", "v1", "offers", "aws.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "offers.json"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	rows := query(t, dir, []string{sql})[0]

	// The same answer from the document in Go.
	var d struct {
		Offers []struct {
			InstanceType string `json:"instance_type"`
			Billing      string
			Marks        []string
			PerGPU       *struct{ Amount decimal.Decimal } `json:"usd_per_gpu_hour"`
		}
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	var cheapest *decimal.Decimal
	for _, o := range d.Offers {
		if o.Billing == "on_demand" && !slices.Contains(o.Marks, "suspect") && !slices.Contains(o.Marks, "reported") && o.PerGPU != nil && (cheapest == nil || o.PerGPU.Amount.LessThan(*cheapest)) {
			a := o.PerGPU.Amount
			cheapest = &a
		}
	}
	if len(rows) != 10 || cheapest == nil {
		t.Fatalf("DuckDB gives %d rows (want 10); Go finds cheapest %v", len(rows), cheapest)
	}
	got, err := decimal.NewFromString(fmt.Sprint(rows[0]["usd_per_gpu_hour"]))
	if err != nil || !got.Equal(*cheapest) {
		t.Errorf("DuckDB's first row: %v USD per GPU-hour, the document's cheapest plausible on-demand offer %s", rows[0], cheapest)
	}
	for i := 1; i < len(rows); i++ {
		a, _ := decimal.NewFromString(fmt.Sprint(rows[i-1]["usd_per_gpu_hour"]))
		b, _ := decimal.NewFromString(fmt.Sprint(rows[i]["usd_per_gpu_hour"]))
		if b.LessThan(a) {
			t.Errorf("rows %d and %d are not cheapest first: %s, %s", i-1, i, a, b)
		}
	}
	t.Logf("DuckDB's cheapest: %v", rows[0])
}
