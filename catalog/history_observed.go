package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Imported observations (Observation) live in the history beside the crawls, as
// series: the observations of one offer key and one Includes, in time order.
//
// What a series says, and no more:
//
//   - an observation's price holds from its observed_at until the series' next
//     observation, or until its observed_until where that comes first (a gap
//     follows, in which the series says nothing);
//   - the last observation of a series holds until its observed_until, or else
//     to the end of its UTC day: a series never carries past its last
//     observation, so a 2021 list price is never today's offer unless a crawl
//     says so;
//   - observations of one series at the same instant must agree; those from
//     several sources that agree are one sighting.
//
// ObservedSeries gives each series as runs of one price; At adds the runs that
// hold at a time to the snapshot of the crawls; ObservedChanges lists each
// dated price change inside a series, with the sources that saw it.
//
// An imported price has the two dates of every offer: observed_at, when the
// archive saw it (the observation in force; the series says how long it held),
// and fetched_at, when GPU Atlas retrieved the archive (the observation's
// retrieved_at). Neither is the time asked about, so At of the same time gives
// the same bytes however often it is asked.

// ObservedRun is a run of one imported series during which its price stayed the
// same. The embedded Observation is the run's first (its key fields, price and
// what it includes).
type ObservedRun struct {
	Observation
	// From is the first observation of the run, Last its last; Until the first
	// time the run no longer holds (always set: imported prices never hold
	// open-ended).
	From, Last, Until time.Time
	// Sightings are the times observed, oldest first; Sources and Notes the
	// distinct sources and notes of the run, in the order first seen.
	Sightings []time.Time
	Sources   []string
	Notes     []string
	// Retrieved is when GPU Atlas first retrieved any of the run's
	// observations: the earliest retrieved_at.
	Retrieved time.Time
	// sightingSources are the sources of each sighting; sightingRetrieved
	// when GPU Atlas first retrieved it (the earliest retrieved_at of its
	// observations).
	sightingSources   [][]string
	sightingRetrieved []time.Time
}

// FirstSources are the sources of the run's first sighting: the archive
// versions that observed its price first (a change's "observed by").
func (r *ObservedRun) FirstSources() []string { return slices.Clone(r.sightingSources[0]) }

// HoldsAt reports whether the run's price holds at t: From <= t < Until.
func (r *ObservedRun) HoldsAt(t time.Time) bool { return !t.Before(r.From) && t.Before(r.Until) }

// sightingAt is the index of the last sighting at or before t (0 when none).
func (r *ObservedRun) sightingAt(t time.Time) int {
	return max(sort.Search(len(r.Sightings), func(i int) bool { return r.Sightings[i].After(t) })-1, 0)
}

// ObservedSeriesRuns are the runs of one series, oldest first.
type ObservedSeriesRuns struct {
	Key  string // Observation.SeriesKey
	Runs []ObservedRun
}

// ObservationCount is the number of imported observations the history holds.
func (h *History) ObservationCount() int { return len(h.observations) }

// Observations returns a copy of the imported observations, in canonical order.
func (h *History) Observations() []Observation { return slices.Clone(h.observations) }

// ObservedSeries returns every imported series as runs, in series key order. The
// result is shared: do not change it.
func (h *History) ObservedSeries() []ObservedSeriesRuns { return h.series }

// ImportResult says what Import did.
type ImportResult struct {
	Added     int // observations new to the history
	Unchanged int // observations the history held already
}

