package sitegen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestHistoryParquet_ReadBack(t *testing.T) {
	_, h := importedHistory(t)
	files, err := HistoryParquet(h)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	if diff := cmp.Diff([]string{"provider=alibaba/part-0.parquet", "provider=aws/part-0.parquet", "provider=huawei/part-0.parquet", "provider=tencent/part-0.parquet", "provider=volcengine/part-0.parquet"}, names); diff != "" {
		t.Fatalf("files (-want +got):\n%s", diff)
	}
	rows, cols := readParquet[historyParquet](t, files[1].Data)
	var want []string
	for _, c := range HistoryColumns[1:] {
		want = append(want, c.Name)
	}
	if diff := cmp.Diff(want, cols); diff != "" {
		t.Errorf("columns are not HistoryColumns without the provider partition (-want +got):\n%s", diff)
	}
	var p5 []historyParquet
	for _, r := range rows {
		if r.InstanceType == "p5.48xlarge" && r.Region == "us-east-1" && r.Billing == "on_demand" {
			p5 = append(p5, r)
		}
	}
	ts := func(s string) *time.Time { v := mustTime(t, s); return &v }
	wantP5 := []historyParquet{
		{InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: "on_demand", Price: "98.32", Currency: "USD", Unit: "hour",
			ValidFrom: mustTime(t, "2025-06-04T07:23:25Z"), ValidUntil: ts("2025-06-05T07:22:36Z"), LastSeen: mustTime(t, "2025-06-04T07:23:25Z"), Source: trackerURL, Origin: "import",
			ObservedAt: ts("2025-06-04T07:23:25Z"), FetchedAt: importTime},
		{InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: "on_demand", Price: "55.04", Currency: "USD", Unit: "hour",
			ValidFrom: mustTime(t, "2025-06-05T07:22:36Z"), ValidUntil: ts("2025-06-07T00:00:00Z"), LastSeen: mustTime(t, "2025-06-06T07:22:21Z"), Source: trackerURL, Origin: "import",
			ObservedAt: ts("2025-06-05T07:22:36Z"), FetchedAt: importTime},
		{InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: "on_demand", Price: "98.32", Currency: "USD", Unit: "hour",
			ValidFrom: crawl1, LastSeen: crawl2, Source: "pricing.GetProducts", Origin: "crawl",
			ObservedAt: ts("2026-11-30T01:30:00Z"), FetchedAt: crawl1}, // the test snapshot's observed_at, kept by twoCrawls' first crawl
		{InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: "on_demand", Includes: "100 GiB disk", Price: "60", Currency: "USD", Unit: "hour",
			ValidFrom: mustTime(t, "2025-06-05T00:00:00Z"), ValidUntil: ts("2025-07-01T00:00:00Z"), LastSeen: mustTime(t, "2025-06-05T00:00:00Z"), Source: "https://example.org/other", Origin: "import",
			ObservedAt: ts("2025-06-05T00:00:00Z"), FetchedAt: importTime},
	}
	if diff := cmp.Diff(wantP5, p5); diff != "" {
		t.Errorf("p5.48xlarge us-east-1 on demand (-want +got):\n%s", diff)
	}
	again, err := HistoryParquet(h)
	if err != nil || string(again[1].Data) != string(files[1].Data) {
		t.Error("the history Parquet is not byte-identical from the same history")
	}
}

func TestSpanAxis(t *testing.T) {
	d := func(s string) time.Time { return mustTime(t, s+"T12:00:00Z") }
	if got := spanAxis(d("2025-06-01"), d("2025-06-03")); len(got) != 3 || !got[2].Equal(day(d("2025-06-03"))) {
		t.Errorf("three days = %v", got)
	}
	// Tencent's list prices: 2016-12-27 to 2021-07-15 is 1,662 days, every 3rd.
	got := spanAxis(d("2016-12-27"), d("2021-07-15"))
	if len(got) > maxAxisPoints || axisStep(got) != 3 || !got[len(got)-1].Equal(day(d("2021-07-15"))) || got[0].Before(day(d("2016-12-27"))) {
		t.Errorf("%d points, step %d, %s to %s", len(got), axisStep(got), got[0], got[len(got)-1])
	}
	if got := spanAxis(time.Time{}, time.Time{}); got != nil {
		t.Errorf("no prices = %v", got)
	}
}

// docs/history.md documents every column of the history Parquet with its type
// (moved from internal/cli, which no longer imports sitegen).
func TestHistoryColumns_Documented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "history.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range HistoryColumns {
		if !strings.Contains(string(b), "| `"+c.Name+"` | "+c.Type+" |") {
			t.Errorf("docs/history.md does not document the history Parquet column %s (%s)", c.Name, c.Type)
		}
	}
}
