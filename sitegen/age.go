package sitegen

import (
	"fmt"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// ageLine is one provider's data age as every page states it: "AWS prices
// observed 2025-11-30 to 2026-01-21; the oldest 366 days ago", with a stale
// mark past catalog.StaleDays (or when the data is kept from an earlier
// crawl) and an undated mark where the source gives no date.
type ageLine struct {
	Provider catalog.Provider
	Text     string
	Stale    bool
	Undated  bool
}

// ageLines are the providers' data ages in the language, in display order.
func (m *siteModel) ageLines(l *language) ([]ageLine, error) {
	var out []ageLine
	for _, d := range m.ages {
		line, err := ageText(l, d, m.coverage[d.Provider])
		if err != nil {
			return nil, err
		}
		out = append(out, line)
	}
	return out, nil
}

func ageText(l *language, d catalog.DataAge, cov catalog.Coverage) (ageLine, error) {
	line := ageLine{Provider: d.Provider, Stale: d.Stale(), Undated: d.Unknown > 0}
	name := l.label("provider", d.Provider)
	date := func(t interface{ Format(string) string }) string { return t.Format("2006-01-02") }
	var text string
	var err error
	switch {
	case d.Offers == 0 && noPublicData(cov):
		text, err = l.t("age.no_public_data", "provider", name)
	case d.Offers == 0:
		text, err = l.t("age.no_prices", "provider", name)
	case !d.Dated():
		text, err = l.t("age.undated_all", "provider", name, "retrieved", date(d.Retrieved.UTC()))
	default:
		ago, aerr := agoText(l, d.Days)
		if aerr != nil {
			return line, aerr
		}
		from, to := date(d.Oldest.UTC()), date(d.Newest.UTC())
		switch {
		case d.Reported == d.Offers:
			text, err = l.t("age.reported", "provider", name, "date", from, "ago", ago)
		case from == to:
			text, err = l.t("age.observed", "provider", name, "date", from, "ago", ago)
		default:
			text, err = l.t("age.observed_span", "provider", name, "from", from, "to", to, "ago", ago)
		}
		if err == nil && d.Unknown > 0 {
			var more string
			more, err = l.t("age.undated_some", "n", d.Unknown)
			text += more
		}
	}
	if err == nil && d.Coverage == catalog.CoverageStale {
		var kept string
		kept, err = l.t("age.kept")
		text += kept
	}
	line.Text = text
	return line, err
}

// agoText is "today", "1 day ago" or "366 days ago".
func agoText(l *language, days int) (string, error) {
	switch days {
	case 0:
		return l.t("age.ago_today")
	case 1:
		return l.t("age.ago_day")
	}
	return l.t("age.ago_days", "n", fmt.Sprint(days))
}

// noPublicData says a provider has no data to show because none can be read
// without an account: it was skipped (no credentials) or failed, and nothing
// was kept from before.
func noPublicData(c catalog.Coverage) bool {
	return c.Status == catalog.CoverageSkipped || c.Status == catalog.CoverageFailed
}
