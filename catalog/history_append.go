package catalog

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

// Appending a crawl to a history of 100,000 offers is the nightly job's step, and
// the benchmark generator's, 1,095 times over for three years: its cost follows
// what changed, not the catalog's size, wherever the last crawl is at hand.

// recordedInstance is an instance type as Append recorded it: a copy that the
// caller's later changes do not reach, and its record's value.
type recordedInstance struct {
	t     InstanceType
	value []byte
}

// recordedOffer is an offer as its open record holds it: the offer (with its
// fetch time, which its observed_at mark needs), copied so that the caller's later changes to its snapshot do not
// reach it, the record's key and the record's value.
type recordedOffer struct {
	offer Offer
	key   string
	value []byte
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
	// First work out every change, then make them: a failed append leaves the
	// history as it was.
	c := sortedSnapshotCopy(s)
	idx := len(h.crawls)
	// When the caller's offers are in order (sortedList kept them), those as
	// they were in the last crawl are known before validating, which then need
	// not check their prices again.
	inOrder := len(s.Offers) > 0 && &c.Offers[0] == &s.Offers[0]
	// The bands' shared observation times, which offer records leave out.
	interruptionAt, interruptionTimes, err := sharedInterruptionTimes(c.Offers)
	if err != nil {
		return false, fmt.Errorf("history: append snapshot taken at %s: %w", formatHistoryTime(s.TakenAt), err)
	}
	var offers recordPlan
	var next []recordedOffer
	var planned bool
	var priced func(i int) bool
	if inOrder {
		var same []bool
		if offers, next, same, planned = h.planOffersFromLast(c.Offers, idx, interruptionTimes); planned {
			priced = func(i int) bool { return same[i] }
		}
	}
	if err := s.validate(priced, inOrder); err != nil {
		return false, fmt.Errorf("history: append snapshot taken at %s: %w", formatHistoryTime(s.TakenAt), err)
	}
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
	fail := func(err error) (bool, error) {
		return false, fmt.Errorf("history: append snapshot taken at %s: %w", formatHistoryTime(c.TakenAt), err)
	}
	values, err := recordValues(c, h.lastInstances)
	if err != nil {
		return fail(err)
	}
	var plans []recordPlan
	for _, kind := range []recordKind{recRegion, recInstance, recPlacement, recUnmapped} {
		p, _ := h.planKind(kind, values[kind], idx)
		plans = append(plans, p)
	}
	if !planned {
		if offers, next, err = h.planOffers(c.Offers, idx, interruptionTimes); err != nil {
			return fail(err)
		}
	}
	plans = append(plans, offers)
	crawl := historyCrawl{at: c.TakenAt.UTC(), coverage: c.Coverage, fetched: map[string]string{}, fetchedOffers: map[string]string{}, interruptionAt: interruptionAt}
	if err := crawl.setFetched(c.Offers); err != nil {
		return fail(err)
	}
	fx := c.FX
	if prev := h.fxAt(idx - 1); prev == nil || !encodesSame(*prev, fx) {
		crawl.fx = &fx
	}

	h.crawls = append(h.crawls, crawl)
	var opened []historyRecord
	for _, p := range plans {
		for _, i := range p.close {
			h.records[i].to = idx
		}
		opened = append(opened, p.open...)
		changed = changed || len(p.close) > 0 || len(p.open) > 0
	}
	h.insertRecords(opened)
	h.lastOffers, h.spareOffers = next, h.lastOffers
	h.lastInterruptionAt = interruptionTimes
	lastInstances := make(map[string]recordedInstance, len(c.Instances))
	for i, v := range values[recInstance] {
		last, ok := h.lastInstances[v.key]
		if !ok || &last.value[0] != &v.value[0] { // encoded anew
			last = recordedInstance{ownInstance(&c.Instances[i]), v.value}
		}
		lastInstances[v.key] = last
	}
	h.lastInstances = lastInstances
	return changed, nil
}

