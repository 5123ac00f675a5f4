package cli

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

const snapshotSynopsis = "snapshot --at DATE [--history FILE] [--out FILE] | snapshot --list [--history FILE]"

// runSnapshot rebuilds the catalog of a past date from the history, or lists the
// crawls the history holds. Exit codes: 0 ok, 1 error, 2 usage.
func runSnapshot(env Env, args []string) int {
	fset, parse := newFlagSet(env, "snapshot", snapshotSynopsis)
	at := fset.String("at", "", "date to rebuild: YYYY-MM-DD (the last crawl of that day, UTC) or an RFC 3339 time (the last crawl at or before it)")
	history := fset.String("history", defaultHistory, "history file to read")
	out := fset.String("out", "-", "where to write the snapshot (atomically); - for stdout")
	list := fset.Bool("list", false, "list the recorded crawls, oldest first, instead of rebuilding one")
	if code, ok := parseFlags(env, fset, parse, args, nil); !ok {
		return code
	}
	if *list == (*at != "") {
		return usageError(env, "snapshot: give either --at DATE or --list")
	}
	asOf, isDate, err := parseAsOf(*at)
	if !*list && (err != nil || !isDate) {
		return usageError(env, "snapshot: --at %q: want a date YYYY-MM-DD or an RFC 3339 time such as 2025-11-30T06:00:00Z", *at)
	}
	if info, err := os.Stat(*out); *out != "-" && err == nil && info.IsDir() {
		return usageError(env, "snapshot: --out %s is a folder: give the file to write, e.g. --out %s", *out, filepath.Join(*out, "catalog.json"))
	}
	if *out != "-" && !*list {
		// A device (/dev/null), a FIFO or a link is refused before any work.
		if err := catalog.CheckOutputFile(*out); err != nil {
			return fail(env, "snapshot: --out %v", err)
		}
	}
	h, err := catalog.ReadHistory(*history)
	if errors.Is(err, fs.ErrNotExist) {
		return fail(env, "snapshot: no history file %s (set --history)", *history)
	}
	if err != nil {
		return fail(env, "snapshot: %v", err)
	}
	if *list {
		var b strings.Builder
		for _, t := range h.Crawls() {
			fmt.Fprintln(&b, t.UTC().Format(time.RFC3339Nano))
		}
		if _, err := fmt.Fprint(env.Stdout, b.String()); err != nil {
			return fail(env, "snapshot: write: %v", err)
		}
		return ExitOK
	}
	snap, err := h.At(asOf)
	if err != nil {
		return fail(env, "snapshot: %s: %v", *history, err)
	}
	if *out == "-" {
		b, err := snap.MarshalCanonical()
		if err != nil {
			return fail(env, "snapshot: %v", err)
		}
		if _, err := env.Stdout.Write(b); err != nil {
			return fail(env, "snapshot: write: %v", err)
		}
		return ExitOK
	}
	lock, err := lockTarget(env, "snapshot", *out)
	if err != nil {
		return fail(env, "snapshot: %v; nothing was written", err)
	}
	defer unlock(env, lock)
	if err := catalog.WriteSnapshot(*out, snap); err != nil {
		return fail(env, "snapshot: %v", err)
	}
	fmt.Fprintf(env.Stderr, "wrote %s: the catalog as of %s\n", *out, snap.TakenAt.UTC().Format("2006-01-02 15:04 UTC"))
	return ExitOK
}

// guardFlags are the crawl flags that set the guard's bounds and acceptances.
type guardFlags struct {
	acceptDrop, acceptPriceChange *bool
	maxDrop, maxPriceChange       *string
}

