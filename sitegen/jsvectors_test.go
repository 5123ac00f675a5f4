package sitegen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/templates"
)

// The site's calculators (static/tco.js, static/fit.js) recompute compare's
// rules in the browser. The vector tests (TestTCOJS_Vectors, TestFitJS_Vectors)
// hold them to the Go code: each generates its inputs across every rule's
// edges, computes the answers with compare (and words for the number formats),
// runs the script as the site serves it under node (testdata/jsvectors/
// harness.js) and compares every answer exactly.

// jsCall is one call of a script's exported function.
type jsCall struct {
	Fn   string `json:"fn"`
	Args []any  `json:"args"`
}

// jsAnswer is a call's answer: OK, or the error the script threw and its name
// (ModelError for tco.js's refusal of an input).
type jsAnswer struct {
	OK    json.RawMessage `json:"ok"`
	Error string          `json:"error"`
	Kind  string          `json:"kind"`
}

// nodeOrSkip is node. Without it the test is skipped, except in CI
// (CI=true), where it fails: .ci/run installs it.
func nodeOrSkip(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("node not found (CI=true: the JS vector tests must run; .ci/run installs nodejs): %v", err)
		}
		t.Skipf("node not found: %v (install nodejs to hold the site's scripts to the Go code)", err)
	}
	return node
}

// runScript runs the calls through static/<script> (the embedded copy the site
// serves), whose API is globalThis[global], under node.
func runScript(t *testing.T, script, global string, calls []jsCall) []jsAnswer {
	t.Helper()
	node := nodeOrSkip(t)
	src, err := templates.FS.ReadFile("static/" + script)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, script)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	harness, err := filepath.Abs(filepath.Join("testdata", "jsvectors", "harness.js"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(calls)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(node, harness, path, global)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.String())
	}
	t.Logf("node ran %d calls of %s in %v", len(calls), script, time.Since(start).Round(time.Millisecond))
	var out []jsAnswer
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.String())
	}
	if len(out) != len(calls) {
		t.Fatalf("node %s: %d answers to %d calls", script, len(out), len(calls))
	}
	return out
}

// jsonTree is v as generic JSON (maps, slices, strings, float64), for an exact
// comparison that ignores only key order.
func jsonTree(t *testing.T, v any) any {
	t.Helper()
	b, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return out
}

// sameJSON reports the difference between Go's answer and the script's, ""
// when they are the same JSON.
func sameJSON(t *testing.T, want any, got json.RawMessage) string {
	t.Helper()
	return cmp.Diff(jsonTree(t, want), jsonTree(t, got))
}

// vectorName is a vector's name for a failure: its kind and number.
func vectorName(kind string, i int, note string) string {
	return fmt.Sprintf("%s #%d (%s)", kind, i, note)
}