// sortedSnapshotCopy copies the snapshot's small lists (and the lists inside them
// that Sort sorts) and sorts the copy, leaving s as it was. Its big lists are s's
// own when in order already (sortedList): Append only reads them.
func sortedSnapshotCopy(s *Snapshot) *Snapshot {
	c := *s
	c.Coverage = append([]Coverage(nil), s.Coverage...)
	for i := range c.Coverage {
		c.Coverage[i].FailedRegions = append([]RegionFailure(nil), c.Coverage[i].FailedRegions...)
		c.Coverage[i].FailedTypes = append([]TypeFailure(nil), c.Coverage[i].FailedTypes...)
		c.Coverage[i].Sources = append([]string(nil), c.Coverage[i].Sources...)
	}
	c.Unmapped = append([]UnmappedAccelerator(nil), s.Unmapped...)
	for i := range c.Unmapped {
		c.Unmapped[i].InstanceTypes = append([]string(nil), c.Unmapped[i].InstanceTypes...)
	}
	c.sortSmallLists()
	c.Regions = sortedList(s.Regions, regionLess)
	c.Instances = sortedList(s.Instances, instanceLess)
	c.Placements = sortedList(s.Placements, placementLess)
	c.Offers = sortedList(s.Offers, offerLess)
	return &c
}

// keyedValue is a record's key and canonical JSON.
type keyedValue struct {
	key   string
	value []byte
}

// recordValues is the canonical JSON of every record of the snapshot but its
// offers (planOffers, planOffersFromLast), by kind, in the snapshot's order. An
// instance type deeply equal to its entry in lastInstances has that entry's
// value: reflect.DeepEqual tells decimals of another exponent and nil from empty
// lists apart, so equal types encode alike.
func recordValues(s *Snapshot, lastInstances map[string]recordedInstance) (map[recordKind][]keyedValue, error) {
	out := map[recordKind][]keyedValue{}
	var err error
	if out[recRegion], err = keyedValues(recRegion, s.Regions, Region.Key, marshalRecord); err != nil {
		return nil, err
	}
	if out[recInstance], err = keyedValues(recInstance, s.Instances, InstanceType.Key, func(key string, t *InstanceType) ([]byte, error) {
		if last, ok := lastInstances[key]; ok && reflect.DeepEqual(&last.t, t) {
			return last.value, nil
		}
		return marshalNoEscape(*t)
	}); err != nil {
		return nil, err
	}
	if out[recPlacement], err = keyedValues(recPlacement, s.Placements, Placement.Key, func(_ string, p *Placement) ([]byte, error) {
		if out, ok := appendPlacementJSON(nil, p); ok {
			return out, nil
		}
		return marshalNoEscape(*p)
	}); err != nil {
		return nil, err
	}
	if out[recUnmapped], err = keyedValues(recUnmapped, s.Unmapped, unmappedKey, marshalRecord); err != nil {
		return nil, err
	}
	return out, nil
}

func marshalRecord[T any](_ string, v *T) ([]byte, error) { return marshalNoEscape(*v) }

