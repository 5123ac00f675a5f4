// Package azure is the Microsoft Azure adapter: GPU virtual machine sizes from
// the Resource SKUs API through the official SDK (armcompute, convert.go; the
// GPU model and partition of a size from its name, families.go), and their
// prices from the public Azure Retail Prices API (pricing.go): pay-as-you-go
// Linux prices as on-demand offers, Spot items as spot offers, savings plans
// and reservations as commitments. Credentials come from the environment only
// (a service principal's secret or a federated token file, through
// azidentity), never from a metadata service. transport.go sends each service
// to its endpoint override. The files follow the adapter skeleton described in
// package providers.
package azure

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute/v6"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// Environment variables the adapter reads: azidentity's standard names for a
// service principal, and the subscription whose SKU list is read.
const (
	envSubscription = "AZURE_SUBSCRIPTION_ID"
	envTenant       = "AZURE_TENANT_ID"
	envClientID     = "AZURE_CLIENT_ID"
	envSecret       = "AZURE_CLIENT_SECRET"
	envTokenFile    = "AZURE_FEDERATED_TOKEN_FILE"
)

// The services an --endpoint flag can point elsewhere, and their hosts.
const (
	serviceARM    = "arm"
	serviceLogin  = "login"
	servicePrices = "prices"

	hostARM    = "management.azure.com"
	hostLogin  = "login.microsoftonline.com"
	hostPrices = "prices.azure.com"
)

// Factory describes the Azure adapter.
//
// Rate: Azure Resource Manager allows 12,000 reads an hour per subscription
// (about 3 a second) and throttles with 429 and Retry-After; the Retail
// Prices API states no limit but answers 429 too. The crawl reads the SKU
// list once and a few price pages per region: 3 requests a second with a
// burst of 3 keeps ARM under its limit. Four regions are crawled at once,
// one call at a time in each.
var Factory = providers.Factory{
	ID:            catalog.Azure,
	Services:      []string{serviceARM, serviceLogin, servicePrices},
	Credentials:   []string{envSubscription, envTenant, envClientID, envSecret, envTokenFile},
	RatePerSecond: 3,
	Burst:         3,
	Concurrency:   4,
	New:           New,
}

const (
	defaultAttempts = 4
	defaultBackoff  = 500 * time.Millisecond
)

// Adapter is the Azure provider.
type Adapter struct {
	skus   skuAPI
	prices *pricesClient
	clock  func() time.Time
	retry  providers.Retry
	errs   providers.CallErrors

	sizes providers.Listing[[]sizeInfo] // region -> GPU sizes
}

// New builds the adapter from cfg. Without a subscription, tenant, client id
// and a secret or federated token file it returns an error wrapping
// providers.ErrNoCredentials.
func New(cfg providers.Config) (providers.Provider, error) {
	keys, err := cfg.Credentials(catalog.Azure, envSubscription, envTenant, envClientID)
	if err != nil {
		return nil, err
	}
	secret, tokenFile := cfg.Env(envSecret), cfg.Env(envTokenFile)
	if secret == "" && tokenFile == "" {
		return nil, fmt.Errorf("azure: %w: set %s or %s beside %s, %s and %s", providers.ErrNoCredentials,
			envSecret, envTokenFile, envSubscription, envTenant, envClientID)
	}
	subscription, tenant, clientID := keys[0], keys[1], keys[2]
	a := &Adapter{clock: cfg.Now, errs: callErrors([]string{secret})}
	a.retry = a.errs.Retry(cfg, defaultAttempts, defaultBackoff)
	a.retry.After = retryAfter
	tr, err := newTransport(cfg)
	if err != nil {
		return nil, err
	}
	// The SDK's own retries are off: providers.Retry retries, with the wait
	// the answer asks for (Retry-After).
	opts := azcore.ClientOptions{Transport: tr, Retry: policy.RetryOptions{MaxRetries: -1}}
	var cred azcore.TokenCredential
	if secret != "" {
		cred, err = azidentity.NewClientSecretCredential(tenant, clientID, secret, &azidentity.ClientSecretCredentialOptions{ClientOptions: opts})
	} else {
		cred, err = azidentity.NewWorkloadIdentityCredential(&azidentity.WorkloadIdentityCredentialOptions{
			ClientOptions: opts, TenantID: tenant, ClientID: clientID, TokenFilePath: tokenFile})
	}
	if err != nil {
		return nil, a.errs.Wrap(err, "credentials", "")
	}
	client, err := armcompute.NewResourceSKUsClient(subscription, cred, &arm.ClientOptions{ClientOptions: opts, DisableRPRegistration: true})
	if err != nil {
		return nil, a.errs.Wrap(err, "build resource skus client", "")
	}
	a.skus = newSKUCalls(client)
	a.prices = &pricesClient{do: tr.Do}
	return a, nil
}

