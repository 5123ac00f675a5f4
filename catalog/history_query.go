package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

// At rebuilds the catalog as of t: the snapshot of the last crawl taken at or
// before t, exactly as it was recorded, and the imported prices that hold at t
// (history_observed.go) for the offers that crawl does not list. Before the first
// crawl it is the imported prices alone; an imported series never holds past its
// last observation, so it never reaches a later crawl's snapshot.
func (h *History) At(t time.Time) (*Snapshot, error) {
	if len(h.crawls) == 0 && len(h.observations) == 0 {
		return nil, errors.New("history is empty: no crawl has been recorded")
	}
	i := sort.Search(len(h.crawls), func(i int) bool { return h.crawls[i].at.After(t) }) - 1
	s := &Snapshot{Schema: SchemaVersion}
	if i >= 0 {
		var err error
		if s, err = h.snapshotAt(i); err != nil {
			return nil, err
		}
	}
	added, err := h.addObserved(s, t, i)
	if err != nil {
		return nil, err
	}
	if i < 0 && added == 0 {
		if len(h.observations) == 0 {
			return nil, fmt.Errorf("history has no crawl at or before %s (the first is %s)", formatHistoryTime(t), formatHistoryTime(h.crawls[0].at))
		}
		if len(h.crawls) == 0 {
			return nil, fmt.Errorf("history has no crawl, and no imported price holds at %s", formatHistoryTime(t))
		}
		return nil, fmt.Errorf("history has no crawl at or before %s (the first is %s), and no imported price holds then", formatHistoryTime(t), formatHistoryTime(h.crawls[0].at))
	}
	if added > 0 {
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("history: %s does not rebuild to a valid snapshot: %w", formatHistoryTime(t), err)
		}
	}
	return s, nil
}

// CrawlAt is the snapshot of the last crawl taken at or before t, exactly as it
// was recorded, without the imported prices At adds.
func (h *History) CrawlAt(t time.Time) (*Snapshot, error) {
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
	held := 0
	for _, r := range h.records {
		if r.kind == recOffer && r.heldAt(i) {
			held++
		}
	}
	s.Offers = make([]Offer, 0, held)
	rb := rebuild{c: c, strings: interner{}, times: map[string]time.Time{}}
	for _, r := range h.records {
		if !r.heldAt(i) {
			continue
		}
		if err := rb.add(s, r); err != nil {
			return nil, fmt.Errorf("history: crawl %s: %w", formatHistoryTime(c.at), err)
		}
	}
	if len(s.Offers) == 0 {
		s.Offers = nil
	}
	s.Sort()
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("history: crawl %s does not rebuild to a valid snapshot: %w", formatHistoryTime(c.at), err)
	}
	return s, nil
}

// rebuild turns the records held in crawl c back into a snapshot's lists.
type rebuild struct {
	c       historyCrawl
	strings interner
	times   map[string]time.Time // the fetch times parsed: a crawl has few
}

func (rb *rebuild) add(s *Snapshot, r historyRecord) error {
	c := rb.c
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
		v, end, ok := readPlacementJSON(r.value, 0, rb.strings)
		if !ok || end != len(r.value) {
			v = Placement{}
			err = json.Unmarshal(r.value, &v)
		}
		if err == nil {
			s.Placements = append(s.Placements, v)
		}
	case recOffer:
		o, end, ok := readOfferJSON(r.value, 0, false, rb.strings)
		if !ok || end != len(r.value) {
			var v offerState
			if err = json.Unmarshal(r.value, &v); err != nil {
				break
			}
			if o, err = v.offer(time.Time{}); err != nil {
				break
			}
		}
		t, ok := c.fetchTime(&o)
		if !ok {
			return fmt.Errorf("offer %s: the crawl records no fetch time for it", o.Key())
		}
		if at, parsed := rb.times[t]; parsed {
			o.FetchedAt = at
		} else if err = o.FetchedAt.UnmarshalText([]byte(t)); err == nil {
			rb.times[t] = o.FetchedAt
		}
		if err == nil {
			resolveObserved(&o)
			err = c.resolveInterruption(&o)
		}
		if err == nil {
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

// fetchTime is the fetch time the crawl records for an offer, as written: its
// own, else the one its provider/region shares.
func (c *historyCrawl) fetchTime(o *Offer) (string, bool) {
	if len(c.fetchedOffers) > 0 {
		if t, ok := c.fetchedOffers[o.Key()]; ok {
			return t, true
		}
	}
	t, ok := c.fetched[fetchGroup(*o)]
	return t, ok
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
