package catalog

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"time"
)

// History is every catalog GPU Atlas has recorded, stored as changes: each region,
// instance type, placement, offer and unmapped accelerator is kept as intervals of
// crawls during which its value stayed the same, so a price that holds for a year is
// one record, not 365. Any recorded crawl's snapshot can be rebuilt exactly (At),
// and each offer's prices over time read back (PriceSeries).
//
// The file (data/history.jsonl) is JSON Lines, one record per line, sorted, so that
// each crawl changes only the lines of what changed and a `git diff` reads as a
// change log:
//
//	{"format":"gpuatlas-history","schema_version":1,"crawls":N,"records":M}
//	{"crawl":"2025-11-30T00:00:00Z","fx":{...},"coverage":[...],"fetched_at":{"aws/us-east-1":"..."}}
//	{"region":{...},"from":"2025-11-30T00:00:00Z"}
//	{"instance":{...},"from":"2025-11-30T00:00:00Z"}
//	{"placement":{...},"from":"2025-11-30T00:00:00Z","to":"2025-12-02T00:00:00Z"}
//	{"offer":{...},"from":"2025-11-30T00:00:00Z","to":"2025-12-01T00:00:00Z"}
//	{"unmapped":{...},"from":"2025-11-30T00:00:00Z"}
//	{"observation":{"provider":"aws","instance_type":"p5.48xlarge",...,"observed_at":"2025-06-05T07:22:36Z",...}}
//
// Observation lines (schema version 2) hold the prices imported from public
// archives (History.Import), one per line after the records, sorted; a history
// without them is written as version 1, exactly as before they existed.
//
// The header counts crawls and records so that a file cut short at a line boundary
// is still detected. A crawl line holds what changes with every crawl anyway: the
// time, coverage, the FX table (omitted when equal to the previous crawl's) and
// when offers were fetched. A record holds from the crawl it was first seen ("from")
// until the first crawl it no longer held ("to", absent while it still holds).
// Offers are recorded without fetched_at, which changes with every crawl, and with
// observed_at only where it is not the fetch time (observedMark): the crawl
// line keeps the fetch time shared by most offers of each provider/region, and the
// offers whose time differs from it ("fetched_at_offers"), so rebuilding is exact
// and costs one short entry per region when an adapter stamps a region's offers
// with one time.
type History struct {
	crawls  []historyCrawl
	records []historyRecord
	// lastOffers are the newest crawl's offers as Append recorded them (the open
	// offer records), in canonical order. The next Append compares the new
	// crawl's offers with them and encodes only those that differ: a day changes
	// a few hundred of 100,000. nil when not known (a history read from its
	// file): Append then compares every offer with the records. They are values,
	// read in order, not pointers to chase; spareOffers is the list of the crawl
	// before, whose memory the next Append reuses.
	lastOffers, spareOffers []recordedOffer
	// lastInterruptionAt is the newest crawl's shared band time per provider
	// (history_interruption.go), which lastOffers' records were written against.
	lastInterruptionAt map[Provider]time.Time
	// lastInstances are the newest crawl's instance types by key, as Append
	// recorded them: a type as it was needs no encoding.
	lastInstances map[string]recordedInstance
	// observations are the imported observations (Import), in canonical order,
	// and series the runs they make (history_observed.go).
	observations []Observation
	series       []ObservedSeriesRuns
}

type historyCrawl struct {
	at       time.Time
	fx       *FXTable // nil: the same as the previous crawl's
	coverage []Coverage
	// fetched maps provider/region to the fetch time most offers there share;
	// fetchedOffers maps an offer key to its fetch time where it differs.
	fetched       map[string]string
	fetchedOffers map[string]string
	// interruptionAt maps a provider to the time most of its spot offers'
	// interruption bands were observed (history_interruption.go).
	interruptionAt map[string]string
}

// recordKind orders the record sections of the file.
type recordKind int

const (
	recRegion recordKind = iota
	recInstance
	recPlacement
	recOffer
	recUnmapped
)

var recordKindNames = [...]string{"region", "instance", "placement", "offer", "unmapped"}

func (k recordKind) String() string { return recordKindNames[k] }

type historyRecord struct {
	kind  recordKind
	key   string
	value []byte // canonical JSON of the record's value
	from  int    // index of the first crawl it held in
	to    int    // index of the first crawl it no longer held in; openInterval while it holds
}

