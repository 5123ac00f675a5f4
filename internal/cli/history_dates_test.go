package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
)

// archivedRows are real observations, verbatim from data/history-sources: the
// p5.48xlarge cut of 2025-06-05 (the tracker's readings, without retrieved_at,
// as a file someone imports by hand would be), Tencent's GN7.2XLARGE32 list
// price of the page version of 2019-10-16, and Alibaba's 2024-06-12 prices of
// two types in one region: ecs.ebmgn6i.24xlarge, whose spot price in
// cn-heyuan-b equals its on-demand price (the API reports the spot cap), and
// ecs.gn6i-c4g1.xlarge, whose spot price is 35% of it.
var archivedRows = strings.ReplaceAll(`{"provider":"aws","instance_type":"p5.48xlarge","region":"us-east-1","billing":"on_demand","price":"98.32","currency":"USD","unit":"hour","includes":"instance only","observed_at":"2025-06-01T07:21:50Z","retrieved_at":"2026-12-01T00:00:00Z","source":"https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d09be8a9c9dcc8fad26adeee559004c23e/gpu_prices.csv"}
{"provider":"aws","instance_type":"p5.48xlarge","region":"us-east-1","billing":"on_demand","price":"98.32","currency":"USD","unit":"hour","includes":"instance only","observed_at":"2025-06-04T07:23:25Z","retrieved_at":"2026-12-01T00:00:00Z","source":"https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d09be8a9c9dcc8fad26adeee559004c23e/gpu_prices.csv"}
{"provider":"aws","instance_type":"p5.48xlarge","region":"us-east-1","billing":"on_demand","price":"55.04","currency":"USD","unit":"hour","includes":"instance only","observed_at":"2025-06-05T07:22:36Z","retrieved_at":"2026-12-01T00:00:00Z","source":"https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d09be8a9c9dcc8fad26adeee559004c23e/gpu_prices.csv"}
{"provider":"aws","instance_type":"p5.48xlarge","region":"us-east-1","billing":"on_demand","price":"55.04","currency":"USD","unit":"hour","includes":"instance only","observed_at":"2025-06-10T07:22:44Z","retrieved_at":"2026-12-01T00:00:00Z","source":"https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d09be8a9c9dcc8fad26adeee559004c23e/gpu_prices.csv"}
`, `"retrieved_at":"2026-12-01T00:00:00Z",`, "") +
	`{"provider":"tencent","instance_type":"GN7.2XLARGE32","region":"mainland-china","billing":"on_demand","price":"8.68","currency":"CNY","unit":"hour","includes":"instance only","observed_at":"2019-10-16T14:17:02Z","observed_until":"2019-11-19T10:07:27Z","retrieved_at":"2026-12-01T00:00:00Z","source":"https://github.com/ZoeyYann/qcloud-documents/blob/0c6bc0e57ef45d29f4b02b9a4e10e52fe1179cfd/product/计算与网络/GPU%20云服务器/购买指导/价格总览.md"}
{"provider":"alibaba","instance_type":"ecs.ebmgn6i.24xlarge","region":"cn-heyuan","billing":"on_demand","price":"68.75","currency":"CNY","unit":"hour","includes":"instance only","observed_at":"2024-06-12T09:03:21Z","retrieved_at":"2026-12-01T00:00:00Z","source":"https://github.com/cloudpilot-ai/priceserver/blob/60cef47f24c2c7e5020b923b121923ee2e5ea055/pkg/client/builtin-data/alibabacloud_price.json","note":"observed_at is the commit date of the price file; the capture may be earlier"}
{"provider":"alibaba","instance_type":"ecs.ebmgn6i.24xlarge","region":"cn-heyuan","zone":"cn-heyuan-b","billing":"spot","price":"68.75","currency":"CNY","unit":"hour","includes":"instance only","observed_at":"2024-06-12T09:03:21Z","retrieved_at":"2026-12-01T00:00:00Z","source":"https://github.com/cloudpilot-ai/priceserver/blob/60cef47f24c2c7e5020b923b121923ee2e5ea055/pkg/client/builtin-data/alibabacloud_price.json","note":"equals the on-demand price: the API reports the spot cap; observed_at is the commit date of the price file; the capture may be earlier"}
{"provider":"alibaba","instance_type":"ecs.gn6i-c4g1.xlarge","region":"ap-northeast-1","billing":"on_demand","price":"8.38","currency":"CNY","unit":"hour","includes":"instance only","observed_at":"2024-06-12T09:03:21Z","retrieved_at":"2026-12-01T00:00:00Z","source":"https://github.com/cloudpilot-ai/priceserver/blob/60cef47f24c2c7e5020b923b121923ee2e5ea055/pkg/client/builtin-data/alibabacloud_price.json","note":"observed_at is the commit date of the price file; the capture may be earlier"}
{"provider":"alibaba","instance_type":"ecs.gn6i-c4g1.xlarge","region":"ap-northeast-1","zone":"ap-northeast-1a","billing":"spot","price":"2.933","currency":"CNY","unit":"hour","includes":"instance only","observed_at":"2024-06-12T09:03:21Z","retrieved_at":"2026-12-01T00:00:00Z","source":"https://github.com/cloudpilot-ai/priceserver/blob/60cef47f24c2c7e5020b923b121923ee2e5ea055/pkg/client/builtin-data/alibabacloud_price.json","note":"observed_at is the commit date of the price file; the capture may be earlier"}
`