// keyedValues keys and encodes the records of one kind, encoding in parallel
// chunks. A key seen twice is an error.
func keyedValues[T any](kind recordKind, items []T, key func(T) string, enc func(key string, v *T) ([]byte, error)) ([]keyedValue, error) {
	out := make([]keyedValue, len(items))
	seen := make(map[string]bool, len(items))
	for i, v := range items {
		k := key(v)
		if seen[k] {
			return nil, fmt.Errorf("duplicate %s %s", kind, k)
		}
		seen[k] = true
		out[i].key = k
	}
	bounds := chunks(len(items))
	errs := make([]error, len(bounds)-1)
	inParallel(len(errs), func(c int) {
		for i := bounds[c]; i < bounds[c+1]; i++ {
			b, err := enc(out[i].key, &items[i])
			if err != nil {
				errs[c] = fmt.Errorf("encode %s %s: %w", kind, out[i].key, err)
				return
			}
			out[i].value = b
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// recordPlan is what an append changes in the records of one kind: the records
// (by index) it closes and those it opens.
type recordPlan struct {
	close []int
	open  []historyRecord
}

// kindRange is where the records of kind lie in h.records.
func (h *History) kindRange(kind recordKind) (lo, hi int) {
	lo = sort.Search(len(h.records), func(i int) bool { return h.records[i].kind >= kind })
	hi = lo + sort.Search(len(h.records)-lo, func(i int) bool { return h.records[lo+i].kind > kind })
	return lo, hi
}

// planKind compares the open records of kind with values, the kind's records in
// the crawl idx: it closes what no longer holds and opens what is new or changed.
// held[j] is the index of the record that holds values[j] on, or -1.
func (h *History) planKind(kind recordKind, values []keyedValue, idx int) (p recordPlan, held []int) {
	byKey := make(map[string]int, len(values))
	held = make([]int, len(values))
	for j, v := range values {
		byKey[v.key] = j
		held[j] = -1
	}
	lo, hi := h.kindRange(kind)
	for i := lo; i < hi; i++ {
		r := &h.records[i]
		if r.to != openInterval {
			continue
		}
		if j, ok := byKey[r.key]; ok && held[j] < 0 && bytes.Equal(values[j].value, r.value) {
			held[j] = i
			continue
		}
		p.close = append(p.close, i)
	}
	for j, v := range values {
		if held[j] < 0 {
			p.open = append(p.open, historyRecord{kind: kind, key: v.key, value: v.value, from: idx, to: openInterval})
		}
	}
	return p, held
}

// planOffers plans the offer records of crawl idx by comparing every offer with
// the open records (planKind), and records them for the next append.
// interruptionAt is the crawl's shared band time per provider.
func (h *History) planOffers(offers []Offer, idx int, interruptionAt map[Provider]time.Time) (recordPlan, []recordedOffer, error) {
	values := make([]keyedValue, len(offers))
	bounds := chunks(len(offers))
	errs := make([]error, len(bounds)-1)
	inParallel(len(errs), func(k int) {
		var buf []byte
		for i := bounds[k]; i < bounds[k+1]; i++ {
			o := &offers[i]
			var err error
			if buf, err = appendOfferRecord(buf[:0], o, interruptionAt[o.Provider]); err != nil {
				errs[k] = fmt.Errorf("encode %s %s: %w", recOffer, o.Key(), err)
				return
			}
			values[i] = keyedValue{o.Key(), bytes.Clone(buf)}
		}
	})
	for _, err := range errs {
		if err != nil {
			return recordPlan{}, nil, err
		}
	}
	p, held := h.planKind(recOffer, values, idx)
	next := make([]recordedOffer, len(offers))
	for j, v := range values {
		if held[j] >= 0 {
			v.value = h.records[held[j]].value // the same bytes: keep one copy
		}
		next[j] = recordedOffer{offer: ownOffer(&offers[j]), key: v.key, value: v.value}
	}
	return p, next, nil
}

// planOffersFromLast plans the offer records of crawl idx by walking the offers
// alongside the last crawl's (both in canonical order): an offer whose state is
// the same as it was (same[j]) needs no encoding and no look-up. The walk is
// split into a chunk of the offers per processor. ok is false when there is no
// last crawl to compare with, or the walk cannot plan (plan); planOffers then
// plans from the records.
func (h *History) planOffersFromLast(offers []Offer, idx int, interruptionAt map[Provider]time.Time) (p recordPlan, next []recordedOffer, same []bool, ok bool) {
	last := h.lastOffers
	if last == nil || len(h.crawls) == 0 {
		return recordPlan{}, nil, nil, false
	}
	next = slices.Grow(h.spareOffers[:0], len(offers))[:len(offers)]
	same = make([]bool, len(offers))
	bounds := chunks(len(offers))
	// Chunk k walks offers[bounds[k]:bounds[k+1]] and last[starts[k]:starts[k+1]],
	// the last offers from the first not before its first offer on.
	starts := make([]int, len(bounds))
	for k := 1; k < len(bounds)-1; k++ {
		first := &offers[bounds[k]]
		starts[k] = sort.Search(len(last), func(i int) bool { return compareOffers(&last[i].offer, first) >= 0 })
	}
	starts[len(bounds)-1] = len(last)
	walk := offerWalk{records: h.records, idx: idx, interruptionAt: interruptionAt, lastInterruptionAt: h.lastInterruptionAt}
	walk.lo, walk.hi = h.kindRange(recOffer)
	plans := make([]recordPlan, len(bounds)-1)
	oks := make([]bool, len(plans))
	inParallel(len(plans), func(k int) {
		j := bounds[k]
		plans[k], oks[k] = walk.plan(offers[j:bounds[k+1]], last[starts[k]:starts[k+1]], next[j:], same[j:])
	})
	if slices.Contains(oks, false) {
		return recordPlan{}, nil, nil, false
	}
	for _, q := range plans {
		p.close = append(p.close, q.close...)
		p.open = append(p.open, q.open...)
	}
	return p, next, same, true
}

// offerWalk walks offers alongside the last crawl's (planOffersFromLast).
type offerWalk struct {
	records []historyRecord
	lo, hi  int // the offer records
	idx     int // the crawl appended
	// interruptionAt is the crawl's shared band time per provider, and
	// lastInterruptionAt the last crawl's.
	interruptionAt, lastInterruptionAt map[Provider]time.Time
}

// sameBandTimes reports whether an offer's band, if any, is written against
// the same shared time as in the last crawl: else a band observed at the same
// time may be written differently (history_interruption.go).
func (w offerWalk) sameBandTimes(o *Offer) bool {
	return o.Interruption == nil || sameTime(w.interruptionAt[o.Provider], w.lastInterruptionAt[o.Provider])
}

// plan walks offers alongside last, the last crawl's offers from the first not
// before offers[0] up to the first not before the offer after offers, and fills
// next and same for each offer. ok is false when last does not match the
// records, or an offer does not encode (planOffers then reports it).
func (w offerWalk) plan(offers []Offer, last, next []recordedOffer, same []bool) (p recordPlan, ok bool) {
	records := w.records[w.lo:w.hi]
	// closeRecord closes the open record of key, the last of its key.
	closeRecord := func(key string) bool {
		i := sort.Search(len(records), func(i int) bool { return records[i].key > key }) - 1
		if i < 0 || records[i].key != key || records[i].to != openInterval {
			return false
		}
		p.close = append(p.close, w.lo+i)
		return true
	}
	open := func(o *Offer, key string, value []byte) recordedOffer {
		p.open = append(p.open, historyRecord{kind: recOffer, key: key, value: value, from: w.idx, to: openInterval})
		return recordedOffer{offer: ownOffer(o), key: key, value: value}
	}
	i := 0
	for j := range offers {
		o := &offers[j]
		order := -1 // of o against last[i]: -1 before it (o is new), 0 the same offer
		for ; i < len(last); i++ {
			if order = compareOffers(o, &last[i].offer); order <= 0 {
				break
			}
			if !closeRecord(last[i].key) { // gone
				return recordPlan{}, false
			}
		}
		if i < len(last) && order == 0 && sameOfferState(&last[i].offer, o) && w.sameBandTimes(o) { // as it was
			next[j], same[j] = last[i], true
			i++
			continue
		}
		value, err := appendOfferRecord(nil, o, w.interruptionAt[o.Provider])
		if err != nil {
			return recordPlan{}, false
		}
		if i == len(last) || order < 0 { // new
			next[j] = open(o, o.Key(), value)
			continue
		}
		prev := &last[i] // changed, or written differently
		i++
		if bytes.Equal(value, prev.value) {
			next[j] = recordedOffer{offer: ownOffer(o), key: prev.key, value: prev.value}
			continue
		}
		if !closeRecord(prev.key) {
			return recordPlan{}, false
		}
		next[j] = open(o, prev.key, value)
	}
	for ; i < len(last); i++ {
		if !closeRecord(last[i].key) {
			return recordPlan{}, false
		}
	}
	return p, true
}

// appendOfferRecord appends the offer's history record value: its offerState
// as marshalNoEscape writes it, in a crawl whose bands of the offer's provider
// share the time interruptionAt.
func appendOfferRecord(b []byte, o *Offer, interruptionAt time.Time) ([]byte, error) {
	if out, ok := appendOfferValue(b, o, false, interruptionAt); ok {
		return out, nil
	}
	st, err := stateOf(*o, interruptionAt)
	if err != nil {
		return b, err
	}
	enc, err := marshalNoEscape(st)
	return append(b, enc...), err
}

// ownOffer copies the offer down to what its pointers and slices hold, so that
// nothing the caller holds is shared. It keeps the fetch time, against which
// its observed_at is recorded (observedMark).
func ownOffer(o *Offer) Offer {
	c := *o
	c.Zones = slices.Clone(o.Zones)
	c.Parts = slices.Clone(o.Parts)
	if o.PriceRange != nil {
		r := *o.PriceRange
		c.PriceRange = &r
	}
	if o.Price.Upfront != nil {
		u := *o.Price.Upfront
		c.Price.Upfront = &u
	}
	if o.Price.List != nil {
		l := *o.Price.List
		c.Price.List = &l
	}
	return c
}

// ownInstance copies the instance type down to what its pointers and slices
// hold, so that nothing the caller holds is shared.
func ownInstance(t *InstanceType) InstanceType {
	c := *t
	c.Accelerators = slices.Clone(t.Accelerators)
	for i, a := range c.Accelerators {
		if a.NominalMemoryGB != nil {
			n := *a.NominalMemoryGB
			c.Accelerators[i].NominalMemoryGB = &n
		}
	}
	if t.NetworkGbps != nil {
		n := *t.NetworkGbps
		c.NetworkGbps = &n
	}
	c.NetworkCards = slices.Clone(t.NetworkCards)
	c.Conflicts = slices.Clone(t.Conflicts)
	return c
}

// sameOfferState reports whether two offers have the same state (all but the
// fetch time, and observed_at as its mark) down to how each value is written: decimals of the same value and
// exponent, zones in the same order. Then both encode to the same bytes. It may
// report false for two that encode the same (1.5 and 1.50); the caller then
// compares the bytes. TestHistory_SameOfferStateCoversOffer checks every field.
func sameOfferState(a, b *Offer) bool {
	return a.Provider == b.Provider && a.InstanceType == b.InstanceType && a.Region == b.Region &&
		a.Zone == b.Zone && a.Billing == b.Billing && a.Availability == b.Availability &&
		a.Includes == b.Includes && a.Source == b.Source && a.Synthetic == b.Synthetic && a.Suspect == b.Suspect &&
		a.Reported == b.Reported && a.Estimated == b.Estimated && slices.Equal(a.Zones, b.Zones) && a.Price.Currency == b.Price.Currency &&
		a.Price.Unit == b.Price.Unit && sameDecimal(&a.Price.Amount, &b.Price.Amount) &&
		sameDecimal(a.Price.Upfront, b.Price.Upfront) && sameDecimal(a.Price.List, b.Price.List) &&
		samePriceRange(a.PriceRange, b.PriceRange) && sameObservedMark(a, b) && sameInterruption(a.Interruption, b.Interruption) &&
		sameParts(a.Parts, b.Parts)
}

func sameParts(a, b []PricePart) bool {
	return slices.EqualFunc(a, b, func(x, y PricePart) bool { return x.Part == y.Part && x.Amount.Equal(y.Amount) })
}

func sameInterruption(a, b *Interruption) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Band == b.Band && a.SavingsPct == b.SavingsPct && a.ObservedAt.Equal(b.ObservedAt) && a.Source == b.Source
}

func samePriceRange(a, b *PriceRange) bool {
	if a == nil || b == nil {
		return a == b
	}
	return sameDecimal(&a.Min, &b.Min) && sameDecimal(&a.Max, &b.Max)
}

// sameDecimal reports whether a and b are both nil or have the same coefficient
// and exponent, so that they are written alike.
func sameDecimal(a, b *decimal.Decimal) bool {
	if a == nil || b == nil {
		return a == b
	}
	// Decimals are immutable: the same coefficient (pointer) and exponent is the
	// same decimal, found without reading the coefficient (a cache miss).
	return *a == *b || (a.Exponent() == b.Exponent() && a.Cmp(*b) == 0)
}

// insertRecords adds records, all of the newest crawl, at their places in the
// sorted h.records. It works from the back: each run of old records between two
// places is moved once, by copy, and places are found by binary search.
func (h *History) insertRecords(add []historyRecord) {
	if len(add) == 0 {
		return
	}
	sort.Slice(add, func(i, j int) bool { return recordLess(&add[i], &add[j]) })
	n := len(h.records)
	h.records = slices.Grow(h.records, len(add))[:n+len(add)]
	hi := n // the old records from hi on are in place
	for j := len(add) - 1; j >= 0; j-- {
		at := sort.Search(hi, func(i int) bool { return recordLess(&add[j], &h.records[i]) })
		copy(h.records[at+j+1:hi+j+1], h.records[at:hi])
		h.records[at+j] = add[j]
		hi = at
	}
}

// fetchTolerance is how far an offer's fetch time may lie from its
// provider/region's in the history and still be recorded as the region's. An
// adapter that stamps each price quote with its own clock reading (Alibaba's
// DescribePrice, Tencent's inquiries) gives each offer a time a few
// milliseconds from its neighbours': recorded one by one, those made each
// crawl line some 280 KB, 100 MB a year, for times no reader tells apart. A
// region crawled more slowly than this (throttled, retried) still records the
// offers fetched later with their own times.
const fetchTolerance = 10 * time.Minute

// setFetched records the offers' fetch times: per provider/region the time most
// offers share (ties to the earliest), and each offer whose time lies more than
// fetchTolerance from it. The others are rebuilt with the region's time.
//
// Offers come in runs of one provider, region and fetch time; each run is
// counted with one look-up, and each time formatted once.
func (c *historyCrawl) setFetched(offers []Offer) error {
	type place struct {
		provider Provider
		region   string
		at       time.Time
	}
	type times struct {
		group, at string    // provider/region, fetch time
		tm        time.Time // the fetch time
		n         int       // offers
	}
	type run struct {
		from, to int // offers[from:to]
		t        *times
	}
	var runs []run
	byPlace := map[place]*times{}
	for i := 0; i < len(offers); {
		o := &offers[i]
		k := place{o.Provider, o.Region, o.FetchedAt}
		// A run is the offers with the same key as the map compares it: the
		// times are identical, not merely Time.Equal, since the written time
		// keeps its zone offset.
		j := i + 1
		for j < len(offers) && (place{offers[j].Provider, offers[j].Region, offers[j].FetchedAt}) == k {
			j++
		}
		t := byPlace[k]
		if t == nil {
			at, err := marshalTime(o.FetchedAt)
			if err != nil {
				return fmt.Errorf("offer %s: fetched_at: %w", o.Key(), err)
			}
			t = &times{group: fetchGroup(*o), at: at, tm: o.FetchedAt}
			byPlace[k] = t
		}
		t.n += j - i
		runs = append(runs, run{i, j, t})
		i = j
	}
	type count struct {
		tm time.Time
		n  int
	}
	counts := map[string]map[string]*count{}
	for _, t := range byPlace {
		if counts[t.group] == nil {
			counts[t.group] = map[string]*count{}
		}
		if n := counts[t.group][t.at]; n != nil {
			n.n += t.n
		} else {
			counts[t.group][t.at] = &count{t.tm, t.n}
		}
	}
	regionTime := map[string]time.Time{}
	for g, byTime := range counts {
		best, bestN := "", (*count)(nil)
		for t, n := range byTime {
			if bestN == nil || n.n > bestN.n || (n.n == bestN.n && (n.tm.Before(bestN.tm) || (n.tm.Equal(bestN.tm) && t < best))) {
				best, bestN = t, n
			}
		}
		c.fetched[g], regionTime[g] = best, bestN.tm
	}
	for _, r := range runs {
		if d := r.t.tm.Sub(regionTime[r.t.group]); r.t.at != c.fetched[r.t.group] && (d > fetchTolerance || d < -fetchTolerance) {
			for i := r.from; i < r.to; i++ {
				c.fetchedOffers[offers[i].Key()] = r.t.at
			}
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
