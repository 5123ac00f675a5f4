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

// Manifest describes a fixture folder: where its data comes from and as of when,
// and the exchanges it answers. Synthetic is true where no real data exists.
type Manifest struct {
	Provider  string `json:"provider"`
	AsOf      string `json:"as_of"` // YYYY-MM-DD the data describes
	Synthetic bool   `json:"synthetic"`
	// SyntheticPrices is true where the specs are real but no real prices exist
	// (Huawei): every price served is synthetic.
	SyntheticPrices bool       `json:"synthetic_prices,omitempty"`
	Sources         []string   `json:"sources"`
	Notes           []string   `json:"notes,omitempty"`
	Exchanges       []Exchange `json:"exchanges"`
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