// exportedOffer is one offer of `export`, by column name: the columns these
// tests read, as sitegen's export writes them (its rows are tested through the
// real wiring in cmd/gpuatlas).
type exportedOffer map[string]string

// exportCSV runs `export --format csv --catalog catalogPath` and returns the
// offers it handed the site's writer, by provider/type/region/zone/billing.
func exportCSV(t *testing.T, catalogPath string) map[string]exportedOffer {
	t.Helper()
	f := &fakeSite{}
	code, _, stderr := runSite(f.site(), nil, runExport, "--format", "csv", "--catalog", catalogPath)
	if code != ExitOK || len(f.snapshots) != 1 {
		t.Fatalf("export %s: exit %d: %s", catalogPath, code, stderr)
	}
	stamp := func(at time.Time) string {
		if at.IsZero() {
			return ""
		}
		return at.UTC().Format("2006-01-02T15:04:05Z")
	}
	out := map[string]exportedOffer{}
	for _, o := range f.snapshots[0].Offers {
		out[string(o.Provider)+"/"+o.InstanceType+"/"+o.Region+"/"+o.Zone+"/"+string(o.Billing)] = exportedOffer{
			"price": o.Price.Amount.String(), "observed_at": stamp(o.ObservedAt), "fetched_at": stamp(o.FetchedAt), "suspect": o.Suspect}
	}
	return out
}

