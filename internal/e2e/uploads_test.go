package e2e

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runBounded runs the gpuatlas binary and fails the test when it has not
// ended within a minute: an endless input must not hang a command.
func runBounded(t *testing.T, env []string, args ...string) (code int, out string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, gpuatlasBinary(t), args...)
	cmd.Dir = root
	cmd.Env = env
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("gpuatlas %s did not end within a minute", strings.Join(args, " "))
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, b.String()
}

// An upload folder that holds links to the process's environment and to
// /dev/zero, a named pipe and a 50 MB file: gpuatlas validate, build and
// scenarios name each, end at once, and print no secret of the environment
// they run in (the nightly job validates uploads in the step that holds every
// provider's secrets), in GitHub Actions too.
func TestUploads_HostileFolder(t *testing.T) {
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY-e2e"
	dir := t.TempDir()
	uploads := filepath.Join(dir, "benchmarks")
	if err := os.MkdirAll(uploads, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"env.csv": "/proc/self/environ", "zero.yaml": "/dev/zero"} {
		if err := os.Symlink(target, filepath.Join(uploads, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(uploads, "pipe.csv"), 0o644); err != nil {
		t.Fatal(err)
	}
	row := "Alice,2025-06-01,aws,g5.xlarge,us-east-1,llm-inference-8b,throughput,tokens/s,1200\n"
	big := "submitter,run_date,provider,instance_type,region,workload,metric,unit,value\n" + strings.Repeat(row, 50_000_000/len(row))
	writeFile(t, filepath.Join(uploads, "big.csv"), []byte(big))
	env := childEnv(t, map[string]string{"AWS_SECRET_ACCESS_KEY": secret, "GITHUB_ACTIONS": "true"})
	for _, args := range [][]string{
		{"validate", uploads},
		{"build", "--benchmarks", uploads, "--out", filepath.Join(dir, "site")},
		{"scenarios", "--benchmarks", uploads, "--scenario", "dev-test"},
	} {
		start := time.Now()
		code, out := runBounded(t, env, args...)
		if strings.Contains(out, secret) || strings.Contains(out, "AWS_SECRET_ACCESS_KEY") {
			t.Errorf("gpuatlas %s printed the environment:\n%s", args[0], out)
		}
		if args[0] == "scenarios" {
			if code != 0 || !strings.Contains(out, "4 benchmark records in "+uploads+" have errors and were left out") {
				t.Errorf("gpuatlas scenarios: exit %d, want 0 and the uploads left out counted:\n%s", code, out)
			}
			continue
		}
		if code != 1 {
			t.Errorf("gpuatlas %s: exit %d, want 1", args[0], code)
		}
		for _, want := range []string{
			"benchmarks/env.csv: not read: a symbolic link that leads out of its folder",
			"benchmarks/zero.yaml: not read: a symbolic link that leads out of its folder",
			"benchmarks/pipe.csv: not read: not a regular file (a named pipe)",
			"benchmarks/big.csv: larger than 10 MB",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("gpuatlas %s does not say %q:\n%s", args[0], want, out)
			}
		}
		t.Logf("gpuatlas %s: %v", args[0], time.Since(start).Round(time.Millisecond))
	}
}

// diff, export and snapshot given /dev/zero, or a file past their limits, end
// at once with the file named.
func TestEndlessInputs_Refused(t *testing.T) {
	env := childEnv(t, nil)
	for _, args := range [][]string{
		{"diff", "/dev/zero", "data/catalog.json"},
		{"export", "--catalog", "/dev/zero"},
		{"snapshot", "--at", "2025-11-30", "--history", "/dev/zero"},
		{"tco", "--input", "/dev/zero"},
		{"validate", "--workloads", "/dev/zero"},
		{"scenarios", "--scenarios", "/dev/zero"},
	} {
		code, out := runBounded(t, env, args...)
		if code == 0 || !strings.Contains(out, "/dev/zero: not a file (a character device)") {
			t.Errorf("gpuatlas %s: exit %d:\n%s", strings.Join(args, " "), code, out)
		}
	}
}
