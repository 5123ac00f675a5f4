package catalog

import (
	"bytes"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// The limits of every string and list a catalog record holds, checked when a
// snapshot, a history, an observation file or a benchmark upload is read: a
// file within its size limit may still hold one 5 MB instance name, which the
// site would repeat on every page that lists the type. Each limit is far
// above the largest real value (ids: 34 bytes; sources: 494 bytes; 32
// network cards) and low enough that the site stays the size of its records.
// docs/security.md lists them.
const (
	// MaxIDBytes bounds an id: instance type, region, zone, family, model,
	// provider, billing kind, currency, unit, status.
	MaxIDBytes = 200
	// MaxNameBytes bounds a name: a region's names, city, country, an
	// accelerator's or a CPU's name, the network as published.
	MaxNameBytes = 200
	// MaxTextBytes bounds free text: a source, a note, a message, a reason,
	// what a price includes, why it is suspect.
	MaxTextBytes = 2000
	// MaxDevicesPerType bounds an instance type's accelerators (kinds) and
	// network cards, MaxConflictsPerType its spec conflicts.
	MaxDevicesPerType   = 64
	MaxConflictsPerType = 64
	// MaxZonesPerOffer bounds the zones an offer lists.
	MaxZonesPerOffer = 256
	// MaxSourcesPerCoverage bounds the sources a provider's coverage lists.
	MaxSourcesPerCoverage = 1000
)

// The bounds of the numbers of an instance type. The largest real figures:
// 448 vCPUs, 24 TiB of memory, 16 accelerators, 30,400 GB of local disk,
// 3,200 Gbit/s, 32 EFA interfaces, 288 GiB per GPU.
const (
	MaxVCPUs          = 100_000
	MaxMemoryGiB      = 10_000_000
	MaxDeviceCount    = 1_024
	MaxDeviceMemGiB   = 100_000
	MaxLocalStorageGB = 100_000_000
	MaxNetworkGbps    = 1_000_000
	MaxEFAInterfaces  = 1_024
)

// earliestCatalogTime and latestCatalogTime bound every time a catalog holds:
// no cloud sold GPU instances by the hour before 2006.
var (
	earliestCatalogTime = time.Date(2006, 1, 1, 0, 0, 0, 0, time.UTC)
	latestCatalogTime   = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
)

// recordCheck collects the first problem of a record's fields.
type recordCheck struct{ err error }

func (c *recordCheck) text(field, v string, limit int) {
	if c.err == nil && len(v) > limit {
		c.err = fmt.Errorf("%s: longer than %d bytes (%d)", field, limit, len(v))
	}
}

func (c *recordCheck) list(field string, n, limit int) {
	if c.err == nil && n > limit {
		c.err = fmt.Errorf("%s: more than %d items (%d)", field, limit, n)
	}
}

func (c *recordCheck) count(field string, n, limit int) {
	if c.err == nil && (n < 0 || n > limit) {
		c.err = fmt.Errorf("%s %d: out of range (want 0 to %d)", field, n, limit)
	}
}

// amount checks a decimal: within checkNumber's range, not negative, at most
// limit (0: no bound but checkNumber's).
func (c *recordCheck) amount(field string, d decimal.Decimal, limit int64) {
	if c.err != nil {
		return
	}
	if err := checkNumber(d); err != nil {
		c.err = fmt.Errorf("%s: %w", field, err)
		return
	}
	if d.IsNegative() || (limit > 0 && d.GreaterThan(decimal.NewFromInt(limit))) {
		if limit > 0 {
			c.err = fmt.Errorf("%s %s: out of range (want 0 to %d)", field, d, limit)
		} else {
			c.err = fmt.Errorf("%s %s: negative", field, d)
		}
	}
}

// time checks a time: zero where optional, else from 2006 to 2099.
func (c *recordCheck) time(field string, t time.Time, optional bool) {
	// observedWhenFetched stands, in a history record, for "as fetched_at",
	// and interruptionWithCrawl for "the crawl line's interruption_at".
	if c.err != nil || (optional && (t.IsZero() || t.Equal(observedWhenFetched) || t.Equal(interruptionWithCrawl))) {
		return
	}
	if t.Before(earliestCatalogTime) || !t.Before(latestCatalogTime) {
		c.err = fmt.Errorf("%s %s: want a time from 2006 to 2099", field, t.UTC().Format(time.RFC3339))
	}
}

// checkInstanceLimits checks the strings, lists and numbers of an instance type.
func checkInstanceLimits(t *InstanceType) error {
	var c recordCheck
	c.text("provider", string(t.Provider), MaxIDBytes)
	c.text("id", t.ID, MaxIDBytes)
	c.text("family", t.Family, MaxIDBytes)
	c.count("vcpus", t.VCPUs, MaxVCPUs)
	c.amount("memory_gib", t.MemoryGiB, MaxMemoryGiB)
	c.text("cpu_arch", t.CPUArch, MaxIDBytes)
	c.text("cpu_vendor", t.CPUVendor, MaxNameBytes)
	c.text("interconnect", t.Interconnect, MaxIDBytes)
	c.count("local_storage_gb", t.LocalStorageGB, MaxLocalStorageGB)
	c.text("network", t.Network, MaxNameBytes)
	if t.NetworkGbps != nil {
		c.amount("network_gbps", *t.NetworkGbps, MaxNetworkGbps)
	}
	c.text("rdma", t.RDMA, MaxIDBytes)
	c.count("efa_interfaces", t.EFAInterfaces, MaxEFAInterfaces)
	c.text("generation", t.Generation, MaxIDBytes)
	c.text("source", t.Source, MaxTextBytes)
	c.list("accelerators", len(t.Accelerators), MaxDevicesPerType)
	for i := range t.Accelerators {
		if c.err != nil {
			break
		}
		a := &t.Accelerators[i]
		f := func(name string) string { return fmt.Sprintf("accelerators[%d].%s", i, name) }
		c.text(f("kind"), string(a.Kind), MaxIDBytes)
		c.text(f("model"), a.Model, MaxIDBytes)
		c.text(f("name"), a.Name, MaxNameBytes)
		c.text(f("manufacturer"), a.Manufacturer, MaxNameBytes)
		c.count(f("count"), a.Count, MaxDeviceCount)
		c.amount(f("share"), a.Share, 1)
		c.amount(f("memory_gib"), a.MemoryGiB, MaxDeviceMemGiB)
		if a.NominalMemoryGB != nil {
			c.amount(f("nominal_memory_gb"), *a.NominalMemoryGB, MaxDeviceMemGiB)
		}
		c.text(f("mapping_confidence"), a.MappingConfidence, MaxIDBytes)
	}
	c.list("network_cards", len(t.NetworkCards), MaxDevicesPerType)
	for i := range t.NetworkCards {
		n := &t.NetworkCards[i]
		c.count(fmt.Sprintf("network_cards[%d].index", i), n.Index, MaxDevicesPerType)
		c.amount(fmt.Sprintf("network_cards[%d].peak_gbps", i), n.PeakGbps, MaxNetworkGbps)
		c.amount(fmt.Sprintf("network_cards[%d].baseline_gbps", i), n.BaselineGbps, MaxNetworkGbps)
	}
	c.list("conflicts", len(t.Conflicts), MaxConflictsPerType)
	for i := range t.Conflicts {
		k := &t.Conflicts[i]
		f := func(name string) string { return fmt.Sprintf("conflicts[%d].%s", i, name) }
		c.text(f("field"), k.Field, MaxIDBytes)
		c.text(f("accelerator"), k.Accelerator, MaxNameBytes)
		c.text(f("model"), k.Model, MaxIDBytes)
		c.amount(f("provider_value"), k.ProviderValue, 0)
		c.amount(f("reference_value"), k.ReferenceValue, 0)
		c.text(f("unit"), k.Unit, MaxIDBytes)
		c.text(f("source"), k.Source, MaxTextBytes)
	}
	return c.err
}

// checkOfferLimits checks the strings, lists, amounts and times of an offer
// (its billing kind, currency and unit are checkOffer's).
func checkOfferLimits(o *Offer) error {
	var c recordCheck
	c.text("provider", string(o.Provider), MaxIDBytes)
	c.text("instance_type", o.InstanceType, MaxIDBytes)
	c.text("region", o.Region, MaxIDBytes)
	c.text("zone", o.Zone, MaxIDBytes)
	c.text("billing", string(o.Billing), MaxIDBytes)
	c.text("price.currency", string(o.Price.Currency), MaxIDBytes)
	c.text("price.unit", string(o.Price.Unit), MaxIDBytes)
	if o.Price.Upfront != nil {
		c.amount("price.upfront", *o.Price.Upfront, 0)
	}
	if o.Price.List != nil {
		c.amount("price.list", *o.Price.List, 0)
	}
	if o.PriceRange != nil {
		c.amount("price_range.min", o.PriceRange.Min, 0)
		c.amount("price_range.max", o.PriceRange.Max, 0)
	}
	c.list("parts", len(o.Parts), 2)
	for i, p := range o.Parts {
		c.text(fmt.Sprintf("parts[%d].part", i), p.Part, MaxIDBytes)
		c.amount(fmt.Sprintf("parts[%d].amount", i), p.Amount, 0)
	}
	c.text("availability", string(o.Availability), MaxIDBytes)
	c.list("zones", len(o.Zones), MaxZonesPerOffer)
	for i, z := range o.Zones {
		if len(z) > MaxIDBytes { // the name is made only for the message
			c.text(fmt.Sprintf("zones[%d]", i), z, MaxIDBytes)
		}
	}
	c.text("includes", o.Includes, MaxTextBytes)
	c.text("source", o.Source, MaxTextBytes)
	c.text("suspect", o.Suspect, MaxTextBytes)
	c.time("fetched_at", o.FetchedAt, true) // zero in a history record: the crawl line holds it
	c.time("observed_at", o.ObservedAt, true)
	if o.Interruption != nil {
		c.text("interruption.source", o.Interruption.Source, MaxTextBytes)
		c.time("interruption.observed_at", o.Interruption.ObservedAt, true)
	}
	return c.err
}

// checkRegionLimits checks a region's strings.
func checkRegionLimits(r *Region) error {
	var c recordCheck
	c.text("provider", string(r.Provider), MaxIDBytes)
	c.text("id", r.ID, MaxIDBytes)
	c.text("name_en", r.NameEN, MaxNameBytes)
	c.text("name_zh", r.NameZH, MaxNameBytes)
	c.text("country", r.Country, MaxNameBytes)
	c.text("city", r.City, MaxNameBytes)
	c.text("geo", r.Geo, MaxIDBytes)
	return c.err
}

// checkPlacementLimits checks a placement's strings.
func checkPlacementLimits(p *Placement) error {
	var c recordCheck
	c.text("provider", string(p.Provider), MaxIDBytes)
	c.text("instance_type", p.InstanceType, MaxIDBytes)
	c.text("region", p.Region, MaxIDBytes)
	c.text("zone", p.Zone, MaxIDBytes)
	c.text("status", string(p.Status), MaxIDBytes)
	return c.err
}

// checkCoverageLimits checks a provider's coverage: its texts, counts and times.
func checkCoverageLimits(cv *Coverage) error {
	var c recordCheck
	c.text("provider", string(cv.Provider), MaxIDBytes)
	c.text("status", string(cv.Status), MaxIDBytes)
	c.text("message", cv.Message, MaxTextBytes)
	for _, n := range []struct {
		name string
		v    int
	}{{"regions", cv.Regions}, {"requests", cv.Requests}, {"faults", cv.Faults}, {"throttled", cv.Throttled}, {"retries", cv.Retries}, {"swept", cv.Swept}} {
		c.count(n.name, n.v, 1<<40)
	}
	c.time("last_ok", cv.LastOK, true)
	for i, f := range cv.FailedRegions {
		c.text(fmt.Sprintf("failed_regions[%d].region", i), f.Region, MaxIDBytes)
		c.text(fmt.Sprintf("failed_regions[%d].reason", i), f.Reason, MaxTextBytes)
	}
	for i, f := range cv.FailedTypes {
		c.text(fmt.Sprintf("failed_types[%d].region", i), f.Region, MaxIDBytes)
		c.text(fmt.Sprintf("failed_types[%d].instance_type", i), f.InstanceType, MaxIDBytes)
		c.text(fmt.Sprintf("failed_types[%d].reason", i), f.Reason, MaxTextBytes)
		c.time(fmt.Sprintf("failed_types[%d].last_confirmed", i), f.LastConfirmed, true)
	}
	c.list("sources", len(cv.Sources), MaxSourcesPerCoverage)
	for i, s := range cv.Sources {
		c.text(fmt.Sprintf("sources[%d]", i), s, MaxTextBytes)
	}
	return c.err
}

// checkUnmappedLimits checks an unmapped accelerator's name and types.
func checkUnmappedLimits(u *UnmappedAccelerator) error {
	var c recordCheck
	c.text("provider", string(u.Provider), MaxIDBytes)
	c.text("name", u.Name, MaxNameBytes)
	for i, s := range u.InstanceTypes {
		c.text(fmt.Sprintf("instance_types[%d]", i), s, MaxIDBytes)
	}
	return c.err
}

// checkSnapshotLimits checks every record of the snapshot but its offers
// (checkOffer does those, in parallel), naming the first problem's place.
func (s *Snapshot) checkSnapshotLimits() error {
	var c recordCheck
	c.time("taken_at", s.TakenAt, true)
	c.text("fx.base", string(s.FX.Base), MaxIDBytes)
	c.text("fx.date", s.FX.Date, MaxIDBytes)
	c.text("fx.source", s.FX.Source, MaxTextBytes)
	for k := range s.FX.Rates {
		c.text("fx.rates", string(k), MaxIDBytes)
	}
	if c.err != nil {
		return c.err
	}
	for i := range s.Coverage {
		if err := checkCoverageLimits(&s.Coverage[i]); err != nil {
			return fmt.Errorf("coverage[%d] (%s): %w", i, shortKey(string(s.Coverage[i].Provider)), err)
		}
	}
	for i := range s.Unmapped {
		if err := checkUnmappedLimits(&s.Unmapped[i]); err != nil {
			return fmt.Errorf("unmapped[%d]: %w", i, err)
		}
	}
	for i := range s.Regions {
		if err := checkRegionLimits(&s.Regions[i]); err != nil {
			return fmt.Errorf("regions[%d] (%s): %w", i, shortKey(s.Regions[i].Key()), err)
		}
	}
	for i := range s.Placements {
		if err := checkPlacementLimits(&s.Placements[i]); err != nil {
			return fmt.Errorf("placements[%d] (%s): %w", i, shortKey(s.Placements[i].Key()), err)
		}
	}
	return nil
}

// The longest lines a history may hold: a record (an instance type, an offer
// …: the real ones are under 3 kB; with every field at its limit, record_limits.go,
// an instance type is some 40 kB), an observation (as an observation file's
// line), and a crawl line, whose fetch times grow with the regions crawled
// (the real ones are under 10 kB).
const (
	maxHistoryRecordLine = 64 << 10
	maxHistoryCrawlLine  = 4 << 20
)

// checkHistoryLineLengths refuses a line over its kind's limit, before it is
// decoded: a history within its size limit may still hold one record of
// hundreds of megabytes.
func checkHistoryLineLengths(name string, lines, obsLines [][]byte, obsStart int) error {
	for i, line := range lines {
		limit := maxHistoryRecordLine
		if i == 0 || bytes.Contains(line[:min(len(line), 64)], []byte(`"crawl"`)) {
			limit = maxHistoryCrawlLine
		}
		if len(line) > limit {
			return fmt.Errorf("%s:%d: line longer than %d KiB: no history line is so long; restore the file from git", name, i+1, limit>>10)
		}
	}
	for i, line := range obsLines {
		if len(line) > maxObservationLine {
			return fmt.Errorf("%s:%d: line longer than %d KiB: no history line is so long; restore the file from git", name, obsStart+i+1, maxObservationLine>>10)
		}
	}
	return nil
}
