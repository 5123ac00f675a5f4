package duckdbtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/sitegen"
)

// root is the repository, from this package's folder.
var root = filepath.Join("..", "..")

// duckDB returns node and the folder where `make duckdb` installed
// @duckdb/node-api. Without them the test is skipped, except in CI (CI=true),
// where it fails: there `make test` installs them first. In -short mode the
// test is skipped.
func duckDB(t *testing.T) (node, dir string) {
	t.Helper()
	testlane.Long(t, "runs DuckDB in Node")
	dir = filepath.Join(root, ".cache", "duckdb")
	missing := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s (CI=true: the DuckDB test must run; make test installs it with make duckdb)", msg)
		}
		t.Skipf("%s: run make duckdb", msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node not found: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api", "package.json")); err != nil {
		missing("DuckDB for Node is not installed under %s: %v", dir, err)
	}
	return node, dir
}

// exports writes the committed catalog's offers and the committed history as
// the site publishes them (data/parquet/offers/provider=*/part-0.parquet and
// data/parquet/history/provider=*/part-0.parquet) under a new folder.
func exports(t *testing.T) (dir string, snap *catalog.Snapshot, intervals []catalog.PriceInterval) {
	t.Helper()
	dir = t.TempDir()
	snap, err := catalog.ReadSnapshot(filepath.Join(root, "data", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := catalog.ReadHistory(filepath.Join(root, "data", "history.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	providers := map[catalog.Provider]bool{}
	for _, o := range snap.Offers {
		providers[o.Provider] = true
	}
	for p := range providers {
		var b bytes.Buffer
		if err := sitegen.WriteOffersParquet(&b, snap, p); err != nil {
			t.Fatal(err)
		}
		write("data/parquet/offers/provider="+string(p)+"/part-0.parquet", b.Bytes())
	}
	files, err := sitegen.HistoryParquet(h)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		write("data/parquet/history/"+f.Name, f.Data)
	}
	if intervals, err = h.PriceIntervals(); err != nil {
		t.Fatal(err)
	}
	return dir, snap, intervals
}

// readmeQueries are the SQL blocks of README.md that follow a
// `<!-- duckdb-example -->` comment: the examples the README promises work.
func readmeQueries(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "history.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?s)<!-- duckdb-example -->\\s*```sql\n(.*?)```").FindAllSubmatch(b, -1) {
		out = append(out, string(m[1]))
	}
	if len(out) == 0 {
		t.Fatal("README.md has no SQL block after <!-- duckdb-example -->")
	}
	return out
}

// query runs the queries in DuckDB from the folder data (relative paths start
// there) and returns each one's rows.
func query(t *testing.T, data string, queries []string) [][]map[string]any {
	t.Helper()
	node, dir := duckDB(t)
	script, err := os.ReadFile("query.mjs")
	if err != nil {
		t.Fatal(err)
	}
	// The script sits beside node_modules, so that its import resolves there.
	if err := os.WriteFile(filepath.Join(dir, "query.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	qf := filepath.Join(t.TempDir(), "queries.json")
	qs, _ := json.Marshal(queries)
	if err := os.WriteFile(qf, qs, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(data)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "query.mjs", abs, qf)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("DuckDB: %v\n%s", err, stderr.String())
	}
	var out [][]map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("DuckDB's answer: %v\n%.500s", err, stdout.String())
	}
	return out
}

func TestDuckDB_ReadsTheParquetExports(t *testing.T) {
	duckDB(t)
	data, snap, intervals := exports(t)
	examples := readmeQueries(t)
	own := []string{
		`SELECT count(*) AS n FROM read_parquet('data/parquet/offers/*/*.parquet', hive_partitioning = true)`,
		`SELECT provider, count(*) AS n FROM read_parquet('data/parquet/history/*/*.parquet', hive_partitioning = true) GROUP BY provider ORDER BY provider`,
		`SELECT count(*) AS n FROM read_parquet('data/parquet/history/*/*.parquet', hive_partitioning = true)
		 WHERE origin = 'import' AND provider = 'tencent' AND region = 'mainland-china' AND price_high IS NOT NULL`,
	}
	res := query(t, data, append(own, examples...))

	if got := fmt.Sprint(res[0][0]["n"]); got != fmt.Sprint(len(snap.Offers)) {
		t.Errorf("DuckDB reads %s offers, the catalog has %d", got, len(snap.Offers))
	}
	perProvider := map[string]int{}
	for _, iv := range intervals {
		perProvider[string(iv.Provider)]++
	}
	var want, got []string
	for p, n := range perProvider {
		want = append(want, fmt.Sprintf("%s=%d", p, n))
	}
	for _, r := range res[1] {
		got = append(got, fmt.Sprintf("%v=%v", r["provider"], r["n"]))
	}
	sort.Strings(want)
	if fmt.Sprint(want) != fmt.Sprint(got) {
		t.Errorf("history rows per provider (hive partition): DuckDB %v, PriceIntervals %v", got, want)
	}
	if n := fmt.Sprint(res[2][0]["n"]); n == "0" {
		t.Error("no Tencent range (price_high) in the history")
	}

	// The README's first example: the p5.48xlarge series in us-east-1, the cut
	// of 2025-06-05 and the crawl that confirms the new price.
	series := res[len(own)]
	type row struct{ Price, From, Until, Observed, Fetched, Origin string }
	var rows []row
	for _, r := range series {
		rows = append(rows, row{fmt.Sprint(r["price"]), fmt.Sprint(r["valid_from"]), fmt.Sprint(r["valid_until"]),
			fmt.Sprint(r["observed_at"]), fmt.Sprint(r["fetched_at"]), fmt.Sprint(r["origin"])})
	}
	wantRows := []row{
		// Timestamps are UTC (TIMESTAMP WITH TIME ZONE in DuckDB). An
		// archived price was observed when it held and retrieved on the day
		// the archives were copied; the crawled one holds from the crawl, was
		// observed on the AWS price dataset's date and fetched when copied.
		{"98.32", "2025-04-23 18:52:57+00", "2025-06-05 07:22:36+00", "2025-04-23 18:52:57+00", "2026-12-01 00:00:00+00", "import"},
		{"55.04", "2025-06-05 07:22:36+00", "2026-08-23 00:00:00+00", "2025-06-05 07:22:36+00", "2026-12-01 00:00:00+00", "import"},
		{"55.04", "2026-12-04 00:00:00+00", "<nil>", "2025-11-30 00:00:00+00", "2026-11-30 00:00:00+00", "crawl"},
	}
	if fmt.Sprint(rows) != fmt.Sprint(wantRows) {
		t.Errorf("README example 1:\n got %v\nwant %v", rows, wantRows)
	}
	// The second joins the current offers with the archives' prices of the same
	// offer and basis: the p5 in us-east-1, then and now.
	if len(examples) < 2 {
		t.Fatal("README.md has no second example")
	}
	join := res[len(own)+1]
	// AWS's archived p5 prices, and Azure's dated price-list versions of the
	// sizes it prices today (the ND96isr_H100_v5 in eastus at 98.32 in every
	// version).
	var pairs []string
	azure := map[string]bool{}
	for _, r := range join {
		pair := fmt.Sprintf("%v %v %v->%v", r["provider"], r["instance_type"], r["then_price"], r["now_price"])
		switch r["provider"] {
		case "aws":
			pairs = append(pairs, pair)
		case "azure":
			azure[fmt.Sprintf("%v %v", r["region"], pair)] = true
		default:
			t.Errorf("README example 2: a pair of %v, whose archived prices are not on the current basis: %s", r["provider"], pair)
		}
	}
	if fmt.Sprint(pairs) != "[aws p5.48xlarge 98.32->55.04 aws p5.48xlarge 55.04->55.04]" {
		t.Errorf("README example 2, AWS: %v", pairs)
	}
	if !azure["eastus azure Standard_ND96isr_H100_v5 98.32->98.32"] {
		t.Errorf("README example 2 lacks Azure's ND96isr_H100_v5 in eastus (%d Azure pairs)", len(azure))
	}
}
