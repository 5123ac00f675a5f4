package catalog

import "time"

// SchemaVersion is the version of the snapshot format this build reads and writes.
// Bump it when a change would make an older reader misread a file.
const SchemaVersion = 1

// Snapshot is one complete catalog: everything crawled at one time, with the FX
// table its currency conversions use and what each provider's crawl achieved.
type Snapshot struct {
	Schema     int                   `json:"schema"`
	TakenAt    time.Time             `json:"taken_at"`
	FX         FXTable               `json:"fx"`
	Coverage   []Coverage            `json:"coverage"`
	Unmapped   []UnmappedAccelerator `json:"unmapped"`
	Regions    []Region              `json:"regions"`
	Instances  []InstanceType        `json:"instances"`
	Placements []Placement           `json:"placements"`
	Offers     []Offer               `json:"offers"`
}

// EachNamedRegion calls f with the provider and id of each region the snapshot
// names: its regions, then those of its offers and of its placements (one
// region may come more than once).
func (s *Snapshot) EachNamedRegion(f func(p Provider, region string)) {
	for _, r := range s.Regions {
		f(r.Provider, r.ID)
	}
	for _, o := range s.Offers {
		f(o.Provider, o.Region)
	}
	for _, p := range s.Placements {
		f(p.Provider, p.Region)
	}
}
