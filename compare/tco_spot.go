package compare

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The spot interruption model replaces a flat overhead with one that depends
// on the risk the provider publishes and on how often the work checkpoints:
//
//	rate          interruptions a month of one instance kept running (730 h):
//	              the advisor band's upper bound read as a monthly rate
//	              (<5% → 0.05, 5-10% → 0.10, 10-15% → 0.15, 15-20% → 0.20,
//	              >20% → 1, the feed's own ceiling), or the buyer's figure
//	              where no band is published
//	loss          hours lost per interruption = (checkpoint / 2 + restart) / 60:
//	              on average half a checkpoint interval of work is redone,
//	              plus the time to get a new instance running again
//	interruptions = hours × rate / 730 (6 places)
//	lost hours    = interruptions × loss (6 places)
//	spot hours    = hours + lost hours
//
// It is first order: the hours run again are not themselves interrupted
// (at the bands' rates the difference is far below a cent an hour).

// Defaults of the model's inputs (README "Spot interruption model").
var (
	DefaultCheckpointMinutes = decimal.NewFromInt(60)
	DefaultRestartMinutes    = decimal.NewFromInt(10)
	minutesPerHour           = decimal.NewFromInt(60)
	half                     = decimal.New(5, -1)
	maxRate                  = decimal.NewFromInt(100)
	maxMinutes               = decimal.NewFromInt(10080) // a week: a guard against typos
)

// TCOSpotRisk is the interruption model of a spot pay-as-you-go part.
type TCOSpotRisk struct {
	// Band is the Spot Instance Advisor's band of the offer ("" where none is
	// published); BandObservedAt when the feed was fetched (YYYY-MM-DD).
	Band           catalog.InterruptionBand `json:"band,omitempty"`
	BandObservedAt string                   `json:"band_observed_at,omitempty"`
	// InterruptionsPerMonth is the rate: from the band, or entered. Nil: no band
	// and none entered, and the TCO refuses the option (it asks for a rate).
	InterruptionsPerMonth *decimal.Decimal `json:"interruptions_per_month,omitempty"`
	CheckpointMinutes     decimal.Decimal  `json:"checkpoint_minutes"`
	RestartMinutes        decimal.Decimal  `json:"restart_minutes"`
}

// validate checks that the model has a rate and a readable band, naming the
// option (id, an excerpt); the figures' ranges are TCOBounds'.
func (r *TCOSpotRisk) validate(id string) error {
	switch {
	case r.InterruptionsPerMonth == nil && r.Band == "":
		return fmt.Errorf("option %s: spot has no published interruption band: give pay_as_you_go.risk.interruptions_per_month (gpuatlas tco --interruptions-per-month)", id)
	case r.InterruptionsPerMonth == nil:
		return fmt.Errorf("option %s: pay_as_you_go.risk.interruptions_per_month is missing", id)
	}
	if r.Band != "" {
		if _, err := catalog.ParseInterruptionBand(string(r.Band)); err != nil {
			return fmt.Errorf("option %s: pay_as_you_go.risk.band: %w", id, err)
		}
	}
	return nil
}

// lossHours is the work lost per interruption, in hours.
func (r *TCOSpotRisk) lossHours() decimal.Decimal {
	return r.CheckpointMinutes.Mul(half).Add(r.RestartMinutes).DivRound(minutesPerHour, HourPlaces)
}

// expected is the model over some hours: the interruptions they meet and the
// hours lost to them.
func (r *TCOSpotRisk) expected(hours decimal.Decimal) (interruptions, lost decimal.Decimal) {
	interruptions = hours.Mul(*r.InterruptionsPerMonth).DivRound(monthHours, HourPlaces)
	return interruptions, interruptions.Mul(r.lossHours()).Round(HourPlaces)
}