// TestHistoryDates_ImportToExport follows real archived prices through every
// step, with both of their dates: history import (retrieved_at kept, or
// stamped with the import's time), snapshot --at (observed_at the observation
// in force, fetched_at the retrieval, the same bytes every time), diff, the
// offers export of the rebuilt catalog, and the history Parquet.
func TestHistoryDates_ImportToExport(t *testing.T) {
	dir := t.TempDir()
	hist := filepath.Join(dir, "history.jsonl")
	obs := obsFile(t, dir, "archived.jsonl", archivedRows)
	imported := time.Date(2026, 12, 2, 10, 11, 12, 500_000_000, time.UTC)
	if code, _, stderr := runAt(runHistory, stoppedAt(imported), nil, "import", obs, "--history", hist); code != ExitOK || !strings.Contains(stderr, "9 observations added") {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	first, _ := os.ReadFile(hist)
	if !bytes.Contains(first, []byte(`"observed_at":"2025-06-05T07:22:36Z","retrieved_at":"2026-12-02T10:11:12Z"`)) ||
		!bytes.Contains(first, []byte(`"observed_until":"2019-11-19T10:07:27Z","retrieved_at":"2026-12-01T00:00:00Z"`)) {
		t.Fatalf("the history does not keep retrieved_at (given, or the import's time in whole seconds):\n%s", first)
	}
	// Imported again a day later: the same records, kept with their first retrieval.
	if code, _, stderr := runAt(runHistory, stoppedAt(imported.AddDate(0, 0, 1)), nil, "import", obs, "--history", hist); code != ExitOK || !strings.Contains(stderr, "0 observations added, 9 already in") {
		t.Fatalf("second import: exit %d: %s", code, stderr)
	}
	if again, _ := os.ReadFile(hist); !bytes.Equal(first, again) {
		t.Error("importing the same file again changed the history")
	}

	// The cut: exactly one change.
	code, stdout, _ := runCmd(runDiff, "2025-06-01", "2025-06-10", "--history", hist)
	if code != ExitError || !strings.Contains(stdout, "Total: 1 price change (1 down)") || !strings.Contains(stdout, "~ price p5.48xlarge us-east-1 on_demand: 98.32 USD/hour -> 55.04 USD/hour (-44.02%)") {
		t.Errorf("diff across the cut: exit %d\n%s", code, stdout)
	}

	type dated struct{ Price, Observed, Fetched, Suspect string }
	for _, tc := range []struct {
		at    string
		taken string
		want  map[string]dated
	}{
		{"2025-06-05", "2025-06-05T07:22:36Z", map[string]dated{
			"aws/p5.48xlarge/us-east-1//on_demand": {"55.04", "2025-06-05T07:22:36Z", "2026-12-02T10:11:12Z", ""},
		}},
		{"2019-11-01", "2019-10-16T14:17:02Z", map[string]dated{
			"tencent/GN7.2XLARGE32/mainland-china//on_demand": {"8.68", "2019-10-16T14:17:02Z", "2026-12-01T00:00:00Z", ""},
		}},
		{"2024-06-12", "2024-06-12T09:03:21Z", map[string]dated{
			"alibaba/ecs.ebmgn6i.24xlarge/cn-heyuan//on_demand":                {"68.75", "2024-06-12T09:03:21Z", "2026-12-01T00:00:00Z", ""},
			"alibaba/ecs.ebmgn6i.24xlarge/cn-heyuan/cn-heyuan-b/spot":          {"68.75", "2024-06-12T09:03:21Z", "2026-12-01T00:00:00Z", "spot price 68.75 is at or above the on-demand price 68.75 CNY/hour"},
			"alibaba/ecs.gn6i-c4g1.xlarge/ap-northeast-1//on_demand":           {"8.38", "2024-06-12T09:03:21Z", "2026-12-01T00:00:00Z", ""},
			"alibaba/ecs.gn6i-c4g1.xlarge/ap-northeast-1/ap-northeast-1a/spot": {"2.933", "2024-06-12T09:03:21Z", "2026-12-01T00:00:00Z", ""},
		}},
	} {
		t.Run(tc.at, func(t *testing.T) {
			snap := filepath.Join(t.TempDir(), "snap.json")
			if code, _, stderr := runCmd(runSnapshot, "--at", tc.at, "--history", hist, "--out", snap); code != ExitOK {
				t.Fatalf("snapshot: exit %d: %s", code, stderr)
			}
			// The same date rebuilds to the same bytes, whenever it is asked.
			code, stdout, _ := runAt(runSnapshot, stoppedAt(imported.AddDate(1, 0, 0)), nil, "--at", tc.at, "--history", hist)
			if b, _ := os.ReadFile(snap); code != ExitOK || stdout != string(b) {
				t.Error("snapshot --at is not deterministic")
			}
			if !strings.Contains(stdout, `"taken_at": "`+tc.taken+`"`) {
				t.Errorf("taken_at is not the newest observation %s:\n%.200s", tc.taken, stdout)
			}
			rows := exportCSV(t, snap)
			got := map[string]dated{}
			for k, r := range rows {
				got[k] = dated{r["price"], r["observed_at"], r["fetched_at"], r["suspect"]}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("exported offers of %s (-want +got):\n%s", tc.at, diff)
			}
		})
	}

	// The history Parquet: each run's interval and its two dates, in the
	// history the command hands the site's HistoryParquet (sitegen's columns
	// are tested through the real wiring in cmd/gpuatlas).
	out := filepath.Join(dir, "export")
	f := &fakeSite{}
	if code, _, stderr := runSite(f.site(), nil, runHistory, "export", "--history", hist, "--out", out); code != ExitOK || len(f.histories) != 1 {
		t.Fatalf("history export: exit %d: %s", code, stderr)
	}
	intervals, err := f.histories[0].PriceIntervals()
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Billing    string
		Price      string
		ValidFrom  time.Time
		ValidUntil *time.Time
		LastSeen   time.Time
		ObservedAt *time.Time
		FetchedAt  time.Time
	}
	optional := func(at time.Time) *time.Time {
		if at.IsZero() {
			return nil
		}
		u := at.UTC()
		return &u
	}
	ts := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v.UTC() }
	tp := func(s string) *time.Time { v := ts(s); return &v }
	for _, tc := range []struct {
		provider string
		want     []row
	}{
		{"aws", []row{
			{"on_demand", "98.32", ts("2025-06-01T07:21:50Z"), tp("2025-06-05T07:22:36Z"), ts("2025-06-04T07:23:25Z"), tp("2025-06-01T07:21:50Z"), ts("2026-12-02T10:11:12Z")},
			{"on_demand", "55.04", ts("2025-06-05T07:22:36Z"), tp("2025-06-11T00:00:00Z"), ts("2025-06-10T07:22:44Z"), tp("2025-06-05T07:22:36Z"), ts("2026-12-02T10:11:12Z")},
		}},
		{"tencent", []row{
			{"on_demand", "8.68", ts("2019-10-16T14:17:02Z"), tp("2019-11-19T10:07:27Z"), ts("2019-10-16T14:17:02Z"), tp("2019-10-16T14:17:02Z"), ts("2026-12-01T00:00:00Z")},
		}},
	} {
		var got []row
		for _, iv := range intervals {
			if string(iv.Provider) == tc.provider {
				got = append(got, row{string(iv.Billing), iv.Price.Amount.String(), iv.ValidFrom.UTC(), optional(iv.ValidUntil),
					iv.LastSeen.UTC(), optional(iv.ObservedAt), iv.FetchedAt.UTC()})
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("history Parquet of %s (-want +got):\n%s", tc.provider, diff)
		}
	}
}

