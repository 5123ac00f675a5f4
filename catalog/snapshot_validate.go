package catalog

import (
	"fmt"
	"slices"

	"github.com/shopspring/decimal"
)

// Validate checks the snapshot's internal consistency: a known schema, unique keys,
// offers that refer to known instance types, prices with a currency and unit.
func (s *Snapshot) Validate() error { return s.validate(nil, false) }

// validate is Validate, told what History.Append knows already. priced, when not
// nil, reports the offers whose billing kind and price are known to be valid:
// those as they were in the last crawl, whose prices need not be read again (a
// cache miss each, 100,000 a day). ordered says the offers are known to be in
// strictly increasing canonical order.
func (s *Snapshot) validate(priced func(i int) bool, ordered bool) error {
	if s.Schema != SchemaVersion {
		return fmt.Errorf("schema version %d is not supported (this build reads version %d)", s.Schema, SchemaVersion)
	}
	for c, r := range s.FX.Rates {
		if err := checkNumber(r); err != nil || !r.IsPositive() {
			return fmt.Errorf("fx rate for %s: must be a positive number below 1e15", c)
		}
	}
	if err := s.checkSnapshotLimits(); err != nil {
		return err
	}
	types := make(map[string]bool, len(s.Instances))
	for i := range s.Instances {
		t := &s.Instances[i]
		if t.ID == "" {
			return fmt.Errorf("instances[%d]: empty id", i)
		}
		key := shortKey(t.Key())
		if err := checkInstanceLimits(t); err != nil {
			return fmt.Errorf("instances[%d] (%s): %w", i, key, err)
		}
		check := func(n decimal.Decimal) error {
			if err := checkNumber(n); err != nil {
				return fmt.Errorf("instances[%d] (%s): %w", i, key, err)
			}
			return nil
		}
		if err := check(t.MemoryGiB); err != nil {
			return err
		}
		if t.NetworkGbps != nil {
			if err := check(*t.NetworkGbps); err != nil {
				return err
			}
		}
		for _, a := range t.Accelerators {
			if err := check(a.Share); err != nil {
				return err
			}
			if err := check(a.MemoryGiB); err != nil {
				return err
			}
			if a.NominalMemoryGB != nil {
				if err := check(*a.NominalMemoryGB); err != nil {
					return err
				}
			}
		}
		for _, c := range t.NetworkCards {
			if err := check(c.PeakGbps); err != nil {
				return err
			}
			if err := check(c.BaselineGbps); err != nil {
				return err
			}
		}
		for _, c := range t.Conflicts {
			if err := check(c.ProviderValue); err != nil {
				return err
			}
			if err := check(c.ReferenceValue); err != nil {
				return err
			}
		}
		if types[t.Key()] {
			return fmt.Errorf("instances[%d]: duplicate instance type %s", i, key)
		}
		types[t.Key()] = true
	}
	// The offers are checked in parallel chunks; only when that finds a problem,
	// or the offers out of canonical order, are they checked again in order
	// with a set of their keys, to report the first problem.
	if !s.offersValid(types, priced, ordered) {
		return s.validateOffers(types, priced)
	}
	return nil
}

// offersValid reports whether every offer passes checkOffer and the offers are
// in strictly increasing canonical order without "/" inside the parts of their
// keys, so that their keys differ (offersKeyedInOrder). It checks chunks of the
// offers in parallel.
func (s *Snapshot) offersValid(types map[string]bool, priced func(i int) bool, ordered bool) bool {
	bounds := chunks(len(s.Offers))
	valid := make([]bool, len(bounds)-1)
	inParallel(len(valid), func(k int) {
		for i := bounds[k]; i < bounds[k+1]; i++ {
			o := &s.Offers[i]
			var prev *Offer
			if i > 0 {
				prev = &s.Offers[i-1]
			}
			if !plainKeyParts(o, prev) || (prev != nil && !ordered && !offerLess(prev, o)) || s.checkOffer(i, types, priced) != nil {
				return
			}
		}
		valid[k] = true
	})
	return !slices.Contains(valid, false)
}

