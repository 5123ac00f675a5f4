package sitegen

import (
	"github.com/gpuatlas/gpuatlas/compare"
)

// The scenario verdicts of the instance and GPU pages: which scenarios an
// instance type fits (or may fit), with compare's reasons, and which scenarios
// at least one instance type with a GPU model fits. They come from the build's
// compare.ScenarioReport as it is: the same ranking the scenario pages show.

// typeFit is one scenario an instance type fits or may fit.
type typeFit struct {
	S       compare.Scenario
	F       compare.OfferFit
	Rank    int // the type's place in the scenario's ranking, from 1
	Ranked  int // how many types the ranking has
	Href    string
	Verdict compare.Verdict
}

// gpuFit is one scenario that instance types with a GPU model fit: the best
// ranked of them and how many fit.
type gpuFit struct {
	S       compare.Scenario
	Href    string
	Best    typeFit
	Types   int // types with the model that fit
	MayFit  int // types with the model that may fit (a figure is unknown)
	BestRef *typeView
}

// scenarioFits indexes a scenario report by instance type and by GPU model.
type scenarioFits struct {
	byType map[string][]typeFit
	byGPU  map[string][]gpuFit
}

// newScenarioFits indexes the report; nil without one.
func newScenarioFits(m *siteModel, r *compare.ScenarioReport) *scenarioFits {
	if r == nil || len(r.Matrix.Scenarios) == 0 {
		return nil
	}
	x := &scenarioFits{byType: map[string][]typeFit{}, byGPU: map[string][]gpuFit{}}
	for _, rk := range r.Matrix.Scenarios {
		gpus := map[string]int{} // index into byGPU[model] of this scenario
		for i, f := range rk.Ranked {
			tf := typeFit{S: rk.Scenario, F: f, Rank: i + 1, Ranked: len(rk.Ranked), Href: scenarioHref(rk.Scenario.ID), Verdict: f.Verdict}
			x.byType[f.InstanceKey] = append(x.byType[f.InstanceKey], tf)
			t, ok := m.typeByKey[f.InstanceKey]
			if !ok || t.GPUModel == "" {
				continue
			}
			j, seen := gpus[t.GPUModel]
			if !seen {
				j = len(x.byGPU[t.GPUModel])
				gpus[t.GPUModel] = j
				x.byGPU[t.GPUModel] = append(x.byGPU[t.GPUModel], gpuFit{S: rk.Scenario, Href: tf.Href, Best: tf, BestRef: t})
			}
			g := &x.byGPU[t.GPUModel][j]
			if f.Verdict == compare.Fits {
				if g.Types == 0 && g.Best.Verdict != compare.Fits {
					g.Best, g.BestRef = tf, t // a type that fits leads one that may
				}
				g.Types++
			} else {
				g.MayFit++
			}
		}
	}
	return x
}

// ofType is the scenarios the type fits or may fit, in the report's order.
func (x *scenarioFits) ofType(key string) []typeFit {
	if x == nil {
		return nil
	}
	return x.byType[key]
}

// ofGPU is the scenarios types with the model fit or may fit: those that fit
// first, in the report's order.
func (x *scenarioFits) ofGPU(model string) []gpuFit {
	if x == nil {
		return nil
	}
	var fits, may []gpuFit
	for _, g := range x.byGPU[model] {
		if g.Types > 0 {
			fits = append(fits, g)
		} else {
			may = append(may, g)
		}
	}
	return append(fits, may...)
}

// fitReason is one reason compare gives for a verdict, in the page's language.
type fitReason struct {
	Kind string // strength, weakness or unknown
	Text string
}

// fitReasons is the reasons of a verdict as a page shows them: compare's
// reason codes with their figures, worded in the page's language.
func fitReasons(l *language, f compare.OfferFit) []fitReason {
	w := l.words()
	var out []fitReason
	for _, r := range f.Strengths {
		out = append(out, fitReason{Kind: "strength", Text: w.Reason(r)})
	}
	for _, r := range f.Weaknesses {
		out = append(out, fitReason{Kind: "weakness", Text: w.Reason(r)})
	}
	for _, r := range f.Unknowns {
		out = append(out, fitReason{Kind: "unknown", Text: w.Reason(r)})
	}
	return out
}
