package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHistory_TencentIntlListPrices imports the committed observation file of
// Tencent Cloud International's GPU list prices (realdata's third batch,
// data/history-sources) with `history import` and asks `snapshot --at` what a
// type cost at past dates: GN8.LARGE56's starting price before the rise of
// 2020-07-14 and its price after, GN7.2XLARGE32 in 2021 and 2023, and the
// monthly subscription of the 2020-04 region-group tables.
func TestHistory_TencentIntlListPrices(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "history.jsonl")
	src := filepath.Join("..", "..", "data", "history-sources", "tencent_intl_gpu_list_prices_2018_2023.jsonl")
	if code, _, stderr := runAt(runHistory, stoppedAt(time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)), nil, "import", src, "--history", hist); code != ExitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	type dated struct{ Price, Observed, Fetched string }
	for _, tc := range []struct {
		at   string
		want map[string]dated
	}{
		{"2019-06-01", map[string]dated{
			"tencent/GN8.LARGE56/international//on_demand": {"1.98", "2018-10-29T09:31:57Z", "2026-12-04T00:00:00Z"},
		}},
		{"2020-04-02", map[string]dated{
			"tencent/GN8.LARGE56/ap-beijing//subscription_month":           {"637.6811594", "2020-04-01T08:19:57Z", "2026-12-04T00:00:00Z"},
			"tencent/GN8.LARGE56/ap-beijing//on_demand":                    {"2.21", "2020-04-01T08:19:57Z", "2026-12-04T00:00:00Z"},
			"tencent/GN8.14XLARGE448/na-siliconvalley//subscription_month": {"8765.217391", "2020-04-01T08:19:57Z", "2026-12-04T00:00:00Z"},
		}},
		{"2021-06-01", map[string]dated{
			"tencent/GN8.LARGE56/international//on_demand":   {"2.45", "2021-03-24T04:03:57Z", "2026-12-04T00:00:00Z"},
			"tencent/GN7.2XLARGE32/international//on_demand": {"1.26", "2021-03-24T04:03:57Z", "2026-12-04T00:00:00Z"},
		}},
		{"2023-06-01", map[string]dated{
			"tencent/GN7.2XLARGE32/international//on_demand": {"1.26", "2023-05-17T01:45:18Z", "2026-12-04T00:00:00Z"},
		}},
	} {
		t.Run(tc.at, func(t *testing.T) {
			snap := filepath.Join(t.TempDir(), "snap.json")
			if code, _, stderr := runCmd(runSnapshot, "--at", tc.at, "--history", hist, "--out", snap); code != ExitOK {
				t.Fatalf("snapshot --at %s: exit %d: %s", tc.at, code, stderr)
			}
			rows := exportCSV(t, snap)
			for k, want := range tc.want {
				r, ok := rows[k]
				if !ok {
					t.Errorf("no offer %s at %s", k, tc.at)
					continue
				}
				got := dated{r["price"], r["observed_at"], r["fetched_at"]}
				if got != want {
					t.Errorf("%s at %s = %+v, want %+v", k, tc.at, got, want)
				}
			}
			for k := range rows {
				if strings.Contains(k, "/GN10X.MEDIUM10/") && tc.at == "2023-06-01" {
					t.Errorf("GN10X.MEDIUM10, removed from the page on 2022-09-16, is still priced in 2023: %s", k)
				}
			}
		})
	}
}
