package sitegen

import (
	"sort"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// The scenario pages: an index with the scenarios × providers and scenarios ×
// GPU tiers matrices (the best fitting offer of each cell), and one page per
// scenario with its requirements, the matrix cells (the best few offers each), the
// ranked instance types with the reasons for their place, and what did not fit,
// counted by requirement. Everything comes from the build's
// compare.ScenarioReport (the matrix over the build's snapshot on on-demand
// prices, the interruptible scenarios' ranking on spot, and the TCO presets);
// each row links the instance type's page and its GPU's page so that a reader
// can check the figures against the specs. The spot section is
// scenarios_spot.go.

const (
	// scenarioTop is how many ranked instance types a scenario page lists.
	scenarioTop = 20
	// scenarioPerCell is how many offers a matrix cell of a scenario page lists.
	scenarioPerCell = 3
	// scenarioRejectedSample is how many non-fitting types a page names.
	scenarioRejectedSample = 10
)

// scenarioSite is what the scenario and TCO pages show, for both languages.
type scenarioSite struct {
	matrix    compare.Matrix
	providers []catalog.Provider
	tco       compare.TCOPresetSet
	// spot are the interruptible scenarios' rankings on spot prices
	// (compare.ScenarioReport.Spot), by scenario id.
	spot map[string]compare.ScenarioRanking
	// fitLinks are the memory estimator's questions for the scenarios, when
	// the site has the estimator (sitegen/fit.go).
	fitLinks map[string]fitLink
}

// newScenarioSite takes the build's scenario report; nil without scenarios.
func newScenarioSite(r *compare.ScenarioReport) *scenarioSite {
	if r == nil || len(r.Matrix.Scenarios) == 0 {
		return nil
	}
	s := &scenarioSite{matrix: r.Matrix, providers: r.Matrix.Providers, tco: r.TCO, spot: map[string]compare.ScenarioRanking{}}
	for _, rk := range r.Spot.Scenarios {
		s.spot[rk.Scenario.ID] = rk
	}
	return s
}

// hasTCO reports whether the scenario has a TCO comparison.
func (s *scenarioSite) hasTCO(id string) bool {
	_, ok := s.tco.Scenario(id)
	return ok
}

func scenarioHref(id string) string { return "scenarios/" + slugify(id) + ".html" }

// scenarioName is the scenario's name in the language.
func scenarioName(l *language, s compare.Scenario) string {
	if l.Tag == "zh" && s.NameZH != "" {
		return s.NameZH
	}
	return s.Name
}

// scenarioDescription is the scenario's description in the language.
func scenarioDescription(l *language, s compare.Scenario) string {
	if l.Tag == "zh" && s.DescriptionZH != "" {
		return s.DescriptionZH
	}
	return s.Description
}

// fitView is one ranked (or rejected) offer as the pages show it.
type fitView struct {
	Rank    int
	F       compare.OfferFit
	Href    string // the instance type's page; "" when the type has none
	GPUHref string // the GPU model's page; "" without a canonical model
	Region  catalog.Region
	Checks  map[string]int // checks by status
	// Offer is the ranked offer as the pages show it: its age marks say when a
	// ranking entry's price is stale or undated.
	Offer *offerView
}

type cellView struct {
	Group               string // label group of Key: provider or tier
	Key                 string
	Best                []fitView
	Fits, MayFit, Types int
	Empty               bool // no offer fits
	NoOffers            bool
}

type scenarioSummary struct {
	ID, Name, Category, Description, Href string
	Fits, MayFit, Rejected                int
	Best                                  *fitView
	HasTCO                                bool
	HasSpot                               bool // a spot ranking (interruptible)
}

// scenarioIndexData is the model of scenarios/index.html.
type scenarioIndexData struct {
	Scenarios []scenarioSummary
	Providers []catalog.Provider
	Tiers     []compare.Tier
	Rows      []scenarioMatrixRow
}

type scenarioMatrixRow struct {
	S          scenarioSummary
	ByProvider []cellView
	ByTier     []cellView
}

// scenarioPageData is the model of one scenario's page.
type scenarioPageData struct {
	S           compare.Scenario
	Fit         *fitLink // the memory estimator with this scenario's figures
	Name        string
	Description string
	Requires    []compare.Reason
	Prefer      []compare.Reason
	Weights     []weightView
	Compute     []compare.Figure
	Fits        int
	MayFit      int
	RankedTotal int
	Ranked      []fitView
	ByProvider  []cellView
	ByTier      []cellView
	Rejected    int
	RejectedBy  []requirementCount
	RejectedTop []fitView
	TCOHref     string // tco.html#<id>; "" without a comparison
	// Spot is the ranking on spot prices, risk-adjusted; nil for a scenario
	// that is not interruptible.
	Spot *spotRankingView
}

type weightView struct {
	Dimension compare.Dimension
	Weight    decimal.Decimal
}

type requirementCount struct {
	Requirement string
	Types       int
}

func (s *scenarioSite) fitView(m *siteModel, rank int, f compare.OfferFit) fitView {
	v := fitView{Rank: rank, F: f, Region: m.region(f.Offer.Provider, f.Offer.Region), Checks: map[string]int{}, Offer: m.offerByKey[f.OfferKey]}
	if t, ok := m.typeByKey[f.InstanceKey]; ok {
		v.Href = t.Href
	}
	if f.GPUModel != "" {
		v.GPUHref = gpuHref(f.GPUModel)
	}
	for _, c := range f.Checks {
		v.Checks[string(c.Status)]++
	}
	return v
}

func (s *scenarioSite) cells(m *siteModel, group string, cs []compare.Cell, n int) []cellView {
	out := make([]cellView, 0, len(cs))
	for _, c := range cs {
		v := cellView{Group: group, Key: c.Key, Fits: c.Fits, MayFit: c.MayFit, Types: c.Types}
		for i, f := range c.Best {
			if i >= n {
				break
			}
			v.Best = append(v.Best, s.fitView(m, i+1, f))
		}
		v.Empty = len(v.Best) == 0
		v.NoOffers = c.Types == 0
		out = append(out, v)
	}
	return out
}

func (s *scenarioSite) summary(m *siteModel, l *language, r compare.ScenarioRanking) scenarioSummary {
	sc := r.Scenario
	v := scenarioSummary{ID: sc.ID, Name: scenarioName(l, sc), Category: sc.Category, Description: scenarioDescription(l, sc),
		Href: scenarioHref(sc.ID), Rejected: len(r.Rejected)}
	for _, f := range r.Ranked {
		if f.Verdict == compare.Fits {
			v.Fits++
		} else {
			v.MayFit++
		}
	}
	if len(r.Ranked) > 0 {
		b := s.fitView(m, 1, r.Ranked[0])
		v.Best = &b
	}
	v.HasTCO = s.hasTCO(sc.ID)
	_, v.HasSpot = s.spot[sc.ID]
	return v
}

func (s *scenarioSite) indexPage(m *siteModel, l *language) scenarioIndexData {
	d := scenarioIndexData{Providers: s.providers, Tiers: s.matrix.Tiers}
	for _, r := range s.matrix.Scenarios {
		sum := s.summary(m, l, r)
		d.Scenarios = append(d.Scenarios, sum)
		d.Rows = append(d.Rows, scenarioMatrixRow{S: sum, ByProvider: s.cells(m, "provider", r.ByProvider, 1), ByTier: s.cells(m, "tier", r.ByTier, 1)})
	}
	return d
}

func (s *scenarioSite) scenarioPage(m *siteModel, l *language, r compare.ScenarioRanking) scenarioPageData {
	sc := r.Scenario
	d := scenarioPageData{S: sc, Name: scenarioName(l, sc), Description: scenarioDescription(l, sc),
		Requires: sc.Requires.Reasons(), Prefer: sc.Prefer.Reasons(), Compute: sc.Compute,
		RankedTotal: len(r.Ranked), Rejected: len(r.Rejected),
		ByProvider: s.cells(m, "provider", r.ByProvider, scenarioPerCell), ByTier: s.cells(m, "tier", r.ByTier, scenarioPerCell)}
	if f, ok := s.fitLinks[sc.ID]; ok {
		d.Fit = &f
	}
	for _, dim := range compare.Dimensions {
		if w := sc.Weights.Of(dim); w.IsPositive() {
			d.Weights = append(d.Weights, weightView{Dimension: dim, Weight: w})
		}
	}
	for i, f := range r.Ranked {
		if f.Verdict == compare.Fits {
			d.Fits++
		} else {
			d.MayFit++
		}
		if i < scenarioTop {
			d.Ranked = append(d.Ranked, s.fitView(m, i+1, f))
		}
	}
	// What did not fit: how many types fail each requirement, and the cheapest
	// few by name with their failing checks.
	count := map[string]int{}
	var order []string
	for _, f := range r.Rejected {
		for _, c := range f.Checks {
			if c.Status != compare.Fail {
				continue
			}
			if _, seen := count[c.Requirement]; !seen {
				order = append(order, c.Requirement)
			}
			count[c.Requirement]++
		}
	}
	for _, req := range order {
		d.RejectedBy = append(d.RejectedBy, requirementCount{Requirement: req, Types: count[req]})
	}
	sort.SliceStable(d.RejectedBy, func(i, j int) bool { return d.RejectedBy[i].Types > d.RejectedBy[j].Types })
	rej := append([]compare.OfferFit(nil), r.Rejected...)
	sort.SliceStable(rej, func(i, j int) bool { return cheaper(rej[i].USDPerHour, rej[j].USDPerHour) })
	for i, f := range rej {
		if i >= scenarioRejectedSample {
			break
		}
		d.RejectedTop = append(d.RejectedTop, s.fitView(m, 0, f))
	}
	if s.hasTCO(sc.ID) {
		d.TCOHref = "tco.html#tco-" + slugify(sc.ID)
	}
	d.Spot = s.spotRanking(m, sc.ID)
	return d
}

// pages are the scenario index, a page per scenario and the TCO page, with the
// TCO page's charts.
func (s *scenarioSite) pages(m *siteModel, base string, l *language) ([]page, error) {
	out := []page{{Path: "scenarios/index.html", Template: "scenarios.html", Nav: "scenarios", Data: s.indexPage(m, l)}}
	for _, r := range s.matrix.Scenarios {
		out = append(out, page{Path: scenarioHref(r.Scenario.ID), Template: "scenario.html", Nav: "scenarios", Data: s.scenarioPage(m, l, r)})
	}
	p, err := s.tcoPage(m, base, l)
	if err != nil {
		return nil, err
	}
	return append(out, p), nil
}
