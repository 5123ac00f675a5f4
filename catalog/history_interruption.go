package catalog

import (
	"fmt"
	"time"
)

// The Spot Instance Advisor's feed carries no date of its own: a spot offer's
// Interruption.ObservedAt is when the crawl fetched the feed, so it moves with
// every crawl, as fetched_at does. Kept in each offer record, it closed and
// reopened every AWS spot offer's record on every crawl (about 2,000 records,
// 1.2 MB a night, with nothing changed). So the crawl line keeps the time most
// of each provider's bands share ("interruption_at": provider to time), and an
// offer record holds its band's observed_at only where it differs from that.

// interruptionState is an Interruption as an offer record holds it: observed_at
// nil (left out) where it is the crawl's shared time for the provider. A time,
// not its text, so that encoding/json reads and writes it as the record
// reader does (readOfferJSON).
type interruptionState struct {
	Band       InterruptionBand `json:"band"`
	SavingsPct int              `json:"savings_pct"`
	ObservedAt *time.Time       `json:"observed_at,omitempty"`
	Source     string           `json:"source"`
}

// interruptionWithCrawl stands for a band's observed_at that its record leaves
// out, in an offer read back from a record, until the crawl's shared time is
// known (historyCrawl.resolveInterruption).
var interruptionWithCrawl = time.Date(1, 1, 1, 0, 0, 0, 2, time.UTC)

// omitInterruptionTime reports whether a band observed at t is written without
// its time in a record of a crawl whose shared time for the provider is shared.
func omitInterruptionTime(t, shared time.Time) bool {
	return t.Equal(interruptionWithCrawl) || (!shared.IsZero() && sameTime(t, shared))
}

// interruptionStateOf is the band as its record holds it.
func interruptionStateOf(in *Interruption, shared time.Time) (*interruptionState, error) {
	if in == nil {
		return nil, nil
	}
	st := &interruptionState{Band: in.Band, SavingsPct: in.SavingsPct, Source: in.Source}
	if !omitInterruptionTime(in.ObservedAt, shared) {
		if _, err := marshalTime(in.ObservedAt); err != nil {
			return nil, fmt.Errorf("interruption observed_at: %w", err)
		}
		t := in.ObservedAt
		st.ObservedAt = &t
	}
	return st, nil
}

// interruption is the band of the state; its ObservedAt is
// interruptionWithCrawl where the record leaves it out.
func (st *interruptionState) interruption() (*Interruption, error) {
	if st == nil {
		return nil, nil
	}
	in := &Interruption{Band: st.Band, SavingsPct: st.SavingsPct, Source: st.Source, ObservedAt: interruptionWithCrawl}
	if st.ObservedAt != nil {
		in.ObservedAt = *st.ObservedAt
	}
	return in, nil
}

// sharedInterruptionTimes is, per provider, the band time most of its offers
// share (ties to the first as written), as written and as read back: a band
// whose time is written alike is left out of its record.
func sharedInterruptionTimes(offers []Offer) (written map[string]string, parsed map[Provider]time.Time, err error) {
	counts := map[Provider]map[string]int{}
	formatted := map[time.Time]string{} // a crawl's bands share a few times
	for i := range offers {
		in := offers[i].Interruption
		if in == nil {
			continue
		}
		t, ok := formatted[in.ObservedAt]
		if !ok {
			if t, err = marshalTime(in.ObservedAt); err != nil {
				return nil, nil, fmt.Errorf("offer %s: interruption observed_at: %w", offers[i].Key(), err)
			}
			formatted[in.ObservedAt] = t
		}
		p := offers[i].Provider
		if counts[p] == nil {
			counts[p] = map[string]int{}
		}
		counts[p][t]++
	}
	if len(counts) == 0 {
		return nil, nil, nil
	}
	written, parsed = map[string]string{}, map[Provider]time.Time{}
	for p, byTime := range counts {
		best, bestN := "", -1
		for t, n := range byTime {
			if n > bestN || (n == bestN && t < best) {
				best, bestN = t, n
			}
		}
		var at time.Time
		if err := at.UnmarshalText([]byte(best)); err != nil {
			return nil, nil, fmt.Errorf("interruption time of %s: %w", p, err)
		}
		written[string(p)], parsed[p] = best, at
	}
	return written, parsed, nil
}

// resolveInterruption gives an offer read from a record of this crawl its
// band's observed_at where the record leaves it out.
func (c *historyCrawl) resolveInterruption(o *Offer) error {
	in := o.Interruption
	if in == nil || !in.ObservedAt.Equal(interruptionWithCrawl) {
		return nil
	}
	t, ok := c.interruptionAt[string(o.Provider)]
	if !ok {
		return fmt.Errorf("the crawl records no interruption time for %s", o.Provider)
	}
	resolved := *in
	if err := resolved.ObservedAt.UnmarshalText([]byte(t)); err != nil {
		return fmt.Errorf("interruption_at %q: %w", t, err)
	}
	o.Interruption = &resolved
	return nil
}
