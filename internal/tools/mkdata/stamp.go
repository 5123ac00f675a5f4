package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/replayset"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// fixture is a provider's replay manifest and the folder it is in.
type fixture struct {
	manifest replay.Manifest
	dir      fs.FS
}

// stamp turns the crawl of the replays into the embedded catalog, provider by
// provider, as its manifest says:
//   - only what is real is kept (Manifest.Real): everything, the instance types
//     alone (Huawei: regions, zones, stock and prices of the replay are made up),
//     or nothing (Volcano Engine, whose coverage then says so);
//   - offers are dated: fetched_at is when GPU Atlas retrieved the data,
//     observed_at when the source says the prices held (empty where unknown);
//   - labels the replayed answer cannot carry are applied (OfferProvenance:
//     what each AWS spot figure is, and its band) and instance types get the
//     document their specs come from (InstanceSource);
//   - reported prices are added, labelled as reported, with their dates.
//
// The snapshot's taken_at is the latest retrieval; coverage lists the sources.
func stamp(s *catalog.Snapshot, fixtures map[catalog.Provider]fixture, regions *catalog.RegionTable) error {
	var latest time.Time
	for _, p := range catalog.Providers {
		fx, ok := fixtures[p]
		if !ok {
			continue
		}
		m := fx.manifest
		var retrieved time.Time
		switch m.Real {
		case replay.RealAll, replay.RealInstanceTypes:
			t, err := day(m.Retrieved)
			if err != nil || t.IsZero() {
				return fmt.Errorf("%s fixture manifest: retrieved %q is not YYYY-MM-DD", p, m.Retrieved)
			}
			retrieved = t
		case replay.RealNone:
		default:
			return fmt.Errorf("%s fixture manifest: real %q is not one of %s, %s, %s", p, m.Real, replay.RealAll, replay.RealInstanceTypes, replay.RealNone)
		}
		if retrieved.After(latest) {
			latest = retrieved
		}
		keepOffers := m.Real == replay.RealAll
		keepTypes := m.Real != replay.RealNone
		dropProvider(s, p, keepTypes, keepOffers)
		if keepOffers {
			if err := dateOffers(s, p, m, retrieved); err != nil {
				return err
			}
			if err := applyProvenance(s, p, fx); err != nil {
				return err
			}
			if err := dateInterruptions(s, p, m); err != nil {
				return err
			}
		}
		if m.InstanceSource != "" {
			for i := range s.Instances {
				if s.Instances[i].Provider == p {
					s.Instances[i].Source = m.InstanceSource
				}
			}
		}
		last, err := addReported(s, p, m.Reported, regions)
		if err != nil {
			return err
		}
		if last.After(latest) {
			latest = last
		}
		setCoverage(s, p, m, retrieved)
	}
	s.TakenAt = latest
	// A reported price is checked like any other (the crawl checked the rest).
	catalog.FlagImplausibleSnapshot(s)
	s.Sort()
	return s.Validate()
}

func day(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse("2006-01-02", s)
}

// dropProvider removes what a provider's replay made up: its offers,
// placements and regions unless keepOffers, and its instance types (with their
// unmapped accelerators) unless keepTypes.
func dropProvider(s *catalog.Snapshot, p catalog.Provider, keepTypes, keepOffers bool) {
	if keepOffers {
		return
	}
	s.Offers = filter(s.Offers, func(o catalog.Offer) bool { return o.Provider != p })
	s.Placements = filter(s.Placements, func(pl catalog.Placement) bool { return pl.Provider != p })
	s.Regions = filter(s.Regions, func(r catalog.Region) bool { return r.Provider != p })
	if !keepTypes {
		s.Instances = filter(s.Instances, func(t catalog.InstanceType) bool { return t.Provider != p })
		s.Unmapped = filter(s.Unmapped, func(u catalog.UnmappedAccelerator) bool { return u.Provider != p })
	}
}