// validateOffers returns the first problem of the offers, in order.
func (s *Snapshot) validateOffers(types map[string]bool, priced func(i int) bool) error {
	seen := make(map[string]bool, len(s.Offers))
	for i := range s.Offers {
		key := s.Offers[i].Key()
		if seen[key] {
			return fmt.Errorf("offers[%d] (%s): duplicate offer", i, shortKey(key))
		}
		seen[key] = true
		if err := s.checkOffer(i, types, priced); err != nil {
			return err
		}
	}
	return nil
}

// checkOffer checks offer i but for its key being unique: a known instance
// type and billing kind, and a price with a currency and unit.
func (s *Snapshot) checkOffer(i int, types map[string]bool, priced func(i int) bool) error {
	o := &s.Offers[i]
	where := func() string { return fmt.Sprintf("offers[%d] (%s)", i, shortKey(o.Key())) }
	if err := checkOfferLimits(o); err != nil {
		return fmt.Errorf("%s: %w", where(), err)
	}
	// Offers of one instance type come together; an offer with the same type as
	// the one before needs no look-up: that one is checked too (before it, in
	// validateOffers; by its own chunk, in offersValid).
	if i == 0 || o.Provider != s.Offers[i-1].Provider || o.InstanceType != s.Offers[i-1].InstanceType {
		if !types[o.InstanceKey()] {
			return fmt.Errorf("%s: instance type %s is not in the snapshot", where(), shortKey(o.InstanceKey()))
		}
	}
	if err := validateInterruption(o); err != nil {
		return fmt.Errorf("%s: %w", where(), err)
	}
	if priced != nil && priced(i) {
		return nil
	}
	if _, err := ParseBillingKind(string(o.Billing)); err != nil {
		return fmt.Errorf("%s: %w", where(), err)
	}
	if o.Price.Currency == "" || o.Price.Unit == "" {
		return fmt.Errorf("%s: price without currency or unit", where())
	}
	if !s.knownCurrency(o.Price.Currency) {
		return fmt.Errorf("%s: unknown currency %s (want USD, CNY, EUR or a currency of the snapshot's FX table)", where(), Excerpt(string(o.Price.Currency)))
	}
	switch o.Price.Unit {
	case PerHour, PerMonth, PerYear, Upfront:
	default:
		return fmt.Errorf("%s: unknown price unit %s (want hour, month, year or upfront)", where(), Excerpt(string(o.Price.Unit)))
	}
	if o.Price.Amount.IsNegative() {
		return fmt.Errorf("%s: negative price %s", where(), o.Price.Amount)
	}
	for _, n := range [...]*decimal.Decimal{&o.Price.Amount, o.Price.Upfront, o.Price.List} {
		if n == nil {
			continue
		}
		if err := checkNumber(*n); err != nil {
			return fmt.Errorf("%s: %w", where(), err)
		}
	}
	if err := checkParts(o); err != nil {
		return fmt.Errorf("%s: %w", where(), err)
	}
	return nil
}

// checkParts checks an offer's price parts: known parts, none negative or
// twice, adding up to the price's amount.
func checkParts(o *Offer) error {
	if len(o.Parts) == 0 {
		return nil
	}
	sum, seen := decimal.Zero, map[string]bool{}
	for _, p := range o.Parts {
		if (p.Part != PartMachine && p.Part != PartAccelerators) || seen[p.Part] {
			return fmt.Errorf("price part %s unknown or given twice (want machine and accelerators once each)", Excerpt(p.Part))
		}
		if p.Amount.IsNegative() {
			return fmt.Errorf("price part %s is negative (%s)", p.Part, p.Amount)
		}
		if err := checkNumber(p.Amount); err != nil {
			return err
		}
		seen[p.Part] = true
		sum = sum.Add(p.Amount)
	}
	if !sum.Equal(o.Price.Amount) {
		return fmt.Errorf("price parts add up to %s, not the price %s", sum, o.Price.Amount)
	}
	return nil
}

// knownCurrency reports whether c is a currency prices may be in: one the
// providers publish in, or one the snapshot's FX table converts.
func (s *Snapshot) knownCurrency(c Currency) bool {
	return PublishedCurrency(c) || c == s.FX.Base || s.FX.knows(c)
}

// shortKey is a record's key for a message: as it is when it is short and
// prints as itself, else quoted, cut and escaped (Excerpt).
func shortKey(k string) string {
	if len(k) <= 2*maxExcerpt && SafeLine(k) == k {
		return k
	}
	return Excerpt(k)
}