// addGuardFlags defines --accept-drop, --accept-price-change, --max-drop and
// --max-price-change on fset.
func addGuardFlags(fset *flag.FlagSet) *guardFlags {
	return &guardFlags{
		acceptDrop: fset.Bool("accept-drop", false,
			"write the snapshot even though a provider lost more than --max-drop of its offers or instance types, or all its data"),
		acceptPriceChange: fset.Bool("accept-price-change", false,
			"write the snapshot even though offer prices moved by more than --max-price-change"),
		maxDrop: fset.String("max-drop", catalog.DefaultMaxDrop.String(),
			"percent of a provider's offers (or instance types) that may disappear in one update before the guard stops it"),
		maxPriceChange: fset.String("max-price-change", catalog.DefaultMaxPriceChange.String(),
			"percent an offer's price may move, up or down, in one update before the guard stops it"),
	}
}

// options turns the flags into guard options; an error is a usage error.
func (g *guardFlags) options() (catalog.GuardOptions, error) {
	pct := func(name, v string) (decimal.Decimal, error) {
		d, err := decimal.NewFromString(strings.TrimSuffix(strings.TrimSpace(v), "%"))
		if err != nil || !d.IsPositive() {
			return decimal.Zero, fmt.Errorf("--%s %q: want a percentage above 0, e.g. 30", name, v)
		}
		return d, nil
	}
	maxDrop, err := pct("max-drop", *g.maxDrop)
	if err != nil {
		return catalog.GuardOptions{}, err
	}
	maxPrice, err := pct("max-price-change", *g.maxPriceChange)
	if err != nil {
		return catalog.GuardOptions{}, err
	}
	opts := catalog.GuardOptions{MaxDrop: maxDrop, MaxPriceChange: maxPrice,
		AcceptDrop: *g.acceptDrop, AcceptPriceChange: *g.acceptPriceChange}
	if err := opts.Validate(); err != nil {
		return catalog.GuardOptions{}, fmt.Errorf("--max-drop/--max-price-change: %w", err)
	}
	return opts, nil
}

// checkGuard runs the guard on the update from prev to next and reports each
// problem as a warning (a GitHub annotation in Actions). It returns false when the
// update must stop, after saying how to accept it.
func checkGuard(env Env, prev, next *catalog.Snapshot, opts catalog.GuardOptions) bool {
	report := catalog.Guard(prev, next, opts)
	log := newReporter(env)
	for _, line := range strings.Split(strings.TrimSuffix(report.Text(), "\n"), "\n") {
		if line != "" {
			log.warn("guard: " + line)
		}
	}
	if !report.Blocked() {
		return true
	}
	var accept []string
	for _, k := range report.Kinds() {
		switch k {
		case catalog.GuardDrop, catalog.GuardNoData:
			if !slices.Contains(accept, "--accept-drop") {
				accept = append(accept, "--accept-drop")
			}
		case catalog.GuardPriceChange:
			accept = append(accept, "--accept-price-change")
		}
	}
	fmt.Fprintf(env.Stderr, "gpuatlas: the guard stopped the update: nothing was written. Check the problems above; if the changes are real, run again with %s.\n",
		strings.Join(accept, " "))
	return false
}

// appendHistory reads the history at path, or starts one when the file does not
// exist (seeded with prev, the catalog being replaced, when it has data), and
// appends next. The caller writes it with catalog.WriteHistory after the snapshot
// itself was written, so that a history that cannot be read stops the update
// before anything is written.
func appendHistory(path string, prev, next *catalog.Snapshot) (h *catalog.History, changed bool, err error) {
	h, err = catalog.ReadHistory(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		h = catalog.NewHistory()
		if prev != nil && !prev.TakenAt.IsZero() && len(prev.Instances) > 0 && prev.TakenAt.Before(next.TakenAt) {
			if _, err := h.Append(prev); err != nil {
				return nil, false, fmt.Errorf("start history %s with the previous snapshot: %w", path, err)
			}
		}
	case err != nil:
		return nil, false, fmt.Errorf("%w (fix or restore the file from git; nothing was written)", err)
	}
	changed, err = h.Append(next)
	if err != nil {
		return nil, false, err
	}
	return h, changed, nil
}
