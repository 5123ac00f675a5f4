package sitegen

import (
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// explorerInputs are what the explorer needs beyond the snapshot: the
// languages (provider and country names in both, for filters that match either)
// and the scenario report (which types fit which scenario).
type explorerInputs struct {
	langs     []*language
	scenarios *compare.ScenarioReport
}

// primaryKind is the kind of a type's primary accelerator ("" without one):
// what the explorer's kind filter reads.
func primaryKind(it catalog.InstanceType) string {
	if a, ok := it.PrimaryAccelerator(); ok {
		return string(a.Kind)
	}
	return ""
}

// partial reports a type that is a slice of a device (catalog's
// InstanceType.Partial). The explorer hides them unless asked ("partial
// GPUs"), so that one slice sold in many regions does not fill the first screen.
func partial(it catalog.InstanceType) bool { return it.Partial() }

// explorerNames are the providers' names in English and Chinese, for every
// provider the snapshot names.
func (m *siteModel) explorerNames() map[catalog.Provider][2]string {
	out := map[catalog.Provider][2]string{}
	var en, zh *language
	for _, l := range m.explorer.langs {
		switch l.Tag {
		case "en":
			en = l
		case "zh":
			zh = l
		}
	}
	for _, p := range m.providers() {
		n := [2]string{string(p), string(p)}
		if en != nil {
			n[0] = en.label("provider", p)
		}
		if zh != nil {
			n[1] = zh.label("provider", p)
		}
		out[p] = n
	}
	return out
}

// scenarioVerdicts are compare's verdicts for offers.json: per scenario, the
// indexes of the types that fit and of those that may fit (a requirement the
// data cannot check). Types compare did not rank (no plausible on-demand
// offer) are in neither list. Nil without a scenario report.
func (m *siteModel) scenarioVerdicts(index map[*typeView]int) [][]any {
	r := m.explorer.scenarios
	if r == nil {
		return nil
	}
	out := [][]any{}
	for _, sr := range r.Matrix.Scenarios {
		fits, may := []int{}, []int{}
		for _, f := range sr.Ranked {
			t, ok := m.typeByKey[f.InstanceKey]
			if !ok {
				continue
			}
			switch f.Verdict {
			case compare.Fits:
				fits = append(fits, index[t])
			case compare.MayFit:
				may = append(may, index[t])
			}
		}
		out = append(out, []any{sr.Scenario.ID, sr.Scenario.Name, sr.Scenario.NameZH, fits, may})
	}
	return out
}

// explorerLabels are the messages the explorer's scripts need: the shared
// labels (jsLabels) and the explorer's own words, grammar errors, country and
// accelerator kind names; its help is written on the server.
func (l *language) explorerLabels() map[string]string {
	out := l.jsLabels()
	for k, v := range l.messages {
		if strings.HasPrefix(k, "ex.help_") {
			continue
		}
		for _, p := range []string{"ex.", "expr.", "country.", "kind."} {
			if strings.HasPrefix(k, p) {
				out[k] = v
			}
		}
	}
	return out
}
