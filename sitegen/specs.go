package sitegen

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The memory and network facts an instance page shows beside the provider's
// own figures: the GPU reference's nominal memory class with the usable memory
// the provider reports, a figure filled from the reference, a spec conflict
// with both values, and the network as the instance total with its cards.

// memoryOf sets the accelerator's memory figures as the page shows them.
func (v *acceleratorView) memoryOf(a catalog.Accelerator, conflicts []catalog.SpecConflict) {
	if a.NominalMemoryGB != nil {
		v.Class = a.NominalMemoryGB.Round(2).String()
	}
	for i, c := range conflicts {
		if c.Field == catalog.FieldGPUMemory && c.Accelerator == a.Name && c.Model == a.Model {
			v.Conflict = &conflicts[i]
			return
		}
	}
	if a.UsableDiffers() {
		v.Usable = a.MemoryGiB.Round(2).String()
	}
}

// networkView is the network of an instance type: the total all cards give
// (what scenario rules use), the cards with their peak bandwidth, EFA.
type networkView struct {
	Cards int
	// Peaks is the cards' peak bandwidth in Gbit/s, grouped: "16 × 200" or
	// "1 × 350 + 16 × 400".
	Peaks string
	EFA   int // the most EFA interfaces; 0 without EFA or where unknown
}

func networkOf(t catalog.InstanceType) networkView {
	v := networkView{Cards: len(t.NetworkCards), EFA: t.EFAInterfaces}
	var groups []string
	for i := 0; i < len(t.NetworkCards); {
		j := i
		for j < len(t.NetworkCards) && t.NetworkCards[j].PeakGbps.Equal(t.NetworkCards[i].PeakGbps) {
			j++
		}
		groups = append(groups, fmt.Sprintf("%d × %s", j-i, trimGbps(t.NetworkCards[i].PeakGbps)))
		i = j
	}
	v.Peaks = strings.Join(groups, " + ")
	return v
}

func trimGbps(d decimal.Decimal) string { return d.Round(3).String() }

// conflictView is a spec conflict of an instance type as its page says it.
type conflictView struct {
	C catalog.SpecConflict
	// ModelName is the reference's name of the model.
	ModelName string
}

func (m *siteModel) conflictsOf(t catalog.InstanceType) []conflictView {
	var out []conflictView
	for _, c := range t.Conflicts {
		v := conflictView{C: c, ModelName: c.Model}
		if g, ok := m.refModel(c.Model); ok && g.Name != "" {
			v.ModelName = g.Name
		}
		out = append(out, v)
	}
	return out
}

// gpuMemoryNote is how one provider reports a GPU model's memory, where that is
// not simply the reference's class: usable memory ("usable"), none at all so the
// reference's figure is used ("reference"), or a figure in conflict with the
// reference ("conflict"); with the instance types it concerns.
type gpuMemoryNote struct {
	Provider catalog.Provider
	Kind     string // usable, reference or conflict
	Reported string // GiB per device as the provider reports it ("" for reference)
	Class    string // the reference's class per device, GB
	Types    []typeLink
}

// gpuMemoryNotes lists the notes for the types whose primary accelerator is the
// model, in type order, one per provider, kind and figures.
func gpuMemoryNotes(types []*typeView) []gpuMemoryNote {
	var out []gpuMemoryNote
	at := map[string]int{}
	for _, t := range types {
		a, ok := t.T.PrimaryAccelerator()
		if !ok || a.NominalMemoryGB == nil {
			continue
		}
		n := gpuMemoryNote{Provider: t.T.Provider, Class: a.NominalMemoryGB.Round(2).String(), Reported: a.MemoryGiB.Round(2).String()}
		var v acceleratorView
		v.memoryOf(a, t.T.Conflicts)
		switch {
		case v.Conflict != nil:
			n.Kind = "conflict"
		case a.MemoryFromReference:
			n.Kind, n.Reported = "reference", ""
		case v.Usable != "":
			n.Kind = "usable"
		default:
			continue
		}
		k := string(n.Provider) + "\x00" + n.Kind + "\x00" + n.Reported + "\x00" + n.Class
		i, seen := at[k]
		if !seen {
			i = len(out)
			at[k] = i
			out = append(out, n)
		}
		out[i].Types = append(out[i].Types, typeLink{ID: t.T.ID, Href: t.Href})
	}
	return out
}
