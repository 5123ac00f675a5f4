package catalog

import (
	"fmt"
	"slices"

	"github.com/shopspring/decimal"
)

// FieldGPUMemory is the SpecConflict field of a device's accelerator memory.
const FieldGPUMemory = "gpu_memory_per_device"

// MemoryTolerance is how far a provider's memory figure may fall from the
// reference's nominal class, as a fraction of the class, and still agree with
// it. Providers report usable memory in GiB and vendors state a class in GB: an
// A10G's 24 GB reads 22.35 GiB usable (7% less), a B300's 288 GB reads 268.6
// GiB. Anything further off (a Trainium2 reported at 512 GiB against its 96)
// is a conflict. It is the tolerance the alias table's memory rows use too.
var MemoryTolerance = decimal.New(1, -1)

// SpecConflict is a figure on which the provider and the GPU reference disagree
// beyond rounding. The instance type keeps the provider's figure as reported;
// scenario rules and filters use the reference's.
type SpecConflict struct {
	// Field names the figure: FieldGPUMemory.
	Field string `json:"field"`
	// Accelerator is the provider's device name, Model the reference's model id.
	Accelerator string `json:"accelerator"`
	Model       string `json:"model"`
	// ProviderValue is the provider's figure, ReferenceValue the reference's, in
	// Unit (for memory: GiB per device as reported, against the nominal class).
	ProviderValue  decimal.Decimal `json:"provider_value"`
	ReferenceValue decimal.Decimal `json:"reference_value"`
	Unit           string          `json:"unit"`
	// Source is where the reference's figure comes from (data/gpus.csv's source
	// and source date for the model).
	Source string `json:"source"`
}

// InstanceSpecConflict is a spec conflict with the instance type it belongs to.
type InstanceSpecConflict struct {
	Provider     Provider `json:"provider"`
	InstanceType string   `json:"instance_type"`
	SpecConflict
}

// Message says the conflict in a line: "memory of Trainium2 (aws-trainium2):
// provider 512 GiB, GPU reference 96 GiB (source)".
func (c SpecConflict) Message() string {
	return fmt.Sprintf("%s of %s (%s): provider %s %s, GPU reference %s %s (%s)", c.Field, c.Accelerator, c.Model,
		c.ProviderValue.String(), c.Unit, c.ReferenceValue.String(), c.Unit, c.Source)
}

// SpecConflicts lists every spec conflict in the snapshot, in instance order.
func (s *Snapshot) SpecConflicts() []InstanceSpecConflict {
	var out []InstanceSpecConflict
	for _, t := range s.Instances {
		for _, c := range t.Conflicts {
			out = append(out, InstanceSpecConflict{Provider: t.Provider, InstanceType: t.ID, SpecConflict: c})
		}
	}
	return out
}

// Reconcile checks an instance type's accelerators against the reference, the
// one place where provider and reference figures meet. For each accelerator
// whose model the reference knows with a memory figure:
//
//   - NominalMemoryGB is set to the model's memory times the device's share;
//   - a memory the provider left out (zero) is filled with it, and
//     MemoryFromReference says so;
//   - a memory further than MemoryTolerance from it is kept as reported and
//     recorded in Conflicts (rules use the nominal class either way).
//
// The accelerators' link comes from the provider's documentation
// (GPUReference.Links, data/interconnect.csv) where the API gave none.
//
// Reconcile is deterministic and idempotent: a figure it filled before is
// derived again, and its earlier memory conflicts are replaced. Nothing changes
// with a nil reference.
func (r *GPUReference) Reconcile(t InstanceType) InstanceType {
	if r == nil {
		return t
	}
	accs := slices.Clone(t.Accelerators)
	var conflicts []SpecConflict
	for _, c := range t.Conflicts {
		if c.Field != FieldGPUMemory {
			conflicts = append(conflicts, c)
		}
	}
	for i := range accs {
		a := &accs[i]
		if a.MemoryFromReference {
			a.MemoryGiB, a.MemoryFromReference = decimal.Zero, false
		}
		a.NominalMemoryGB = nil
		m, ok := r.Model(a.Model)
		if !ok || m.NominalGB() == nil || !m.NominalGB().IsPositive() {
			continue
		}
		share := a.Share
		if !share.IsPositive() {
			share = decimal.NewFromInt(1)
		}
		nominal := m.NominalGB().Mul(share).Round(2)
		a.NominalMemoryGB = &nominal
		switch {
		case !a.MemoryGiB.IsPositive():
			a.MemoryGiB, a.MemoryFromReference = nominal, true
		case a.MemoryGiB.Sub(nominal).Abs().GreaterThan(nominal.Mul(MemoryTolerance)):
			source := m.Source
			if m.SourceDate != "" {
				source += " (" + m.SourceDate + ")"
			}
			conflicts = append(conflicts, SpecConflict{Field: FieldGPUMemory, Accelerator: a.Name, Model: m.ID,
				ProviderValue: a.MemoryGiB, ReferenceValue: nominal, Unit: "GiB", Source: source})
		}
	}
	t.Accelerators = accs
	t.Conflicts = conflicts
	return r.Links.Apply(t)
}