const openInterval = -1

func (r historyRecord) heldAt(i int) bool {
	return r.from <= i && (r.to == openInterval || i < r.to)
}

// offerState is an Offer without its fetch time: what a history record of an offer
// holds. Its fields must match Offer's (TestHistory_OfferStateCoversOffer checks),
// but for ObservedAt, which it holds relative to the fetch time (observedMark).
type offerState struct {
	Provider     Provider           `json:"provider"`
	InstanceType string             `json:"instance_type"`
	Region       string             `json:"region"`
	Zone         string             `json:"zone,omitempty"`
	Billing      BillingKind        `json:"billing"`
	Price        Price              `json:"price"`
	PriceRange   *PriceRange        `json:"price_range,omitempty"`
	Availability Availability       `json:"availability"`
	Zones        []string           `json:"zones,omitempty"`
	Includes     string             `json:"includes,omitempty"`
	Source       string             `json:"source"`
	ObservedAt   observedMark       `json:"observed_at,omitempty"`
	Synthetic    bool               `json:"synthetic,omitempty"`
	Reported     bool               `json:"reported,omitempty"`
	Estimated    bool               `json:"estimated,omitempty"`
	Suspect      string             `json:"suspect,omitempty"`
	Interruption *interruptionState `json:"interruption,omitempty"`
	Parts        []PricePart        `json:"parts,omitempty"`
}

// observedMark is an offer's observed_at as its history record holds it. Is
// observed_at part of an offer's state? Only where it says more than the fetch
// time: a live crawl observes each price when it fetches it, so observed_at
// moves with every crawl, like fetched_at, and a price confirmed again is no
// change; it is then left out (""). Where the source dates its prices itself (a
// dataset, a report) the date is the state, as is "unknown" where the source
// gives none: a change of either is a new record.
type observedMark string

// observedUnknown marks an offer whose source gives no date.
const observedUnknown observedMark = "unknown"

// observedWhenFetched stands for an empty mark in an offer read back from a
// record until its fetch time, from the crawl line, is known (resolveObserved).
var observedWhenFetched = time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC)

// markObserved is the offer's observedMark: empty when observed_at is written
// as fetched_at is.
func markObserved(o *Offer) (observedMark, error) {
	if o.ObservedAt.IsZero() {
		return observedUnknown, nil
	}
	// An offer read back from a record before its fetch time is known carries
	// the stand-in for an empty mark: it writes as one.
	if o.ObservedAt.Equal(observedWhenFetched) || sameTime(o.ObservedAt, o.FetchedAt) { // the common case, without formatting
		return "", nil
	}
	obs, err := marshalTime(o.ObservedAt)
	if err != nil {
		return "", err
	}
	if fetched, err := marshalTime(o.FetchedAt); err == nil && fetched == obs {
		return "", nil
	}
	return observedMark(obs), nil
}

// sameTime reports two times that are written alike: the same instant in the
// same location.
func sameTime(a, b time.Time) bool { return a.Equal(b) && a.Location() == b.Location() }

// sameObservedMark reports whether two offers' observed_at have the same mark.
func sameObservedMark(a, b *Offer) bool {
	if sameTime(a.ObservedAt, a.FetchedAt) && sameTime(b.ObservedAt, b.FetchedAt) && !a.ObservedAt.IsZero() && !b.ObservedAt.IsZero() {
		return true
	}
	ma, errA := markObserved(a)
	mb, errB := markObserved(b)
	return errA == nil && errB == nil && ma == mb
}

// observed is the mark's time: observedWhenFetched for an empty mark, zero for
// unknown.
func (m observedMark) observed() (time.Time, error) {
	switch m {
	case "":
		return observedWhenFetched, nil
	case observedUnknown:
		return time.Time{}, nil
	}
	var t time.Time
	if err := t.UnmarshalText([]byte(m)); err != nil {
		return time.Time{}, fmt.Errorf("observed_at %q: %w", string(m), err)
	}
	return t, nil
}

// resolveObserved gives an offer read from a record, whose fetch time is now
// set, its observed_at.
func resolveObserved(o *Offer) {
	if o.ObservedAt.Equal(observedWhenFetched) {
		o.ObservedAt = o.FetchedAt
	}
}

