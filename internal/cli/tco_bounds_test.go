package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tco --input holds a file to the ranges of the flags (compare.TCOBounds):
// what a flag refuses, the file's figure is refused too, naming the field and
// the flag; a bad --billing plan is a usage error like every other bad flag.
func TestTCO_InputHeldToTheFlagsBounds(t *testing.T) {
	cat := scenarioFixture(t)
	out := runExit(t, ExitOK, runTCO, nil, "--catalog", cat, "--offer", "aws/p3.8xlarge", "--region", "us-east-1", "--billing", "on_demand,spot",
		"--interruptions-per-month", "1", "--hours-per-month", "100", "--months", "2", "--benchmarks", "none", "--format", "json")
	var r struct {
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"1e5000 hours", `"job_size": "100"`, `"job_size": 1e5000`, `workload.job_size "1e+5000": out of range: want more than 0 and at most 7,440,000 (as --hours-per-month)`},
		{"1e400 idle hours", `"idle_hours_per_month": "0"`, `"idle_hours_per_month": "1e400"`, `(as --idle-hours)`},
		{"an overhead of 2", `"interruption_overhead": "0"`, `"interruption_overhead": "2"`, `pay_as_you_go.interruption_overhead "2": out of range: want 0 % to 100 % (as a share: 0 to 1) (as --spot-overhead)`},
		{"a month of 601", `"horizon_months": 2`, `"horizon_months": 601`, `workload.horizon_months "601": out of range: want 1 to 600 (as --months)`},
		{"a number of 10,000 digits", `"job_size": "100"`, `"job_size": 1` + strings.Repeat("0", 10000), `a number of 10001 characters: at most 64`},
	} {
		text := strings.Replace(string(r.Input), c.from, c.to, 1)
		if text == string(r.Input) {
			t.Fatalf("%s: %s is not in the input:\n%s", c.name, c.from, r.Input)
		}
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".json")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := runCmd(runTCO, "--input", path)
		if code != ExitError || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.name, code, errs, ExitError, c.want)
		}
	}
	for _, bad := range []string{"weekly", "spot+on_demand", "reserved_1y_all_upfront+reserved_3y_all_upfront", "on_demand+", ",", strings.Repeat("x", 4000)} {
		code, _, errs := runCmd(runTCO, "--catalog", cat, "--offer", "aws/p3.8xlarge", "--region", "us-east-1", "--billing", bad, "--benchmarks", "none")
		if code != ExitUsage || !strings.Contains(errs, "tco: --billing: ") || len(errs) > 600 {
			t.Errorf("--billing %.40q: exit %d, stderr %q; want a usage error (%d)", bad, code, errs, ExitUsage)
		}
	}
}

// An --offer or --region longer than any id is a usage error that repeats
// only its start.
func TestTCO_LongIDsEchoAnExcerpt(t *testing.T) {
	long := strings.Repeat("x", 4000)
	for _, args := range [][]string{
		{"--offer", "aws/" + long, "--region", "us-east-1"},
		{"--offer", "aws/p3.8xlarge", "--region", long},
	} {
		code, _, errs := runCmd(runTCO, append(args, "--catalog", scenarioFixture(t), "--benchmarks", "none")...)
		if code != ExitUsage || strings.Contains(errs, strings.Repeat("x", 41)) {
			t.Errorf("%.30q…: exit %d, stderr %.200q; want a usage error with an excerpt", args, code, errs)
		}
	}
}
