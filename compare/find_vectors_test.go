package compare

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// FindVectors is compare/testdata/find_vectors.json: expressions over a small
// catalog (find_catalog.json) with the rows the explorer's default view keeps.
// TestFind_Vectors runs them through Find, TestBrowser_FindVectors (package
// cmd/gpuatlas) through the explorer's script: the two must give the rows
// written here.
type FindVectors struct {
	About     string                         `json:"about"`
	Catalog   string                         `json:"catalog"`
	Providers map[catalog.Provider][2]string `json:"providers"`
	Scenarios []string                       `json:"scenarios"`
	Fits      map[string][]string            `json:"fits"`
	Vectors   []FindVector                   `json:"vectors"`
}

// FindVector is one question and its answer: the price columns shown and each
// row's type, region and prices per hour in the currency to 4 places.
type FindVector struct {
	Expr     string     `json:"expr"`
	Note     string     `json:"note,omitempty"`
	Billing  []string   `json:"billing,omitempty"`
	Currency string     `json:"currency,omitempty"`
	Sort     string     `json:"sort,omitempty"`
	Desc     bool       `json:"desc,omitempty"`
	Columns  []string   `json:"columns"`
	Rows     []FindWant `json:"rows"`
}

// FindWant is one expected row.
type FindWant struct {
	Key    string            `json:"key"`
	Region string            `json:"region"`
	Prices map[string]string `json:"prices"`
}

// FindWants are a result as a vector writes it.
func FindWants(r FindResult) ([]string, []FindWant) {
	rows := []FindWant{}
	for _, row := range r.Rows {
		w := FindWant{Key: row.Type.Key(), Region: row.Region.ID, Prices: map[string]string{}}
		for c, cell := range row.Cells {
			if cell != nil && cell.Hourly != nil {
				w.Prices[FindColumns[c]] = cell.Hourly.StringFixed(4)
			}
		}
		rows = append(rows, w)
	}
	cols := r.Columns
	if cols == nil {
		cols = []string{}
	}
	return cols, rows
}

func readFindVectors(t *testing.T) (FindVectors, *catalog.Snapshot, *catalog.GPUReference) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "find_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v FindVectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	snap, err := catalog.ReadSnapshot(filepath.Join("testdata", v.Catalog))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := catalog.LoadGPUReference(os.DirFS(filepath.Join("..", "sitegen", "testdata")))
	if err != nil {
		t.Fatal(err)
	}
	return v, snap, ref
}

// TestFind_Vectors: Find keeps the rows every vector names, in its order,
// with its prices.
func TestFind_Vectors(t *testing.T) {
	v, snap, ref := readFindVectors(t)
	if len(v.Vectors) < 15 {
		t.Fatalf("only %d vectors", len(v.Vectors))
	}
	in := FindInput{Reference: ref, ProviderNames: v.Providers, Fits: v.Fits, Scenarios: v.Scenarios}
	for _, vec := range v.Vectors {
		p := ParseFilter(vec.Expr, v.Scenarios)
		if len(p.Errors) > 0 {
			t.Errorf("%q: %v", vec.Expr, p.Errors)
			continue
		}
		res, err := Find(snap, in, FindQuery{Expr: p, Billing: vec.Billing, Currency: vec.Currency, Sort: vec.Sort, Desc: vec.Desc})
		if err != nil {
			t.Errorf("%q: %v", vec.Expr, err)
			continue
		}
		cols, rows := FindWants(res)
		if diff := cmp.Diff(vec.Columns, cols); diff != "" {
			t.Errorf("%q: columns (-want +got):\n%s", vec.Expr, diff)
		}
		if diff := cmp.Diff(vec.Rows, rows); diff != "" {
			t.Errorf("%q: rows (-want +got):\n%s", vec.Expr, diff)
		}
	}
}

// FuzzFind: any expression over the vectors' catalog gives an answer without
// a panic, a subset of the empty expression's rows, each with a price.
func FuzzFind(f *testing.F) {
	for _, s := range []string{"gpus>=8 gpu:h100", "-country:cn saving>50", "billing:spot,reserved a10", "marks:stale price<2", "fits:dev-test"} {
		f.Add(s)
	}
	b, err := os.ReadFile(filepath.Join("testdata", "find_vectors.json"))
	if err != nil {
		f.Fatal(err)
	}
	var v FindVectors
	if err := json.Unmarshal(b, &v); err != nil {
		f.Fatal(err)
	}
	snap, err := catalog.ReadSnapshot(filepath.Join("testdata", v.Catalog))
	if err != nil {
		f.Fatal(err)
	}
	in := FindInput{ProviderNames: v.Providers, Fits: v.Fits, Scenarios: v.Scenarios}
	all, err := Find(snap, in, FindQuery{})
	if err != nil {
		f.Fatal(err)
	}
	keys := map[string]bool{}
	for _, r := range all.Rows {
		keys[r.Type.Key()] = true
	}
	f.Fuzz(func(t *testing.T, s string) {
		res, err := Find(snap, in, FindQuery{Expr: ParseFilter(s, v.Scenarios), Currency: "native"})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Rows {
			if !keys[r.Type.Key()] || r.Primary < 0 || r.Cells[r.Primary] == nil {
				t.Fatalf("%q: row %s (primary %d) is not a priced row of the catalog", s, r.Type.Key(), r.Primary)
			}
		}
	})
}
