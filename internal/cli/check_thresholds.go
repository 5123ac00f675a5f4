package cli

import (
	"fmt"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The nightly's alarms (check --max-stale-days, --min-coverage): a crawl whose
// credentials expired, or whose every API failed, keeps each provider's last
// data marked stale and would otherwise end green night after night.
const (
	codeStaleTooLong = "stale_too_long"
	codeCoverageLow  = "coverage_low"
)

// checkThresholds adds to r an error for each provider stale (its crawl failed,
// its data kept) for more than maxStaleDays days before asOf, when maxStaleDays
// is at least 0, and one when this crawl confirmed fewer than minCoverage
// percent of the catalog's offers (the others kept from an earlier crawl:
// catalog.Coverage.KeptStale), when minCoverage is above 0.
func checkThresholds(r *catalog.QualityReport, snap *catalog.Snapshot, asOf time.Time, maxStaleDays, minCoverage int) {
	if asOf.IsZero() {
		asOf = snap.TakenAt
	}
	coverage := map[catalog.Provider]catalog.Coverage{}
	for _, c := range snap.Coverage {
		coverage[c.Provider] = c
		if maxStaleDays < 0 || (c.Status != catalog.CoverageStale && c.Status != catalog.CoverageFailed) {
			continue
		}
		if c.LastOK.IsZero() {
			r.AddError(catalog.Finding{Code: codeStaleTooLong, Subject: string(c.Provider),
				Message: fmt.Sprintf("%s and never confirmed by a crawl (--max-stale-days %d): check its credentials and the crawl log", c.Status, maxStaleDays)})
			continue
		}
		if days := int(asOf.Sub(c.LastOK) / (24 * time.Hour)); days > maxStaleDays {
			r.AddError(catalog.Finding{Code: codeStaleTooLong, Subject: string(c.Provider),
				Message: fmt.Sprintf("%s for %d days, last confirmed %s (--max-stale-days %d): check its credentials and the crawl log",
					c.Status, days, c.LastOK.UTC().Format("2006-01-02"), maxStaleDays)})
		}
	}
	if minCoverage <= 0 || len(snap.Offers) == 0 {
		return
	}
	confirmed := 0
	for _, o := range snap.Offers {
		if c, ok := coverage[o.Provider]; !ok || !c.KeptStale(o) {
			confirmed++
		}
	}
	// Compared in whole offers: confirmed/total >= minCoverage/100.
	if confirmed*100 < minCoverage*len(snap.Offers) {
		r.AddError(catalog.Finding{Code: codeCoverageLow, Subject: "catalog",
			Message: fmt.Sprintf("this crawl confirmed %d of %d offers (%d%%), below --min-coverage %d%%; the rest are kept from earlier crawls: check the providers' credentials and the crawl log",
				confirmed, len(snap.Offers), confirmed*100/len(snap.Offers), minCoverage)})
	}
}
