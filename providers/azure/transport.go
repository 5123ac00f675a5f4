package azure

import (
	"context"
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
//
// Each request is bounded by the crawl's request timeout (an http.Client's),
// whose expiry is a timeout error the retries know, not the end of the crawl.
type transport struct {
	client   *http.Client
	override map[string]*url.URL // Azure host -> the override's scheme and host
}

func newTransport(cfg providers.Config) (transport, error) {
	t := transport{client: &http.Client{Transport: cfg.BaseTransport(), Timeout: cfg.Timeout}, override: map[string]*url.URL{}}
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

// resumeKey is the context key of resumeAt.
type resumeKey struct{}

// resumeAt marks a pager's first request to go to link, the nextLink of the
// last page read, instead of the listing's first page.
func resumeAt(ctx context.Context, link string) context.Context {
	return context.WithValue(ctx, resumeKey{}, link)
}

// Do sends req, to the page resumeAt names and to its service's override
// where one is set.
func (t transport) Do(req *http.Request) (*http.Response, error) {
	if link, ok := req.Context().Value(resumeKey{}).(string); ok && link != "" && req.Method == http.MethodGet && req.URL.Host == hostARM {
		u, err := url.Parse(link)
		if err != nil || u.Host != hostARM {
			return nil, fmt.Errorf("azure: nextLink %q is not a Resource Manager URL", link)
		}
		req = req.Clone(req.Context())
		req.URL = u
		req.Host = ""
	}
	if to, ok := t.override[req.URL.Hostname()]; ok {
		req = req.Clone(req.Context())
		req.URL.Scheme, req.URL.Host = to.Scheme, to.Host
		req.Host = ""
	}
	return t.client.Do(req)
}
