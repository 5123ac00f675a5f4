package catalog

import (
	"cmp"
	"slices"
	"sort"
	"strings"
)

// Sort puts every list of the snapshot in its canonical order, so that the same
// content always serializes to the same bytes.
func (s *Snapshot) Sort() {
	s.sortSmallLists()
	sortList(s.Regions, regionLess)
	sortList(s.Instances, instanceLess)
	sortList(s.Placements, placementLess)
	sortList(s.Offers, offerLess)
}

// sortSmallLists sorts coverage and unmapped accelerators, and the lists inside them.
func (s *Snapshot) sortSmallLists() {
	sort.SliceStable(s.Coverage, func(i, j int) bool {
		return providerRank(s.Coverage[i].Provider) < providerRank(s.Coverage[j].Provider)
	})
	for i := range s.Coverage {
		sort.Slice(s.Coverage[i].FailedRegions, func(a, b int) bool {
			return s.Coverage[i].FailedRegions[a].Region < s.Coverage[i].FailedRegions[b].Region
		})
		sort.Slice(s.Coverage[i].FailedTypes, func(a, b int) bool {
			return s.Coverage[i].FailedTypes[a].Key() < s.Coverage[i].FailedTypes[b].Key()
		})
		sort.Strings(s.Coverage[i].Sources)
	}
	for i := range s.Unmapped {
		sort.Strings(s.Unmapped[i].InstanceTypes)
	}
	sort.Slice(s.Unmapped, func(i, j int) bool {
		a, b := s.Unmapped[i], s.Unmapped[j]
		if a.Provider != b.Provider {
			return providerRank(a.Provider) < providerRank(b.Provider)
		}
		return a.Name < b.Name
	})
}

// providerRank is the provider's place in Providers; 0 for an unknown one.
func providerRank(p Provider) int {
	for i, q := range Providers {
		if p == q {
			return i
		}
	}
	return 0
}

// billingRank is the billing kind's place in BillingKinds; 0 for an unknown one.
func billingRank(b BillingKind) int {
	for i, k := range BillingKinds {
		if b == k {
			return i
		}
	}
	return 0
}

// regionLess, instanceLess and placementLess order by key. When the parts
// before the last are the same, the keys share those and the "/" after them, and
// the last parts decide without building the keys.
func regionLess(a, b *Region) bool {
	if a.Provider == b.Provider {
		return a.ID < b.ID
	}
	return a.Key() < b.Key()
}

func instanceLess(a, b *InstanceType) bool {
	if a.Provider == b.Provider {
		return a.ID < b.ID
	}
	return a.Key() < b.Key()
}

func placementLess(a, b *Placement) bool {
	if a.Provider == b.Provider && a.InstanceType == b.InstanceType && a.Region == b.Region {
		return a.Zone < b.Zone
	}
	return a.Key() < b.Key()
}

// offerLess is the canonical order of offers: by provider, instance type, region,
// zone and billing kind in display order.
func offerLess(a, b *Offer) bool { return compareOffers(a, b) < 0 }

// compareOffers is offerLess as a comparison: -1, 0 or +1.
func compareOffers(a, b *Offer) int {
	if c := strings.Compare(string(a.Provider), string(b.Provider)); c != 0 {
		return c
	}
	if c := strings.Compare(a.InstanceType, b.InstanceType); c != 0 {
		return c
	}
	if c := strings.Compare(a.Region, b.Region); c != 0 {
		return c
	}
	if c := strings.Compare(a.Zone, b.Zone); c != 0 {
		return c
	}
	if a.Billing == b.Billing {
		return 0
	}
	return cmp.Compare(billingRank(a.Billing), billingRank(b.Billing))
}

// sortList sorts list by less. A list already in strictly increasing order is
// left as it is without sorting: any sort would leave it so, and a snapshot read
// from its file is in order, so checking costs n comparisons instead of n log n.
func sortList[T any](list []T, less func(a, b *T) bool) {
	if !inStrictOrder(list, less) {
		sort.Slice(list, func(i, j int) bool { return less(&list[i], &list[j]) })
	}
}

// sortedList is list itself when it is in strictly increasing order, else a
// sorted copy: MarshalCanonical and History.Append need not copy 100,000 offers
// that are in order already.
func sortedList[T any](list []T, less func(a, b *T) bool) []T {
	if inStrictOrder(list, less) {
		return list
	}
	c := append([]T(nil), list...)
	sort.Slice(c, func(i, j int) bool { return less(&c[i], &c[j]) })
	return c
}

// inStrictOrder reports whether each item of list is less than the one after
// it, checking chunks of the list in parallel.
func inStrictOrder[T any](list []T, less func(a, b *T) bool) bool {
	bounds := chunks(len(list))
	ordered := make([]bool, len(bounds)-1)
	inParallel(len(ordered), func(k int) {
		for i := max(1, bounds[k]); i < bounds[k+1]; i++ {
			if !less(&list[i-1], &list[i]) {
				return
			}
		}
		ordered[k] = true
	})
	return !slices.Contains(ordered, false)
}

// offersKeyedInOrder reports whether the offers are in strictly increasing
// canonical order, with known billing kinds and no "/" inside the parts of their
// keys before the billing kind. Then the order tells their keys apart: two such
// offers compare equal exactly when their keys are equal, and no two offers of
// the list do. A snapshot read from its file is so.
func offersKeyedInOrder(offers []Offer) bool {
	for i := range offers {
		var prev *Offer
		if i > 0 {
			prev = &offers[i-1]
		}
		if !plainKeyParts(&offers[i], prev) || (prev != nil && !offerLess(prev, &offers[i])) {
			return false
		}
		if _, err := ParseBillingKind(string(offers[i].Billing)); err != nil {
			return false
		}
	}
	return true
}

// plainKeyParts reports whether o's key parts before the billing kind hold no
// "/". prev is the offer before (nil for the first), known to pass: a part the
// same as its part needs no search, and consecutive offers share most parts.
func plainKeyParts(o, prev *Offer) bool {
	if prev == nil {
		prev = &Offer{}
	}
	return (o.Provider == prev.Provider || strings.IndexByte(string(o.Provider), '/') < 0) &&
		(o.InstanceType == prev.InstanceType || strings.IndexByte(o.InstanceType, '/') < 0) &&
		(o.Region == prev.Region || strings.IndexByte(o.Region, '/') < 0) &&
		(o.Zone == prev.Zone || strings.IndexByte(o.Zone, '/') < 0)
}