// TestCommittedHistory_ArchivesAreHistory checks data/history.jsonl as `make
// data` builds it: every archived price says when it was observed and that GPU
// Atlas retrieved it on 2026-12-01 (the second batch of the shared data), or
// 2026-12-04 for Tencent Cloud International's list prices (the third) and
// Azure's prices (the fourth); none
// reaches the embedded crawl's snapshot, which is data/catalog.json to the byte
// (so no export, explorer row or "cheapest" answer of today has one); the p5
// cut of 2025-06-05 is the one change from 2025-06-01 to 2025-06-10; and a
// Tencent list price of 2021 is in the snapshot of its own day only.
func TestCommittedHistory_ArchivesAreHistory(t *testing.T) {
	testlane.Long(t, "reads the whole committed history")
	hist := filepath.Join("..", "..", "data", "history.jsonl")
	h, err := catalog.ReadHistory(hist)
	if err != nil {
		t.Fatal(err)
	}
	second, third := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	if h.ObservationCount() == 0 {
		t.Fatal("the committed history has no archived prices")
	}
	for _, o := range h.Observations() {
		retrieved := second
		if strings.HasPrefix(o.Source, "https://github.com/tencentyun/intlcloud-documents/") || o.Provider == catalog.Azure {
			retrieved = third
		}
		if !o.RetrievedAt.Equal(retrieved) || o.ObservedAt.After(o.RetrievedAt) {
			t.Fatalf("%s observed %s: retrieved_at %s, want %s", o.SeriesKey(), o.ObservedAt, o.RetrievedAt, retrieved)
		}
	}
	embedded, err := os.ReadFile(filepath.Join("..", "..", "data", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	crawls := h.Crawls()
	for _, at := range []string{crawls[len(crawls)-1].Format(time.RFC3339), "2030-01-01"} {
		code, stdout, stderr := runCmd(runSnapshot, "--at", at, "--history", hist)
		if code != ExitOK || stdout != string(embedded) {
			t.Errorf("snapshot --at %s is not data/catalog.json (an archived price carried into today?): exit %d %s", at, code, stderr)
		}
	}

	code, stdout, _ := runCmd(runDiff, "2025-06-01", "2025-06-10", "--history", hist, "--format", "json")
	var d struct {
		Total     map[string]int `json:"totals"`
		Providers []struct {
			Provider     string `json:"provider"`
			PriceChanges []struct {
				Key string `json:"key"`
			} `json:"price_changes"`
		} `json:"providers"`
	}
	if err := json.Unmarshal([]byte(stdout), &d); code != ExitError || err != nil {
		t.Fatalf("diff: exit %d, %v\n%s", code, err, stdout)
	}
	// AWS's one change is the p5.48xlarge cut; Azure's version of 2025-06-03
	// changed some of its prices too.
	var awsChanges []string
	for _, p := range d.Providers {
		for _, c := range p.PriceChanges {
			if p.Provider == "aws" {
				awsChanges = append(awsChanges, c.Key)
			} else if p.Provider != "azure" {
				t.Errorf("a %s price changed from 2025-06-01 to 2025-06-10: %s", p.Provider, c.Key)
			}
		}
	}
	if len(awsChanges) != 1 || awsChanges[0] != "aws/p5.48xlarge/us-east-1//on_demand" {
		t.Errorf("diff 2025-06-01 2025-06-10 = %s, want the p5.48xlarge cut alone among AWS's prices", stdout)
	}

	for _, tc := range []struct {
		at, key, price, observed string
	}{
		{"2025-06-05", "aws/p5.48xlarge/us-east-1//on_demand", "55.04", "2025-06-05T07:22:36Z"},
		{"2021-06-01", "tencent/GN7.2XLARGE32/mainland-china//subscription_month", "2250", "2021-05-25"},
		{"2024-06-12", "alibaba/ecs.gn6i-c4g1.xlarge/ap-northeast-1/ap-northeast-1a/spot", "2.933", "2024-06-12T09:03:21Z"},
		// Azure's ND H200 v5 in australiaeast, 171.1 USD/h in the version of
		// 2024-12-13, 122.96 from the version of 2025-05-16.
		{"2025-01-15", "azure/Standard_ND96isr_H200_v5/australiaeast//on_demand", "171.1", "2024-12-13T01:59:24Z"},
		{"2025-05-20", "azure/Standard_ND96isr_H200_v5/australiaeast//on_demand", "122.96", "2025-05-16T07:05:27Z"},
	} {
		s, err := h.At(mustDate(t, tc.at).Add(24*time.Hour - time.Second))
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, o := range s.Offers {
			if o.Key() != tc.key {
				continue
			}
			found = true
			retrieved := second
			if o.Provider == catalog.Azure {
				retrieved = third
			}
			if o.Price.Amount.String() != tc.price || !strings.HasPrefix(o.ObservedAt.Format(time.RFC3339), tc.observed) || !o.FetchedAt.Equal(retrieved) || o.Availability != catalog.Unknown {
				t.Errorf("%s at %s: %s observed %s fetched %s, want %s observed %s fetched %s", tc.key, tc.at, o.Price.Amount, o.ObservedAt, o.FetchedAt, tc.price, tc.observed, retrieved)
			}
		}
		if !found {
			t.Errorf("%s is not in the snapshot of %s", tc.key, tc.at)
		}
	}
}

func mustDate(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
