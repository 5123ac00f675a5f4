package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/internal/ghactions"
	"github.com/gpuatlas/gpuatlas/internal/termtext"
)

const checkSynopsis = `check [--catalog FILE] [--format text|markdown|json] [--as-of DATE] [--max-rows N] [--max-stale-days N] [--min-coverage PCT]

Checks a catalog's data quality and prints a report. Errors (exit 1): a made-up
(synthetic) price or instance type, an offer or type without a source, an offer
without fetched_at or observed after it, a price that breaks a plausibility rule
but is not marked suspect, and a suspect offer that leads an answer (a scenario
ranking on any billing kind, a TCO preset). Warnings: every suspect offer with
its reasons, accelerator names without a GPU model, providers whose prices were
observed more than 30 days before --as-of or have no observation date, and spec
conflicts. With --max-stale-days, a provider stale (its crawl failed, its data
kept) for longer is an error; with --min-coverage, so is a crawl that
confirmed less than that share of the offers. Exit 0 without errors (warnings allowed), 1 with errors, 2 for a bad
command line. gpuatlas validate --catalog FILE runs the same check.`

func runCheck(env Env, args []string) int {
	fs, parse := newFlagSet(env, "check", checkSynopsis)
	path := fs.String("catalog", "", "snapshot to check (default: the catalog embedded in this build)")
	format := fs.String("format", "text", "report format: text, markdown (for a job summary) or json")
	asOfArg := fs.String("as-of", "", "count data ages to this date, YYYY-MM-DD or RFC 3339 (default: the catalog's taken_at)")
	maxRows := fs.Int("max-rows", catalog.DefaultQualityRows, "rows per list in text and markdown (json lists every one)")
	maxStale := fs.Int("max-stale-days", -1, "error when a provider has been stale (crawl failed, data kept) for more than N days before --as-of (default -1: off)")
	minCoverage := fs.Int("min-coverage", 0, "error when this crawl confirmed less than PCT percent of the offers, the rest kept stale (0-100; default 0: off)")
	if code, ok := parseFlags(env, fs, parse, args, format, "text", "markdown", "json"); !ok {
		return code
	}
	var asOf time.Time
	if *asOfArg != "" {
		t, ok, err := parseAsOf(*asOfArg)
		if err != nil || !ok {
			return usageError(env, "check: --as-of %s: want YYYY-MM-DD or an RFC 3339 time", catalog.Excerpt(*asOfArg))
		}
		asOf = t
	}
	if *minCoverage < 0 || *minCoverage > 100 {
		return usageError(env, "check: --min-coverage %d: want a percentage from 0 to 100", *minCoverage)
	}
	snap, _, err := loadSnapshot(*path)
	if err != nil {
		return fail(env, "check: %v", err)
	}
	r, err := qualityReport(snap, asOf)
	if err != nil {
		return fail(env, "check: %v", err)
	}
	checkThresholds(&r, snap, asOf, *maxStale, *minCoverage)
	// The GPU reference's own conflicts (data/gpu_sources.csv second values):
	// check lists them; validate, which checks a catalog, does not.
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		return fail(env, "check: %v", err)
	}
	r.FigureConflicts = ref.FigureConflicts()
	var out string
	switch *format {
	case "markdown":
		out = fieldReport(r).Markdown(*maxRows)
	case "json":
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return fail(env, "check: %v", err)
		}
		out = string(b) + "\n"
	default:
		out = fieldReport(r).Text(*maxRows)
	}
	if _, err := fmt.Fprint(env.Stdout, out); err != nil {
		return fail(env, "check: write: %v", err)
	}
	annotateQuality(env, r)
	if !r.OK() {
		return ExitError
	}
	return ExitOK
}

