package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/internal/termtext"
	"github.com/gpuatlas/gpuatlas/templates"
	"github.com/gpuatlas/gpuatlas/words"
)

const findSynopsis = "find EXPR [--billing KIND,...] [--sort COLUMN] [--limit N] [--currency USD|CNY|native]\n" +
	"           [--format table|csv|json|markdown] [--lang en|zh] [--catalog FILE] [--at DATE]\n\n" +
	"Answers a filter expression (docs/site.md \"Filter expressions\": the explorer's grammar, e.g.\n" +
	"'gpus>=8 gpu:h100', 'gpu_memory>=24 country:cn', 'scenario:llm-inference-large') over the\n" +
	"catalog as the explorer's default view does: one row per instance type in its cheapest region,\n" +
	"each billing kind's cheapest price in a column of its own, partial GPUs and suspect prices left\n" +
	"out. Exit 0 with rows, 1 with none (or when the data cannot be read), 2 for a bad expression\n" +
	"(each error with its column: gpus>=x: at column 7: expected a number) or command line. With\n" +
	"none, stderr says why as the explorer does: the term that empties the answer and what the rest\n" +
	"of the expression keeps in its field (no interconnect data, or the values there are)."

// findSortAliases are the --sort names beyond the explorer's column ids.
var findSortAliases = map[string]string{
	"per_gpu_hour": "gpu_price", "per_gpu": "gpu_price", "price_per_gpu": "gpu_price", "gpu_hour": "gpu_price",
	"per_gib_hour": "gib_price", "price_per_gib": "gib_price", "instance_type": "type", "gpu_count": "gpus",
	"vram": "gpu_memory", "gpu_mem": "gpu_memory", "savings": "saving",
}

// findFlags are find's flag values.
type findFlags struct {
	billing, sort, currency, format, lang, catalog, at *string
	limit                                              *int
}

