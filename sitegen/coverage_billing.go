package sitegen

import (
	"sort"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The coverage page's billing table: for every provider and the four ways a
// buyer pays (on demand, spot, a monthly subscription, a yearly subscription or
// reservation), whether GPU Atlas has prices, and of what standing: observed by
// a crawl, estimated, reported, only archived list prices of past years, or
// none. Never "ok" for a kind without data: a kind no public source publishes
// says so, with when that was last looked for.

// billingGroup is one column of the table: the billing kinds a buyer sees as
// one way to pay.
type billingGroup struct {
	ID    string // on_demand, spot, subscription_month, yearly
	Kinds []catalog.BillingKind
}

var billingGroups = []billingGroup{
	{"on_demand", []catalog.BillingKind{catalog.OnDemand}},
	{"spot", []catalog.BillingKind{catalog.Spot}},
	{"subscription_month", []catalog.BillingKind{catalog.SubscriptionMonth}},
	{"yearly", []catalog.BillingKind{catalog.SubscriptionYear, catalog.Reserved1yNoUpfront, catalog.Reserved1yAllUpfront, catalog.Reserved3yNoUpfront, catalog.Reserved3yAllUpfront}},
}

// billingGaps are the prices that exist in no public source: what the
// research into public data (../shared/realdata, "Looked for and not found",
// third batch) searched for and did not find, by provider and billing group
// ("" for every group). The value is the message key of the statement.
var billingGaps = map[string]string{
	"alibaba/subscription_month": "billingcov.gap_alibaba_subscription",
	"alibaba/yearly":             "billingcov.gap_alibaba_subscription",
	"tencent/spot":               "billingcov.gap_tencent_spot",
	"huawei/spot":                "billingcov.gap_huawei",
	"huawei/subscription_month":  "billingcov.gap_huawei",
	"huawei/yearly":              "billingcov.gap_huawei",
	"volcengine/":                "billingcov.gap_volcengine",
}

// billingGapsSearched is when the public sources were last searched for the
// gaps above: the date of realdata's third batch.
const billingGapsSearched = "2026-12-04"

// Billing coverage statuses (message keys billingcov.status_<status>).
const (
	billingObserved   = "observed"
	billingEstimated  = "estimated"
	billingReported   = "reported"
	billingSynthetic  = "synthetic"
	billingArchived   = "archived"
	billingMissing    = "missing"
	billingNonePublic = "none_public"
)

// billingCoverageRow is one provider's line of the table.
type billingCoverageRow struct {
	Provider catalog.Provider
	Cells    []billingCell
}

// billingCell says what GPU Atlas has for one provider and billing group.
type billingCell struct {
	Group  string
	Status string
	// Offers are the current offers of the group; Estimated, Reported and
	// Synthetic how many of them are estimated, reported or made up for a
	// test rather than observed.
	Offers, Estimated, Reported, Synthetic int
	// Sources are the current offers' sources; Date the newest date a
	// current price was observed (or fetched, where the source gives none).
	Sources []string
	Date    string
	// Archived: imported list prices of past years (history), with the
	// repositories they were read from and the first and last days they held.
	ArchivedSeries          int
	ArchivedSources         []string
	ArchivedFrom, ArchiveTo string
	// GapKey is the message key of a statement that no public source has
	// these prices; Searched when that was last looked for.
	GapKey, Searched string
}

// billingCoverage builds the table for every provider GPU Atlas knows.
func (m *siteModel) billingCoverage() []billingCoverageRow {
	groupOf := map[catalog.BillingKind]string{}
	for _, g := range billingGroups {
		for _, k := range g.Kinds {
			groupOf[k] = g.ID
		}
	}
	cells := map[string]*billingCell{}
	cell := func(p catalog.Provider, group string) *billingCell {
		k := string(p) + "/" + group
		if cells[k] == nil {
			cells[k] = &billingCell{Group: group}
		}
		return cells[k]
	}
	newest := map[string]time.Time{}
	for _, o := range m.offers {
		g := groupOf[o.Offer.Billing]
		if g == "" {
			continue
		}
		c := cell(o.Offer.Provider, g)
		c.Offers++
		switch {
		case o.Offer.Synthetic:
			c.Synthetic++
		case o.Offer.Reported:
			c.Reported++
		case o.Offer.Estimated:
			c.Estimated++
		}
		c.Sources = appendNewString(c.Sources, o.Offer.Source)
		at := o.Offer.ObservedAt
		if at.IsZero() {
			at = o.Offer.FetchedAt
		}
		k := string(o.Offer.Provider) + "/" + g
		if at.After(newest[k]) {
			newest[k] = at
		}
	}
	type span struct{ from, until time.Time }
	spans := map[string]*span{}
	for _, series := range m.observedOf {
		for _, s := range series {
			for _, r := range s.Runs {
				g := groupOf[r.Billing]
				if g == "" {
					continue
				}
				c := cell(r.Provider, g)
				k := string(r.Provider) + "/" + g
				sp := spans[k]
				if sp == nil {
					sp = &span{r.From, r.Until}
					spans[k] = sp
				}
				if r.From.Before(sp.from) {
					sp.from = r.From
				}
				if r.Until.After(sp.until) {
					sp.until = r.Until
				}
				for _, l := range sourceLinks(r.Sources) {
					c.ArchivedSources = appendNewString(c.ArchivedSources, l.Name)
				}
			}
			if len(s.Runs) > 0 {
				if g := groupOf[s.Runs[0].Billing]; g != "" {
					cell(s.Runs[0].Provider, g).ArchivedSeries++
				}
			}
		}
	}
	var rows []billingCoverageRow
	for _, p := range catalog.Providers {
		row := billingCoverageRow{Provider: p}
		for _, g := range billingGroups {
			c := *cell(p, g.ID)
			k := string(p) + "/" + g.ID
			if t := newest[k]; !t.IsZero() {
				c.Date = t.UTC().Format("2006-01-02")
			}
			if sp := spans[k]; sp != nil {
				// The last day a price held: Until is exclusive.
				c.ArchivedFrom, c.ArchiveTo = sp.from.UTC().Format("2006-01-02"), sp.until.Add(-time.Second).UTC().Format("2006-01-02")
			}
			sort.Strings(c.Sources)
			sort.Strings(c.ArchivedSources)
			observed := c.Offers - c.Estimated - c.Reported - c.Synthetic
			switch {
			case observed > 0:
				c.Status = billingObserved
			case c.Reported > 0:
				c.Status = billingReported
			case c.Estimated > 0:
				c.Status = billingEstimated
			case c.Synthetic > 0:
				c.Status = billingSynthetic
			case c.ArchivedSeries > 0:
				c.Status = billingArchived
			default:
				c.Status = billingMissing
			}
			if key := billingGapKey(p, g.ID); key != "" && observed == 0 {
				c.GapKey, c.Searched = key, billingGapsSearched
				if c.Status == billingMissing {
					c.Status = billingNonePublic
				}
			}
			row.Cells = append(row.Cells, c)
		}
		rows = append(rows, row)
	}
	return rows
}

// billingGapKey is the statement that no public source has a provider's
// prices of a billing group, or "".
func billingGapKey(p catalog.Provider, group string) string {
	if k, ok := billingGaps[string(p)+"/"+group]; ok {
		return k
	}
	return billingGaps[string(p)+"/"]
}

// appendNewString appends s unless list holds it already.
func appendNewString(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
