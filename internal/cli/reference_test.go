package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReference_UpToDate: docs/reference.md is what the commands' flag
// definitions give (make docs rewrites it).
func TestReference_UpToDate(t *testing.T) {
	var got bytes.Buffer
	if err := WriteReference(&got); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "docs", "reference.md")
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run make docs to write it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got.String(), "\n")); diff != "" {
		t.Errorf("%s is out of date with the commands' flags (-file +code); run make docs and review the diff:\n%s", path, diff)
	}
}

// TestReference_EveryCommandAndFlag: the reference holds every command `gpuatlas
// help` lists (history once per subcommand) and every flag a command's
// --help prints, with its type and default.
func TestReference_EveryCommandAndFlag(t *testing.T) {
	refs, err := Reference()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]CommandRef{}
	for _, r := range refs {
		byName[r.Name] = r
	}
	for _, c := range commands() {
		names := []string{c.name}
		if subs, ok := subcommands()[c.name]; ok {
			names = nil
			for _, s := range subs {
				names = append(names, c.name+" "+s.name)
			}
		}
		for _, name := range names {
			r, ok := byName[name]
			if !ok {
				t.Errorf("the reference lacks %s", name)
				continue
			}
			if !strings.HasPrefix(r.Usage, "Usage: gpuatlas "+name) {
				t.Errorf("%s: usage starts %q", name, firstLine(r.Usage))
			}
			// Every flag --help prints is in the reference.
			var help bytes.Buffer
			env := Env{Stdout: &help, Stderr: &help, Getenv: func(string) string { return "" }}
			c.run(env, append(strings.Fields(strings.TrimPrefix(name, c.name)), "--help"))
			listed := map[string]bool{}
			for _, f := range r.Flags {
				listed[f.Name] = true
			}
			n := 0
			text := help.String()
			_, flags, ok := strings.Cut(text[strings.LastIndex(text, "\nFlags:\n")+1:], "Flags:\n")
			if !ok {
				t.Errorf("%s --help has no Flags: line:\n%s", name, text)
			}
			for _, line := range strings.Split(flags, "\n") {
				if !strings.HasPrefix(line, "  -") {
					continue
				}
				n++
				fl := strings.Fields(strings.TrimPrefix(line, "  -"))[0]
				if !listed[fl] {
					t.Errorf("%s --help prints -%s; the reference lacks it", name, fl)
				}
			}
			if n != len(r.Flags) {
				t.Errorf("%s: --help prints %d flags, the reference %d", name, n, len(r.Flags))
			}
		}
	}
	// Types and defaults as defined.
	want := map[string]FlagRef{
		"crawl --max-attempts": {Name: "max-attempts", Type: "int", Default: "5"},
		"crawl --timeout":      {Name: "timeout", Type: "duration", Default: "30m0s"},
		"crawl --endpoint":     {Name: "endpoint", Type: "string, repeatable"},
		"crawl --no-history":   {Name: "no-history", Type: "bool"},
		"serve --addr":         {Name: "addr", Type: "string", Default: "127.0.0.1:8080"},
		"history export --out": {Name: "out", Type: "string"},
	}
	for key, w := range want {
		cmd, fl, _ := strings.Cut(key, " --")
		found := false
		for _, f := range byName[cmd].Flags {
			if f.Name == fl {
				found = true
				f.Usage = ""
				if f != w {
					t.Errorf("%s: got %+v, want %+v", key, f, w)
				}
			}
		}
		if !found {
			t.Errorf("%s: not in the reference", key)
		}
	}
}

// TestReference_DescribeRunsNothing: in describe mode a command stops at its
// flag parsing: crawl writes no snapshot, whatever its arguments say.
func TestReference_DescribeRunsNothing(t *testing.T) {
	out := filepath.Join(t.TempDir(), "catalog.json")
	called := false
	env := Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: func(string) string { return "" }}
	env.describe = func(*flag.FlagSet) { called = true }
	if code := runCrawl(env, []string{"--out", out, "--providers", "nonesuch"}); code != ExitOK {
		t.Errorf("exit %d", code)
	}
	if !called {
		t.Error("crawl never handed over its flag set")
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("crawl wrote a snapshot in describe mode")
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
