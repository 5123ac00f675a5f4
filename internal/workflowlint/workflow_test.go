package workflowlint

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// workflow is the part of a workflow file these rules read.
type workflow struct {
	On          map[string]yaml.Node `yaml:"on"`
	Permissions *yaml.Node           `yaml:"permissions"`
	Env         map[string]string    `yaml:"env"`
	Jobs        map[string]job       `yaml:"jobs"`
}

type job struct {
	If          string            `yaml:"if"`
	Needs       yaml.Node         `yaml:"needs"`
	Environment yaml.Node         `yaml:"environment"`
	Permissions map[string]string `yaml:"permissions"`
	Steps       []step            `yaml:"steps"`
}

type step struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
	Env  map[string]string `yaml:"env"`
}

func read(t *testing.T, name string) (workflow, []byte) {
	t.Helper()
	b, err := os.ReadFile("../../.github/workflows/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var w workflow
	if err := yaml.Unmarshal(b, &w); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return w, b
}

var pinned = regexp.MustCompile(`uses: [\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$`)

// TestWorkflows_ActionsPinned: every action is pinned to a full commit SHA
// with its version in a comment, in every workflow.
func TestWorkflows_ActionsPinned(t *testing.T) {
	for _, name := range []string{"ci.yml", "nightly.yml"} {
		_, b := read(t, name)
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "uses:") && !strings.HasPrefix(strings.TrimSpace(line), "#") && !pinned.MatchString(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))) {
				t.Errorf("%s:%d: %s: want uses: OWNER/REPO@<40-hex SHA> # vX.Y.Z", name, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// TestNightly_LeastPrivilege: no permissions at the top; each job only what
// it needs; the provider secrets only on the crawl step of the crawl job, in
// the nightly environment; no checkout keeps its token; the newest main is
// checked out; no shared build cache.
func TestNightly_LeastPrivilege(t *testing.T) {
	w, _ := read(t, "nightly.yml")
	if w.Permissions != nil {
		t.Error("nightly.yml grants permissions at the top: name them per job")
	}
	want := map[string]map[string]string{
		"crawl":  {"contents": "read", "id-token": "write"},
		"check":  {"contents": "read"},
		"commit": {"contents": "write"},
		"deploy": {"pages": "write", "id-token": "write"},
		"alarm":  {"issues": "write"},
	}
	for name, perms := range want {
		j, ok := w.Jobs[name]
		if !ok {
			t.Errorf("no job %s", name)
			continue
		}
		if !mapsEqual(j.Permissions, perms) {
			t.Errorf("job %s: permissions %v, want %v", name, j.Permissions, perms)
		}
	}
	if len(w.Jobs) != len(want) {
		t.Errorf("%d jobs, want %d: a new job needs its permissions stated here", len(w.Jobs), len(want))
	}
	if w.Jobs["crawl"].Environment.Value != "nightly" {
		t.Errorf("the crawl job's environment is %q, want nightly (its secrets, limited to main)", w.Jobs["crawl"].Environment.Value)
	}
	for name, j := range w.Jobs {
		for _, s := range j.Steps {
			for k, v := range s.Env {
				crawlStep := name == "crawl" && strings.Contains(s.Run, "nightly.sh crawl")
				if strings.Contains(v, "secrets.") && !crawlStep {
					t.Errorf("job %s, step %q: %s reads a secret outside the crawl step", name, s.Name, k)
				}
			}
			for k, v := range s.With {
				if strings.Contains(v, "secrets.") {
					t.Errorf("job %s, step %q: input %s reads a secret", name, s.Name, k)
				}
			}
			if strings.HasPrefix(s.Uses, "actions/checkout@") {
				if s.With["persist-credentials"] != "false" {
					t.Errorf("job %s: checkout keeps its token (want persist-credentials: false)", name)
				}
				if s.With["ref"] != "main" {
					t.Errorf("job %s: checkout of %q, want the newest main", name, s.With["ref"])
				}
			}
			if strings.HasPrefix(s.Uses, "actions/setup-go@") && (s.With["cache"] != "false" || s.With["check-latest"] != "true") {
				t.Errorf("job %s: setup-go with cache %q, check-latest %q; want no cache shared with CI and the latest patch release", name, s.With["cache"], s.With["check-latest"])
			}
		}
	}
}

// TestNightly_RunsAndForks: manual runs can be dry and crawl a subset;
// neither a dry run commits or deploys; a fork's schedule does not run; the
// site is uploaded before the commit job starts; the guard's report is kept.
func TestNightly_RunsAndForks(t *testing.T) {
	w, b := read(t, "nightly.yml")
	var dispatch struct {
		Inputs map[string]any `yaml:"inputs"`
	}
	n, ok := w.On["workflow_dispatch"]
	if !ok || n.Decode(&dispatch) != nil {
		t.Fatal("no workflow_dispatch")
	}
	for _, in := range []string{"dry_run", "providers", "accept_drop", "accept_price_change", "max_stale_days", "min_coverage"} {
		if _, ok := dispatch.Inputs[in]; !ok {
			t.Errorf("workflow_dispatch has no input %s", in)
		}
	}
	for _, name := range []string{"commit", "deploy"} {
		if !strings.Contains(w.Jobs[name].If, "!inputs.dry_run") {
			t.Errorf("job %s runs on a dry run (if: %q)", name, w.Jobs[name].If)
		}
	}
	if !strings.Contains(w.Jobs["crawl"].If, "github.repository == 'gpuatlas/gpuatlas'") || !strings.Contains(w.Jobs["crawl"].If, "schedule") {
		t.Errorf("the crawl job runs a fork's schedule (if: %q)", w.Jobs["crawl"].If)
	}
	var needs []string
	commitNeeds := w.Jobs["commit"].Needs
	if err := commitNeeds.Decode(&needs); err != nil || !slices.Contains(needs, "check") {
		t.Errorf("the commit job does not wait for the check job, which uploads the site: needs %v", needs)
	}
	if !slices.ContainsFunc(w.Jobs["check"].Steps, func(s step) bool { return strings.HasPrefix(s.Uses, "actions/upload-pages-artifact@") }) {
		t.Error("the check job does not upload the site")
	}
	if !strings.Contains(string(b), "name: nightly-report") || !strings.Contains(string(b), "if: failure()") {
		t.Error("no nightly-report artifact on failure (the guard's report and the stopped snapshot)")
	}
	for _, s := range w.Jobs["check"].Steps {
		if strings.Contains(s.Run, "nightly.sh") && (s.Env["MAX_STALE_DAYS"] == "" || s.Env["MIN_COVERAGE"] == "") {
			t.Errorf("the check step does not pass the alarms' thresholds: env %v", s.Env)
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
