// Package volcengine is the Volcano Engine adapter: GPU instance types and
// where they can be launched from ECS (convert.go), and their prices from the
// billing price inquiry and ECS spot price history (pricing.go), with the
// official volcengine-go-sdk (its retries off; providers.Retry retries).
// transport.go keeps non-JSON answers away from the SDK. The files follow the
// adapter skeleton described in package providers.
package volcengine

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/volcengine/volcengine-go-sdk/service/billing"
	"github.com/volcengine/volcengine-go-sdk/service/ecs"
	"github.com/volcengine/volcengine-go-sdk/volcengine"
	"github.com/volcengine/volcengine-go-sdk/volcengine/credentials"
	"github.com/volcengine/volcengine-go-sdk/volcengine/session"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// Environment variables the adapter reads (the SDK's standard names).
const (
	envAK = "VOLCENGINE_ACCESS_KEY"
	envSK = "VOLCENGINE_SECRET_KEY"
)

// bootstrapRegion signs DescribeRegions; any region answers with the full list.
const bootstrapRegion = "cn-beijing"

// Factory describes the Volcano Engine adapter.
//
// Rate limits: Volcano Engine's billing price inquiry is documented at 10 QPS per
// account (QueryPriceForRenew "单账号QPS上限为10", the same family as the
// pay-as-you-go and subscription inquiries); ECS answers AccountFlowLimitExceeded
// (HTTP 429) past its per-account flow limit. 8 req/s keeps under both. Four
// regions are crawled at once, one call at a time in each (so MaxInFlight is
// Concurrency).
var Factory = providers.Factory{
	ID:            catalog.Volcengine,
	Services:      []string{"ecs", "billing"},
	Credentials:   []string{envAK, envSK},
	RatePerSecond: 8,
	Burst:         8,
	Concurrency:   4,
	New:           New,
}

// Adapter is the Volcano Engine provider.
type Adapter struct {
	newClients func(region string) (ecsAPI, billingAPI, error)
	clock      func() time.Time
	retry      providers.Retry
	errs       providers.CallErrors
	pageSize   int32
}

// New builds the adapter from cfg. Without VOLCENGINE_ACCESS_KEY and
// VOLCENGINE_SECRET_KEY it returns an error wrapping providers.ErrNoCredentials.
func New(cfg providers.Config) (providers.Provider, error) {
	keys, err := cfg.Credentials(catalog.Volcengine, envAK, envSK)
	if err != nil {
		return nil, err
	}
	ak, sk := keys[0], keys[1]
	base := cfg.BaseTransport()
	// The session replaces the Proxy of an *http.Transport with one built from
	// HTTP(S)_PROXY that ignores NO_PROXY; a RoundTripper that is not an
	// *http.Transport is left alone, so proxy settings stay the base transport's.
	rt := jsonAnswers(base)
	httpClient := &http.Client{Transport: rt, Timeout: cfg.Timeout}
	a := &Adapter{clock: cfg.Now, errs: callErrors(keys), pageSize: 100}
	// Retries are ours (backoff with jitter), not the SDK's.
	a.retry = a.errs.Retry(cfg, 3, 500*time.Millisecond)
	logger := sdkLogger(cfg, keys)
	build := func(region, override string) (*session.Session, error) {
		c := volcengine.NewConfig().WithRegion(region).
			WithCredentials(credentials.NewStaticCredentials(ak, sk, "")).
			WithHTTPClient(httpClient).
			WithLogger(logger).
			WithMaxRetries(0) // retries are ours (backoff with jitter), not the SDK's
		if override != "" {
			host, insecure, err := splitEndpoint(override)
			if err != nil {
				return nil, err
			}
			c = c.WithEndpoint(host).WithDisableSSL(insecure)
		}
		return session.NewSession(c)
	}
	a.newClients = func(region string) (ecsAPI, billingAPI, error) {
		es, err := build(region, cfg.Endpoints["ecs"])
		if err != nil {
			return nil, nil, a.errs.Wrap(err, "ecs session", region)
		}
		bs, err := build(region, cfg.Endpoints["billing"])
		if err != nil {
			return nil, nil, a.errs.Wrap(err, "billing session", region)
		}
		return newECSCalls(ecs.New(es)), newBillingCalls(billing.New(bs)), nil
	}
	return a, nil
}

// sdkLogger is the SDK's logger: its lines (its default logger writes them
// to standard output as they are) go through the reporter, redacted and made
// safe (providers.Config.SDKLog).
func sdkLogger(cfg providers.Config, secrets []string) volcengine.Logger {
	log := cfg.SDKLog(catalog.Volcengine, secrets...)
	return volcengine.LoggerFunc(func(args ...any) { log(fmt.Sprint(args...)) })
}

// splitEndpoint turns an override URL into the SDK's host and its DisableSSL flag.
func splitEndpoint(u string) (host string, insecure bool, err error) {
	switch {
	case strings.HasPrefix(u, "http://"):
		host, insecure = strings.TrimPrefix(u, "http://"), true
	case strings.HasPrefix(u, "https://"):
		host = strings.TrimPrefix(u, "https://")
	default:
		host = u
	}
	host = strings.TrimSuffix(host, "/")
	if host == "" || strings.Contains(host, "/") {
		return "", false, fmt.Errorf("volcengine: endpoint %q: want a URL such as https://host[:port] without a path", u)
	}
	return host, insecure, nil
}

// ID is catalog.Volcengine.
func (a *Adapter) ID() catalog.Provider { return catalog.Volcengine }