// Import adds observations to the history. An observation without
// retrieved_at is given now, the import's time (UTC, whole seconds); with now
// zero it must have one. Each is validated; one that the history (or the same
// import) holds already is left as it is, with its first retrieved_at, so
// importing a file twice changes nothing. An observation that disagrees with
// another of its series at the same instant is an error. On any error nothing
// is added and the error is ObservationErrors, each "file:line: message".
func (h *History) Import(obs []ObservationAt, now time.Time) (ImportResult, error) {
	type slot struct {
		series string
		at     int64
	}
	keyOf := func(o *Observation) slot { return slot{o.SeriesKey(), o.ObservedAt.UnixNano()} }
	existing := map[slot][]int{}
	for i := range h.observations {
		k := keyOf(&h.observations[i])
		existing[k] = append(existing[k], i)
	}
	incoming := map[slot][]int{}
	var res ImportResult
	var errs ObservationErrors
	var added []Observation
	fail := func(o ObservationAt, format string, args ...any) {
		if len(errs) < maxObservationProblems {
			errs = append(errs, o.Where()+": "+fmt.Sprintf(format, args...))
		}
	}
next:
	for i := range obs {
		o := obs[i]
		if o.RetrievedAt.IsZero() {
			if now.IsZero() {
				fail(o, "retrieved_at: required (when GPU Atlas retrieved the archive; this import has no time to give it)")
				continue
			}
			o.RetrievedAt = now.UTC().Truncate(time.Second)
			obs[i].RetrievedAt = o.RetrievedAt
		}
		if err := checkObservationClock(&o.Observation, now); err != nil {
			fail(o, "%v", err)
			continue
		}
		if err := o.Validate(); err != nil {
			fail(o, "%v", err)
			continue
		}
		if !h.convertsFrom(o.Price.Currency, o.ObservedAt) {
			fail(o, "currency %s: the history's FX table cannot convert it (it converts USD, CNY, EUR and the currencies of the crawls' FX tables): convert the price to one of them, or record a crawl whose FX table has %s first", o.Price.Currency, o.Price.Currency)
			continue
		}
		k := keyOf(&o.Observation)
		for _, j := range existing[k] {
			e := &h.observations[j]
			if sameObservation(e, &o.Observation) {
				res.Unchanged++
				continue next
			}
			if !samePriceFigures(*e, o.Observation) {
				fail(o, "%s at %s: the history has %s from %s; this record says %s (two observations of one series at one instant must agree)",
					o.SeriesKey(), formatHistoryTime(o.ObservedAt), e.PriceText(), clip(e.Source), o.PriceText())
				continue next
			}
		}
		for _, j := range incoming[k] {
			p := obs[j]
			if sameObservation(&p.Observation, &o.Observation) {
				res.Unchanged++
				continue next
			}
			if !samePriceFigures(p.Observation, o.Observation) {
				fail(o, "%s at %s: %s says %s, this record says %s", o.SeriesKey(), formatHistoryTime(o.ObservedAt), p.Where(), p.PriceText(), o.PriceText())
				continue next
			}
		}
		incoming[k] = append(incoming[k], i)
		added = append(added, o.Observation)
	}
	if len(errs) > 0 {
		return ImportResult{}, errs
	}
	res.Added = len(added)
	if len(added) > 0 {
		all := append(slices.Clone(h.observations), added...)
		slices.SortFunc(all, func(a, b Observation) int { return compareObservations(&a, &b) })
		h.observations = all
		h.series = buildSeries(all)
	}
	return res, nil
}

// buildSeries turns sorted observations into their series' runs.
func buildSeries(obs []Observation) []ObservedSeriesRuns {
	var out []ObservedSeriesRuns
	for lo := 0; lo < len(obs); {
		key := obs[lo].SeriesKey()
		hi := lo + 1
		for hi < len(obs) && obs[hi].SeriesKey() == key {
			hi++
		}
		out = append(out, ObservedSeriesRuns{Key: key, Runs: seriesRuns(obs[lo:hi])})
		lo = hi
	}
	return out
}

// sighting is the observations of a series at one instant (they agree).
type sighting struct {
	first     Observation
	until     time.Time // the latest observed_until given; zero when none is
	bound     bool      // some observation gave observed_until
	retrieved time.Time // the earliest retrieved_at
	source    []string
	notes     []string
}

// seriesRuns is the runs of one series' observations, sorted by time.
func seriesRuns(obs []Observation) []ObservedRun {
	var ss []sighting
	for _, o := range obs {
		if n := len(ss); n > 0 && ss[n-1].first.ObservedAt.Equal(o.ObservedAt) {
			s := &ss[n-1]
			s.source = appendNew(s.source, o.Source)
			if !o.RetrievedAt.IsZero() && (s.retrieved.IsZero() || o.RetrievedAt.Before(s.retrieved)) {
				s.retrieved = o.RetrievedAt
			}
			s.notes = appendNew(s.notes, o.Note)
			if !o.ObservedUntil.IsZero() {
				s.bound = true
				if o.ObservedUntil.After(s.until) {
					s.until = o.ObservedUntil
				}
			}
			continue
		}
		s := sighting{first: o, until: o.ObservedUntil, bound: !o.ObservedUntil.IsZero(), retrieved: o.RetrievedAt, source: []string{o.Source}}
		s.notes = appendNew(nil, o.Note)
		ss = append(ss, s)
	}
	var runs []ObservedRun
	for k, s := range ss {
		at := s.first.ObservedAt
		var end time.Time
		switch {
		case k+1 < len(ss) && s.bound && s.until.Before(ss[k+1].first.ObservedAt):
			end = s.until
		case k+1 < len(ss):
			end = ss[k+1].first.ObservedAt
		case s.bound:
			end = s.until
		default:
			y, m, d := at.UTC().Date()
			end = time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
		}
		if n := len(runs); n > 0 && runs[n-1].Until.Equal(at) && samePriceFigures(runs[n-1].Observation, s.first) {
			r := &runs[n-1]
			r.Last, r.Until = at, end
			r.Sightings = append(r.Sightings, at)
			r.sightingSources = append(r.sightingSources, s.source)
			r.sightingRetrieved = append(r.sightingRetrieved, s.retrieved)
			if s.retrieved.Before(r.Retrieved) {
				r.Retrieved = s.retrieved
			}
			for _, src := range s.source {
				r.Sources = appendNew(r.Sources, src)
			}
			for _, note := range s.notes {
				r.Notes = appendNew(r.Notes, note)
			}
			continue
		}
		runs = append(runs, ObservedRun{Observation: s.first, From: at, Last: at, Until: end,
			Sightings: []time.Time{at}, Sources: slices.Clone(s.source), Notes: slices.Clone(s.notes), Retrieved: s.retrieved,
			sightingSources: [][]string{s.source}, sightingRetrieved: []time.Time{s.retrieved}})
	}
	return runs
}

