package catalog

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// QualitySchema is the version of the JSON form of a QualityReport.
const QualitySchema = 1

// Error codes of a QualityReport. Each is a reason not to publish: something a
// buyer would read as fact is not.
const (
	// A made-up price or instance type is in the catalog; synthetic data
	// belongs in test fixtures only.
	CodeSyntheticOffer    = "synthetic_offer"
	CodeSyntheticInstance = "synthetic_instance_type"
	// An offer or instance type names no source, or an offer has no fetch time.
	CodeNoSource    = "no_source"
	CodeNoFetchedAt = "no_fetched_at"
	// An offer says its price was observed after GPU Atlas retrieved it.
	CodeObservedAfterFetched = "observed_after_fetched"
	// A price breaks a plausibility rule but the catalog does not mark it
	// suspect, so it could lead an answer and the exports show it as fact.
	CodeSuspectUnmarked = "suspect_unmarked"
	// A suspect offer leads an answer (a scenario ranking, a TCO preset):
	// found by the command, which computes the answers.
	CodeSuspectLeads = "suspect_leads"
)

// Finding is one error of a QualityReport.
type Finding struct {
	Code string `json:"code"`
	// Subject is what it is about: an offer key, provider/type, or a provider.
	Subject string `json:"subject"`
	Message string `json:"message"`
}

// SuspectOffer is an offer the plausibility rules flag, with their reasons.
type SuspectOffer struct {
	Key          string      `json:"key"`
	Provider     Provider    `json:"provider"`
	InstanceType string      `json:"instance_type"`
	Region       string      `json:"region"`
	Zone         string      `json:"zone,omitempty"`
	Billing      BillingKind `json:"billing"`
	Price        Price       `json:"price"`
	Reasons      []string    `json:"reasons"`
	// Marked says the catalog records it as suspect (an error when not).
	Marked bool `json:"marked"`
}

// QualityReport is what `gpuatlas check` finds in a catalog. Errors are reasons
// not to publish; the rest are warnings: suspect offers (shown marked, never
// leading an answer), accelerator names without a GPU model, providers whose
// data is stale or undated, and spec conflicts.
type QualityReport struct {
	Schema  int       `json:"schema_version"`
	TakenAt time.Time `json:"taken_at"`
	// AsOf is the time ages are counted to.
	AsOf   time.Time `json:"as_of"`
	Errors []Finding `json:"errors"`
	// Suspect lists every offer the rules flag, by key.
	Suspect  []SuspectOffer        `json:"suspect_offers"`
	Unmapped []UnmappedAccelerator `json:"unmapped_accelerators"`
	// Stale lists the providers whose prices are older than StaleDays, kept
	// from an earlier crawl, or (some of them) undated.
	Stale []DataAge `json:"stale_providers"`
	// Conflicts lists the figures on which a provider and the GPU reference
	// disagree (recorded on the instance types by Reconcile). ConflictsChecked
	// is false for a catalog crawled before conflicts were recorded: no
	// instance type carries the reference's nominal memory class, so the report
	// says they were not checked rather than "none".
	Conflicts        []InstanceSpecConflict `json:"conflicts"`
	ConflictsChecked bool                   `json:"conflicts_checked"`
	// FigureConflicts lists the GPU reference's figures that a second source
	// contradicts (data/gpu_sources.csv second_value): both are kept, and
	// shown here until someone settles them.
	FigureConflicts []FigureSource `json:"figure_conflicts"`
}

// OK reports a catalog without errors.
func (r QualityReport) OK() bool { return len(r.Errors) == 0 }

// Warnings counts the warnings.
func (r QualityReport) Warnings() int {
	return len(r.Suspect) + len(r.Unmapped) + len(r.Stale) + len(r.Conflicts) + len(r.FigureConflicts)
}

