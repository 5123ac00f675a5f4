package gcp

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"cloud.google.com/go/auth"
	"cloud.google.com/go/auth/credentials"
	"cloud.google.com/go/auth/httptransport"
	cloudbilling "google.golang.org/api/cloudbilling/v1"
	"google.golang.org/api/compute/v1"
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
// local replay needs none), and a plain-http token endpoint is refused. Each
// call carries its listing's context, so a cancelled crawl stops at once.
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
	base := cfg.BaseTransport()
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
	// opts are a client's options. The Google APIs clients take the
	// service's base path as their endpoint.
	opts := func(url, path string, plain bool) ([]option.ClientOption, error) {
		o := []option.ClientOption{option.WithEndpoint(strings.TrimSuffix(url, "/") + path), option.WithTelemetryDisabled()}
		if plain {
			return append(o, option.WithHTTPClient(&http.Client{Transport: base, Timeout: cfg.Timeout}), option.WithoutAuthentication()), nil
		}
		hc, err := httptransport.NewClient(&httptransport.Options{Credentials: c, BaseRoundTripper: base})
		if err != nil {
			return nil, err
		}
		hc.Timeout = cfg.Timeout
		return append(o, option.WithHTTPClient(hc)), nil
	}
	ctx := context.Background() // the clients' own; every call has its listing's
	co, err := opts(computeURL, "/compute/v1/", computePlain)
	if err != nil {
		return calls{}, err
	}
	cs, err := compute.NewService(ctx, co...) // it retries nothing: providers.Retry does
	if err != nil {
		return calls{}, err
	}
	bo, err := opts(billingURL, "/", billingPlain)
	if err != nil {
		return calls{}, err
	}
	bs, err := cloudbilling.NewService(ctx, bo...)
	if err != nil {
		return calls{}, err
	}
	return newCalls(cs, bs, project), nil
}
