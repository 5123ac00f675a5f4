package sitegen

import (
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// The spot section of an interruptible scenario's page (compare.Scenario's
// Interruptible: training with checkpoints, batch inference, rendering): the
// best few instance types of compare.ScenarioReport's spot ranking, each at
// its cheapest spot offer with the published price, the Spot Instance
// Advisor's band (or why there is none) and the risk-adjusted price the
// ranking used. compare computes every figure; the page only shows them in
// its currency.

// scenarioSpotTop is how many instance types a page's spot section lists.
const scenarioSpotTop = 10

// spotRankingView is a scenario's spot section.
type spotRankingView struct {
	Total int // instance types with a spot offer that fit or may fit
	Rows  []spotFitView
	// Checkpoint and Restart are the model's minutes (compare's defaults).
	Checkpoint, Restart string
}

// spotFitView is one place of the spot ranking.
type spotFitView struct {
	fitView
	// Status, Band and Observed say the offer's interruption risk as the
	// instance pages' spot table does (its "spot-band" template).
	Status   string // catalog.InterruptionStatus
	Band     catalog.InterruptionBand
	Observed string // the advisor feed's fetch day; "" without a band
	// ListUSD is the published spot price in USD; nil when it has none.
	ListUSD *decimal.Decimal
	// AdjUSD and AdjNative are the risk-adjusted price in USD and in the
	// offer's currency; nil without a band (no rate is assumed). AddedUSD is
	// what the risk adds an hour.
	AdjUSD, AdjNative, AddedUSD *decimal.Decimal
}

// spotRanking is the scenario's spot section; nil when it has no spot
// ranking (it is not interruptible).
func (s *scenarioSite) spotRanking(m *siteModel, id string) *spotRankingView {
	r, ok := s.spot[id]
	if !ok {
		return nil
	}
	v := &spotRankingView{Total: len(r.Ranked), Checkpoint: compare.DefaultCheckpointMinutes.String(), Restart: compare.DefaultRestartMinutes.String()}
	for i, f := range r.Ranked {
		if i >= scenarioSpotTop {
			break
		}
		// The offer's facts: its band and risk-adjusted price (the ranking's own).
		fact, _ := m.facts.Of(f.OfferKey)
		row := spotFitView{fitView: s.fitView(m, i+1, f), Status: fact.SpotStatus, Band: fact.SpotBand}
		if in := f.Offer.Interruption; in != nil {
			row.Observed = in.ObservedAt.UTC().Format("2006-01-02")
		}
		if sr := fact.SpotRisk; sr != nil {
			list := sr.ListUSDPerHour
			row.ListUSD = &list
			if sr.USDPerHour != nil {
				added := sr.USDPerHour.Sub(list)
				row.AdjUSD, row.AddedUSD, row.AdjNative = sr.USDPerHour, &added, fact.RiskHour
			}
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}
