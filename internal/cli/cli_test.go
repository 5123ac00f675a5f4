package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// runCmd runs a command with an empty environment and returns its exit status,
// stdout and stderr.
func runCmd(run func(Env, []string) int, args ...string) (int, string, string) {
	return runEnv(run, nil, args...)
}

// runEnv runs a command with the environment variables env and returns its exit
// status, stdout and stderr.
func runEnv(run func(Env, []string) int, env map[string]string, args ...string) (int, string, string) {
	return runAt(run, nil, env, args...)
}

// runAt is runEnv with the clock now (nil: the time of day).
func runAt(run func(Env, []string) int, now func() time.Time, env map[string]string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }, Now: now}, args)
	return code, out.String(), errb.String()
}

// runExit runs a command with the environment variables env, fails t unless
// it exits with want, and returns its stdout.
func runExit(t *testing.T, want int, run func(Env, []string) int, env map[string]string, args ...string) string {
	t.Helper()
	code, stdout, stderr := runEnv(run, env, args...)
	if code != want {
		t.Fatalf("exit %d, want %d, stderr %q, stdout:\n%s", code, want, stderr, stdout)
	}
	return stdout
}

// stoppedAt is a clock that always says t.
func stoppedAt(t time.Time) func() time.Time { return func() time.Time { return t } }

// reportHas fails t for each of wants that report does not hold.
func reportHas(t *testing.T, report string, wants ...string) {
	t.Helper()
	for _, s := range wants {
		if !strings.Contains(report, s) {
			t.Errorf("report lacks %q:\n%s", s, report)
		}
	}
}
