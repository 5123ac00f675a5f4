package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The commands that read a clock read env.Now: a benchmark run of 1 June
// 2025 is in the future for validate, scenarios and build on 1 May 2025 and
// fine for validate and scenarios on 1 July 2025 (the import's stamp is
// TestHistoryDates_ImportToExport's, the crawl's TestCrawl_TakenAtIsEnvNow's).
func TestEnvNow_CommandsReadTheInjectedClock(t *testing.T) {
	snap := validateFixture(t)
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs", "runs.csv")
	writeFile(t, runs, validateHeader+"Alice,2025-06-01,aws,g5.xlarge,us-east-1,llm-inference-8b,throughput,tokens/s,120\n")
	before := stoppedAt(time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC))
	after := stoppedAt(time.Date(2025, 7, 1, 12, 0, 0, 0, time.UTC))
	const future = "run_date 2025-06-01 is in the future (today is 2025-05-01)"
	for _, tc := range []struct {
		name     string
		run      func(Env, []string) int
		args     []string
		early    int // exit status on 1 May
		late     int // exit status on 1 July; -1: not run (build would build a site)
		lateNone string
	}{
		{"validate", runValidate, []string{"--catalog", snap, runs}, ExitError, ExitOK, "in the future"},
		{"scenarios", runScenarios, []string{"--catalog", snap, "--benchmarks", runs, "--format", "json"}, ExitOK, ExitOK, "have errors and were left out"},
		{"build", runBuild, []string{"--catalog", snap, "--benchmarks", filepath.Dir(runs), "--out", filepath.Join(dir, "site")}, ExitError, -1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runAt(tc.run, before, nil, tc.args...)
			if code != tc.early || !strings.Contains(stdout+stderr, "1 benchmark record") && !strings.Contains(stdout+stderr, future) {
				t.Errorf("on 1 May: exit %d, want %d and the run in the future:\n%s%s", code, tc.early, stdout, stderr)
			}
			if tc.name == "validate" && !strings.Contains(stdout, future) {
				t.Errorf("on 1 May: validate does not say %q:\n%s", future, stdout)
			}
			if tc.late < 0 {
				return
			}
			code, stdout, stderr = runAt(tc.run, after, nil, tc.args...)
			if code != tc.late || strings.Contains(stdout+stderr, tc.lateNone) {
				t.Errorf("on 1 July: exit %d, want %d and no %q:\n%s%s", code, tc.late, tc.lateNone, stdout, stderr)
			}
		})
	}
}