// stateOf is the offer's record state in a crawl whose bands share the time
// interruptionAt for its provider (zero: none).
func stateOf(o Offer, interruptionAt time.Time) (offerState, error) {
	mark, err := markObserved(&o)
	if err != nil {
		return offerState{}, err
	}
	in, err := interruptionStateOf(o.Interruption, interruptionAt)
	return offerState{Provider: o.Provider, InstanceType: o.InstanceType, Region: o.Region, Zone: o.Zone,
		Billing: o.Billing, Price: o.Price, PriceRange: o.PriceRange, Availability: o.Availability, Zones: o.Zones,
		Includes: o.Includes, Source: o.Source, ObservedAt: mark, Synthetic: o.Synthetic, Reported: o.Reported, Estimated: o.Estimated, Suspect: o.Suspect,
		Interruption: in, Parts: o.Parts}, err
}

// offer is the state as an offer fetched at fetched; its ObservedAt is
// observedWhenFetched when the mark is empty (resolveObserved sets it once the
// fetch time is known).
func (st offerState) offer(fetched time.Time) (Offer, error) {
	observed, err := st.ObservedAt.observed()
	in, inErr := st.Interruption.interruption()
	if err == nil {
		err = inErr
	}
	return Offer{Provider: st.Provider, InstanceType: st.InstanceType, Region: st.Region, Zone: st.Zone,
		Billing: st.Billing, Price: st.Price, PriceRange: st.PriceRange, Availability: st.Availability, Zones: st.Zones,
		Includes: st.Includes, Source: st.Source, FetchedAt: fetched, ObservedAt: observed, Synthetic: st.Synthetic,
		Reported: st.Reported, Estimated: st.Estimated, Suspect: st.Suspect, Interruption: in, Parts: st.Parts}, err
}

func unmappedKey(u UnmappedAccelerator) string { return string(u.Provider) + "/" + u.Name }

// NewHistory returns an empty history.
func NewHistory() *History { return &History{} }

// Crawls lists the times of the recorded crawls, oldest first.
func (h *History) Crawls() []time.Time {
	out := make([]time.Time, len(h.crawls))
	for i, c := range h.crawls {
		out[i] = c.at
	}
	return out
}

// fxAt is the FX table in force at crawl i: its own or the last one recorded before.
func (h *History) fxAt(i int) *FXTable {
	for ; i >= 0; i-- {
		if h.crawls[i].fx != nil {
			return h.crawls[i].fx
		}
	}
	return nil
}

func (h *History) sameAsCrawl(i int, s *Snapshot) (bool, error) {
	got, err := h.snapshotAt(i)
	if err != nil {
		return false, err
	}
	a, err := got.MarshalCanonical()
	if err != nil {
		return false, err
	}
	b, err := h.crawls[i].asRecorded(s).MarshalCanonical()
	if err != nil {
		return false, err
	}
	return bytes.Equal(a, b), nil
}

// asRecorded is s with each offer's fetch time as the crawl records it (within
// fetchTolerance of its region's, the region's), and its observed_at with it
// where it was the fetch time: what rebuilding the crawl gives.
func (c *historyCrawl) asRecorded(s *Snapshot) *Snapshot {
	out := *s
	out.Offers = make([]Offer, len(s.Offers))
	for j, o := range s.Offers {
		if t, ok := c.fetchTime(&o); ok {
			var at time.Time
			if err := at.UnmarshalText([]byte(t)); err == nil && !sameTime(at, o.FetchedAt) {
				if sameTime(o.ObservedAt, o.FetchedAt) {
					o.ObservedAt = at
				}
				o.FetchedAt = at
			}
		}
		out.Offers[j] = o
	}
	return &out
}

func (h *History) sortRecords() {
	if !slices.IsSortedFunc(h.records, compareRecords) { // a file's records are in order
		sort.SliceStable(h.records, func(i, j int) bool { return recordLess(&h.records[i], &h.records[j]) })
	}
}

// recordLess is the order of records: by kind, key and first crawl.
func recordLess(a, b *historyRecord) bool {
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	if a.key != b.key {
		return a.key < b.key
	}
	return a.from < b.from
}

func compareRecords(a, b historyRecord) int {
	switch {
	case recordLess(&a, &b):
		return -1
	case recordLess(&b, &a):
		return 1
	}
	return 0
}
