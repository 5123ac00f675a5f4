package azure

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// transport sends every request through the crawl's transport (counted and
// rate-limited), and a request to one of Azure's hosts to that service's
// endpoint override, where one is set: the SDKs keep their https URLs (the
// identity library accepts no other), and nextLink and NextPageLink URLs,
// which name Azure's hosts, reach the override too. It is azcore's
// policy.Transporter.
type transport struct {
	base     http.RoundTripper
	override map[string]*url.URL // Azure host -> the override's scheme and host
}

func newTransport(cfg providers.Config) (transport, error) {
	t := transport{base: cfg.BaseTransport(), override: map[string]*url.URL{}}
	for service, host := range map[string]string{serviceARM: hostARM, serviceLogin: hostLogin, servicePrices: hostPrices} {
		raw := cfg.Endpoints[service]
		if raw == "" {
			continue
		}
		h, scheme, err := cfg.HostEndpoint(catalog.Azure, service)
		if err != nil {
			return transport{}, err
		}
		u, err := url.Parse(scheme + "://" + h)
		if err != nil || u.Host == "" {
			return transport{}, fmt.Errorf("azure: endpoint %s=%q: want HOST[:PORT] or http(s)://HOST[:PORT]", service, raw)
		}
		u.Scheme = map[string]string{"HTTP": "http", "HTTPS": "https"}[scheme]
		t.override[host] = u
	}
	return t, nil
}

// Do sends req, to its service's override where one is set.
func (t transport) Do(req *http.Request) (*http.Response, error) {
	if to, ok := t.override[req.URL.Hostname()]; ok {
		req = req.Clone(req.Context())
		req.URL.Scheme, req.URL.Host = to.Scheme, to.Host
		req.Host = ""
	}
	return t.base.RoundTrip(req)
}

// httpTransport is transport as an http.RoundTripper, for the Retail Prices
// calls, which need no SDK.
type httpTransport struct{ t transport }

func (h httpTransport) RoundTrip(req *http.Request) (*http.Response, error) { return h.t.Do(req) }
