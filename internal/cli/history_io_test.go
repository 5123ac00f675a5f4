package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An import refuses, with file:line, a currency that the history's FX
// tables cannot convert (`snapshot --at` would fail on it later with a
// message about the snapshot) and dates after the import's clock.
func TestHistoryImport_RefusesUnconvertibleCurrencyAndFutureDates(t *testing.T) {
	defer func(f func() time.Time) { historyNow = f }(historyNow)
	historyNow = func() time.Time { return time.Date(2025, 7, 1, 12, 0, 0, 0, time.UTC) }
	const header = "provider,instance_type,region,billing,price,currency,unit,includes,observed_at,observed_until,retrieved_at,source\n"
	const row = "aws,p5.48xlarge,us-east-1,on_demand,98.32,USD,hour,instance only,2025-06-01,,,https://example.org/x\n"
	for _, tc := range []struct{ name, row, want string }{
		{"currency", strings.Replace(row, "USD", "XYZ", 1), "obs.csv:3: currency XYZ: the history's FX table cannot convert it"},
		{"observed_at", strings.Replace(row, "2025-06-01", "2025-07-02", 1), "obs.csv:3: observed_at 2025-07-02T00:00:00Z: in the future"},
		{"observed_until", strings.Replace(row, "2025-06-01,,", "2025-06-01,2025-08-01,", 1), "obs.csv:3: observed_until 2025-08-01T00:00:00Z: in the future"},
		{"retrieved_at", strings.Replace(row, "2025-06-01,,", "2025-06-01,,2026-01-01", 1), "obs.csv:3: retrieved_at 2026-01-01T00:00:00Z: in the future"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			hist := filepath.Join(dir, "history.jsonl")
			obs := obsFile(t, dir, "obs.csv", header+row+tc.row)
			code, _, stderr := runCmd(runHistory, "import", obs, "--history", hist)
			if code != ExitError || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want 1 and %q:\n%s", code, tc.want, stderr)
			}
		})
	}
	// The same rows in the past and in USD are imported.
	dir := t.TempDir()
	obs := obsFile(t, dir, "obs.csv", header+row)
	if code, _, stderr := runCmd(runHistory, "import", obs, "--history", filepath.Join(dir, "h.jsonl")); code != ExitOK {
		t.Errorf("a good row: exit %d\n%s", code, stderr)
	}
}
