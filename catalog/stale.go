package catalog

import "fmt"

// MergeCrawl combines a new crawl with the previous snapshot so that nothing good
// is lost:
//   - a provider that was not crawled this time keeps its previous data and
//     coverage unchanged;
//   - a crawled provider that failed or was skipped keeps its previous data,
//     marked stale with the time it was last confirmed;
//   - a region that failed within a partial crawl keeps its previous offers and
//     placements (the region stays listed in FailedRegions);
//   - an instance type whose offers failed in a region that was otherwise
//     crawled keeps its previous offers there, and only those (the type stays
//     listed in FailedTypes, with when the kept offers were last confirmed).
//
// prev may be nil. The result is a new snapshot; neither input is modified.
func MergeCrawl(prev, next *Snapshot, crawled []Provider) *Snapshot {
	out := *next
	out.Coverage = append([]Coverage(nil), next.Coverage...)
	out.Unmapped = append([]UnmappedAccelerator(nil), next.Unmapped...)
	out.Regions = append([]Region(nil), next.Regions...)
	out.Instances = append([]InstanceType(nil), next.Instances...)
	out.Placements = append([]Placement(nil), next.Placements...)
	out.Offers = append([]Offer(nil), next.Offers...)
	if prev == nil {
		out.Sort()
		return &out
	}
	if len(out.FX.Rates) == 0 && len(prev.FX.Rates) > 0 {
		out.FX = prev.FX
	}
	wasCrawled := map[Provider]bool{}
	for _, p := range crawled {
		wasCrawled[p] = true
	}
	covIndex := map[Provider]int{}
	for i, c := range out.Coverage {
		covIndex[c.Provider] = i
	}
	for _, pc := range prev.Coverage {
		p := pc.Provider
		i, inNext := covIndex[p]
		switch {
		case !wasCrawled[p] && !inNext:
			out.Coverage = append(out.Coverage, pc)
			copyProvider(&out, prev, p, nil)
		case inNext && (out.Coverage[i].Status == CoverageFailed || out.Coverage[i].Status == CoverageSkipped):
			if !hasData(prev, p) {
				continue
			}
			c := out.Coverage[i]
			c.Status = CoverageStale
			c.LastOK = pc.LastOK
			c.Regions = pc.Regions
			c.Synthetic = pc.Synthetic
			c.Sources = pc.Sources
			c.Message = fmt.Sprintf("%s; keeping data last confirmed %s", c.Message, pc.LastOK.UTC().Format("2006-01-02 15:04 UTC"))
			out.Coverage[i] = c
			copyProvider(&out, prev, p, nil)
		case inNext && out.Coverage[i].Status == CoveragePartial:
			c := out.Coverage[i]
			if len(c.FailedRegions) > 0 {
				failed := map[string]bool{}
				c.FailedRegions = append([]RegionFailure(nil), c.FailedRegions...)
				for j, f := range c.FailedRegions {
					failed[f.Region] = true
					c.FailedRegions[j].Reason = fmt.Sprintf("%s (keeping data last confirmed %s)", f.Reason, pc.LastOK.UTC().Format("2006-01-02"))
				}
				copyProvider(&out, prev, p, failed)
			}
			if len(c.FailedTypes) > 0 {
				c.FailedTypes = keepTypes(&out, prev, p, c.FailedTypes)
			}
			out.Coverage[i] = c
		}
	}
	out.Sort()
	return &out
}

func hasData(s *Snapshot, p Provider) bool {
	for _, t := range s.Instances {
		if t.Provider == p {
			return true
		}
	}
	return false
}

// copyProvider copies provider p's records from src into dst: all of them when
// regions is nil, else only those in the given regions (plus the instance types and
// region metadata they need). Records dst already has are kept as they are.
func copyProvider(dst, src *Snapshot, p Provider, regions map[string]bool) {
	inScope := func(prov Provider, region string) bool {
		return prov == p && (regions == nil || regions[region])
	}
	haveType := map[string]bool{}
	for _, t := range dst.Instances {
		haveType[t.Key()] = true
	}
	needType := map[string]bool{}
	n := len(dst.Offers)
	dst.Offers = appendMissing(dst.Offers, src.Offers, Offer.Key, func(o Offer) bool { return inScope(o.Provider, o.Region) })
	for _, o := range dst.Offers[n:] {
		needType[o.InstanceKey()] = true
	}
	n = len(dst.Placements)
	dst.Placements = appendMissing(dst.Placements, src.Placements, Placement.Key, func(pl Placement) bool { return inScope(pl.Provider, pl.Region) })
	for _, pl := range dst.Placements[n:] {
		needType[string(pl.Provider)+"/"+pl.InstanceType] = true
	}
	for _, t := range src.Instances {
		if t.Provider == p && !haveType[t.Key()] && (regions == nil || needType[t.Key()]) {
			dst.Instances = append(dst.Instances, t)
			haveType[t.Key()] = true
		}
	}
	dst.Regions = appendMissing(dst.Regions, src.Regions, Region.Key, func(r Region) bool { return inScope(r.Provider, r.ID) })
	if regions == nil {
		dst.Unmapped = appendMissing(dst.Unmapped, src.Unmapped, func(u UnmappedAccelerator) string { return string(u.Provider) + "\x00" + u.Name },
			func(u UnmappedAccelerator) bool { return u.Provider == p })
	}
}

// keepTypes copies into dst the offers src has for each failed instance type
// of provider p in its region that dst lacks (with the type's record, should
// dst not have it), and returns the failures with the time the kept offers
// were last confirmed: the latest fetch time among them. Offers of the type
// that the new crawl did fetch are kept as fetched.
func keepTypes(dst, src *Snapshot, p Provider, failed []TypeFailure) []TypeFailure {
	out := append([]TypeFailure(nil), failed...)
	index := make(map[string]int, len(out))
	for j, f := range out {
		index[f.Key()] = j
	}
	key := func(o Offer) string { return o.Region + "/" + o.InstanceType }
	n := len(dst.Offers)
	dst.Offers = appendMissing(dst.Offers, src.Offers, Offer.Key, func(o Offer) bool {
		_, ok := index[key(o)]
		return o.Provider == p && ok
	})
	kept := map[string]bool{}
	for _, o := range dst.Offers[n:] {
		j := index[key(o)]
		if o.FetchedAt.After(out[j].LastConfirmed) {
			out[j].LastConfirmed = o.FetchedAt
		}
		kept[o.InstanceKey()] = true
	}
	dst.Instances = appendMissing(dst.Instances, src.Instances, InstanceType.Key, func(t InstanceType) bool { return kept[t.Key()] })
	return out
}

// appendMissing appends to dst the items of src that keep selects and whose key
// is not among dst's items (as they were before the call).
func appendMissing[T any](dst, src []T, key func(T) string, keep func(T) bool) []T {
	have := make(map[string]bool, len(dst))
	for _, x := range dst {
		have[key(x)] = true
	}
	for _, x := range src {
		if keep(x) && !have[key(x)] {
			dst = append(dst, x)
		}
	}
	return dst
}
