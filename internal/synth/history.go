package synth

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// HistoryOptions shape a made-up history.
type HistoryOptions struct {
	// Offers is about how many offers the catalog holds.
	Offers int
	// Days is the number of daily crawls, the last one taken at Taken.
	Days int
	// Seed makes the history; the same options always give the same history.
	Seed uint64
	// Churn is the share of offers whose price changes on a given day
	// (0.002 when zero: about 200 of 100,000 offers a day).
	Churn float64
}

// History makes up a history of o.Days daily crawls of a catalog of about
// o.Offers offers: each day some prices move by a few percent, some spot offers
// sell out or come back, and over the years instance types appear and retire.
// It returns the history and the last crawl's snapshot (the "current" catalog).
func History(o HistoryOptions) (*catalog.History, *catalog.Snapshot, error) {
	if o.Days < 1 {
		return nil, nil, fmt.Errorf("synth: history of %d days", o.Days)
	}
	churn := o.Churn
	if churn == 0 {
		churn = 0.002
	}
	first := Taken.AddDate(0, 0, -(o.Days - 1))
	master := SnapshotAt(o.Offers, o.Seed, first)
	rng := rand.New(rand.NewPCG(o.Seed^0x5eed, o.Seed))

	// Each type's life: most live throughout; some appear later, some retire.
	type life struct{ from, to int } // active on days from <= d < to
	lives := map[string]life{}
	for _, t := range master.Instances {
		l := life{0, o.Days}
		switch r := rng.IntN(100); {
		case r < 6 && o.Days > 1:
			l.from = 1 + rng.IntN(o.Days-1)
		case r < 9 && o.Days > 1:
			l.to = 1 + rng.IntN(o.Days-1)
		}
		lives[t.Key()] = l
	}
	// Each offer lives as long as its type; the lists change only on the days
	// a type appears or retires.
	offerLife := make([]life, len(master.Offers))
	for i, off := range master.Offers {
		offerLife[i] = lives[catalog.InstanceType{Provider: off.Provider, ID: off.InstanceType}.Key()]
	}
	boundary := map[int]bool{0: true}
	for _, l := range lives {
		boundary[l.from], boundary[l.to] = true, true
	}
	h := catalog.NewHistory()
	cur := *master
	// active lists the types and offers of day d: the types change only on the
	// days one appears or retires, the offers' prices and times every day.
	active := func(d int) {
		if boundary[d] {
			cur.Instances = cur.Instances[:0]
			for _, t := range master.Instances {
				if l := lives[t.Key()]; d >= l.from && d < l.to {
					cur.Instances = append(cur.Instances, t)
				}
			}
		}
		cur.Offers = cur.Offers[:0]
		for i, off := range master.Offers {
			if l := offerLife[i]; d >= l.from && d < l.to {
				cur.Offers = append(cur.Offers, off)
			}
		}
	}
	cur.Instances = make([]catalog.InstanceType, 0, len(master.Instances))
	cur.Offers = make([]catalog.Offer, 0, len(master.Offers))
	changesToday := func() int {
		n := int(float64(len(master.Offers)) * churn)
		return max(1, n/2+rng.IntN(n+1))
	}
	for d := 0; d < o.Days; d++ {
		shift := time.Duration(d) * 24 * time.Hour
		if d > 0 {
			for range changesToday() {
				moveOffer(&master.Offers[rng.IntN(len(master.Offers))], rng)
			}
			for i := range master.Offers {
				master.Offers[i].FetchedAt = master.Offers[i].FetchedAt.Add(24 * time.Hour)
			}
		}
		cur.TakenAt = first.Add(shift)
		cur.Coverage = append([]catalog.Coverage(nil), master.Coverage...)
		for i := range cur.Coverage {
			cur.Coverage[i].LastOK = cur.Coverage[i].LastOK.Add(shift)
		}
		active(d)
		if _, err := h.Append(&cur); err != nil {
			return nil, nil, fmt.Errorf("synth: day %d: %w", d, err)
		}
	}
	last := cur
	last.Instances = append([]catalog.InstanceType(nil), cur.Instances...)
	last.Offers = append([]catalog.Offer(nil), cur.Offers...)
	return h, &last, nil
}

// moveOffer changes one offer the way prices move: a spot offer sells out or
// comes back, or the price moves by 2-15% (down more often than up).
func moveOffer(off *catalog.Offer, rng *rand.Rand) {
	if off.Billing == catalog.Spot && rng.IntN(3) == 0 {
		if off.Availability == catalog.SoldOut {
			off.Availability = catalog.Available
		} else {
			off.Availability = catalog.SoldOut
		}
		return
	}
	pct := int64(2 + rng.IntN(14))
	if rng.IntN(5) < 3 {
		pct = -pct
	}
	factor := decimal.NewFromInt(100 + pct).Div(decimal.NewFromInt(100))
	if off.Price.Upfront != nil {
		up := off.Price.Upfront.Mul(factor).Round(0)
		off.Price.Upfront = &up
		return
	}
	places := int32(4)
	if off.Price.Unit != catalog.PerHour {
		places = 2
	}
	off.Price.Amount = off.Price.Amount.Mul(factor).Round(places)
}