// ID is catalog.Azure.
func (a *Adapter) ID() catalog.Provider { return catalog.Azure }

// Regions lists the regions where the subscription can see a GPU size: the
// locations of the Resource SKUs list, read once for the whole crawl.
func (a *Adapter) Regions(ctx context.Context) ([]string, error) {
	return a.sizes.Regions(ctx, a.listSizes)
}

// listSizes reads the SKU list, by region (it is not filtered by location:
// one listing answers every region).
func (a *Adapter) listSizes(ctx context.Context) (map[string][]sizeInfo, error) {
	skus, err := a.listSKUs(ctx)
	if err != nil {
		return nil, err
	}
	sizes := map[string][]sizeInfo{}
	for _, s := range skus {
		for _, info := range convertSKU(s) {
			sizes[info.region] = append(sizes[info.region], info)
		}
	}
	return sizes, nil
}

// Crawl gives the GPU sizes of one region with their zones, and their prices.
func (a *Adapter) Crawl(ctx context.Context, region string) (*providers.RegionData, error) {
	all, err := a.sizes.Get(ctx, a.listSizes)
	if err != nil {
		return nil, err
	}
	sizes := all[strings.ToLower(region)]
	data := &providers.RegionData{}
	known := map[string]bool{}
	for _, s := range sizes {
		data.Instances = append(data.Instances, s.instance)
		data.Placements = append(data.Placements, s.placements...)
		known[s.instance.ID] = true
	}
	if len(sizes) == 0 {
		return data, nil
	}
	items, err := a.listPrices(ctx, region)
	if err != nil {
		return nil, err
	}
	data.Offers, err = offers(items, region, known, a.clock().UTC())
	if err != nil {
		return nil, a.errs.Wrap(err, actionPrices, region)
	}
	return data, nil
}

// listSKUs pages through the Resource SKUs list (nextLink). The SDK's pager
// stops for good at its first error, so a failed page is asked again by a new
// pager whose first request the transport sends to that page's nextLink
// (resumeAt).
func (a *Adapter) listSKUs(ctx context.Context) ([]*armcompute.ResourceSKU, error) {
	var out []*armcompute.ResourceSKU
	var pager skuPager
	next := "" // the nextLink of the last page read; "" before the first
	seen := map[string]bool{}
	for {
		var page armcompute.ResourceSKUsClientListResponse
		done := false
		err := a.retry.Do(ctx, func() error {
			callCtx := ctx
			if pager == nil {
				pager = a.skus.NewListPager()
				if next != "" {
					callCtx = resumeAt(ctx, next)
				}
			} else if !pager.More() {
				done = true
				return nil
			}
			resp, err := pager.NextPage(callCtx)
			if err != nil {
				pager = nil
				return err
			}
			page = resp
			return nil
		})
		if err != nil {
			return nil, a.errs.Wrap(err, actionSKUs, "")
		}
		if done {
			return out, nil
		}
		out = append(out, page.Value...)
		next = str(page.NextLink)
		if next == "" {
			return out, nil
		}
		if seen[next] {
			return nil, a.errs.Wrap(fmt.Errorf("nextLink %q repeats", next), actionSKUs, "")
		}
		seen[next] = true
	}
}
