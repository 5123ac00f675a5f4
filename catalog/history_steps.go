package catalog

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// HistoryStep is one recorded crawl, told as what changed since the crawl before
// it: the records that stopped holding (Before) and those that began (After). A
// record whose value changed is in both, with its old and its new value; what
// held unchanged is in neither. Each is a partial snapshot taken at its crawl's
// time, with that crawl's coverage and FX table; the first crawl's Before is
// empty and its After is its whole catalog.
//
// Diff(step.Before, step.After) is the same report as Diff of the two crawls'
// whole snapshots (Diff compares record by record, and a record that held
// unchanged adds nothing to it), at a cost that grows with the changes rather
// than with the catalog.
type HistoryStep struct {
	Index         int
	Before, After *Snapshot
}

// Steps calls fn for each recorded crawl taken at or before until, oldest first,
// with what changed at it. It stops at the first error fn returns.
func (h *History) Steps(until time.Time, fn func(HistoryStep) error) error {
	n := 0
	for n < len(h.crawls) && !h.crawls[n].at.After(until) {
		n++
	}
	// Every record begins at one crawl and may end at a later one.
	began := make([][]int, n)
	ended := make([][]int, n)
	for i, r := range h.records {
		if r.from < n {
			began[r.from] = append(began[r.from], i)
		}
		if r.to != openInterval && r.to < n {
			ended[r.to] = append(ended[r.to], i)
		}
	}
	for i := range n {
		after, err := h.partialAt(i, began[i])
		if err != nil {
			return err
		}
		before := &Snapshot{Schema: SchemaVersion}
		if i > 0 {
			if before, err = h.partialAt(i-1, ended[i]); err != nil {
				return err
			}
		}
		if err := fn(HistoryStep{Index: i, Before: before, After: after}); err != nil {
			return err
		}
	}
	return nil
}

// partialAt is the snapshot of crawl i holding only the given records (indexes
// into h.records, all held at crawl i), with the crawl's time, coverage and FX.
func (h *History) partialAt(i int, records []int) (*Snapshot, error) {
	c := h.crawls[i]
	s := &Snapshot{Schema: SchemaVersion, TakenAt: c.at, Coverage: append([]Coverage(nil), c.coverage...)}
	if fx := h.fxAt(i); fx != nil {
		s.FX = *fx
		s.FX.Rates = make(map[Currency]decimal.Decimal, len(fx.Rates))
		for k, v := range fx.Rates {
			s.FX.Rates[k] = v
		}
	}
	rb := rebuild{c: c, strings: interner{}, times: map[string]time.Time{}}
	for _, ri := range records {
		if err := rb.add(s, h.records[ri]); err != nil {
			return nil, fmt.Errorf("history: crawl %s: %w", formatHistoryTime(c.at), err)
		}
	}
	s.Sort()
	return s, nil
}