// riskStep is the step that states the model's inputs.
func (r *TCOSpotRisk) riskStep() Reason {
	figs := []ReasonFigure{quantity("rate", *r.InterruptionsPerMonth, UnitCount),
		quantity("checkpoint", r.CheckpointMinutes, UnitCount), quantity("restart", r.RestartMinutes, UnitCount),
		quantity("loss", r.lossHours(), UnitHours)}
	if r.Band == "" {
		return reason(ReasonStepSpotRiskRate, figs...)
	}
	return reason(ReasonStepSpotRiskBand, append([]ReasonFigure{text("band", string(r.Band)), text("observed", r.BandObservedAt),
		quantity("upper", r.Band.UpperPct(), UnitPercent)}, figs...)...)
}

// SpotRiskOf is the model for a spot offer: the band's rate where the
// advisor publishes one, else rate (nil: none entered, the option then needs
// one).
func SpotRiskOf(o catalog.Offer, rate *decimal.Decimal, checkpoint, restart decimal.Decimal) *TCOSpotRisk {
	r := &TCOSpotRisk{CheckpointMinutes: checkpoint, RestartMinutes: restart}
	if in := o.Interruption; in != nil {
		m := in.Band.MonthlyRate()
		r.Band, r.BandObservedAt, r.InterruptionsPerMonth = in.Band, in.ObservedAt.UTC().Format("2006-01-02"), &m
		return r
	}
	if rate != nil {
		v := *rate
		r.InterruptionsPerMonth = &v
	}
	return r
}

// SpotRiskCase is one case of the shared spot test set
// (testdata/tco/spot_risk.cases.json): run here against the expected totals,
// and by cmd/gpuatlas's TestBrowser_TCOSpotRiskCases through the site's
// calculator, which must agree with compare.TCO to the cent.
type SpotRiskCase struct {
	Name  string   `json:"name"`
	Input TCOInput `json:"input"`
	// WantTotalUSD is each option's total, worked out once (the first by hand,
	// in TestTCO_SpotRiskFromBand's comment) and kept to catch a change.
	WantTotalUSD []string `json:"want_total_usd"`
}

// SpotRiskPrice is a spot offer's hourly price with its interruption risk, as
// the scenario rankings of spot offers use it: the hours a month's work takes
// grow by rate × loss / 730 (the TCO's model with the default checkpoint and
// restart times), so the price of an hour of work does too:
//
//	usd_per_hour = list × (1 + rate × loss / 730), to 8 places.
//
// Without a band (Status no_data or not_published) no rate is assumed:
// USDPerHour is nil and the offer ranks on its published price, marked.
type SpotRiskPrice struct {
	Status         string                   `json:"status"` // catalog.InterruptionStatus
	Band           catalog.InterruptionBand `json:"band,omitempty"`
	Rate           *decimal.Decimal         `json:"interruptions_per_month,omitempty"`
	LossHours      *decimal.Decimal         `json:"loss_hours,omitempty"`
	ListUSDPerHour decimal.Decimal          `json:"list_usd_per_hour"`
	USDPerHour     *decimal.Decimal         `json:"usd_per_hour,omitempty"`
}

// spotRiskPrice adjusts a spot offer's USD rate for its band.
func spotRiskPrice(o catalog.Offer, usd decimal.Decimal) *SpotRiskPrice {
	p := &SpotRiskPrice{Status: catalog.InterruptionStatus(&o), ListUSDPerHour: usd}
	if o.Interruption == nil {
		return p
	}
	r := SpotRiskOf(o, nil, DefaultCheckpointMinutes, DefaultRestartMinutes)
	loss := r.lossHours()
	p.Band, p.Rate, p.LossHours = r.Band, r.InterruptionsPerMonth, &loss
	p.USDPerHour = p.Adjusted(usd)
	return p
}

// Adjusted is an hourly amount of the offer (its USD rate, or the same rate in
// the offer's own currency) with the risk added as USDPerHour adds it:
// amount × (1 + rate × loss / 730), to 8 places. Nil without a band: no rate
// is assumed.
func (p *SpotRiskPrice) Adjusted(amount decimal.Decimal) *decimal.Decimal {
	if p == nil || p.Rate == nil || p.LossHours == nil {
		return nil
	}
	adj := amount.Add(amount.Mul(*p.Rate).Mul(*p.LossHours).DivRound(monthHours, RatePlaces)).Round(RatePlaces)
	return &adj
}
