package compare

import (
	"github.com/gpuatlas/gpuatlas/catalog"
)

// ReportPerCell is how many offers a matrix cell of a ScenarioReport lists.
const ReportPerCell = 3

// ScenarioReport is the scenarios as a reader sees them, computed once: every
// scenario's ranking on on-demand prices (the matrix), the interruptible
// scenarios' ranking on spot prices, and the TCO comparisons built on the
// on-demand rankings. The site renders it as it is.
type ScenarioReport struct {
	Matrix Matrix
	// Spot ranks the interruptible scenarios only (Scenario.Interruptible:
	// training with checkpoints, batch inference, rendering), in file order, on
	// spot offers: each at its risk-adjusted price (SpotRiskPrice: the advisor
	// band's rate with the default 60-minute checkpoint and 10-minute restart),
	// an offer without a band at its published price with its
	// OfferFit.SpotRisk.Status saying why (no_data, not_published). Its
	// Scenarios are empty when no scenario is interruptible.
	Spot Matrix
	TCO  TCOPresetSet
}

// NewScenarioReport ranks the snapshot for every scenario on on-demand prices,
// and for the interruptible ones on spot prices, ReportPerCell offers a cell,
// with costs (CostPerWork over the same snapshot) for the work-cost dimension,
// and computes the TCO presets from the on-demand rankings. gpus may be nil
// (no spec figures: every spec is unknown). The error is TCOPresets'; offers
// left out of a comparison are in TCO.LeftOut.
func NewScenarioReport(scenarios []Scenario, snap *catalog.Snapshot, gpus *catalog.GPUReference, costs []WorkCost) (*ScenarioReport, error) {
	if gpus == nil {
		gpus = &catalog.GPUReference{}
	}
	r := &ScenarioReport{Matrix: BuildMatrix(scenarios, snap, gpus, MatrixOptions{Billing: catalog.OnDemand, PerCell: ReportPerCell, Costs: costs})}
	var interruptible []Scenario
	for _, s := range scenarios {
		if s.Interruptible {
			interruptible = append(interruptible, s)
		}
	}
	r.Spot = BuildMatrix(interruptible, snap, gpus, MatrixOptions{Billing: catalog.Spot, PerCell: ReportPerCell, Costs: costs})
	tco, err := TCOPresets(r.Matrix, snap, gpus)
	if err != nil {
		return nil, err
	}
	r.TCO = tco
	return r, nil
}

// SpotRanking is the scenario's ranking on spot prices; false when the
// scenario is not interruptible (or not in the report).
func (r *ScenarioReport) SpotRanking(id string) (ScenarioRanking, bool) {
	if r == nil {
		return ScenarioRanking{}, false
	}
	for _, s := range r.Spot.Scenarios {
		if s.Scenario.ID == id {
			return s, true
		}
	}
	return ScenarioRanking{}, false
}
