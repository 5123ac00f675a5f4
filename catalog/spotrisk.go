package catalog

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// InterruptionBand is a band of AWS's Spot Instance Advisor: the share of Spot
// capacity of an instance type that AWS reclaimed in a region over the trailing
// month, averaged over its zones, as the feed labels it.
type InterruptionBand string

// The advisor's five bands, as its feed's "ranges" label them (index 0 to 4).
const (
	BandUnder5  InterruptionBand = "<5%"
	Band5To10   InterruptionBand = "5-10%"
	Band10To15  InterruptionBand = "10-15%"
	Band15To20  InterruptionBand = "15-20%"
	BandOver20  InterruptionBand = ">20%"
	bandUnknown InterruptionBand = ""
)

// InterruptionBands lists the bands from the least to the most interrupted:
// the feed's index is the position here.
var InterruptionBands = []InterruptionBand{BandUnder5, Band5To10, Band10To15, Band15To20, BandOver20}

// upperPct is each band's upper bound in percent: the label's for the first
// four; >20% has none in its label, and the feed's own "max" for it is 100.
var upperPct = map[InterruptionBand]int64{BandUnder5: 5, Band5To10: 10, Band10To15: 15, Band15To20: 20, BandOver20: 100}

// ParseInterruptionBand reads a band label as the feed writes it.
func ParseInterruptionBand(s string) (InterruptionBand, error) {
	b := InterruptionBand(s)
	if _, ok := upperPct[b]; !ok {
		return bandUnknown, fmt.Errorf("interruption band %q: want one of <5%%, 5-10%%, 10-15%%, 15-20%%, >20%%", Excerpt(s))
	}
	return b, nil
}

// Index is the band's position in InterruptionBands (the feed's "r"), -1 for
// an unknown band.
func (b InterruptionBand) Index() int {
	for i, x := range InterruptionBands {
		if x == b {
			return i
		}
	}
	return -1
}

// UpperPct is the band's upper bound in percent (100 for >20%).
func (b InterruptionBand) UpperPct() decimal.Decimal { return decimal.NewFromInt(upperPct[b]) }

// MonthlyRate is the band's upper bound read as a monthly rate: the expected
// interruptions of one instance kept running for a month (730 hours). The feed
// gives a share of capacity reclaimed in a month, not a count per instance;
// taking its upper bound as the count is the model's stated assumption.
func (b InterruptionBand) MonthlyRate() decimal.Decimal {
	return decimal.New(upperPct[b], -2)
}

// Interruption is what AWS's Spot Instance Advisor says of a spot offer's
// instance type in its region.
type Interruption struct {
	Band InterruptionBand `json:"band"`
	// SavingsPct is the feed's average saving of spot against on-demand over
	// the last 30 days, in whole percent, as published (it can be negative).
	SavingsPct int `json:"savings_pct"`
	// ObservedAt is when the feed was fetched: it carries no date of its own.
	ObservedAt time.Time `json:"observed_at"`
	Source     string    `json:"source"`
}

// Interruption statuses of a spot offer (InterruptionStatus).
const (
	InterruptionHasBand      = "band"          // the advisor's band is known
	InterruptionNoData       = "no_data"       // AWS, but the feed has no row for it
	InterruptionNotPublished = "not_published" // the provider publishes no interruption rate
)

// InterruptionStatus says what is known of a spot offer's interruption risk;
// "" for an offer that is not spot. Only AWS publishes interruption data.
func InterruptionStatus(o *Offer) string {
	switch {
	case o.Billing != Spot:
		return ""
	case o.Interruption != nil:
		return InterruptionHasBand
	case o.Provider == AWS:
		return InterruptionNoData
	}
	return InterruptionNotPublished
}

// validateInterruption checks an offer's advisor data.
func validateInterruption(o *Offer) error {
	in := o.Interruption
	if in == nil {
		return nil
	}
	if o.Billing != Spot {
		return fmt.Errorf("interruption data on a %s offer: only spot offers have it", o.Billing)
	}
	if _, err := ParseInterruptionBand(string(in.Band)); err != nil {
		return err
	}
	if in.SavingsPct < -1000 || in.SavingsPct > 100 {
		return fmt.Errorf("interruption savings_pct %d: want -1000 to 100", in.SavingsPct)
	}
	if in.ObservedAt.IsZero() || in.Source == "" {
		return fmt.Errorf("interruption data needs observed_at and source")
	}
	return nil
}