// Regions lists the regions ECS DescribeRegions returns.
func (a *Adapter) Regions(ctx context.Context) ([]string, error) {
	client, _, err := a.newClients(bootstrapRegion)
	if err != nil {
		return nil, err
	}
	var out []string
	err = a.list(ctx, "describe regions", "", func(token *string) (*string, error) {
		resp, err := client.DescribeRegionsWithContext(ctx, &ecs.DescribeRegionsInput{MaxResults: volcengine.Int32(a.pageSize), NextToken: token})
		if err != nil {
			return nil, err
		}
		for _, r := range resp.Regions {
			if id := volcengine.StringValue(r.RegionId); id != "" {
				out = append(out, id)
			}
		}
		return resp.NextToken, nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// Crawl fetches one region's GPU instance types, where each way of selling
// them (pay-as-you-go, spot, subscription) can launch them, and the prices of
// those ways only: a type that DescribeAvailableResource does not list as sold
// in a way is not quoted in it.
func (a *Adapter) Crawl(ctx context.Context, region string) (*providers.RegionData, error) {
	client, bill, err := a.newClients(region)
	if err != nil {
		return nil, err
	}
	types, err := a.instanceTypes(ctx, client, region)
	if err != nil {
		return nil, err
	}
	data := &providers.RegionData{}
	byID := map[string]catalog.InstanceType{}
	for _, t := range types {
		if it, ok := convertInstanceType(t); ok {
			data.Instances = append(data.Instances, it)
			byID[it.ID] = it
		}
	}
	if len(data.Instances) == 0 {
		return data, nil
	}
	var sold sales
	for i, kind := range saleKinds {
		if sold[i], err = a.placements(ctx, client, region, kind, byID); err != nil {
			return nil, err
		}
	}
	data.Placements = sold.placements()
	fetched := a.clock().UTC()
	offers, missing, err := a.prices(ctx, bill, region, data.Instances, sold, fetched)
	if err != nil {
		return nil, err
	}
	spot, spotMissing, err := a.spotPrices(ctx, client, region, data.Instances, sold[saleSpot], fetched)
	if err != nil {
		return nil, err
	}
	offers = append(offers, spot...)
	data.Offers = offers
	missing = append(missing, spotMissing...)
	data.Missing = missing
	return data, nil
}

func (a *Adapter) instanceTypes(ctx context.Context, client ecsAPI, region string) ([]*ecs.InstanceTypeForDescribeInstanceTypesOutput, error) {
	var out []*ecs.InstanceTypeForDescribeInstanceTypesOutput
	err := a.list(ctx, "describe instance types", region, func(token *string) (*string, error) {
		resp, err := client.DescribeInstanceTypesWithContext(ctx, &ecs.DescribeInstanceTypesInput{MaxResults: volcengine.Int32(a.pageSize), NextToken: token})
		if err != nil {
			return nil, err
		}
		out = append(out, resp.InstanceTypes...)
		return resp.NextToken, nil
	})
	return out, err
}

// list pages through one listing, each page retried: ask asks for the page
// after token (nil for the first) and returns the next token.
func (a *Adapter) list(ctx context.Context, action, region string, ask func(token *string) (next *string, err error)) error {
	err := providers.Paginate(func(token string) (string, error) {
		var next *string
		err := a.retry.Do(ctx, func() (err error) {
			var t *string
			if token != "" {
				t = volcengine.String(token)
			}
			next, err = ask(t)
			return err
		})
		return volcengine.StringValue(next), err
	})
	return a.errs.Wrap(err, action, region)
}

// saleKind is one way Volcano Engine sells instances, as
// DescribeAvailableResource is asked about it (InstanceChargeType, and
// SpotStrategy for spot).
type saleKind struct{ charge, spot string }

// The ways of selling the crawl asks about, in the order a zone's placement
// takes its stock from (pay-as-you-go's first).
const (
	salePayAsYouGo = iota
	saleSpot
	saleSubscription
	numSaleKinds
)

var saleKinds = [numSaleKinds]saleKind{
	salePayAsYouGo:   {charge: "PostPaid"},
	saleSpot:         {charge: "PostPaid", spot: "SpotAsPriceGo"},
	saleSubscription: {charge: "PrePaid"},
}

func (k saleKind) String() string {
	if k.spot != "" {
		return k.charge + ", " + k.spot
	}
	return k.charge
}

// sales are the GPU types' placements per way of selling (saleKinds' order).
type sales [numSaleKinds][]catalog.Placement

// placements are the zones of every way of selling together, one per type and
// zone, with the stock of the first way that lists it.
func (s sales) placements() []catalog.Placement {
	seen := map[string]bool{}
	var out []catalog.Placement
	for _, ps := range s {
		for _, p := range ps {
			if !seen[p.Key()] {
				seen[p.Key()] = true
				out = append(out, p)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// placements asks DescribeAvailableResource where each GPU type can be launched
// in kind's way; one call answers for every zone of the region.
func (a *Adapter) placements(ctx context.Context, client ecsAPI, region string, kind saleKind, types map[string]catalog.InstanceType) ([]catalog.Placement, error) {
	in := &ecs.DescribeAvailableResourceInput{DestinationResource: volcengine.String("InstanceType"), InstanceChargeType: volcengine.String(kind.charge)}
	if kind.spot != "" {
		in.SpotStrategy = volcengine.String(kind.spot)
	}
	var resp *ecs.DescribeAvailableResourceOutput
	err := a.retry.Do(ctx, func() error {
		var err error
		resp, err = client.DescribeAvailableResourceWithContext(ctx, in)
		return err
	})
	if err != nil {
		return nil, a.errs.Wrap(err, "describe available resource ("+kind.String()+")", region)
	}
	return convertPlacements(resp, region, types), nil
}
