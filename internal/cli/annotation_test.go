package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// workflowCommand is one line as the GitHub Actions runner reads it: a
// command, its properties and its message, unescaped.
type workflowCommand struct {
	Command string
	Props   map[string]string
	Message string
}

// parseCommands reads output as the runner does (actions/runner
// ActionCommand.TryParseV2): each line that starts with "::" after blanks is a
// command up to the next "::"; properties split at "," and the first "=".
func parseCommands(t *testing.T, output string) []workflowCommand {
	t.Helper()
	unescapeData := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%")
	unescapeProp := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
	var out []workflowCommand
	for _, line := range strings.Split(strings.ReplaceAll(output, "\r\n", "\n"), "\n") {
		line = strings.TrimLeft(line, " \t")
		if !strings.HasPrefix(line, "::") {
			continue
		}
		head, msg, ok := strings.Cut(line[2:], "::")
		if !ok {
			continue
		}
		c := workflowCommand{Props: map[string]string{}, Message: unescapeData.Replace(msg)}
		cmd, props, _ := strings.Cut(head, " ")
		c.Command = cmd
		for _, p := range strings.Split(props, ",") {
			if k, v, ok := strings.Cut(p, "="); ok {
				c.Props[k] = unescapeProp.Replace(v)
			}
		}
		out = append(out, c)
	}
	return out
}

// Whatever the file name, message or title, an annotation is one line that
// the runner reads back as exactly what was meant.
func TestAnnotation_Hostile(t *testing.T) {
	hostile := []string{
		"plain",
		"x.csv\n::error file=README.md,line=1::forged",
		"x.csv\r\n::add-mask::secret",
		"%0A%25 already escaped looking",
		"a:b,c=d::e",
		"  ::warning::leading blanks",
		"\x1b[31mred\x1b[0m and \u202eoverride",
		"guard: price 10 USD/hour → 30 USD/hour (+200.00%), beyond ±50%",
	}
	for _, file := range hostile {
		for _, msg := range hostile {
			line := annotation("error", "gpuatlas validate", file, 7, msg)
			if strings.ContainsAny(line, "\r\n") {
				t.Fatalf("annotation(%q, %q) spans lines: %q", file, msg, line)
			}
			got := parseCommands(t, line)
			want := []workflowCommand{{Command: "error", Props: map[string]string{"file": catalog.SafeLine(file), "line": "7", "title": "gpuatlas validate"}, Message: catalog.SafeLine(msg)}}
			// Line breaks survive as breaks; other control characters as Go escapes.
			want[0].Props["file"] = strings.NewReplacer(`\n`, "\n", `\r`, "\r").Replace(want[0].Props["file"])
			want[0].Message = strings.NewReplacer(`\n`, "\n", `\r`, "\r").Replace(want[0].Message)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("annotation(%q, %q) = %q reads back (-want +got):\n%s", file, msg, line, diff)
			}
		}
	}
	if got := annotation("warning", "", "", 0, "m"); got != "::warning::m" {
		t.Errorf("no properties: %q", got)
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
	cmds := parseCommands(t, stdout+"\n"+stderr)
	want := []workflowCommand{{Command: "error", Props: map[string]string{"file": filepath.ToSlash(filepath.Join(dir, name)), "line": "2", "title": "gpuatlas validate"},
		Message: `value "100%" is not a number`}}
	if diff := cmp.Diff(want, cmds); diff != "" {
		t.Errorf("workflow commands (-want +got):\n%s\nstdout %q\nstderr %q", diff, stdout, stderr)
	}
	if n := strings.Count(stdout, "\n"); n != 1 {
		t.Errorf("stdout has %d lines, want the one problem: %q", n, stdout)
	}
}

// gpuatlas crawl's progress in Actions: a provider's strings (a region, an
// error text) cannot start a command of their own, and a message with % reads
// back as it was.
func TestReporter_HostileProviderStrings(t *testing.T) {
	var errb bytes.Buffer
	env := Env{Stderr: &errb, Getenv: func(k string) string {
		if k == "GITHUB_ACTIONS" {
			return "true"
		}
		return ""
	}}
	log := newReporter(env)
	region := "cn-x\n::error::forged region\r\n::add-mask::x"
	log.info("alibaba " + region + ": ok")
	log.warn("alibaba " + region + ": throttled at 100% (\x1b[2J)")
	log.summary("alibaba: ok, 1 regions\n::error::forged summary")
	cmds := parseCommands(t, errb.String())
	want := []workflowCommand{{Command: "warning", Props: map[string]string{"title": "gpuatlas crawl"},
		Message: "alibaba cn-x\n::error::forged region\r\n::add-mask::x: throttled at 100% (\\x1b[2J)"}}
	if diff := cmp.Diff(want, cmds); diff != "" {
		t.Errorf("workflow commands (-want +got):\n%s\noutput %q", diff, errb.String())
	}
	if n := strings.Count(errb.String(), "\n"); n != 3 {
		t.Errorf("output has %d lines, want 3: %q", n, errb.String())
	}
}
