package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/ghactions"
)

// validateFixture writes a small snapshot and returns its path.
func validateFixture(t *testing.T) string {
	t.Helper()
	acc := func(n int) []catalog.Accelerator {
		return []catalog.Accelerator{{Kind: catalog.KindGPU, Model: "nvidia-a10g-24gb", Name: "A10G", Count: n, Share: catalog.Dec("1"), MemoryGiB: catalog.Dec("24")}}
	}
	snap := &catalog.Snapshot{
		Schema:  catalog.SchemaVersion,
		TakenAt: time.Date(2025, 11, 30, 0, 0, 0, 0, time.UTC),
		FX:      catalog.FXTable{Base: catalog.USD, Date: "2025-11-28", Source: "test"},
		Regions: []catalog.Region{{Provider: catalog.AWS, ID: "us-east-1"}},
		Instances: []catalog.InstanceType{
			{Provider: catalog.AWS, ID: "g5.xlarge", Accelerators: acc(1), Generation: "current", Source: "test"},
			{Provider: catalog.AWS, ID: "g5.12xlarge", Accelerators: acc(4), Generation: "current", Source: "test"},
		},
	}
	path := filepath.Join(t.TempDir(), "catalog.json")
	if err := catalog.WriteSnapshot(path, snap); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runValidateTest(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	return runAt(runValidate, stoppedAt(time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)), env, args...)
}

// qualityClean is the line validate --catalog adds for a catalog without
// data-quality findings (the fixture has no offers).
const qualityClean = "validate: catalog data quality: 0 errors, 0 warnings\n"

const validateHeader = "submitter,run_date,provider,instance_type,region,workload,metric,unit,value\n"

func TestValidate_ExitCodes(t *testing.T) {
	snap := validateFixture(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	writeFile(t, good, validateHeader+"Alice,2025-06-01,aws,g5.xlarge,us-east-1,llm-inference-8b,throughput,tokens/s,120\n")
	warn := filepath.Join(dir, "warn.csv")
	writeFile(t, warn, validateHeader+"Alice,2025-06-01,aws,g5.xlarge,eu-west-9,llm-inference-8b,throughput,tokens/s,120\n")
	bad := filepath.Join(dir, "bad", "runs.yaml")
	writeFile(t, bad, "- submitter: Bob\n  run_date: 2026-01-01\n  provider: aws\n  instance_type: g5.xlarge\n  workload: llm-inference-8b\n  metric: throughput\n  unit: tokens/s\n  value: 120\n"+
		"- submitter: Bob\n  run_date: 2025-01-01\n  provider: aws\n  instance_type: g5.2xlarge\n  workload: llm-inference-8b\n  metric: throughput\n  unit: tokens/s\n  value: 120\n")
	slash := filepath.ToSlash
	tests := []struct {
		name    string
		args    []string
		code    int
		stdout  string
		summary string
	}{
		{"Clean", []string{"--catalog", snap, good}, ExitOK, "", "validate: 1 valid run; 0 errors, 0 warnings\n" + qualityClean},
		{"WarningsAllowed", []string{"--catalog", snap, warn}, ExitOK,
			slash(warn) + `:2: warning: region "eu-west-9" is not a aws region in the catalog` + "\n",
			"validate: 1 valid run; 0 errors, 1 warning\n" + qualityClean},
		{"Errors", []string{"--catalog", snap, good, filepath.Join(dir, "bad")}, ExitError,
			slash(bad) + ":2: run_date 2026-01-01 is in the future (today is 2025-12-01)\n" +
				slash(bad) + `:12: unknown aws instance type "g5.2xlarge"; closest: g5.12xlarge, g5.xlarge` + "\n",
			"validate: 1 valid run; 2 errors, 0 warnings\n" + qualityClean},
		{"MissingPath", []string{"--catalog", snap, filepath.Join(dir, "nope")}, ExitError,
			slash(filepath.Join(dir, "nope")) + ": cannot read: no such file or directory\n",
			"validate: 0 valid runs; 1 error, 0 warnings\n" + qualityClean},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runValidateTest(t, nil, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if diff := cmp.Diff(tt.stdout, stdout); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if stderr != tt.summary {
				t.Errorf("stderr = %q, want %q", stderr, tt.summary)
			}
		})
	}
}

