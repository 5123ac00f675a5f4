package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// thresholdSnapshot is a crawl of 2026-12-10 in which AWS failed (its data
// kept, last confirmed on lastOK) and Alibaba was crawled: one offer each.
func thresholdSnapshot(lastOK time.Time) *catalog.Snapshot {
	at := time.Date(2026, 12, 10, 2, 17, 0, 0, time.UTC)
	offer := func(p catalog.Provider) catalog.Offer {
		return catalog.Offer{Provider: p, InstanceType: "t", Region: "r", Billing: catalog.OnDemand}
	}
	return &catalog.Snapshot{TakenAt: at,
		Coverage: []catalog.Coverage{
			{Provider: catalog.AWS, Status: catalog.CoverageStale, LastOK: lastOK},
			{Provider: catalog.Alibaba, Status: catalog.CoverageOK, LastOK: at},
			{Provider: catalog.Volcengine, Status: catalog.CoverageSkipped}, // no data, no credentials: not stale
		},
		Offers: []catalog.Offer{offer(catalog.AWS), offer(catalog.Alibaba)},
	}
}

func TestCheckThresholds(t *testing.T) {
	tenDays := time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name                  string
		lastOK                time.Time
		maxStale, minCoverage int
		want                  []string // codes and words, in order
	}{
		{"off by default", tenDays, -1, 0, nil},
		{"stale within the bound", tenDays, 10, 0, nil},
		{"stale beyond the bound", tenDays, 7, 0, []string{"stale_too_long aws: stale for 10 days, last confirmed 2026-11-30 (--max-stale-days 7)"}},
		{"never confirmed", time.Time{}, 7, 0, []string{"stale_too_long aws: stale and never confirmed by a crawl"}},
		{"coverage met", tenDays, -1, 50, nil},
		{"coverage below", tenDays, -1, 51, []string{"coverage_low catalog: this crawl confirmed 1 of 2 offers (50%), below --min-coverage 51%"}},
		{"both", tenDays, 0, 100, []string{"coverage_low catalog: ", "stale_too_long aws: "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r catalog.QualityReport
			checkThresholds(&r, thresholdSnapshot(tc.lastOK), time.Time{}, tc.maxStale, tc.minCoverage)
			if len(r.Errors) != len(tc.want) {
				t.Fatalf("%d errors, want %d: %+v", len(r.Errors), len(tc.want), r.Errors)
			}
			for i, e := range r.Errors {
				if got := e.Code + " " + e.Subject + ": " + e.Message; !strings.HasPrefix(got, tc.want[i]) {
					t.Errorf("error %d = %q, want it to start %q", i, got, tc.want[i])
				}
			}
		})
	}
}

func TestCheck_ThresholdFlags(t *testing.T) {
	for _, args := range [][]string{{"--min-coverage", "101"}, {"--min-coverage", "-1"}, {"--max-stale-days", "x"}} {
		if code, _, _ := runEnv(runCheck, nil, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, ExitUsage)
		}
	}
	// The embedded catalog: every provider with data confirmed by its crawl.
	if code, stdout, _ := runEnv(runCheck, nil, "--max-stale-days", "0", "--min-coverage", "90"); code != ExitOK {
		t.Errorf("embedded catalog with the nightly's alarms: exit %d:\n%s", code, stdout)
	}
}
