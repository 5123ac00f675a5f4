package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

const historySynopsis = "history import FILE... [--history FILE] | history export --out DIR [--history FILE]"

// runHistory runs the history subcommands: import (dated prices from public
// archives) and export (the history as Parquet). Exit codes: 0 ok, 1 error, 2
// usage.
func runHistory(env Env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w := env.Stdout
		if len(args) == 0 {
			w = env.Stderr
		}
		fmt.Fprintf(w, "Usage: gpuatlas %s\n\n", historySynopsis)
		for _, c := range historyCommands() {
			fmt.Fprintf(w, "  %-6s  %s\n", c.name, c.summary)
		}
		fmt.Fprintln(w, "\ngpuatlas history import --help describes the observation format.")
		if len(args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	for _, c := range historyCommands() {
		if c.name == args[0] {
			return c.run(env, args[1:])
		}
	}
	return usageError(env, "history: unknown subcommand %q (want import or export)", args[0])
}

// historyCommands are the subcommands of history.
func historyCommands() []command {
	return []command{
		{"import", "merge dated price observations (CSV or JSON Lines) into the history", runHistoryImport},
		{"export", "write the history as Parquet, one row per price interval, partitioned by provider", runHistoryExport},
	}
}

const historyImportSynopsis = "history import FILE... [--history FILE]"

func runHistoryImport(env Env, args []string) int {
	fset, parse := newFlagSet(env, "history import", historyImportSynopsis)
	history := fset.String("history", defaultHistory, "history file to merge the observations into (created when missing)")
	fset.Usage = func() { historyImportUsage(fset.Output(), fset.PrintDefaults) }
	files, code, ok := parseInterspersed(fset, parse, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		return usageError(env, "history import: give one or more observation files (CSV or JSON Lines)")
	}
	var obs []catalog.ObservationAt
	var problems []string
	for _, f := range files {
		got, err := catalog.ReadObservationFile(f)
		var oe catalog.ObservationErrors
		switch {
		case errors.As(err, &oe):
			problems = append(problems, oe...)
		case err != nil:
			problems = append(problems, err.Error())
		}
		obs = append(obs, got...)
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(env.Stderr, p)
		}
		return fail(env, "history import: %d problems (listed above); nothing was written", len(problems))
	}
	// The history is read, changed and written under its lock: an import or a
	// crawl that wrote it meanwhile is read, not overwritten.
	lock, err := lockTarget(env, "history import", *history)
	if err != nil {
		return fail(env, "history import: %v; nothing was written", err)
	}
	defer unlock(env, lock)
	h, err := catalog.ReadHistory(*history)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		h = catalog.NewHistory()
	case err != nil:
		return fail(env, "history import: %v (fix or restore the file from git; nothing was written)", err)
	}
	res, err := h.Import(obs, env.now()) // stamped on records without retrieved_at
	if err != nil {
		fmt.Fprintln(env.Stderr, err)
		return fail(env, "history import: the observations disagree with the history (listed above); nothing was written")
	}
	if res.Added > 0 {
		if err := catalog.WriteHistory(*history, h); err != nil {
			return fail(env, "history import: %v", err)
		}
	}
	fmt.Fprintf(env.Stderr, "history import: %d observations added, %d already in %s (%d in all, %d price changes)\n",
		res.Added, res.Unchanged, *history, h.ObservationCount(), len(h.ObservedChanges()))
	return ExitOK
}

// historyImportUsage is `gpuatlas history import --help`: the flags, the
// observation format and what an imported series means.
func historyImportUsage(w io.Writer, defaults func()) {
	fmt.Fprintf(w, "Usage: gpuatlas %s\n\n", historyImportSynopsis)
	fmt.Fprintln(w, "Merges dated price observations from public archives into the history. Every record is")
	fmt.Fprintln(w, "checked first; problems are printed as file:line: message and nothing is written. A record")
	fmt.Fprintln(w, "the history holds already is skipped, so importing a file twice changes nothing. A record")
	fmt.Fprintln(w, "without retrieved_at is given the import's time: when GPU Atlas retrieved it.")
	fmt.Fprintln(w, "\nThe files are CSV with a header row (columns in any order) or JSON Lines (.jsonl, one")
	fmt.Fprintln(w, "object per line), one observed price per record, at most 64 MiB each:")
	fmt.Fprintln(w)
	for _, f := range catalog.ObservationFields {
		req := "optional"
		if f.Required {
			req = "required"
		}
		fmt.Fprintf(w, "  %-15s %-9s %s\n", f.Name, req, f.Meaning)
	}
	fmt.Fprintln(w, "\nWhat an imported series (one offer key and one \"includes\") says:")
	fmt.Fprintln(w, "  - a price holds from its observed_at until the series' next observation, or until its")
	fmt.Fprintln(w, "    observed_until where that comes first; the last one until its observed_until, or to")
	fmt.Fprintln(w, "    the end of its day (UTC). It never carries into a crawl's snapshot: a crawl's offers are")
	fmt.Fprintln(w, "    the crawl's, and `snapshot --at` of a later day shows no imported price;")
	fmt.Fprintln(w, "  - what a price includes is part of its identity: an instance-only price is never compared")
	fmt.Fprintln(w, "    with one that includes a disk, and a change of basis is not a price change;")
	fmt.Fprintln(w, "  - an offer `snapshot --at` rebuilds from it has observed_at the observation in force and")
	fmt.Fprintln(w, "    fetched_at its retrieved_at, and is marked suspect where it breaks a plausibility rule")
	fmt.Fprintln(w, "    beside the imported prices of its time;")
	fmt.Fprintln(w, "  - observations of one series at one instant must agree.")
	fmt.Fprintln(w, "\nFlags:")
	defaults()
}

const historyExportSynopsis = "history export --out DIR [--history FILE]"

func runHistoryExport(env Env, args []string) int {
	fset, parse := newFlagSet(env, "history export", historyExportSynopsis)
	history := fset.String("history", defaultHistory, "history file to export")
	out := fset.String("out", "", "folder to write provider=<id>/part-0.parquet files into (created; existing parts are replaced)")
	if code, ok := parseFlags(env, fset, parse, args, nil); !ok {
		return code
	}
	if *out == "" {
		return usageError(env, "history export: --out DIR is required")
	}
	h, err := catalog.ReadHistory(*history)
	if errors.Is(err, fs.ErrNotExist) {
		return fail(env, "history export: no history file %s (set --history)", *history)
	}
	if err != nil {
		return fail(env, "history export: %v", err)
	}
	if env.Site.HistoryParquet == nil {
		return fail(env, "history export: %v", errNoSite)
	}
	files, err := env.Site.HistoryParquet(h)
	if err != nil {
		return fail(env, "history export: %v", err)
	}
	for _, f := range files {
		p := filepath.Join(*out, filepath.FromSlash(f.Name))
		if err := catalog.WriteFileAtomic(p, f.Data); err != nil {
			return fail(env, "history export: %v", err)
		}
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	if len(files) == 0 {
		fmt.Fprintln(env.Stderr, "history export: the history has no prices; nothing written")
		return ExitOK
	}
	fmt.Fprintf(env.Stderr, "history export: wrote %s under %s\n", strings.Join(names, ", "), *out)
	return ExitOK
}
