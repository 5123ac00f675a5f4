package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Exit codes: a public contract that workflows act on.
const (
	ExitOK      = 0 // success (for diff: no changes)
	ExitError   = 1 // failure (for diff: changes found)
	ExitUsage   = 2 // bad command line
	ExitPartial = 3 // crawl finished with partial, stale, skipped or failed coverage
)

// Env is what a command may touch of its surroundings.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// describe, when set, is handed each flag set a command defines, in place
	// of parsing its arguments; the command then stops (Reference).
	describe func(*flag.FlagSet)
	// Site is the site generator build, export and history export call;
	// cmd/gpuatlas sets it (site.go).
	Site Site
	// Now is the clock of every command: the time stamped on what it writes,
	// the day dates are checked against, how long a step took. Nil is
	// time.Now; tests stop it.
	Now func() time.Time
	// Terminal tells whether a writer is a terminal (a person watching):
	// the crawl then draws progress bars. Nil: none is.
	Terminal func(io.Writer) bool
}

// OSEnv is the process environment.
func OSEnv() Env {
	return Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Now: time.Now, Terminal: isTerminal}
}

// now reads env's clock.
func (env Env) now() time.Time {
	if env.Now == nil {
		return time.Now()
	}
	return env.Now()
}

type command struct {
	name, summary string
	run           func(env Env, args []string) int
}

func commands() []command {
	return []command{
		{"crawl", "crawl provider APIs into a catalog snapshot", runCrawl},
		{"build", "build the static site from a catalog snapshot", runBuild},
		{"serve", "serve a built site on a local address", runServe},
		{"export", "write the catalog's offers as CSV or JSON to stdout", runExport},
		{"diff", "compare two catalogs (snapshot files or history dates): text, markdown or json", runDiff},
		{"snapshot", "rebuild the catalog of a past date from the history", runSnapshot},
		{"history", "import dated prices from public archives into the history; export it as Parquet", runHistory},
		{"validate", "check benchmark uploads; print each problem as file:line: message", runValidate},
		{"check", "data-quality report of a catalog: suspect, made-up, stale and unmapped data; exit 1 on errors", runCheck},
		{"scenarios", "rank instance types for each scenario (fit, reasons, score, best per provider and tier)", runScenarios},
		{"tco", "total cost of ownership of a workload per billing option; break-even; speed vs price", runTCO},
		{"find", "answer a filter expression (the explorer's grammar) from the catalog: table, csv, json or markdown", runFind},
		{"fit", "GPU memory a model needs (per component, with the formulas) and the instance types that hold it, cheapest first", runFit},
	}
}

// Main runs the command line args (without the program name) and returns the exit
// code.
func Main(env Env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(env.Stdout)
		if len(args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(env, args[1:])
		}
	}
	fmt.Fprintf(env.Stderr, "gpuatlas: unknown command %q\n\n", args[0])
	usage(env.Stderr)
	return ExitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "GPU Atlas: cloud GPU instance catalog and comparison site.")
	fmt.Fprintln(w, "\nUsage: gpuatlas <command> [flags]   (gpuatlas <command> --help for its flags)")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nExit codes: 0 ok, 1 error (crawl: also when the guard stopped the update), 2 usage,")
	fmt.Fprintln(w, "3 crawl finished with partial coverage; diff as diff(1): 0 no changes, 1 changes, 2 trouble.")
}

// newFlagSet returns a flag set that reports errors to env.Stderr and a parse
// helper that maps -h to exit 0 and bad flags to exit 2.
func newFlagSet(env Env, name, synopsis string) (*flag.FlagSet, func(args []string) (int, bool)) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: gpuatlas %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	parse := func(args []string) (int, bool) {
		if env.describe != nil {
			env.describe(fs)
			return ExitOK, false
		}
		// --help goes to stdout once (flag would print it to stderr first).
		for _, a := range args {
			if a == "--" {
				break
			}
			if a == "-h" || a == "-help" || a == "--help" || a == "--h" {
				fs.SetOutput(env.Stdout)
				fs.Usage()
				return ExitOK, false
			}
		}
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(env.Stdout)
				fs.Usage()
				return ExitOK, false
			}
			return ExitUsage, false
		}
		return 0, true
	}
	return fs, parse
}

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// fail prints an error and returns ExitError. The message is one line
// (catalog.SafeLine): it may repeat a file name or a value from outside.
func fail(env Env, format string, args ...any) int {
	fmt.Fprintln(env.Stderr, "gpuatlas: "+catalog.SafeLine(fmt.Sprintf(format, args...)))
	return ExitError
}

// usageError is fail for a bad command line: ExitUsage.
func usageError(env Env, format string, args ...any) int {
	fmt.Fprintln(env.Stderr, "gpuatlas: "+catalog.SafeLine(fmt.Sprintf(format, args...)))
	return ExitUsage
}

// parseFlags is the one check of a command line that holds flags only: it
// parses args with parse, refuses an argument left after the flags, and checks
// *format against formats (none when the command has no --format). It returns
// false with the exit code when the command stops here: ExitOK after --help,
// ExitUsage after a usage error it has printed.
func parseFlags(env Env, fs *flag.FlagSet, parse func([]string) (int, bool), args []string, format *string, formats ...string) (int, bool) {
	if code, ok := parse(args); !ok {
		return code, false
	}
	if fs.NArg() > 0 {
		return usageError(env, "%s: unexpected argument %s", fs.Name(), catalog.Excerpt(fs.Arg(0))), false
	}
	if format != nil && !slices.Contains(formats, *format) {
		want := strings.Join(formats[:len(formats)-1], ", ") + " or " + formats[len(formats)-1]
		return usageError(env, "%s: --format %s: want %s", fs.Name(), catalog.Excerpt(*format), want), false
	}
	return 0, true
}

// reportFlags are --format (text or json) and --lang of a command that writes
// a report: the words of its text in one language, or JSON.
type reportFlags struct{ format, lang *string }

// addReportFlags defines --format, with formatUsage as its help, and --lang.
func addReportFlags(fs *flag.FlagSet, formatUsage string) reportFlags {
	return reportFlags{
		format: fs.String("format", "text", formatUsage),
		lang:   fs.String("lang", "", "text language: en or zh (default from LC_ALL, LC_MESSAGES or LANG: zh* is zh; else en)"),
	}
}

// json reports whether the report is JSON.
func (r reportFlags) json() bool { return *r.format == "json" }

// parse is parseFlags for a command with reportFlags; it returns the language
// of the text as well (textLang).
func (r reportFlags) parse(env Env, fs *flag.FlagSet, parse func([]string) (int, bool), args []string) (string, int, bool) {
	if code, ok := parseFlags(env, fs, parse, args, r.format, "text", "json"); !ok {
		return "", code, false
	}
	tag, err := textLang(*r.lang, env.Getenv)
	if err != nil {
		return "", usageError(env, "%s: %v", fs.Name(), err), false
	}
	return tag, 0, true
}
