package sitegen

import (
	"sort"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// coverageData is the model of coverage.html: what the catalog could not
// reconcile with the GPU reference. Accelerator names without a canonical model
// (listed, never dropped), specs on which a provider and the reference disagree
// (both values), and accelerators whose memory the provider left out and the
// reference filled.
type coverageData struct {
	// Billing says per provider and billing kind what prices exist
	// (coverage_billing.go).
	Billing   []billingCoverageRow
	Unmapped  []unmappedView
	Conflicts []coverageConflict
	Filled    []filledMemory
}

type unmappedView struct {
	Provider catalog.Provider
	Name     string
	Types    []typeLink
}

type typeLink struct{ ID, Href string }

type coverageConflict struct {
	Type *typeView
	conflictView
}

// filledMemory is one provider's accelerator model whose memory came from the
// reference, with the instance types it concerns.
type filledMemory struct {
	Provider  catalog.Provider
	Model     string
	ModelName string
	MemoryGB  string // the figure filled in, per device
	Types     []typeLink
}

func (m *siteModel) coveragePage() coverageData {
	d := coverageData{Billing: m.billingCoverage()}
	for _, u := range m.snap.Unmapped {
		v := unmappedView{Provider: u.Provider, Name: u.Name}
		for _, id := range u.InstanceTypes {
			v.Types = append(v.Types, m.typeLink(u.Provider, id))
		}
		d.Unmapped = append(d.Unmapped, v)
	}
	filled := map[string]*filledMemory{}
	for _, t := range m.types { // in key order
		for _, c := range m.conflictsOf(t.T) {
			d.Conflicts = append(d.Conflicts, coverageConflict{Type: t, conflictView: c})
		}
		for _, a := range t.T.Accelerators {
			if !a.MemoryFromReference {
				continue
			}
			k := string(t.T.Provider) + "\x00" + a.Model + "\x00" + a.MemoryGiB.String()
			f := filled[k]
			if f == nil {
				f = &filledMemory{Provider: t.T.Provider, Model: a.Model, ModelName: m.modelName(a), MemoryGB: a.MemoryGiB.Round(2).String()}
				filled[k] = f
			}
			f.Types = append(f.Types, typeLink{ID: t.T.ID, Href: t.Href})
		}
	}
	for _, f := range filled {
		d.Filled = append(d.Filled, *f)
	}
	rank := map[catalog.Provider]int{}
	for i, p := range catalog.Providers {
		rank[p] = i
	}
	sort.Slice(d.Filled, func(i, j int) bool {
		a, b := d.Filled[i], d.Filled[j]
		if a.Provider != b.Provider {
			return rank[a.Provider] < rank[b.Provider]
		}
		if a.ModelName != b.ModelName {
			return a.ModelName < b.ModelName
		}
		return a.Types[0].ID < b.Types[0].ID
	})
	return d
}

func (m *siteModel) typeLink(p catalog.Provider, id string) typeLink {
	link := typeLink{ID: id}
	if t, ok := m.typeByKey[string(p)+"/"+id]; ok {
		link.Href = t.Href
	}
	return link
}
