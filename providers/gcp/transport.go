package gcp

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"cloud.google.com/go/auth"
	"cloud.google.com/go/auth/credentials"
	"cloud.google.com/go/auth/httptransport"
	billing "cloud.google.com/go/billing/apiv1"
	compute "cloud.google.com/go/compute/apiv1"
	"google.golang.org/api/option"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// The services' own endpoints, and the scope the adapter asks for (the
// billing catalog and Compute Engine's lists both accept cloud-platform).
const (
	endpointCompute = "https://compute.googleapis.com"
	endpointBilling = "https://cloudbilling.googleapis.com"
	endpointToken   = "https://oauth2.googleapis.com/token"
	scope           = "https://www.googleapis.com/auth/cloud-platform"
)

// endpoint is a service's URL: its override where --endpoint sets one, and
// whether that is plain http.
func endpoint(cfg providers.Config, service, dflt string) (url string, plain bool, err error) {
	if cfg.Endpoints[service] == "" {
		return dflt, false, nil
	}
	host, scheme, err := cfg.HostEndpoint(catalog.GCP, service)
	if err != nil {
		return "", false, err
	}
	if scheme == "HTTP" {
		return "http://" + host, true, nil
	}
	return "https://" + host, false, nil
}

// newClients makes the Compute Engine and billing catalog clients over the
// crawl's transport (counted and rate-limited), each at its endpoint. The
// credentials file is read by the auth library with no metadata server to
// fall back on, and its token exchange goes through the same transport (to
// the oauth2 override where one is set). A client whose endpoint is plain
// http gets no credentials: a bearer token never travels unencrypted (a
// local replay needs none), and a plain-http token endpoint is refused.
//
// The clients build their requests without the call's context, so a client
// is made for each listing, over a transport that gives its requests the
// listing's context (withContext): a cancelled crawl stops at once, and
// pageGuard sees which listing a request belongs to.
func newClients(cfg providers.Config, project string, creds credentialsFile) (calls, error) {
	computeURL, computePlain, err := endpoint(cfg, serviceCompute, endpointCompute)
	if err != nil {
		return calls{}, err
	}
	billingURL, billingPlain, err := endpoint(cfg, serviceBilling, endpointBilling)
	if err != nil {
		return calls{}, err
	}
	tokenURL, tokenPlain, err := endpoint(cfg, serviceOAuth2, endpointToken)
	if err != nil {
		return calls{}, err
	}
	if cfg.Endpoints[serviceOAuth2] != "" {
		tokenURL += "/token"
	}
	base := pageGuard{next: cfg.BaseTransport()}
	var c *auth.Credentials
	if !computePlain || !billingPlain {
		if tokenPlain {
			return calls{}, fmt.Errorf("gcp: endpoint oauth2=%s is plain http: the token exchange sends a signed credential, use https", cfg.Endpoints[serviceOAuth2])
		}
		// From the file's own type only: nothing is detected, no metadata
		// server asked.
		c, err = credentials.NewCredentialsFromJSON(credentials.CredType(creds.typ), creds.json, &credentials.DetectOptions{Scopes: []string{scope},
			Client: &http.Client{Transport: base, Timeout: cfg.Timeout}, TokenURL: tokenURL})
		if err != nil {
			return calls{}, err
		}
	}
	// opts are a client's options for one listing's context.
	opts := func(ctx context.Context, url string, plain bool) ([]option.ClientOption, error) {
		rt := withContext{ctx: ctx, next: base}
		o := []option.ClientOption{option.WithEndpoint(url), option.WithTelemetryDisabled()}
		if plain {
			return append(o, option.WithHTTPClient(&http.Client{Transport: rt, Timeout: cfg.Timeout}), option.WithoutAuthentication()), nil
		}
		hc, err := httptransport.NewClient(&httptransport.Options{Credentials: c, BaseRoundTripper: rt})
		if err != nil {
			return nil, err
		}
		hc.Timeout = cfg.Timeout
		return append(o, option.WithHTTPClient(hc)), nil
	}
	return calls{
		machineTypes: func(ctx context.Context) (*compute.MachineTypesClient, error) {
			o, err := opts(ctx, computeURL, computePlain)
			if err != nil {
				return nil, err
			}
			mt, err := compute.NewMachineTypesRESTClient(ctx, o...)
			if err == nil {
				mt.CallOptions.AggregatedList = nil // providers.Retry retries, with the wait the answer asks for
			}
			return mt, err
		},
		acceleratorTypes: func(ctx context.Context) (*compute.AcceleratorTypesClient, error) {
			o, err := opts(ctx, computeURL, computePlain)
			if err != nil {
				return nil, err
			}
			at, err := compute.NewAcceleratorTypesRESTClient(ctx, o...)
			if err == nil {
				at.CallOptions.AggregatedList = nil
			}
			return at, err
		},
		catalog: func(ctx context.Context) (*billing.CloudCatalogClient, error) {
			o, err := opts(ctx, billingURL, billingPlain)
			if err != nil {
				return nil, err
			}
			cat, err := billing.NewCloudCatalogRESTClient(ctx, o...)
			if err == nil {
				cat.CallOptions.ListSkus = nil
			}
			return cat, err
		},
		project: project,
	}, nil
}

// withContext gives each request the context of the listing it belongs to.
type withContext struct {
	ctx  context.Context
	next http.RoundTripper
}

func (w withContext) RoundTrip(req *http.Request) (*http.Response, error) {
	return w.next.RoundTrip(req.WithContext(w.ctx))
}

// maxPages bounds one listing (a few pages each in practice).
const maxPages = 1000

// pages are the page tokens one listing has been answered for.
type pages struct {
	mu       sync.Mutex
	answered map[string]bool
	n        int
}

type pagesKey struct{}

// guardPages marks ctx as one listing's: pageGuard fails a request for a
// page that listing was already answered for.
func guardPages(ctx context.Context) context.Context {
	return context.WithValue(ctx, pagesKey{}, &pages{answered: map[string]bool{}})
}

// pageGuard is the transport under the clients. The clients' iterators ask
// for page after page until they fill one, so a service that hands back a
// token it gave before would be asked forever: a request for a page its
// listing was already answered for fails with an error wrapping
// providers.ErrRepeatedPageToken, as does a listing past maxPages.
type pageGuard struct{ next http.RoundTripper }

func (g pageGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	p, ok := req.Context().Value(pagesKey{}).(*pages)
	if !ok {
		return g.next.RoundTrip(req)
	}
	token := req.URL.Query().Get("pageToken")
	p.mu.Lock()
	repeated, n := token != "" && p.answered[token], p.n
	p.mu.Unlock()
	if repeated || n >= maxPages {
		return nil, fmt.Errorf("%w %s (page %d of the listing)", providers.ErrRepeatedPageToken, catalog.Excerpt(token), n+1)
	}
	resp, err := g.next.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusOK {
		p.mu.Lock()
		p.answered[token] = true
		p.n++
		p.mu.Unlock()
	}
	return resp, err
}
