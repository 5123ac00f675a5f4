package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

// HistorySchemaVersion is the version of the history file format this build reads
// and writes. Bump it when a change would make an older reader misread a file.
const HistorySchemaVersion = 1

// historyFormat names the file format in the header line, so that a snapshot or
// another JSON Lines file handed to the history reader is rejected clearly.
const historyFormat = "gpuatlas-history"

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
//
// The header counts crawls and records so that a file cut short at a line boundary
// is still detected. A crawl line holds what changes with every crawl anyway: the
// time, coverage, the FX table (omitted when equal to the previous crawl's) and
// when offers were fetched. A record holds from the crawl it was first seen ("from")
// until the first crawl it no longer held ("to", absent while it still holds).
// Offers are recorded without fetched_at, which changes with every crawl: the crawl
// line keeps the fetch time shared by most offers of each provider/region, and the
// offers whose time differs from it ("fetched_at_offers"), so rebuilding is exact
// and costs one short entry per region when an adapter stamps a region's offers
// with one time.
type History struct {
	crawls  []historyCrawl
	records []historyRecord
}

type historyCrawl struct {
	at       time.Time
	fx       *FXTable // nil: the same as the previous crawl's
	coverage []Coverage
	// fetched maps provider/region to the fetch time most offers there share;
	// fetchedOffers maps an offer key to its fetch time where it differs.
	fetched       map[string]string
	fetchedOffers map[string]string
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
// holds. Its fields must match Offer's (TestHistory_OfferStateCoversOffer checks).
type offerState struct {
	Provider     Provider     `json:"provider"`
	InstanceType string       `json:"instance_type"`
	Region       string       `json:"region"`
	Zone         string       `json:"zone,omitempty"`
	Billing      BillingKind  `json:"billing"`
	Price        Price        `json:"price"`
	Availability Availability `json:"availability"`
	Zones        []string     `json:"zones,omitempty"`
	Includes     string       `json:"includes,omitempty"`
	Source       string       `json:"source"`
	Synthetic    bool         `json:"synthetic,omitempty"`
	Suspect      string       `json:"suspect,omitempty"`
}

func stateOf(o Offer) offerState {
	return offerState{Provider: o.Provider, InstanceType: o.InstanceType, Region: o.Region, Zone: o.Zone,
		Billing: o.Billing, Price: o.Price, Availability: o.Availability, Zones: o.Zones,
		Includes: o.Includes, Source: o.Source, Synthetic: o.Synthetic, Suspect: o.Suspect}
}

func (st offerState) offer(fetched time.Time) Offer {
	return Offer{Provider: st.Provider, InstanceType: st.InstanceType, Region: st.Region, Zone: st.Zone,
		Billing: st.Billing, Price: st.Price, Availability: st.Availability, Zones: st.Zones,
		Includes: st.Includes, Source: st.Source, FetchedAt: fetched, Synthetic: st.Synthetic, Suspect: st.Suspect}
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

// Append records the snapshot as the newest crawl. It reports whether the catalog
// changed since the previous crawl: a region, instance type, placement, offer or
// unmapped accelerator that appeared, went or changed value. The crawl itself (its
// time, coverage, FX rates and fetch times) is recorded either way.
//
// The snapshot must be valid and taken after the last recorded crawl. Appending the
// same snapshot as the last crawl again is a no-op (changed false, no error), so a
// retried job does not fail.
func (h *History) Append(s *Snapshot) (changed bool, err error) {
	if err := s.Validate(); err != nil {
		return false, fmt.Errorf("history: append snapshot taken at %s: %w", formatHistoryTime(s.TakenAt), err)
	}
	c := sortedSnapshotCopy(s)
	if n := len(h.crawls); n > 0 {
		last := h.crawls[n-1].at
		switch {
		case c.TakenAt.Equal(last):
			same, err := h.sameAsCrawl(n-1, c)
			if err != nil {
				return false, err
			}
			if same {
				return false, nil
			}
			return false, fmt.Errorf("history: a different snapshot is already recorded for %s", formatHistoryTime(last))
		case c.TakenAt.Before(last):
			return false, fmt.Errorf("history: snapshot taken at %s is older than the last recorded crawl (%s); history only grows forward", formatHistoryTime(c.TakenAt), formatHistoryTime(last))
		}
	}
	values, err := recordValues(c)
	if err != nil {
		return false, fmt.Errorf("history: append snapshot taken at %s: %w", formatHistoryTime(c.TakenAt), err)
	}
	idx := len(h.crawls)
	crawl := historyCrawl{at: c.TakenAt.UTC(), coverage: c.Coverage, fetched: map[string]string{}, fetchedOffers: map[string]string{}}
	if err := crawl.setFetched(c.Offers); err != nil {
		return false, fmt.Errorf("history: append snapshot taken at %s: %w", formatHistoryTime(c.TakenAt), err)
	}
	fx := c.FX
	if prev := h.fxAt(idx - 1); prev == nil || !encodesSame(*prev, fx) {
		crawl.fx = &fx
	}
	h.crawls = append(h.crawls, crawl)

	// Close what no longer holds; note what still holds so it is not reopened.
	held := map[recordKind]map[string]bool{}
	for i := range h.records {
		r := &h.records[i]
		if r.to != openInterval {
			continue
		}
		if v, ok := values[r.kind][r.key]; ok && bytes.Equal(v, r.value) {
			if held[r.kind] == nil {
				held[r.kind] = map[string]bool{}
			}
			held[r.kind][r.key] = true
			continue
		}
		r.to = idx
		changed = true
	}
	for kind, byKey := range values {
		for key, v := range byKey {
			if held[kind][key] {
				continue
			}
			h.records = append(h.records, historyRecord{kind: kind, key: key, value: v, from: idx, to: openInterval})
			changed = true
		}
	}
	h.sortRecords()
	return changed, nil
}

// sortedSnapshotCopy copies the snapshot's lists (and the lists inside them that Sort
// sorts) and sorts the copy, leaving s as it was.
func sortedSnapshotCopy(s *Snapshot) *Snapshot {
	c := *s
	c.Coverage = append([]Coverage(nil), s.Coverage...)
	for i := range c.Coverage {
		c.Coverage[i].FailedRegions = append([]RegionFailure(nil), c.Coverage[i].FailedRegions...)
		c.Coverage[i].Sources = append([]string(nil), c.Coverage[i].Sources...)
	}
	c.Unmapped = append([]UnmappedAccelerator(nil), s.Unmapped...)
	for i := range c.Unmapped {
		c.Unmapped[i].InstanceTypes = append([]string(nil), c.Unmapped[i].InstanceTypes...)
	}
	c.Regions = append([]Region(nil), s.Regions...)
	c.Instances = append([]InstanceType(nil), s.Instances...)
	c.Placements = append([]Placement(nil), s.Placements...)
	c.Offers = append([]Offer(nil), s.Offers...)
	c.Sort()
	return &c
}

// recordValues is the canonical JSON of every record of the snapshot, by kind and key.
func recordValues(s *Snapshot) (map[recordKind]map[string][]byte, error) {
	out := map[recordKind]map[string][]byte{}
	add := func(kind recordKind, key string, v any) error {
		if out[kind] == nil {
			out[kind] = map[string][]byte{}
		}
		if _, dup := out[kind][key]; dup {
			return fmt.Errorf("duplicate %s %s", kind, key)
		}
		b, err := marshalNoEscape(v)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", kind, key, err)
		}
		out[kind][key] = b
		return nil
	}
	for _, r := range s.Regions {
		if err := add(recRegion, r.Key(), r); err != nil {
			return nil, err
		}
	}
	for _, t := range s.Instances {
		if err := add(recInstance, t.Key(), t); err != nil {
			return nil, err
		}
	}
	for _, p := range s.Placements {
		if err := add(recPlacement, p.Key(), p); err != nil {
			return nil, err
		}
	}
	for _, o := range s.Offers {
		if err := add(recOffer, o.Key(), stateOf(o)); err != nil {
			return nil, err
		}
	}
	for _, u := range s.Unmapped {
		if err := add(recUnmapped, unmappedKey(u), u); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// setFetched records the offers' fetch times: per provider/region the time most
// offers share (ties to the earliest), and each offer whose time differs.
func (c *historyCrawl) setFetched(offers []Offer) error {
	counts := map[string]map[string]int{}
	times := make([]string, len(offers))
	for i, o := range offers {
		t, err := marshalTime(o.FetchedAt)
		if err != nil {
			return fmt.Errorf("offer %s: fetched_at: %w", o.Key(), err)
		}
		times[i] = t
		g := fetchGroup(o)
		if counts[g] == nil {
			counts[g] = map[string]int{}
		}
		counts[g][t]++
	}
	for g, byTime := range counts {
		best, bestN := "", -1
		for t, n := range byTime {
			if n > bestN || (n == bestN && t < best) {
				best, bestN = t, n
			}
		}
		c.fetched[g] = best
	}
	for i, o := range offers {
		if times[i] != c.fetched[fetchGroup(o)] {
			c.fetchedOffers[o.Key()] = times[i]
		}
	}
	return nil
}

func fetchGroup(o Offer) string { return string(o.Provider) + "/" + o.Region }

// marshalTime is the time as encoding/json writes it, so that a parsed copy
// encodes to the same bytes again.
func marshalTime(t time.Time) (string, error) {
	b, err := t.MarshalText()
	return string(b), err
}

func encodesSame(a, b any) bool {
	x, err1 := marshalNoEscape(a)
	y, err2 := marshalNoEscape(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
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
	b, err := s.MarshalCanonical()
	if err != nil {
		return false, err
	}
	return bytes.Equal(a, b), nil
}

func (h *History) sortRecords() {
	sort.SliceStable(h.records, func(i, j int) bool {
		a, b := h.records[i], h.records[j]
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		if a.key != b.key {
			return a.key < b.key
		}
		return a.from < b.from
	})
}

// At rebuilds the catalog as of t: the snapshot of the last crawl taken at or
// before t, exactly as it was recorded.
func (h *History) At(t time.Time) (*Snapshot, error) {
	if len(h.crawls) == 0 {
		return nil, errors.New("history is empty: no crawl has been recorded")
	}
	i := sort.Search(len(h.crawls), func(i int) bool { return h.crawls[i].at.After(t) }) - 1
	if i < 0 {
		return nil, fmt.Errorf("history has no crawl at or before %s (the first is %s)", formatHistoryTime(t), formatHistoryTime(h.crawls[0].at))
	}
	return h.snapshotAt(i)
}

func (h *History) snapshotAt(i int) (*Snapshot, error) {
	c := h.crawls[i]
	s := &Snapshot{Schema: SchemaVersion, TakenAt: c.at, Coverage: append([]Coverage(nil), c.coverage...)}
	if fx := h.fxAt(i); fx != nil {
		s.FX = *fx
		if fx.Rates != nil {
			s.FX.Rates = make(map[Currency]decimal.Decimal, len(fx.Rates))
			for k, v := range fx.Rates {
				s.FX.Rates[k] = v
			}
		}
	}
	for _, r := range h.records {
		if !r.heldAt(i) {
			continue
		}
		if err := s.addRecord(r, c); err != nil {
			return nil, fmt.Errorf("history: crawl %s: %w", formatHistoryTime(c.at), err)
		}
	}
	s.Sort()
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("history: crawl %s does not rebuild to a valid snapshot: %w", formatHistoryTime(c.at), err)
	}
	return s, nil
}

func (s *Snapshot) addRecord(r historyRecord, c historyCrawl) error {
	var err error
	switch r.kind {
	case recRegion:
		var v Region
		if err = json.Unmarshal(r.value, &v); err == nil {
			s.Regions = append(s.Regions, v)
		}
	case recInstance:
		var v InstanceType
		if err = json.Unmarshal(r.value, &v); err == nil {
			s.Instances = append(s.Instances, v)
		}
	case recPlacement:
		var v Placement
		if err = json.Unmarshal(r.value, &v); err == nil {
			s.Placements = append(s.Placements, v)
		}
	case recOffer:
		var v offerState
		if err = json.Unmarshal(r.value, &v); err != nil {
			break
		}
		o := v.offer(time.Time{})
		t, ok := c.fetchedOffers[o.Key()]
		if !ok {
			t, ok = c.fetched[fetchGroup(o)]
		}
		if !ok {
			return fmt.Errorf("offer %s: the crawl records no fetch time for it", o.Key())
		}
		if err = o.FetchedAt.UnmarshalText([]byte(t)); err == nil {
			s.Offers = append(s.Offers, o)
		}
	case recUnmapped:
		var v UnmappedAccelerator
		if err = json.Unmarshal(r.value, &v); err == nil {
			s.Unmapped = append(s.Unmapped, v)
		}
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", r.kind, r.key, err)
	}
	return nil
}

// PricePoint is one price an offer held, over a run of consecutive crawls.
type PricePoint struct {
	// From is the first crawl the price was seen in; Last the last crawl it was
	// seen in; Until the first crawl after that, when the offer had another price
	// or none (zero while the price still holds).
	From, Last, Until time.Time
	Price             Price
	Availability      Availability
}

// PriceSeries lists the prices and availability an offer (by Offer.Key) has held,
// oldest first. Runs of crawls with the same price and availability are one point,
// even where other facts of the offer (zones, provenance) changed in between; a gap
// when the offer was not listed separates points.
func (h *History) PriceSeries(offerKey string) []PricePoint {
	var out []PricePoint
	var prevTo int
	// Records are sorted by kind, key and first crawl: the offer's are together.
	first := sort.Search(len(h.records), func(i int) bool {
		r := h.records[i]
		return r.kind > recOffer || (r.kind == recOffer && r.key >= offerKey)
	})
	for _, r := range h.records[first:] {
		if r.kind != recOffer || r.key != offerKey {
			break
		}
		var st offerState
		if err := json.Unmarshal(r.value, &st); err != nil {
			continue // DecodeHistory and Append checked every value
		}
		last := len(h.crawls) - 1
		var until time.Time
		if r.to != openInterval {
			last = r.to - 1
			until = h.crawls[r.to].at
		}
		if n := len(out); n > 0 && prevTo == r.from && samePrice(out[n-1].Price, st.Price) && out[n-1].Availability == st.Availability {
			out[n-1].Last, out[n-1].Until = h.crawls[last].at, until
		} else {
			out = append(out, PricePoint{From: h.crawls[r.from].at, Last: h.crawls[last].at, Until: until, Price: st.Price, Availability: st.Availability})
		}
		prevTo = r.to
	}
	return out
}

func samePrice(a, b Price) bool {
	return a.Amount.Equal(b.Amount) && a.Currency == b.Currency && a.Unit == b.Unit &&
		priceDecEqual(a.Upfront, b.Upfront) && priceDecEqual(a.List, b.List)
}

func formatHistoryTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// Marshal serializes the history deterministically: the header, the crawls oldest
// first, then the records sorted by kind, key and first crawl, one per line.
func (h *History) Marshal() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"format":%q,"schema_version":%d,"crawls":%d,"records":%d}`+"\n", historyFormat, HistorySchemaVersion, len(h.crawls), len(h.records))
	for _, c := range h.crawls {
		line := crawlLine{Crawl: formatHistoryTime(c.at), FX: c.fx, Coverage: c.coverage, FetchedAt: c.fetched}
		if line.Coverage == nil {
			line.Coverage = []Coverage{}
		}
		if len(c.fetchedOffers) > 0 {
			line.FetchedAtOffers = c.fetchedOffers
		}
		enc, err := marshalNoEscape(line)
		if err != nil {
			return nil, fmt.Errorf("encode history crawl %s: %w", line.Crawl, err)
		}
		b.Write(enc)
		b.WriteByte('\n')
	}
	for _, r := range h.records {
		fmt.Fprintf(&b, `{%q:%s,"from":%q`, r.kind.String(), r.value, formatHistoryTime(h.crawls[r.from].at))
		if r.to != openInterval {
			fmt.Fprintf(&b, `,"to":%q`, formatHistoryTime(h.crawls[r.to].at))
		}
		b.WriteString("}\n")
	}
	return b.Bytes(), nil
}

// WriteHistory writes the history to path atomically.
func WriteHistory(path string, h *History) error {
	data, err := h.Marshal()
	if err != nil {
		return fmt.Errorf("write history %s: %w", path, err)
	}
	return WriteFileAtomic(path, data)
}

// ReadHistory reads and checks the history file at path. A missing file gives an
// error that matches fs.ErrNotExist (errors.Is), so a caller can start a new one.
func ReadHistory(path string) (*History, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	return DecodeHistory(path, data)
}

type historyHeader struct {
	Format        string `json:"format"`
	SchemaVersion *int   `json:"schema_version"`
	Crawls        *int   `json:"crawls"`
	Records       *int   `json:"records"`
}

type crawlLine struct {
	Crawl           string            `json:"crawl"`
	FX              *FXTable          `json:"fx,omitempty"`
	Coverage        []Coverage        `json:"coverage"`
	FetchedAt       map[string]string `json:"fetched_at"`
	FetchedAtOffers map[string]string `json:"fetched_at_offers,omitempty"`
}

type recordLine struct {
	Region    *Region              `json:"region"`
	Instance  *InstanceType        `json:"instance"`
	Placement *Placement           `json:"placement"`
	Offer     *offerState          `json:"offer"`
	Unmapped  *UnmappedAccelerator `json:"unmapped"`
	From      string               `json:"from"`
	To        string               `json:"to"`
}

// DecodeHistory reads a history from data; name is used in error messages, which
// give the line (and column, for malformed JSON) of the first problem.
func DecodeHistory(name string, data []byte) (*History, error) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s: empty file: not a GPU Atlas history (the first line must be its header)", name)
	}
	lastLine := len(lines)
	decodeErr := func(n int, line []byte, err error) error {
		return historyLineError(name, n, line, n == lastLine && !bytes.HasSuffix(line, []byte("\n")), err)
	}
	strict := func(line []byte, v any) error {
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			return err
		}
		if dec.More() {
			return fmt.Errorf("more than one JSON value on the line")
		}
		return nil
	}

	var head historyHeader
	if err := json.Unmarshal(lines[0], &head); err != nil {
		return nil, decodeErr(1, lines[0], err)
	}
	if head.Format != historyFormat || head.SchemaVersion == nil || head.Crawls == nil || head.Records == nil {
		return nil, fmt.Errorf("%s:1: not a GPU Atlas history: the first line must be {\"format\":%q,\"schema_version\":...,\"crawls\":...,\"records\":...}", name, historyFormat)
	}
	if *head.SchemaVersion != HistorySchemaVersion {
		return nil, fmt.Errorf("%s:1: history schema version %d is not supported (this build reads version %d); use a gpuatlas build that matches the file", name, *head.SchemaVersion, HistorySchemaVersion)
	}
	if err := strict(lines[0], &head); err != nil {
		return nil, decodeErr(1, lines[0], err)
	}
	if *head.Crawls < 0 || *head.Records < 0 {
		return nil, fmt.Errorf("%s:1: negative counts in the header", name)
	}

	h := &History{}
	var recordLineNos []int
	crawlIndex := map[string]int{}
	for i, line := range lines[1:] {
		n := i + 2
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(line, &probe); err != nil {
			if len(bytes.TrimSpace(line)) == 0 {
				return nil, fmt.Errorf("%s:%d: empty line (every line must be one record)", name, n)
			}
			return nil, decodeErr(n, line, err)
		}
		if _, ok := probe["crawl"]; ok {
			if len(h.records) > 0 {
				return nil, fmt.Errorf("%s:%d: crawl line after the records (crawls come first, oldest first)", name, n)
			}
			var cl crawlLine
			if err := strict(line, &cl); err != nil {
				return nil, decodeErr(n, line, err)
			}
			at, err := time.Parse(time.RFC3339Nano, cl.Crawl)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: crawl time %q: want an RFC 3339 time such as 2025-11-30T00:00:00Z", name, n, cl.Crawl)
			}
			at = at.UTC()
			if k := len(h.crawls); k > 0 && !at.After(h.crawls[k-1].at) {
				return nil, fmt.Errorf("%s:%d: crawl %s is not after the crawl before it (%s): crawls must be in time order", name, n, cl.Crawl, formatHistoryTime(h.crawls[k-1].at))
			}
			if len(h.crawls) == 0 && cl.FX == nil {
				cl.FX = &FXTable{}
			}
			for k, t := range cl.FetchedAt {
				if err := new(time.Time).UnmarshalText([]byte(t)); err != nil {
					return nil, fmt.Errorf("%s:%d: fetched_at %q: %q is not an RFC 3339 time", name, n, k, t)
				}
			}
			for k, t := range cl.FetchedAtOffers {
				if err := new(time.Time).UnmarshalText([]byte(t)); err != nil {
					return nil, fmt.Errorf("%s:%d: fetched_at_offers %q: %q is not an RFC 3339 time", name, n, k, t)
				}
			}
			c := historyCrawl{at: at, fx: cl.FX, coverage: cl.Coverage, fetched: cl.FetchedAt, fetchedOffers: cl.FetchedAtOffers}
			if c.fetched == nil {
				c.fetched = map[string]string{}
			}
			if c.fetchedOffers == nil {
				c.fetchedOffers = map[string]string{}
			}
			crawlIndex[formatHistoryTime(at)] = len(h.crawls)
			h.crawls = append(h.crawls, c)
			continue
		}
		var rl recordLine
		if err := strict(line, &rl); err != nil {
			return nil, decodeErr(n, line, err)
		}
		r, err := rl.record()
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		from, ok := crawlIndex[canonicalTime(rl.From)]
		if !ok {
			return nil, fmt.Errorf("%s:%d: %s %s: \"from\" %q is not a recorded crawl", name, n, r.kind, r.key, rl.From)
		}
		r.from, r.to = from, openInterval
		if rl.To != "" {
			to, ok := crawlIndex[canonicalTime(rl.To)]
			if !ok {
				return nil, fmt.Errorf("%s:%d: %s %s: \"to\" %q is not a recorded crawl", name, n, r.kind, r.key, rl.To)
			}
			if to <= from {
				return nil, fmt.Errorf("%s:%d: %s %s: \"to\" %s is not after \"from\" %s", name, n, r.kind, r.key, rl.To, rl.From)
			}
			r.to = to
		}
		h.records = append(h.records, r)
		recordLineNos = append(recordLineNos, n)
	}
	if len(h.crawls) != *head.Crawls || len(h.records) != *head.Records {
		return nil, fmt.Errorf("%s:%d: the file has %d crawls and %d records, its header says %d and %d: it is truncated or was edited; restore it from git", name, len(lines), len(h.crawls), len(h.records), *head.Crawls, *head.Records)
	}
	if err := checkOverlaps(name, h.records, recordLineNos); err != nil {
		return nil, err
	}
	h.sortRecords()
	return h, nil
}

// record checks that the line holds exactly one record and returns it with its
// key and canonical value (from and to are set by the caller).
func (rl recordLine) record() (historyRecord, error) {
	var r historyRecord
	var v any
	n := 0
	if rl.Region != nil {
		n++
		r.kind, r.key, v = recRegion, rl.Region.Key(), rl.Region
	}
	if rl.Instance != nil {
		n++
		r.kind, r.key, v = recInstance, rl.Instance.Key(), rl.Instance
	}
	if rl.Placement != nil {
		n++
		r.kind, r.key, v = recPlacement, rl.Placement.Key(), rl.Placement
	}
	if rl.Offer != nil {
		n++
		r.kind, r.key, v = recOffer, rl.Offer.offer(time.Time{}).Key(), rl.Offer
	}
	if rl.Unmapped != nil {
		n++
		r.kind, r.key, v = recUnmapped, unmappedKey(*rl.Unmapped), rl.Unmapped
	}
	if n != 1 {
		return r, fmt.Errorf("a record line must hold exactly one of crawl, region, instance, placement, offer, unmapped (found %d)", n)
	}
	if rl.From == "" {
		return r, fmt.Errorf("%s %s: no \"from\" crawl", r.kind, r.key)
	}
	b, err := marshalNoEscape(v)
	if err != nil {
		return r, fmt.Errorf("%s %s: %w", r.kind, r.key, err)
	}
	r.value = b
	return r, nil
}

// checkOverlaps rejects two records of one key that hold in the same crawl: the
// history would not say which value held.
func checkOverlaps(name string, records []historyRecord, lineNos []int) error {
	idx := make([]int, len(records))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := records[idx[a]], records[idx[b]]
		if x.kind != y.kind {
			return x.kind < y.kind
		}
		if x.key != y.key {
			return x.key < y.key
		}
		return x.from < y.from
	})
	for k := 1; k < len(idx); k++ {
		prev, cur := records[idx[k-1]], records[idx[k]]
		if prev.kind != cur.kind || prev.key != cur.key {
			continue
		}
		if prev.to == openInterval || prev.to > cur.from {
			return fmt.Errorf("%s:%d: %s %s holds in the same crawls as the record on line %d: a key has one value per crawl", name, lineNos[idx[k]], cur.kind, cur.key, lineNos[idx[k-1]])
		}
	}
	return nil
}

func canonicalTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return formatHistoryTime(t)
}

func priceDecEqual(a, b *decimal.Decimal) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// historyLineError names the file, line and, where JSON gives one, the column of
// a line that does not decode.
func historyLineError(name string, n int, line []byte, last bool, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case last && (errors.Is(err, io.ErrUnexpectedEOF) || (errors.As(err, &syn) && syn.Offset >= int64(len(bytes.TrimRight(line, " \t\r"))))):
		return fmt.Errorf("%s:%d: truncated: the file ends inside a record; restore it from git", name, n)
	case errors.As(err, &syn):
		return fmt.Errorf("%s:%d:%d: malformed JSON: %v", name, n, syn.Offset, err)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "value"
		}
		return fmt.Errorf("%s:%d:%d: %s: cannot use JSON %s as %s", name, n, typ.Offset, field, typ.Value, typ.Type)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return fmt.Errorf("%s:%d: malformed JSON: the line ends before the record does", name, n)
	}
	return fmt.Errorf("%s:%d: %v", name, n, err)
}
