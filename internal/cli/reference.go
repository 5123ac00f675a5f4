package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// CommandRef is one command as its own flag set describes it: what
// `gpuatlas NAME --help` prints, split into the text before the flags and the
// flags themselves.
type CommandRef struct {
	Name    string // "crawl", "history import"
	Summary string // the line `gpuatlas help` gives it
	Usage   string // the help text before "Flags:": the synopsis and any prose
	Flags   []FlagRef
}

// FlagRef is one flag of a command.
type FlagRef struct {
	Name    string // without dashes
	Type    string // bool, int, string, duration, or "string, repeatable"
	Default string // as flag.PrintDefaults would give it; "" when the zero value
	Usage   string
}

// Reference lists every command, in the order `gpuatlas help` gives them, with
// the flag set it defines. Each command's run function is called in a describe
// mode (Env.describe): it defines its flags as always, and its parse hands the
// flag set over instead of parsing, so the reference cannot drift from the
// flags a command really has. A command with subcommands is described once per
// subcommand.
func Reference() ([]CommandRef, error) {
	var refs []CommandRef
	for _, c := range commands() {
		subs, ok := subcommands()[c.name]
		if !ok {
			r, err := describe(c.name, c.summary, c.run, nil)
			if err != nil {
				return nil, err
			}
			refs = append(refs, r)
			continue
		}
		for _, s := range subs {
			// Reached through the parent's dispatch, as a person reaches it.
			r, err := describe(c.name+" "+s.name, s.summary, c.run, []string{s.name})
			if err != nil {
				return nil, err
			}
			refs = append(refs, r)
		}
	}
	return refs, nil
}

// subcommands are the commands whose first argument names a subcommand, each
// with its own flag set.
func subcommands() map[string][]command {
	return map[string][]command{"history": historyCommands()}
}

// describe runs a command with args in describe mode and reads the flag set
// it defines.
func describe(name, summary string, run func(Env, []string) int, args []string) (CommandRef, error) {
	var got *flag.FlagSet
	env := Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" },
		describe: func(fs *flag.FlagSet) { got = fs }}
	run(env, args)
	if got == nil {
		return CommandRef{}, fmt.Errorf("reference: command %s did not reach its flag parsing", name)
	}
	var help bytes.Buffer
	got.SetOutput(&help)
	got.Usage()
	text := help.String()
	i := strings.LastIndex(text, "\nFlags:\n")
	if i < 0 {
		return CommandRef{}, fmt.Errorf("reference: the help of %s has no \"Flags:\" line", name)
	}
	r := CommandRef{Name: name, Summary: summary, Usage: strings.TrimRight(text[:i], "\n")}
	got.VisitAll(func(f *flag.Flag) {
		r.Flags = append(r.Flags, FlagRef{Name: f.Name, Type: flagType(f), Default: flagDefault(f), Usage: f.Usage})
	})
	return r, nil
}

// flagType names the type of a flag's value.
func flagType(f *flag.Flag) string {
	if _, ok := f.Value.(*listFlag); ok {
		return "string, repeatable"
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return "value"
	}
	switch g.Get().(type) {
	case bool:
		return "bool"
	case int, int64:
		return "int"
	case uint, uint64:
		return "uint"
	case float64:
		return "float"
	case time.Duration:
		return "duration"
	case string:
		return "string"
	}
	return "value"
}

// flagDefault is the default flag.PrintDefaults shows: none for a zero value.
func flagDefault(f *flag.Flag) string {
	switch f.DefValue {
	case "", "0", "false", "0s":
		return ""
	}
	return f.DefValue
}

// WriteReference writes the command reference, docs/reference.md, as Markdown.
func WriteReference(w io.Writer) error {
	refs, err := Reference()
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString("# Command reference\n\n")
	b.WriteString("<!-- Generated from the commands' flag definitions by `make docs`\n")
	b.WriteString("     (go run ./internal/tools/cmdref); do not edit. internal/cli's\n")
	b.WriteString("     TestReference_UpToDate fails when this file drifts from the code. -->\n\n")
	b.WriteString("Every command of `gpuatlas`, as its `--help` gives it, and every flag with its type\n")
	b.WriteString("and default. [docs/cli.md](cli.md) explains the commands with examples, exit codes\n")
	b.WriteString("and reason codes.\n\n")
	b.WriteString("| command | what it does |\n|---|---|\n")
	for _, r := range refs {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", r.Name, anchor(r.Name), cell(r.Summary))
	}
	for _, r := range refs {
		fmt.Fprintf(&b, "\n## gpuatlas %s\n\n", r.Name)
		if r.Summary != "" {
			fmt.Fprintf(&b, "%s.\n\n", strings.ToUpper(r.Summary[:1])+r.Summary[1:])
		}
		b.WriteString("```text\n" + r.Usage + "\n```\n")
		if len(r.Flags) == 0 {
			b.WriteString("\nNo flags.\n")
			continue
		}
		b.WriteString("\n| flag | type | default | meaning |\n|---|---|---|---|\n")
		for _, f := range r.Flags {
			def := ""
			if f.Default != "" {
				def = "`" + strings.ReplaceAll(f.Default, "|", `\|`) + "`"
			}
			fmt.Fprintf(&b, "| `--%s` | %s | %s | %s |\n", f.Name, f.Type, def, cell(f.Usage))
		}
	}
	_, err = w.Write(b.Bytes())
	return err
}

// anchor is the heading id GitHub gives "gpuatlas NAME".
func anchor(name string) string { return "gpuatlas-" + strings.ReplaceAll(name, " ", "-") }

// cell makes text safe in one Markdown table cell: no line breaks, and the
// characters Markdown would read as table, emphasis or HTML escaped.
func cell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.NewReplacer(`\`, `\\`, `|`, `\|`, `*`, `\*`, `<`, `&lt;`, `>`, `&gt;`, "`", "\\`").Replace(s)
}
