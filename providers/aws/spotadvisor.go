package aws

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// The Spot Instance Advisor feed: the public JSON document behind AWS's Spot
// Instance Advisor page (aws.amazon.com/ec2/spot/instance-advisor/). It is no
// API of an SDK: a plain HTTPS GET, unsigned, with no credentials. It gives,
// per region, OS and instance type, the band of interruption frequency over the
// trailing month ("r", an index into its "ranges") and the average saving
// against on-demand ("s", percent). It carries no date: the offers record when
// it was fetched.
const (
	// spotAdvisorService is the name after aws. in --endpoint: its value is the
	// base URL the document's path is appended to.
	spotAdvisorService = "spotadvisor"
	spotAdvisorBase    = "https://spot-bid-advisor.s3.amazonaws.com"
	spotAdvisorPath    = "/spot-advisor-data.json"
	// spotAdvisorAction names the fetch in errors and in the replay's manifest.
	spotAdvisorAction = "GetSpotAdvisorData"
	// maxSpotAdvisorBytes bounds the document: the real one is about 2 MB
	// (25,000 rows of every OS and type in 33 regions).
	maxSpotAdvisorBytes = 16 << 20
	sourceSpotAdvisor   = "aws:spot-advisor:spot-advisor-data.json"
	// spotAdvisorOS is the feed's OS key of the offers' product (Linux/UNIX).
	spotAdvisorOS = "Linux"
)

// advisorRow is one region's and type's row of the feed.
type advisorRow struct {
	band    catalog.InterruptionBand
	savings int
}

// advisorData is the feed read and checked: region → type → row, Linux rows.
type advisorData map[string]map[string]advisorRow

// spotAdvisor fetches the feed once per crawl and shares the outcome, the
// feed or the error, between the regions: the feed is an optional enrichment
// of the spot prices, so a feed that cannot be fetched is asked for once (with
// its bounded retries), not again for every region and in the sweep
// (issue 28.16). reset starts a new crawl (Regions calls it).
type spotAdvisor struct {
	client *http.Client
	url    string
	retry  providers.Retry
	errs   providers.CallErrors

	mu      sync.Mutex
	done    bool // the crawl's one fetch was made (data or err holds its outcome)
	data    advisorData
	fetched time.Time
	err     error
}

// reset forgets the outcome of the last crawl's fetch.
func (a *spotAdvisor) reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.done, a.data, a.fetched, a.err = false, nil, time.Time{}, nil
}

// get returns the feed and when it was fetched, fetching it on first use in
// the crawl; later calls return the first call's outcome. A fetch cut short by
// the crawl's own cancellation is not kept.
func (a *spotAdvisor) get(ctx context.Context, now time.Time) (advisorData, time.Time, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.done {
		return a.data, a.fetched, a.err
	}
	data, err := a.load(ctx)
	if ctx.Err() != nil {
		return nil, time.Time{}, ctx.Err()
	}
	a.done, a.data, a.err = true, data, err
	if err == nil {
		a.fetched = now
	}
	return a.data, a.fetched, a.err
}

// load fetches (with retries) and reads the feed.
func (a *spotAdvisor) load(ctx context.Context) (advisorData, error) {
	var body []byte
	err := a.retry.Do(ctx, func() (err error) {
		body, err = a.fetch(ctx)
		return err
	})
	if err != nil {
		return nil, a.errs.Wrap(err, spotAdvisorAction, "")
	}
	data, err := parseSpotAdvisor(body)
	if err != nil {
		return nil, &providers.CallError{Provider: catalog.AWS, Action: spotAdvisorAction, Err: err,
			Detail: fmt.Sprintf("%s: %v", a.url, err)}
	}
	return data, nil
}

// fetch makes one GET of the document; an answer other than 200 is an error
// naming the status (5xx and 429 retryable), and a body past the limit is
// refused.
func (a *spotAdvisor) fetch(ctx context.Context) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := a.client.Do(req)
	if err != nil {
		return nil, &providers.CallError{Provider: catalog.AWS, Action: spotAdvisorAction, Class: providers.ErrUnavailable, Err: err,
			Detail: err.Error()}
	}
	defer func() { _ = resp.Body.Close() }() // read-only: a close error loses nothing
	if resp.StatusCode != http.StatusOK {
		class := error(nil)
		switch {
		case resp.StatusCode == http.StatusTooManyRequests:
			class = providers.ErrThrottled
		case resp.StatusCode >= 500:
			class = providers.ErrUnavailable
		case resp.StatusCode == http.StatusNotFound:
			class = providers.ErrNotFound
		}
		return nil, &providers.CallError{Provider: catalog.AWS, Action: spotAdvisorAction, Class: class,
			Err: fmt.Errorf("HTTP %d", resp.StatusCode), Detail: fmt.Sprintf("%s answered HTTP %d", a.url, resp.StatusCode)}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSpotAdvisorBytes+1))
	if err != nil {
		return nil, &providers.CallError{Provider: catalog.AWS, Action: spotAdvisorAction, Class: providers.ErrUnavailable, Err: err,
			Detail: fmt.Sprintf("%s: read: %v", a.url, err)}
	}
	if len(body) > maxSpotAdvisorBytes {
		return nil, &providers.CallError{Provider: catalog.AWS, Action: spotAdvisorAction, Err: errors.New("answer too large"),
			Detail: fmt.Sprintf("%s: answer larger than %d MiB", a.url, maxSpotAdvisorBytes>>20)}
	}
	return body, nil
}

