package catalog

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// PriceInterval is one price an offer held over a span of time, as the exports
// give the history: from the crawls (an offer's records merged while its price,
// what it includes and its source stayed the same) or from an imported series
// (an ObservedRun).
type PriceInterval struct {
	Provider     Provider
	InstanceType string
	Region       string
	Zone         string
	Billing      BillingKind
	Includes     string // empty: the instance alone
	Price        Price
	PriceHigh    *decimal.Decimal // the high end of a published range (imported only)
	// ValidFrom is when the price was first seen; ValidUntil the first time it
	// no longer held (the crawl that saw another price or none, the next
	// observation, observed_until or the end of the last observation's day),
	// zero while a crawled price still holds at the last crawl. LastSeen is
	// its last sighting.
	ValidFrom, ValidUntil, LastSeen time.Time
	// ObservedAt and FetchedAt are the price's two dates where it was first
	// seen: when the source says it held (zero where the source gives no
	// date) and when GPU Atlas retrieved it. A crawled interval has the
	// offer's observed_at and fetched_at at its first crawl, so ValidFrom (the
	// crawl) may be later than ObservedAt (a dataset's date); an imported one
	// has its first observation's time, ValidFrom itself, and the earliest
	// retrieved_at of its observations.
	ObservedAt, FetchedAt time.Time
	Source                string
	Origin                string // IntervalCrawl or IntervalImport
	Note                  string
}

// Where a price interval comes from.
const (
	IntervalCrawl  = "crawl"
	IntervalImport = "import"
)

// PriceIntervals lists every price the history holds as intervals, sorted by
// provider, offer key, what the price includes and start.
func (h *History) PriceIntervals() ([]PriceInterval, error) {
	var out []PriceInterval
	lo, hi := h.kindRange(recOffer)
	strs := interner{}
	for k := lo; k < hi; k++ {
		r := &h.records[k]
		o, end, ok := readOfferJSON(r.value, 0, false, strs)
		if !ok || end != len(r.value) {
			var st offerState
			if err := json.Unmarshal(r.value, &st); err != nil {
				return nil, fmt.Errorf("history: offer %s: %w", r.key, err)
			}
			var err error
			if o, err = st.offer(time.Time{}); err != nil {
				return nil, fmt.Errorf("history: offer %s: %w", r.key, err)
			}
		}
		if err := h.dateOffer(r.from, &o); err != nil {
			return nil, fmt.Errorf("history: offer %s: %w", r.key, err)
		}
		last := len(h.crawls) - 1
		var until time.Time
		if r.to != openInterval {
			last = r.to - 1
			until = h.crawls[r.to].at
		}
		from := h.crawls[r.from].at
		if n := len(out); n > 0 {
			p := &out[n-1]
			if p.Origin == IntervalCrawl && p.ValidUntil.Equal(from) && p.Provider == o.Provider && offerKeyOf(p) == o.Key() &&
				p.Includes == o.Includes && p.Source == o.Source && samePrice(p.Price, o.Price) {
				p.ValidUntil, p.LastSeen = until, h.crawls[last].at
				continue
			}
		}
		out = append(out, PriceInterval{Provider: o.Provider, InstanceType: o.InstanceType, Region: o.Region, Zone: o.Zone,
			Billing: o.Billing, Includes: o.Includes, Price: o.Price, ValidFrom: from, ValidUntil: until,
			LastSeen: h.crawls[last].at, ObservedAt: o.ObservedAt, FetchedAt: o.FetchedAt, Source: o.Source, Origin: IntervalCrawl})
	}
	for _, s := range h.series {
		for _, r := range s.Runs {
			out = append(out, PriceInterval{Provider: r.Provider, InstanceType: r.InstanceType, Region: r.Region, Zone: r.Zone,
				Billing: r.Billing, Includes: r.Includes, Price: r.Price, PriceHigh: r.PriceHigh, ValidFrom: r.From,
				ValidUntil: r.Until, LastSeen: r.Last, ObservedAt: r.From, FetchedAt: r.Retrieved,
				Source: strings.Join(r.Sources, " "), Origin: IntervalImport,
				Note: strings.Join(r.Notes, "; ")})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Provider != b.Provider {
			return a.Provider < b.Provider
		}
		if ka, kb := offerKeyOf(a), offerKeyOf(b); ka != kb {
			return ka < kb
		}
		if a.Includes != b.Includes {
			return a.Includes < b.Includes
		}
		if !a.ValidFrom.Equal(b.ValidFrom) {
			return a.ValidFrom.Before(b.ValidFrom)
		}
		return a.Origin < b.Origin
	})
	return out, nil
}

// dateOffer gives an offer read from a record its fetch time at crawl i, and
// its observed_at where the record holds it relative to that.
func (h *History) dateOffer(i int, o *Offer) error {
	t, ok := h.crawls[i].fetchTime(o)
	if !ok {
		return fmt.Errorf("crawl %s records no fetch time for it", formatHistoryTime(h.crawls[i].at))
	}
	if err := o.FetchedAt.UnmarshalText([]byte(t)); err != nil {
		return err
	}
	resolveObserved(o)
	return h.crawls[i].resolveInterruption(o)
}

func offerKeyOf(p *PriceInterval) string {
	return string(p.Provider) + "/" + p.InstanceType + "/" + p.Region + "/" + p.Zone + "/" + string(p.Billing)
}