// qualityReport is catalog.CheckQuality with the answers checked too: every
// scenario ranked on every billing kind the catalog has, and the TCO presets
// the site shows, must lead with no offer the plausibility rules flag (applied
// afresh, so that a catalog whose flags are missing is caught).
func qualityReport(snap *catalog.Snapshot, asOf time.Time) (catalog.QualityReport, error) {
	r := catalog.CheckQuality(snap, asOf)
	flagged := map[string][]string{}
	for i, reasons := range snap.ImplausibleReasons() {
		flagged[snap.Offers[i].Key()] = reasons
	}
	if len(flagged) == 0 {
		return r, nil
	}
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		return r, err
	}
	set, err := compare.LoadScenarios(data.FS)
	if err != nil {
		return r, err
	}
	kinds := map[catalog.BillingKind]bool{}
	for _, o := range snap.Offers {
		kinds[o.Billing] = true
	}
	lead := func(where, key string) {
		if reasons, ok := flagged[key]; ok {
			r.AddError(catalog.Finding{Code: catalog.CodeSuspectLeads, Subject: where,
				Message: fmt.Sprintf("%s leads it, and its price breaks a plausibility rule: %s", key, strings.Join(reasons, "; "))})
		}
	}
	for _, b := range catalog.BillingKinds {
		if !kinds[b] {
			continue
		}
		m := compare.BuildMatrix(set.Scenarios, snap, ref, compare.MatrixOptions{Billing: b})
		for _, sr := range m.Scenarios {
			for _, f := range sr.Ranked {
				lead(fmt.Sprintf("scenario %s ranking (%s)", sr.Scenario.ID, b), f.OfferKey)
			}
		}
		if b != catalog.OnDemand {
			continue
		}
		presets, err := compare.TCOPresets(m, snap, ref)
		if err != nil {
			return r, err
		}
		for _, t := range presets.Scenarios {
			for _, o := range t.Offers {
				for _, g := range o.Options {
					if p := g.Option.PayAsYouGo; p != nil {
						lead(fmt.Sprintf("TCO preset %s (%s)", t.ID, g.Group), p.Offer)
					}
					if c := g.Option.Commitment; c != nil {
						lead(fmt.Sprintf("TCO preset %s (%s)", t.ID, g.Group), c.Offer)
					}
				}
			}
		}
	}
	return r, nil
}

// fieldReport is r with every text that comes from the catalog (an offer's
// key, a provider's accelerator name, a reason, a source) made one field of a
// line (termtext.Field), for the text and Markdown reports (which escape
// Markdown's syntax themselves); the JSON report keeps the catalog's text.
func fieldReport(r catalog.QualityReport) catalog.QualityReport {
	tf := termtext.Field
	fields := func(xs []string) []string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = tf(x)
		}
		return out
	}
	r.Errors = slices.Clone(r.Errors)
	for i, e := range r.Errors {
		r.Errors[i] = catalog.Finding{Code: tf(e.Code), Subject: tf(e.Subject), Message: tf(e.Message)}
	}
	r.Suspect = slices.Clone(r.Suspect)
	for i := range r.Suspect {
		o := &r.Suspect[i]
		o.Key, o.InstanceType, o.Region, o.Zone, o.Reasons = tf(o.Key), tf(o.InstanceType), tf(o.Region), tf(o.Zone), fields(o.Reasons)
		o.Price.Currency, o.Price.Unit = catalog.Currency(tf(string(o.Price.Currency))), catalog.PriceUnit(tf(string(o.Price.Unit)))
	}
	r.Unmapped = slices.Clone(r.Unmapped)
	for i := range r.Unmapped {
		u := &r.Unmapped[i]
		u.Provider, u.Name, u.InstanceTypes = catalog.Provider(tf(string(u.Provider))), tf(u.Name), fields(u.InstanceTypes)
	}
	r.Stale = slices.Clone(r.Stale)
	for i := range r.Stale {
		r.Stale[i].Provider = catalog.Provider(tf(string(r.Stale[i].Provider)))
	}
	r.Conflicts = slices.Clone(r.Conflicts)
	for i := range r.Conflicts {
		c := &r.Conflicts[i]
		c.Provider, c.InstanceType = catalog.Provider(tf(string(c.Provider))), tf(c.InstanceType)
		c.Field, c.Accelerator, c.Model, c.Unit, c.Source = tf(c.Field), tf(c.Accelerator), tf(c.Model), tf(c.Unit), tf(c.Source)
	}
	return r
}

// annotateQuality writes the report's errors, and a line of its warnings, as
// GitHub Actions annotations when running there.
func annotateQuality(env Env, r catalog.QualityReport) {
	if env.Getenv == nil || env.Getenv("GITHUB_ACTIONS") != "true" {
		return
	}
	for _, e := range r.Errors {
		fmt.Fprintln(env.Stderr, ghactions.Annotation("error", "gpuatlas check", "", 0, e.Subject+": "+e.Message))
	}
	if n := r.Warnings(); n > 0 {
		fmt.Fprintf(env.Stderr, "::warning title=gpuatlas check::%d suspect offers, %d unmapped accelerators, %d stale or undated providers (see the report)\n",
			len(r.Suspect), len(r.Unmapped), len(r.Stale))
	}
}
