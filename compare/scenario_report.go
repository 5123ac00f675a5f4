package compare

import (
	"github.com/gpuatlas/gpuatlas/catalog"
)

// ReportPerCell is how many offers a matrix cell of a ScenarioReport lists.
const ReportPerCell = 3

// ScenarioReport is the scenarios as a reader sees them, computed once: every
// scenario's ranking on on-demand prices (the matrix) and the TCO comparisons
// built on those rankings. The site renders it as it is.
type ScenarioReport struct {
	Matrix Matrix
	TCO    TCOPresetSet
}

// NewScenarioReport ranks the snapshot for every scenario on on-demand prices,
// ReportPerCell offers a cell, with costs (CostPerWork over the same snapshot)
// for the work-cost dimension, and computes the TCO presets. gpus may be nil (no
// spec figures: every spec is unknown). The error is TCOPresets'; offers left
// out of a comparison are in TCO.LeftOut.
func NewScenarioReport(scenarios []Scenario, snap *catalog.Snapshot, gpus *catalog.GPUReference, costs []WorkCost) (*ScenarioReport, error) {
	if gpus == nil {
		gpus = &catalog.GPUReference{}
	}
	r := &ScenarioReport{Matrix: BuildMatrix(scenarios, snap, gpus, MatrixOptions{Billing: catalog.OnDemand, PerCell: ReportPerCell, Costs: costs})}
	tco, err := TCOPresets(r.Matrix, snap, gpus)
	if err != nil {
		return nil, err
	}
	r.TCO = tco
	return r, nil
}