func runFind(env Env, args []string) int {
	fset, parse := newFlagSet(env, "find", findSynopsis)
	f := findFlags{
		billing: fset.String("billing", "", "only these billing kinds, comma-separated: "+strings.Join(compare.FilterBilling, ", ")+" (default: all)"),
		sort: fset.String("sort", "price", "column to sort by, cheapest or smallest first (a leading - sorts descending): price, per_gpu_hour, "+
			"per_gib_hour, saving, on_demand, spot, reserved_1y, reserved_3y, subscription_month, subscription_year, gpus, gpu_memory, "+
			"gpu_memory_total, vcpus, memory, cpu_per_gpu, disk, network or type"),
		limit:    fset.Int("limit", 0, "how many rows to print (0: all)"),
		currency: fset.String("currency", string(catalog.USD), "currency of the prices: one of the catalog's FX table (USD, CNY), or native (each offer's own, as published)"),
		format:   fset.String("format", "table", "output: table (aligned to the terminal's width, or $COLUMNS), csv, json or markdown"),
		lang:     fset.String("lang", "", "words of the table and messages: en or zh (default from LC_ALL, LC_MESSAGES or LANG: zh* is zh; else en)"),
		catalog:  fset.String("catalog", "", "snapshot to search (default: the catalog embedded in this build)"),
		at: fset.String("at", "", "search the catalog of a past date, rebuilt from the history (history.jsonl beside --catalog, else data/history.jsonl): "+
			"YYYY-MM-DD or an RFC 3339 time, as snapshot --at"),
	}
	pos, code, ok := parseInterspersed(fset, parse, args)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		return usageError(env, "find: give a filter expression (quote it), e.g. gpuatlas find 'gpus>=8 gpu:h100'; '' lists every type")
	}
	// Unquoted terms arrive as several arguments: they are one expression,
	// joined by a space (columns count in the joined text).
	expr := strings.Join(pos, " ")
	if len(expr) > maxExprBytes {
		return usageError(env, "find: the expression is %d bytes; at most %d", len(expr), maxExprBytes)
	}
	tag, err := textLang(*f.lang, env.Getenv)
	if err != nil {
		return usageError(env, "find: %v", err)
	}
	q, uerr := f.query()
	if uerr != "" {
		return usageError(env, "find: %s", uerr)
	}
	msgs, err := words.Messages(templates.FS, tag)
	if err != nil {
		return fail(env, "find: %v", err)
	}
	set, err := compare.LoadScenarios(data.FS)
	if err != nil {
		return fail(env, "find: %v", err)
	}
	ids := set.IDs()
	if ids == nil {
		ids = []string{}
	}
	q.Expr = compare.ParseFilter(expr, ids)
	if len(q.Expr.Errors) > 0 {
		text := func(k string) (string, bool) { s, ok := msgs[k]; return s, ok }
		for _, e := range q.Expr.Errors {
			fmt.Fprintln(env.Stderr, "gpuatlas: find: "+catalog.SafeLine(clipFilterError(e).Message(text)))
		}
		return ExitUsage
	}
	snap, err := findSnapshot(*f.catalog, *f.at)
	if err != nil {
		var ue usageErr
		if errors.As(err, &ue) {
			return usageError(env, "find: %v", err)
		}
		return fail(env, "find: %v", err)
	}
	if q.Currency != "native" {
		if _, err := snap.FX.Rate(catalog.Currency(q.Currency)); err != nil {
			return usageError(env, "find: --currency %s: the catalog's FX table (%s, %s) has no rate for it; or native", catalog.Excerpt(*f.currency), snap.FX.Source, snap.FX.Date)
		}
	}
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		return fail(env, "find: %v", err)
	}
	in := compare.FindInput{Reference: ref, Scenarios: ids}
	if in.ProviderNames, err = providerNames(); err != nil {
		return fail(env, "find: %v", err)
	}
	for _, t := range q.Expr.Terms {
		if t.Field == "scenario" {
			// The site's verdicts: the scenarios ranked on on-demand offers.
			m := compare.BuildMatrix(set.Scenarios, snap, ref, compare.MatrixOptions{Billing: catalog.OnDemand, PerCell: compare.ReportPerCell})
			in.Fits, _ = compare.ScenarioFits(m)
			break
		}
	}
	res, err := compare.Find(snap, in, q)
	if err != nil {
		return usageError(env, "find: %v", err)
	}
	total := len(res.Rows)
	if *f.limit > 0 && len(res.Rows) > *f.limit {
		res.Rows = res.Rows[:*f.limit]
	}
	out := findOutput{snap: snap, res: res, expr: expr, query: q, total: total, msgs: msgs, lang: tag, width: termWidth(env)}
	w := bufio.NewWriter(env.Stdout)
	switch *f.format {
	case "json":
		err = out.writeJSON(w)
	case "csv":
		err = out.writeCSV(w)
	case "markdown":
		err = out.writeMarkdown(w)
	default:
		err = out.writeTable(w)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fail(env, "find: %v", err)
	}
	if len(res.Rows) == 0 {
		if *f.format == "table" || *f.format == "markdown" {
			fmt.Fprintln(env.Stderr, fill(msgs["find.none"], "expr", termtext.Clip(expr)))
		}
		// Why, as the explorer says it, whatever the format (stdout stays the
		// answer's).
		if why, err := compare.FindEmpty(snap, in, q); err == nil {
			fmt.Fprintln(env.Stderr, catalog.SafeLine(whyText(msgs, why)))
		}
		return ExitError
	}
	return ExitOK
}

// clipFilterError is e with what it repeats of the expression (the term, the
// field, operator and value as written) cut to termtext.MaxEcho characters:
// a 4,000-character term is named by its start. The list of values it offers
// is ours and stays whole.
func clipFilterError(e compare.FilterError) compare.FilterError {
	e.Term = termtext.Clip(e.Term)
	args := make(map[string]string, len(e.Args))
	for k, v := range e.Args {
		if k != "values" {
			v = termtext.Clip(v)
		}
		args[k] = v
	}
	e.Args = args
	return e
}

// maxExprBytes bounds the expression read from the command line.
const maxExprBytes = 4096

// usageErr is an error of the command line found while loading (a bad --at).
type usageErr struct{ error }

