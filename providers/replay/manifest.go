package replay

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// Exchange is one recorded answer and the request it answers. A request matches
// when its service, action and region equal the exchange's (where set) and every
// listed parameter has the listed value; an empty value means the parameter is
// absent or empty (the first page of a paginated call).
type Exchange struct {
	Service     string            `json:"service,omitempty"`
	Action      string            `json:"action"`
	Region      string            `json:"region,omitempty"`
	Params      map[string]string `json:"params,omitempty"`
	Status      int               `json:"status,omitempty"`
	ContentType string            `json:"content_type,omitempty"`
	Body        string            `json:"body"` // file name, relative to the fixture folder
}

// Manifest describes a fixture folder: where its data comes from, when it was
// retrieved and observed, how much of it is real, and the exchanges it answers.
// `make data` (internal/tools/mkdata) builds the embedded catalog from a crawl
// of the replays and these fields: a replay answers with old data, so a crawl
// of it cannot date or label its records itself.
type Manifest struct {
	Provider string `json:"provider"`
	// Real says what a crawl of this replay may publish (RealAll,
	// RealInstanceTypes, RealNone); the rest is made up and serves the tests.
	Real string `json:"real"`
	// Retrieved is the day GPU Atlas copied the source data (YYYY-MM-DD): the
	// fetched_at of the records `make data` publishes.
	Retrieved string `json:"retrieved,omitempty"`
	// Observed is when the source says its prices held; nil where the source
	// gives no date (observed_at stays empty).
	Observed *ObservedDates `json:"observed,omitempty"`
	// InstanceSource, when set, replaces the adapter's source label on the
	// instance types `make data` publishes: where the specs come from a
	// document, not from the provider's API (Huawei: Open Telekom Cloud's
	// flavor tables).
	InstanceSource string `json:"instance_source,omitempty"`
	// OfferProvenance names a file beside the manifest holding an
	// OfferProvenance list: per instance type, region and billing kind, the
	// source label and price band that the replayed answer cannot carry (AWS
	// spot: a regional average with its minimum and maximum, or an estimate).
	OfferProvenance string `json:"offer_provenance,omitempty"`
	// Reported are prices no API gave but a person reported, with their source;
	// `make data` publishes them as reported offers.
	Reported []ReportedPrice `json:"reported_prices,omitempty"`
	// SpotAdvisor dates the replayed Spot Instance Advisor feed (AWS): a
	// crawl stamps its fetch time on the offers' interruption data, and `make
	// data` replaces it with the day the copy was fetched, as its provenance says.
	SpotAdvisor *SpotAdvisorCopy `json:"spot_advisor,omitempty"`
	Sources     []string         `json:"sources"`
	Notes       []string         `json:"notes,omitempty"`
	Exchanges   []Exchange       `json:"exchanges"`
}

// What a replay's crawl may publish (Manifest.Real).
const (
	RealAll           = "all"
	RealInstanceTypes = "instance_types"
	RealNone          = "none"
)

// ObservedDates are the dates (YYYY-MM-DD) a source gives for its prices.
type ObservedDates struct {
	Default string            `json:"default"`
	Regions map[string]string `json:"regions,omitempty"`
}

// For is the date of a region's prices.
func (d *ObservedDates) For(region string) string {
	if d == nil {
		return ""
	}
	if s, ok := d.Regions[region]; ok {
		return s
	}
	return d.Default
}

// OfferProvenance is the provenance of the offers of one instance type, region
// and billing kind in a replay, in every zone.
type OfferProvenance struct {
	InstanceType string `json:"instance_type"`
	Region       string `json:"region"`
	Billing      string `json:"billing"`
	// Source replaces the adapter's source label (which names the API call).
	Source string `json:"source"`
	// Estimated says the price is not an observed price but derived from
	// another (make data sets catalog.Offer.Estimated from it).
	Estimated bool `json:"estimated,omitempty"`
	// PriceMin and PriceMax are the source's band around the price, when it
	// gives one (decimal strings in the offer's currency and unit).
	PriceMin string `json:"price_min,omitempty"`
	PriceMax string `json:"price_max,omitempty"`
}

// SpotAdvisorCopy is the committed copy of the advisor feed a replay serves.
type SpotAdvisorCopy struct {
	// Observed is the day (YYYY-MM-DD) the copy was fetched, at the latest:
	// the date of the commit that holds it.
	Observed string `json:"observed"`
	// Source replaces the adapter's source label on the interruption data.
	Source string `json:"source"`
}

// ReportedPrice is one price a person reported, as the report states it.
type ReportedPrice struct {
	InstanceType string `json:"instance_type"`
	Region       string `json:"region"`
	Billing      string `json:"billing"`
	Amount       string `json:"amount"`
	Currency     string `json:"currency"`
	Unit         string `json:"unit"`
	// Includes says what the price covers besides the instance ("" = the
	// instance alone).
	Includes string `json:"includes,omitempty"`
	// Observed is the report's date; Retrieved when GPU Atlas copied it.
	Observed  string `json:"observed"`
	Retrieved string `json:"retrieved,omitempty"`
	Source    string `json:"source"`
	// Statement is the report's words, verbatim.
	Statement string `json:"statement"`
}

// LoadManifest reads manifest.json from a fixture folder.
func LoadManifest(dir fs.FS) (Manifest, error) {
	data, err := fs.ReadFile(dir, "manifest.json")
	if err != nil {
		return Manifest{}, fmt.Errorf("replay: read manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, fmt.Errorf("replay: manifest.json: %w", err)
	}
	for i, e := range m.Exchanges {
		if _, err := fs.Stat(dir, e.Body); err != nil {
			return Manifest{}, fmt.Errorf("replay: manifest.json exchange %d (%s): body %s: %w", i, e.Action, e.Body, err)
		}
	}
	return m, nil
}

// Matches reports whether the exchange answers req.
func (e Exchange) Matches(req Request) bool {
	if e.Action != req.Action || (e.Service != "" && e.Service != req.Service) || (e.Region != "" && e.Region != req.Region) {
		return false
	}
	for k, v := range e.Params {
		if req.Params[k] != v {
			return false
		}
	}
	return true
}

// Find returns the first exchange that answers req, the one the server serves.
func (m Manifest) Find(req Request) (Exchange, bool) {
	for _, e := range m.Exchanges {
		if e.Matches(req) {
			return e, true
		}
	}
	return Exchange{}, false
}

// SortExchanges orders exchanges so that manifests are written deterministically.
func SortExchanges(ex []Exchange) {
	key := func(e Exchange) string {
		ks := make([]string, 0, len(e.Params))
		for k, v := range e.Params {
			ks = append(ks, k+"="+v)
		}
		sort.Strings(ks)
		return e.Service + "\x00" + e.Action + "\x00" + e.Region + "\x00" + strings.Join(ks, "&")
	}
	sort.SliceStable(ex, func(i, j int) bool { return key(ex[i]) < key(ex[j]) })
}