// parseSpotAdvisor reads and checks the feed: its ranges must be the five
// bands known here, in order (a change of the bands must not be read with the
// old labels), and every Linux row's band index and saving must be in range.
// Errors name the region and type.
func parseSpotAdvisor(body []byte) (advisorData, error) {
	var feed struct {
		Ranges []struct {
			Index int    `json:"index"`
			Label string `json:"label"`
		} `json:"ranges"`
		SpotAdvisor map[string]map[string]map[string]struct {
			S *int `json:"s"`
			R *int `json:"r"`
		} `json:"spot_advisor"`
	}
	if err := json.Unmarshal(body, &feed); err != nil {
		return nil, fmt.Errorf("not the advisor's JSON: %s", catalog.Excerpt(err.Error()))
	}
	if len(feed.Ranges) != len(catalog.InterruptionBands) {
		return nil, fmt.Errorf("ranges: %d bands, want %d", len(feed.Ranges), len(catalog.InterruptionBands))
	}
	for i, r := range feed.Ranges {
		if r.Index != i || r.Label != string(catalog.InterruptionBands[i]) {
			return nil, fmt.Errorf("ranges[%d]: index %d label %s, want index %d label %q", i, r.Index, catalog.Excerpt(r.Label), i, catalog.InterruptionBands[i])
		}
	}
	if len(feed.SpotAdvisor) == 0 {
		return nil, errors.New("spot_advisor: no regions")
	}
	out := advisorData{}
	for region, byOS := range feed.SpotAdvisor {
		rows := byOS[spotAdvisorOS]
		for typ, row := range rows {
			where := fmt.Sprintf("spot_advisor[%s].%s[%s]", catalog.Excerpt(region), spotAdvisorOS, catalog.Excerpt(typ))
			if row.R == nil || row.S == nil {
				return nil, fmt.Errorf("%s: needs r and s", where)
			}
			if *row.R < 0 || *row.R >= len(catalog.InterruptionBands) {
				return nil, fmt.Errorf("%s: r %d is not a band index (0 to %d)", where, *row.R, len(catalog.InterruptionBands)-1)
			}
			if *row.S < -1000 || *row.S > 100 {
				return nil, fmt.Errorf("%s: s %d is not a saving in percent (-1000 to 100)", where, *row.S)
			}
			if out[region] == nil {
				out[region] = map[string]advisorRow{}
			}
			out[region][typ] = advisorRow{band: catalog.InterruptionBands[*row.R], savings: *row.S}
		}
	}
	return out, nil
}

// withInterruption sets each spot offer's advisor band and saving from the
// feed fetched at fetched; offers the feed has no row for keep none.
func withInterruption(offers []catalog.Offer, region string, data advisorData, fetched time.Time) {
	rows := data[region]
	for i := range offers {
		o := &offers[i]
		if o.Billing != catalog.Spot {
			continue
		}
		if row, ok := rows[o.InstanceType]; ok {
			o.Interruption = &catalog.Interruption{Band: row.band, SavingsPct: row.savings, ObservedAt: fetched, Source: sourceSpotAdvisor}
		}
	}
}

// advisorWarning is the crawl's warning when the feed could not be had: the
// spot prices are kept, their band unknown ("no data"). The runner records a
// warning once however many regions give it.
func advisorWarning(err error) string {
	return fmt.Sprintf("spot interruption bands unknown: the Spot Instance Advisor feed could not be fetched (%v); spot prices are kept without a band", err)
}

// spotAdvisorURL is the feed's URL: the --endpoint aws.spotadvisor base (or
// AWS_ENDPOINT_URL_SPOTADVISOR) with the document's path, else AWS's.
func spotAdvisorURL(cfg providers.Config, getenv func(string) string) string {
	base := endpoint(cfg, getenv, spotAdvisorService, "AWS_ENDPOINT_URL_SPOTADVISOR")
	if base == "" {
		base = spotAdvisorBase
	}
	return strings.TrimSuffix(base, "/") + spotAdvisorPath
}