// query checks the flags that shape the question; the text is a usage error.
func (f findFlags) query() (compare.FindQuery, string) {
	q := compare.FindQuery{Currency: strings.ToUpper(strings.TrimSpace(*f.currency))}
	if q.Currency == "NATIVE" {
		q.Currency = "native"
	}
	switch *f.format {
	case "table", "csv", "json", "markdown":
	default:
		return q, fmt.Sprintf("--format %s: want table, csv, json or markdown", catalog.Excerpt(*f.format))
	}
	if *f.limit < 0 {
		return q, fmt.Sprintf("--limit %d: must be 0 (all) or more", *f.limit)
	}
	if *f.billing != "" {
		for _, b := range strings.Split(*f.billing, ",") {
			b = strings.TrimSpace(b)
			if !contains(compare.FilterBilling, b) {
				return q, fmt.Sprintf("--billing %s: want a comma list of %s", catalog.Excerpt(b), strings.Join(compare.FilterBilling, ", "))
			}
			q.Billing = append(q.Billing, b)
		}
	}
	s := strings.TrimSpace(*f.sort)
	if strings.HasPrefix(s, "-") {
		q.Desc, s = true, s[1:]
	}
	if a, ok := findSortAliases[s]; ok {
		s = a
	}
	if !contains(compare.FindSorts, s) {
		return q, fmt.Sprintf("--sort %s: want price, per_gpu_hour, per_gib_hour, saving, a billing column (on_demand, spot, reserved_1y, "+
			"reserved_3y, subscription_month, subscription_year), gpus, gpu_memory, gpu_memory_total, vcpus, memory, cpu_per_gpu, disk, network "+
			"or type; a leading - sorts descending", catalog.Excerpt(*f.sort))
	}
	q.Sort = s
	if q.Currency != "native" && (len(q.Currency) != 3 || strings.ToUpper(q.Currency) != q.Currency) {
		return q, fmt.Sprintf("--currency %s: want a three-letter code such as USD or CNY, or native", catalog.Excerpt(q.Currency))
	}
	return q, ""
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// findSnapshot is the catalog to search: --catalog or the embedded one, or with
// --at the catalog of that date rebuilt from the history beside it.
func findSnapshot(path, at string) (*catalog.Snapshot, error) {
	if at == "" {
		s, _, err := loadSnapshot(path)
		return s, err
	}
	t, isDate, err := parseAsOf(at)
	if err != nil || !isDate {
		return nil, usageErr{fmt.Errorf("--at %s: want a date YYYY-MM-DD or an RFC 3339 time such as 2025-11-30T06:00:00Z", catalog.Excerpt(at))}
	}
	hist := defaultHistory
	if path != "" {
		hist = filepath.Join(filepath.Dir(path), "history.jsonl")
	}
	h, err := catalog.ReadHistory(hist)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("--at needs the history: no file %s", hist)
	}
	if err != nil {
		return nil, err
	}
	// A date before the first crawl has no catalog (prices imported from
	// archives alone are history, not a catalog).
	if crawls := h.Crawls(); len(crawls) == 0 || t.Before(crawls[0]) {
		return nil, fmt.Errorf("%s: no crawl at or before %s (gpuatlas snapshot --list shows the crawls)", hist, catalog.Excerpt(at))
	}
	s, err := h.At(t)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", hist, err)
	}
	return s, nil
}

// providerNames are every provider's English and Chinese names, which a
// provider term or a search word matches (as in the explorer).
func providerNames() (map[catalog.Provider][2]string, error) {
	en, err := words.Messages(templates.FS, "en")
	if err != nil {
		return nil, err
	}
	zh, err := words.Messages(templates.FS, "zh")
	if err != nil {
		return nil, err
	}
	out := map[catalog.Provider][2]string{}
	for k, v := range en {
		if p, ok := strings.CutPrefix(k, "provider."); ok {
			n := [2]string{v, v}
			if z, ok := zh[k]; ok {
				n[1] = z
			}
			out[catalog.Provider(p)] = n
		}
	}
	return out, nil
}

// fill puts values into a message's {name} placeholders.
func fill(s string, pairs ...string) string {
	for i := 0; i+1 < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, "{"+pairs[i]+"}", pairs[i+1])
	}
	return s
}

// termWidth is the width the table must fit: $COLUMNS, else the terminal's
// when stdout is one, else 0 (no limit: a pipe or a file gets every column).
func termWidth(env Env) int {
	if c := env.Getenv("COLUMNS"); c != "" {
		var n int
		if _, err := fmt.Sscanf(c, "%d", &n); err == nil && n > 0 {
			return n
		}
	}
	if f, ok := env.Stdout.(*os.File); ok {
		return terminalWidth(f)
	}
	return 0
}