func filter[T any](xs []T, keep func(T) bool) []T {
	out := xs[:0]
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// dateOffers sets the provider's offers' fetched_at and observed_at.
func dateOffers(s *catalog.Snapshot, p catalog.Provider, m replay.Manifest, retrieved time.Time) error {
	observed := map[string]time.Time{}
	for i := range s.Offers {
		o := &s.Offers[i]
		if o.Provider != p {
			continue
		}
		t, ok := observed[o.Region]
		if !ok {
			var err error
			if t, err = day(m.Observed.For(o.Region)); err != nil {
				return fmt.Errorf("%s fixture manifest: observed date for %s: %w", p, o.Region, err)
			}
			observed[o.Region] = t
		}
		o.FetchedAt, o.ObservedAt = retrieved, t
		o.Synthetic = false
	}
	return nil
}

// dateInterruptions dates and labels the spot offers' advisor data as the
// manifest's SpotAdvisor says: the crawl stamped the replay's fetch time, but
// the copy was fetched on the day its provenance gives.
func dateInterruptions(s *catalog.Snapshot, p catalog.Provider, m replay.Manifest) error {
	var observed time.Time
	if a := m.SpotAdvisor; a != nil {
		t, err := day(a.Observed)
		if err != nil || t.IsZero() || a.Source == "" {
			return fmt.Errorf("%s fixture manifest: spot_advisor needs observed (YYYY-MM-DD) and source", p)
		}
		observed = t
	}
	for i := range s.Offers {
		in := s.Offers[i].Interruption
		if s.Offers[i].Provider != p || in == nil {
			continue
		}
		if observed.IsZero() {
			return fmt.Errorf("%s fixture manifest: %s has interruption data but the manifest dates no advisor feed", p, s.Offers[i].Key())
		}
		in.ObservedAt, in.Source = observed, m.SpotAdvisor.Source
	}
	return nil
}

// applyProvenance labels the offers as the manifest's OfferProvenance file says,
// and stores the price band; every row must label at least one offer, and each
// band must hold the offer's price.
func applyProvenance(s *catalog.Snapshot, p catalog.Provider, fx fixture) error {
	name := fx.manifest.OfferProvenance
	if name == "" {
		return nil
	}
	data, err := fs.ReadFile(fx.dir, name)
	if err != nil {
		return fmt.Errorf("%s fixture: %w", p, err)
	}
	var rows []replay.OfferProvenance
	if err := json.Unmarshal(data, &rows); err != nil {
		return fmt.Errorf("%s fixture %s: %w", p, name, err)
	}
	type key struct{ typ, region, billing string }
	byKey := map[key]int{}
	for i, r := range rows {
		byKey[key{r.InstanceType, r.Region, r.Billing}] = i
	}
	used := make([]bool, len(rows))
	for i := range s.Offers {
		o := &s.Offers[i]
		if o.Provider != p {
			continue
		}
		j, ok := byKey[key{o.InstanceType, o.Region, string(o.Billing)}]
		if !ok {
			continue
		}
		used[j] = true
		r := rows[j]
		if r.Source != "" {
			o.Source = r.Source
		}
		o.Estimated = r.Estimated
		if r.PriceMin == "" && r.PriceMax == "" {
			continue
		}
		lo, err1 := decimal.NewFromString(r.PriceMin)
		hi, err2 := decimal.NewFromString(r.PriceMax)
		if err1 != nil || err2 != nil || o.Price.Amount.LessThan(lo) || o.Price.Amount.GreaterThan(hi) {
			return fmt.Errorf("%s fixture %s: %s band %q..%q does not hold the price %s", p, name, o.Key(), r.PriceMin, r.PriceMax, o.Price.Amount)
		}
		o.PriceRange = &catalog.PriceRange{Min: lo, Max: hi}
	}
	for j, u := range used {
		if !u {
			r := rows[j]
			return fmt.Errorf("%s fixture %s: no %s offer of %s in %s to label", p, name, r.Billing, r.InstanceType, r.Region)
		}
	}
	return nil
}

// addReported adds the reported prices as offers, with their region's
// metadata, and returns the latest retrieval among them.
func addReported(s *catalog.Snapshot, p catalog.Provider, reported []replay.ReportedPrice, regions *catalog.RegionTable) (time.Time, error) {
	var latest time.Time
	types := map[string]bool{}
	for _, t := range s.Instances {
		if t.Provider == p {
			types[t.ID] = true
		}
	}
	haveRegion := map[string]bool{}
	for _, r := range s.Regions {
		if r.Provider == p {
			haveRegion[r.ID] = true
		}
	}
	for _, r := range reported {
		where := fmt.Sprintf("%s fixture manifest: reported price of %s in %s", p, r.InstanceType, r.Region)
		if !types[r.InstanceType] {
			return latest, fmt.Errorf("%s: no such instance type in the crawl", where)
		}
		billing, err := catalog.ParseBillingKind(r.Billing)
		if err != nil {
			return latest, fmt.Errorf("%s: %w", where, err)
		}
		amount, err := decimal.NewFromString(r.Amount)
		if err != nil {
			return latest, fmt.Errorf("%s: amount: %w", where, err)
		}
		observed, err1 := day(r.Observed)
		retrieved, err2 := day(r.Retrieved)
		if err1 != nil || err2 != nil || observed.IsZero() || retrieved.IsZero() {
			return latest, fmt.Errorf("%s: observed %q and retrieved %q must be YYYY-MM-DD", where, r.Observed, r.Retrieved)
		}
		if r.Source == "" {
			return latest, fmt.Errorf("%s: no source", where)
		}
		if retrieved.After(latest) {
			latest = retrieved
		}
		s.Offers = append(s.Offers, catalog.Offer{Provider: p, InstanceType: r.InstanceType, Region: r.Region, Billing: billing,
			Price:        catalog.Price{Amount: amount, Currency: catalog.Currency(r.Currency), Unit: catalog.PriceUnit(r.Unit)},
			Availability: catalog.Unknown, Includes: r.Includes, Source: r.Source, FetchedAt: retrieved, ObservedAt: observed, Reported: true})
		if !haveRegion[r.Region] {
			reg, _ := regions.Lookup(p, r.Region)
			s.Regions = append(s.Regions, reg)
			haveRegion[r.Region] = true
		}
	}
	return latest, nil
}

// setCoverage states what the provider's data is: sources, the date it was
// last confirmed (the retrieval), and for a provider with made-up parts what
// was left out.
func setCoverage(s *catalog.Snapshot, p catalog.Provider, m replay.Manifest, retrieved time.Time) {
	for i := range s.Coverage {
		c := &s.Coverage[i]
		if c.Provider != p {
			continue
		}
		c.Synthetic = false
		c.LastOK = retrieved
		c.Sources = append([]string{"replay of recorded responses (make data): " + replayset.DirOf(p)}, m.Sources...)
		sort.Strings(c.Sources[1:])
		regions := map[string]bool{}
		for _, o := range s.Offers {
			if o.Provider == p {
				regions[o.Region] = true
			}
		}
		switch m.Real {
		case replay.RealNone:
			c.Status, c.Regions, c.Requests, c.Sources, c.LastOK = catalog.CoverageSkipped, 0, 0, nil, time.Time{}
			c.Message = catalog.NoPublicData
		case replay.RealInstanceTypes:
			c.Status, c.Regions = catalog.CoveragePartial, len(regions)
			prices := "no price"
			switch n := len(m.Reported); {
			case n == 1:
				prices = "one reported price"
			case n > 1:
				prices = fmt.Sprintf("%d reported prices", n)
			}
			c.Message = fmt.Sprintf("instance specs only, from %s; no region, zone or stock from a source; %s",
				strings.SplitN(m.InstanceSource, " (", 2)[0], prices)
		}
	}
}
