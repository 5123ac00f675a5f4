package cli

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// defaultHistory is where the crawl records history and where diff and snapshot
// look dates up.
const defaultHistory = "data/history.jsonl"

const diffSynopsis = "diff OLD NEW [--format text|markdown|json] [--history FILE] [--max-rows N]\n       diff --interruptions OLD-DAY NEW-DAY [--bands FILE] [--format text|markdown|json]"

// runDiff compares two catalogs. Like diff(1), it exits 0 when they are the same,
// 1 when they differ and 2 on trouble (a bad command line, a file that cannot be
// read, a date the history does not cover), so a workflow can tell "changes" from
// "broken".
func runDiff(env Env, args []string) int {
	fset, parse := newFlagSet(env, "diff", diffSynopsis)
	format := fset.String("format", "text", "output format: text, markdown (for a pull request or job summary) or json (schema_version 1)")
	history := fset.String("history", defaultHistory, "history file that dates in OLD and NEW are looked up in")
	maxRows := fset.Int("max-rows", catalog.DefaultMarkdownRows, "markdown: rows each list shows before \"… and N more\"")
	bandsOnly := fset.Bool("interruptions", false, "compare the interruption bands of two copies of AWS's Spot Instance Advisor feed (OLD and NEW are their days, YYYY-MM-DD) instead of two catalogs")
	bands := fset.String("bands", "", "with --interruptions: dated bands file (default: the embedded data/interruption_bands.csv)")
	fset.Usage = func() {
		w := fset.Output()
		fmt.Fprintf(w, "Usage: gpuatlas %s\n\n", diffSynopsis)
		fmt.Fprintln(w, "Reports what changed between two catalogs: instance types, regions and offers added")
		fmt.Fprintln(w, "and removed, price changes with percentages, availability changes, per provider.")
		fmt.Fprintln(w, "\nOLD and NEW are snapshot files (data/catalog.json) or, when no such file exists,")
		fmt.Fprintln(w, "dates looked up in the history: YYYY-MM-DD is the last crawl of that day (UTC),")
		fmt.Fprintln(w, "an RFC 3339 time the last crawl at or before it. Offers whose spot interruption band")
		fmt.Fprintln(w, "changed are listed too. With --interruptions, OLD and NEW are the days of two copies of")
		fmt.Fprintln(w, "AWS's Spot Instance Advisor feed (data/interruption_bands.csv) and the bands that moved")
		fmt.Fprintln(w, "between them are listed.")
		fmt.Fprintln(w, "\nExit codes (as diff(1)): 0 no changes, 1 changes, 2 trouble.")
		fmt.Fprintln(w, "\nFlags:")
		fset.PrintDefaults()
	}
	pos, code, ok := parseInterspersed(fset, parse, args)
	if !ok {
		return code
	}
	if len(pos) != 2 {
		fmt.Fprintf(env.Stderr, "gpuatlas: diff: want two catalogs, OLD and NEW; got %d arguments\n", len(pos))
		fmt.Fprintf(env.Stderr, "Usage: gpuatlas %s\n", diffSynopsis)
		return ExitUsage
	}
	if *format != "text" && *format != "markdown" && *format != "json" {
		return usageError(env, "diff: --format %q: want text, markdown or json", *format)
	}
	if *maxRows < 1 {
		return usageError(env, "diff: --max-rows %d: want 1 or more", *maxRows)
	}
	if *bandsOnly {
		return diffBands(env, pos[0], pos[1], *bands, *format)
	}
	hist := &lazyHistory{path: *history}
	// Two snapshot files are read at once: reading and decoding is most of a
	// diff. A date reads the history, which is read only once, so then in turn.
	var old, cur *catalog.Snapshot
	var oldErr, curErr error
	if isFile(pos[0]) && isFile(pos[1]) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			old, oldErr = catalog.ReadSnapshot(pos[0])
		}()
		cur, curErr = catalog.ReadSnapshot(pos[1])
		<-done
	} else {
		old, oldErr = resolveCatalog(pos[0], hist)
		if oldErr == nil {
			cur, curErr = resolveCatalog(pos[1], hist)
		}
	}
	if oldErr != nil {
		return usageError(env, "diff: OLD: %v", oldErr)
	}
	if curErr != nil {
		return usageError(env, "diff: NEW: %v", curErr)
	}
	report := catalog.Diff(old, cur)
	var out []byte
	switch *format {
	case "text":
		out = []byte(report.Text())
	case "markdown":
		out = []byte(report.Markdown(*maxRows))
	case "json":
		var err error
		if out, err = report.JSON(); err != nil {
			return usageError(env, "diff: %v", err)
		}
	}
	if _, err := env.Stdout.Write(out); err != nil {
		return usageError(env, "diff: write: %v", err)
	}
	if report.Empty() {
		return ExitOK
	}
	return ExitError
}

// parseInterspersed parses flags that may come before, between or after the
// positional arguments (gpuatlas diff OLD NEW --format json), which the flag
// package alone stops at. Everything after "--" is positional.
func parseInterspersed(fset *flag.FlagSet, parse func([]string) (int, bool), args []string) ([]string, int, bool) {
	var pos []string
	for {
		if code, ok := parse(args); !ok {
			return nil, code, false
		}
		rest := fset.Args()
		if len(rest) == 0 {
			return pos, 0, true
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), 0, true
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// lazyHistory reads the history file the first time a date needs it.
type lazyHistory struct {
	path string
	h    *catalog.History
}

func (l *lazyHistory) get() (*catalog.History, error) {
	if l.h != nil {
		return l.h, nil
	}
	h, err := catalog.ReadHistory(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no history file %s (set --history, or give snapshot files)", l.path)
	}
	if err != nil {
		return nil, err
	}
	l.h = h
	return h, nil
}

var dateArg = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// parseAsOf reads a date (YYYY-MM-DD: the end of that day, UTC) or an RFC 3339
// time; ok is false when s is neither.
func parseAsOf(s string) (t time.Time, ok bool, err error) {
	if dateArg.MatchString(s) {
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			return time.Time{}, true, fmt.Errorf("date %q: %w", s, err)
		}
		return d.Add(24*time.Hour - time.Nanosecond), true, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true, nil
	}
	return time.Time{}, false, nil
}

// isFile reports whether path names an existing file (a snapshot, not a date).
func isFile(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// resolveCatalog reads arg as a snapshot file or, when no such file exists and
// arg is a date or time, rebuilds the catalog of that date from the history.
func resolveCatalog(arg string, hist *lazyHistory) (*catalog.Snapshot, error) {
	if isFile(arg) {
		return catalog.ReadSnapshot(arg)
	}
	at, isDate, err := parseAsOf(arg)
	if err != nil {
		return nil, err
	}
	if !isDate {
		return nil, fmt.Errorf("%s: no such snapshot file, and not a date (YYYY-MM-DD) or RFC 3339 time", arg)
	}
	h, err := hist.get()
	if err != nil {
		return nil, err
	}
	s, err := h.At(at)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", arg, hist.path, err)
	}
	return s, nil
}