// appendNew appends s to list unless it is empty or there already.
func appendNew(list []string, s string) []string {
	if s == "" || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// ObservedChange is a dated price change inside one imported series: the run
// before and the run that began at At, right after it.
type ObservedChange struct {
	At       time.Time
	Old, New ObservedRun
	// Percent is the change of the cost of use (PriceChangePercent); nil across
	// currencies, or where either side is a published range (a range has no
	// single figure to compare).
	Percent *decimal.Decimal
}

// ObservedChanges lists every price change inside the imported series, oldest
// first (then by series key). A series that begins, ends or has a gap is no
// change: it says when the archive observed, not when the price list changed;
// a different Includes is another series, never a change.
func (h *History) ObservedChanges() []ObservedChange {
	var out []ObservedChange
	for _, s := range h.series {
		for k := 1; k < len(s.Runs); k++ {
			old, cur := s.Runs[k-1], s.Runs[k]
			if !old.Until.Equal(cur.From) {
				continue
			}
			c := ObservedChange{At: cur.From, Old: old, New: cur}
			if old.PriceHigh == nil && cur.PriceHigh == nil {
				if pct, ok := PriceChangePercent(old.Price, cur.Price, cur.Billing); ok {
					c.Percent = &pct
				}
			}
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		return out[i].New.SeriesKey() < out[j].New.SeriesKey()
	})
	return out
}

// ObservedSource is the provenance an observed offer carries in a snapshot of
// time t: the source(s) of the observation in force then and, for a range, the
// range it was published as.
func (r *ObservedRun) ObservedSource(t time.Time) string {
	src := r.Source
	if i := r.sightingAt(t); i < len(r.sightingSources) {
		src = strings.Join(r.sightingSources[i], " ")
	}
	if r.PriceHigh != nil {
		src += " (published as the range " + r.PriceText() + "; the low end is shown)"
	}
	return src
}

// observedOffers are the offers the imported series hold at t, each with the
// two dates of the observation in force: observed_at when the archive saw the
// price, fetched_at when GPU Atlas retrieved the archive (its retrieved_at).
// They are not yet checked for plausibility (flagObserved).
func (h *History) observedOffers(t time.Time) []Offer {
	var out []Offer
	for _, s := range h.series {
		i := sort.Search(len(s.Runs), func(i int) bool { return s.Runs[i].Until.After(t) })
		if i == len(s.Runs) || !s.Runs[i].HoldsAt(t) {
			continue
		}
		r := &s.Runs[i]
		k := r.sightingAt(t)
		out = append(out, Offer{Provider: r.Provider, InstanceType: r.InstanceType, Region: r.Region, Zone: r.Zone,
			Billing: r.Billing, Price: r.Price, Availability: Unknown, Includes: r.Includes,
			Source: r.ObservedSource(t), FetchedAt: r.sightingRetrieved[k], ObservedAt: r.Sightings[k]})
	}
	return out
}

// ObservedOffersAt are the offers the imported series hold at t (all of them,
// also those a crawl of that time lists itself), dated as At dates them and
// marked suspect where they break a plausibility rule (FlagImplausible) among
// the imported offers of their provider that hold at t: an archive's price is
// judged beside the archives' prices of its time, never beside a crawl's,
// which may be on another basis (the disk a crawled price includes). instances
// are the instance types the peer-median rule divides by (a type it lacks is
// not judged by that rule). A suspect archived price, like a crawled one,
// never leads an answer (Offer.Leads): the GPU pages' cheapest price over time
// reads these.
func (h *History) ObservedOffersAt(t time.Time, instances []InstanceType) []Offer {
	offers := h.observedOffers(t)
	flagObserved(offers, instances)
	return offers
}

// flagObserved marks the imported offers of one time that break a
// plausibility rule, provider by provider.
func flagObserved(offers []Offer, instances []InstanceType) {
	if len(offers) == 0 {
		return
	}
	s := Snapshot{Instances: instances, Offers: offers}
	FlagImplausibleSnapshot(&s)
}

// stubSource is the provenance of an instance type that only imported prices
// name: nothing about it but its id is known.
const stubSource = "history import: known only from dated price observations; specs not recorded"

// addObserved adds to s, the snapshot of crawl i (-1: none), the offers the
// imported series hold at t that the crawl does not list itself (a crawl's offer
// is the crawl's), with their instance types: as the history recorded them at
// the crawl nearest before, else the first recorded, else a stub that says
// nothing is known. They are marked suspect as ObservedOffersAt says. The
// snapshot's time becomes that of the newest observation in it where that is
// later than the crawl: the time the snapshot describes (the archives were
// retrieved later, which each offer's fetched_at says).
func (h *History) addObserved(s *Snapshot, t time.Time, i int) (added int, err error) {
	offers := h.observedOffers(t)
	if len(offers) == 0 {
		return 0, nil
	}
	have := make(map[string]bool, len(s.Offers))
	for _, o := range s.Offers {
		have[o.Key()] = true
	}
	types := make(map[string]bool, len(s.Instances))
	for _, it := range s.Instances {
		types[it.Key()] = true
	}
	for _, o := range offers {
		if k := o.InstanceKey(); !types[k] {
			types[k] = true
			it, err := h.instanceNear(k, i)
			if err != nil {
				return 0, err
			}
			s.Instances = append(s.Instances, it)
		}
	}
	flagObserved(offers, s.Instances)
	for _, o := range offers {
		if have[o.Key()] {
			continue
		}
		s.Offers = append(s.Offers, o)
		added++
		if o.ObservedAt.After(s.TakenAt) {
			s.TakenAt = o.ObservedAt
		}
	}
	s.Sort()
	return added, nil
}

// instanceNear is the instance type record of key held at crawl i or, failing
// that, the last recorded before i, else the first recorded after; a stub when
// the crawls never recorded it.
func (h *History) instanceNear(key string, i int) (InstanceType, error) {
	lo, hi := h.kindRange(recInstance)
	at := lo + sort.Search(hi-lo, func(k int) bool { return h.records[lo+k].key >= key })
	var pick *historyRecord
	for k := at; k < hi && h.records[k].key == key; k++ {
		r := &h.records[k]
		if pick == nil || r.from <= i {
			pick = r // records of a key are in order of their first crawl
		}
	}
	if pick == nil {
		p, id, _ := strings.Cut(key, "/")
		return InstanceType{Provider: Provider(p), ID: id, Source: stubSource}, nil
	}
	var it InstanceType
	if err := json.Unmarshal(pick.value, &it); err != nil {
		return it, fmt.Errorf("history: instance %s: %w", key, err)
	}
	return it, nil
}

// IsObservedStub reports whether an instance type is a stub that At made for a
// type only imported prices name.
func IsObservedStub(t InstanceType) bool { return t.Source == stubSource }

// checkObservationClock refuses an observation dated after now, the import's
// time (no archive observed a price that has not held yet); zero now checks
// nothing.
func checkObservationClock(o *Observation, now time.Time) error {
	if now.IsZero() {
		return nil
	}
	for _, f := range []struct {
		name string
		t    time.Time
	}{{"observed_at", o.ObservedAt}, {"observed_until", o.ObservedUntil}, {"retrieved_at", o.RetrievedAt}} {
		if f.t.After(now) {
			return fmt.Errorf("%s %s: in the future (the import runs at %s)", f.name, formatHistoryTime(f.t), formatHistoryTime(now.UTC().Truncate(time.Second)))
		}
	}
	return nil
}

// convertsFrom reports whether every snapshot the history rebuilds from at on
// can convert currency c: one the providers publish in (USD, CNY, EUR), or one
// every FX table in force from at on has a rate for. Before the first crawl a
// rebuilt snapshot has no FX table.
func (h *History) convertsFrom(c Currency, at time.Time) bool {
	if PublishedCurrency(c) {
		return true
	}
	first := sort.Search(len(h.crawls), func(i int) bool { return h.crawls[i].at.After(at) }) - 1
	if first < 0 || len(h.crawls) == 0 {
		return false
	}
	for i := first; i < len(h.crawls); i++ {
		fx := h.fxAt(i)
		if fx == nil || !fx.knows(c) {
			return false
		}
	}
	return true
}