// CheckQuality checks a snapshot: what it holds that is not fact, the offers
// the plausibility rules flag (applied afresh, so a catalog crawled before a
// rule existed is checked by it too), unmapped accelerators and data ages at
// asOf (zero: the snapshot's taken_at).
func CheckQuality(s *Snapshot, asOf time.Time) QualityReport {
	if asOf.IsZero() {
		asOf = s.TakenAt
	}
	r := QualityReport{Schema: QualitySchema, TakenAt: s.TakenAt, AsOf: asOf, Errors: []Finding{},
		Suspect: []SuspectOffer{}, Unmapped: append([]UnmappedAccelerator{}, s.Unmapped...), Stale: []DataAge{}, Conflicts: []InstanceSpecConflict{}, FigureConflicts: []FigureSource{}}
	errf := func(code, subject, format string, args ...any) {
		r.Errors = append(r.Errors, Finding{Code: code, Subject: subject, Message: fmt.Sprintf(format, args...)})
	}
	r.Conflicts = append(r.Conflicts, s.SpecConflicts()...)
	for _, t := range s.Instances {
		for _, a := range t.Accelerators {
			if a.NominalMemoryGB != nil {
				r.ConflictsChecked = true
			}
		}
		if t.Synthetic {
			errf(CodeSyntheticInstance, t.Key(), "made-up instance type: synthetic data belongs in test fixtures only")
		}
		if t.Source == "" {
			errf(CodeNoSource, t.Key(), "instance type without a source")
		}
	}
	reasons := s.ImplausibleReasons()
	for i := range s.Offers {
		o := &s.Offers[i]
		key := o.Key()
		if o.Synthetic {
			errf(CodeSyntheticOffer, key, "made-up price %s: synthetic data belongs in test fixtures only", o.Price)
		}
		if o.Source == "" {
			errf(CodeNoSource, key, "offer without a source")
		}
		if o.FetchedAt.IsZero() {
			errf(CodeNoFetchedAt, key, "offer without fetched_at")
		} else if o.ObservedAt.After(o.FetchedAt) {
			errf(CodeObservedAfterFetched, key, "observed_at %s is after fetched_at %s", o.ObservedAt.UTC().Format(time.RFC3339), o.FetchedAt.UTC().Format(time.RFC3339))
		}
		rs := reasons[i]
		if len(rs) == 0 && o.Suspect == "" {
			continue
		}
		if len(rs) == 0 {
			rs = []string{o.Suspect} // marked by an earlier rule or by hand
		}
		so := SuspectOffer{Key: key, Provider: o.Provider, InstanceType: o.InstanceType, Region: o.Region, Zone: o.Zone,
			Billing: o.Billing, Price: o.Price, Reasons: rs, Marked: o.Suspect != ""}
		r.Suspect = append(r.Suspect, so)
		if !so.Marked {
			errf(CodeSuspectUnmarked, key, "%s breaks a plausibility rule but is not marked suspect, so it could lead an answer: %s", o.Price, strings.Join(rs, "; "))
		}
	}
	for _, d := range s.DataAges(asOf) {
		if d.Offers > 0 && (d.Stale() || d.Unknown > 0) {
			r.Stale = append(r.Stale, d)
		}
	}
	sort.SliceStable(r.Errors, func(i, j int) bool {
		if r.Errors[i].Code != r.Errors[j].Code {
			return r.Errors[i].Code < r.Errors[j].Code
		}
		return r.Errors[i].Subject < r.Errors[j].Subject
	})
	return r
}

// AddError adds an error a caller found (the command adds CodeSuspectLeads),
// keeping the errors in order.
func (r *QualityReport) AddError(f Finding) {
	r.Errors = append(r.Errors, f)
	sort.SliceStable(r.Errors, func(i, j int) bool {
		if r.Errors[i].Code != r.Errors[j].Code {
			return r.Errors[i].Code < r.Errors[j].Code
		}
		return r.Errors[i].Subject < r.Errors[j].Subject
	})
}

// staleReason says in words why a provider is listed as stale.
func (d DataAge) staleReason(asOf time.Time) string {
	var parts []string
	if d.Coverage == CoverageStale {
		parts = append(parts, "its last crawl failed; data kept from an earlier one")
	}
	if d.Dated() {
		span := d.Oldest.UTC().Format("2006-01-02")
		if n := d.Newest.UTC().Format("2006-01-02"); n != span {
			span += " to " + n
		}
		if d.Days > StaleDays {
			parts = append(parts, fmt.Sprintf("prices observed %s, %d days before %s (more than %d)", span, d.Days, asOf.UTC().Format("2006-01-02"), StaleDays))
		} else {
			parts = append(parts, fmt.Sprintf("prices observed %s", span))
		}
	}
	if d.Unknown > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d prices have no observation date (the source gives none)", d.Unknown, d.Offers))
	}
	return strings.Join(parts, "; ")
}