func TestValidate_Usage(t *testing.T) {
	if code, _, stderr := runValidateTest(t, nil, "--no-such-flag"); code != ExitUsage || !strings.Contains(stderr, "flag provided but not defined") {
		t.Errorf("bad flag: exit %d, stderr %q", code, stderr)
	}
	code, stdout, _ := runValidateTest(t, nil, "--help")
	if code != ExitOK || !strings.Contains(stdout, "Usage: gpuatlas validate") || !strings.Contains(stdout, "-catalog") {
		t.Errorf("--help: exit %d, stdout %q", code, stdout)
	}
	if code, _, stderr := runValidateTest(t, nil, "--catalog", filepath.Join(t.TempDir(), "none.json")); code != ExitError || !strings.Contains(stderr, "validate: read snapshot") {
		t.Errorf("missing catalog: exit %d, stderr %q", code, stderr)
	}
}

// Without PATH, validate reads data/benchmarks under the working directory.
func TestValidate_DefaultPath(t *testing.T) {
	snap := validateFixture(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "data", "benchmarks", "a.csv"), validateHeader+"Alice,2025-06-01,aws,g5.12xlarge,us-east-1,llm-inference-8b,throughput,tokens/s,-1\n")
	t.Chdir(dir)
	code, stdout, _ := runValidateTest(t, nil, "--catalog", snap)
	if code != ExitError || stdout != "data/benchmarks/a.csv:2: value -1 must be positive\n" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
}

// In GitHub Actions each problem is also an annotation on its file and line.
func TestValidate_GitHubAnnotations(t *testing.T) {
	snap := validateFixture(t)
	dir := t.TempDir()
	f := filepath.Join(dir, "a.csv")
	writeFile(t, f, validateHeader+"Alice,2025-06-01,aws,g5.xlarge,us-east-1,llm-inference-8b,throughput,tokens/s,0\n")
	_, _, stderr := runValidateTest(t, map[string]string{"GITHUB_ACTIONS": "true"}, "--catalog", snap, f)
	want := "::error file=" + strings.NewReplacer(":", "%3A", ",", "%2C").Replace(filepath.ToSlash(f)) + ",line=2,title=gpuatlas validate::value 0 must be positive\n"
	if !strings.HasPrefix(stderr, want) {
		t.Errorf("stderr = %q, want prefix %q", stderr, want)
	}
}

func TestValidate_WorkloadsFlag(t *testing.T) {
	snap := validateFixture(t)
	dir := t.TempDir()
	wl := filepath.Join(dir, "workloads.csv")
	writeFile(t, wl, "id,name,category,metric,unit,higher_is_better,cost_per,cost_unit,description\nmy-job,My job,training,throughput,steps/s,true,1000,\"1,000 steps\",A team's own job\n")
	f := filepath.Join(dir, "a.csv")
	writeFile(t, f, validateHeader+"Alice,2025-06-01,aws,g5.xlarge,us-east-1,my-job,throughput,steps/s,3\n")
	if code, stdout, stderr := runValidateTest(t, nil, "--catalog", snap, "--workloads", wl, f); code != ExitOK {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// gpuatlas validate in Actions: a file named to forge a command yields only
// its own annotation (on that file, decoded back to its name), and its plain
// line is one line.
func TestValidate_HostileFileNameInActions(t *testing.T) {
	snap := validateFixture(t)
	dir := t.TempDir()
	name := "a.csv\n::error file=README.md,line=1::forged\n.csv"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(validateHeader+"Alice,2025-06-01,aws,g5.xlarge,us-east-1,llm-inference-8b,throughput,tokens/s,100%\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runValidateTest(t, map[string]string{"GITHUB_ACTIONS": "true"}, "--catalog", snap, dir)
	if code != ExitError {
		t.Errorf("exit %d", code)
	}
	cmds := ghactions.ReadCommands(stdout + "\n" + stderr)
	want := []ghactions.Command{{Command: "error", Props: map[string]string{"file": filepath.ToSlash(filepath.Join(dir, name)), "line": "2", "title": "gpuatlas validate"},
		Message: `value "100%" is not a number`}}
	if diff := cmp.Diff(want, cmds); diff != "" {
		t.Errorf("workflow commands (-want +got):\n%s\nstdout %q\nstderr %q", diff, stdout, stderr)
	}
	if n := strings.Count(stdout, "\n"); n != 1 {
		t.Errorf("stdout has %d lines, want the one problem: %q", n, stdout)
	}
}
