// Package alibaba is the Alibaba Cloud adapter: ECS GPU, vGPU and FPGA instance
// types, their zones and stock (convert.go), and pay-as-you-go, spot and
// subscription prices (pricing.go: DescribePrice, one call per type, zone and
// billing method that DescribeAvailableResource says is sold, asked once per
// crawl), from the ECS API through the official SDK with its own retries off
// (providers.Retry retries). The files follow the adapter skeleton described
// in package providers.
package alibaba

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/aliyun/alibaba-cloud-sdk-go/sdk"
	"github.com/aliyun/alibaba-cloud-sdk-go/sdk/requests"
	"github.com/aliyun/alibaba-cloud-sdk-go/services/ecs"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// Factory describes the Alibaba Cloud adapter to the crawl runner.
//
// Rate: ECS flow control is per API and account and is not published as one
// figure; the crawl is dominated by DescribePrice (one call per type × zone ×
// billing method sold there), so the transport keeps all calls together at 20
// a second with a burst of 10, which the source data's own crawler (4
// workers, no limit) stayed under. Four regions are crawled at once; within a region at
// most priceWorkers DescribePrice calls are in flight, and the pool of
// clientPool SDK clients bounds the calls in flight across regions.
var Factory = providers.Factory{
	ID:            catalog.Alibaba,
	Services:      []string{"ecs", stsService},
	Credentials:   []string{envKeyID, envKeySecret, envSecurityToken, envRoleARN, envOIDCProvider, envOIDCTokenFile},
	RatePerSecond: 20,
	Burst:         10,
	Concurrency:   regionsAtOnce,
	MaxInFlight:   clientPool,
	New:           New,
}

const (
	// homeRegion answers the region-independent calls (DescribeRegions,
	// DescribeInstanceTypes) unless ALIBABA_CLOUD_REGION_ID says otherwise.
	homeRegion = "cn-hangzhou"
	// instanceTypePage is DescribeInstanceTypes' MaxResults (the API allows
	// up to 1600; 100 is what the source data's crawler used).
	instanceTypePage = 100
	// regionsAtOnce is the number of regions crawled at once.
	regionsAtOnce = 4
	// priceWorkers bounds concurrent DescribePrice calls within one region.
	priceWorkers = 8
	// clientPool is the number of SDK clients (see Provider.clients), and so
	// the most calls in flight across all regions together: one region's price
	// workers and two more.
	clientPool = priceWorkers + 2

	defaultMaxAttempts = 4
	defaultBackoff     = 500 * time.Millisecond
	defaultTimeout     = 20 * time.Second

	// The system disk every quote is made with: DescribePrice prices the
	// instance together with its system disk, so the offer says so.
	systemDiskCategory = "cloud_essd"
	systemDiskGiB      = 40

	sourceInstanceTypes = "alibaba:ecs:DescribeInstanceTypes"
	sourceAvailability  = "alibaba:ecs:DescribeAvailableResource"
	sourcePrice         = "alibaba:ecs:DescribePrice"
)

// Adapter is the Alibaba Cloud adapter.
type Adapter struct {
	// clients is a pool: the SDK client writes its http.Client's timeout on
	// every call, so one client must not serve two calls at once.
	clients chan ecsAPI
	home    string
	scheme  string // HTTPS in production
	clock   func() time.Time
	retry   providers.Retry
	errs    providers.CallErrors

	typesMu sync.Mutex
	types   map[string]catalog.InstanceType // GPU types by id, once fetched

	priceMu sync.Mutex
	prices  map[priceKey]*priceEntry // the crawl's DescribePrice answers
}

// New builds the adapter. Credentials come from the environment as read by
// cfg.Getenv (credential: an AccessKey pair, an STS token with it, or a role
// assumed with an OIDC token); the endpoint is cfg.Endpoints["ecs"]
// (HOST:PORT, or a URL with an http:// or https:// scheme) or the SDK's
// regional endpoint over HTTPS.
func New(cfg providers.Config) (providers.Provider, error) {
	transport := cfg.BaseTransport()
	cred, secrets, err := credential(cfg, transport)
	if err != nil {
		return nil, err
	}
	domain, scheme, err := cfg.HostEndpoint(catalog.Alibaba, "ecs")
	if err != nil {
		return nil, err
	}
	home := cfg.Env("ALIBABA_CLOUD_REGION_ID")
	if home == "" {
		home = homeRegion
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	p := &Adapter{
		clients: make(chan ecsAPI, clientPool),
		home:    home,
		scheme:  scheme,
		clock:   cfg.Now,
		errs:    callErrors(secrets),
		prices:  map[priceKey]*priceEntry{},
	}
	p.retry = p.errs.Retry(cfg, defaultMaxAttempts, defaultBackoff)
	for range cap(p.clients) {
		// The SDK's own retry is off: it retries immediately, without backoff,
		// and never retries Throttling; p.retry does both.
		conf := sdk.NewConfig().WithScheme(scheme).WithAutoRetry(false).WithMaxRetryTime(0).WithTimeout(timeout)
		c, err := newECSClient(home, conf, cred)
		if err != nil {
			return nil, p.errs.Wrap(err, "build ecs client", "")
		}
		c.SetTransport(transport)
		c.SetConnectTimeout(timeout)
		c.SetReadTimeout(timeout)
		if domain != "" {
			c.Domain = domain // host[:port]; skips endpoint resolution
		}
		p.clients <- newECSCalls(c)
	}
	return p, nil
}

// ID is alibaba.
func (p *Adapter) ID() catalog.Provider { return catalog.Alibaba }

// with runs call on a pooled client, retrying throttling and server errors with
// backoff; the caller wraps the SDK error it returns (p.errs.Wrap).
func (p *Adapter) with(ctx context.Context, call func(c ecsAPI) error) error {
	return p.retry.Do(ctx, func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		var c ecsAPI
		select {
		case c = <-p.clients:
		case <-ctx.Done():
			return ctx.Err()
		}
		// The SDK's calls take no context. The call runs aside so that a
		// cancelled crawl returns at once; an abandoned request ends at its
		// own timeout and gives its client back to the pool then.
		done := make(chan error, 1)
		go func() {
			defer func() { p.clients <- c }()
			// A panic here would escape the runner's recovery (another
			// goroutine) and end the process: it becomes the call's error.
			done <- providers.Safely(catalog.Alibaba, "an ECS call", func() error { return call(c) })
		}()
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	})
}

// Regions lists the regions DescribeRegions returns for ECS instances.
func (p *Adapter) Regions(ctx context.Context) ([]string, error) {
	// Regions starts a crawl: the types and prices an earlier crawl of this
	// adapter kept are asked again.
	p.typesMu.Lock()
	p.types = nil
	p.typesMu.Unlock()
	p.priceMu.Lock()
	p.prices = map[priceKey]*priceEntry{}
	p.priceMu.Unlock()
	var resp *ecs.DescribeRegionsResponse
	err := p.with(ctx, func(c ecsAPI) error {
		req := ecs.CreateDescribeRegionsRequest()
		req.RegionId = p.home
		req.ResourceType = "instance"
		var err error
		resp, err = c.DescribeRegions(req)
		return err
	})
	if err != nil {
		return nil, p.errs.Wrap(err, "describe regions", "")
	}
	var out []string
	for _, r := range resp.Regions.Region {
		if r.RegionId != "" && (r.Status == "" || r.Status == "available") {
			out = append(out, r.RegionId)
		}
	}
	sort.Strings(out)
	return out, nil
}

// gpuTypes returns the GPU, vGPU and FPGA instance types. DescribeInstanceTypes
// lists every type whatever the region, so it is asked once per crawl (a failed
// attempt is not kept, and the next region asks again).
func (p *Adapter) gpuTypes(ctx context.Context) (map[string]catalog.InstanceType, error) {
	p.typesMu.Lock()
	defer p.typesMu.Unlock()
	if p.types != nil {
		return p.types, nil
	}
	types := map[string]catalog.InstanceType{}
	page := 0
	err := providers.Paginate(func(token string) (string, error) {
		page++
		var resp *ecs.DescribeInstanceTypesResponse
		err := p.with(ctx, func(c ecsAPI) error {
			req := ecs.CreateDescribeInstanceTypesRequest()
			req.RegionId = p.home
			// MinimumGPUAmount=1 returns GPU types, whole or vGPU slices, and the
			// FPGA types (ecs.f3 reports its FPGA in GPUAmount/GPUSpec).
			req.MinimumGPUAmount = "1"
			req.MaxResults = requests.NewInteger(instanceTypePage)
			req.NextToken = token
			var err error
			resp, err = c.DescribeInstanceTypes(req)
			return err
		})
		if err != nil {
			return "", p.errs.Wrap(err, fmt.Sprintf("describe instance types (page %d)", page), "")
		}
		for _, t := range resp.InstanceTypes.InstanceType {
			if it, ok := convertInstanceType(t); ok {
				types[it.ID] = it
			}
		}
		return resp.NextToken, nil
	})
	if err != nil {
		return nil, p.errs.Wrap(err, "describe instance types", "")
	}
	p.types = types
	return types, nil
}

// zoneStock is one type's stock in one zone.
type zoneStock struct {
	zone, instanceType string
	status             catalog.Availability
}

// saleKind is one way ECS sells instances, as DescribeAvailableResource is
// asked about it (InstanceChargeType, and SpotStrategy for spot), and the
// billing kinds DescribePrice quotes for what the answer lists: per zone for
// pay-as-you-go and spot, per region for subscription.
type saleKind struct {
	charge, spot string
	billings     []catalog.BillingKind
	perZone      bool
}

// saleKinds are asked in this order; a zone's placement takes its stock from
// the first answer that lists it (pay-as-you-go's first).
var saleKinds = []saleKind{
	{charge: "PostPaid", billings: []catalog.BillingKind{catalog.OnDemand}, perZone: true},
	{charge: "PostPaid", spot: "SpotAsPriceGo", billings: []catalog.BillingKind{catalog.Spot}, perZone: true},
	{charge: "PrePaid", billings: []catalog.BillingKind{catalog.SubscriptionMonth, catalog.SubscriptionYear}},
}

func (k saleKind) String() string {
	if k.spot != "" {
		return k.charge + ", " + k.spot
	}
	return k.charge
}

// availability lists the instance types each zone of the region sells in
// kind's way, with their stock. A type the answer does not list is not sold
// so there, and is not quoted: DescribePrice would answer that it has no
// price.
func (p *Adapter) availability(ctx context.Context, region string, kind saleKind) ([]zoneStock, error) {
	var resp *ecs.DescribeAvailableResourceResponse
	err := p.with(ctx, func(c ecsAPI) error {
		req := ecs.CreateDescribeAvailableResourceRequest()
		req.RegionId = region
		req.DestinationResource = "InstanceType"
		req.InstanceChargeType = kind.charge
		req.SpotStrategy = kind.spot
		var err error
		resp, err = c.DescribeAvailableResource(req)
		return err
	})
	if err != nil {
		return nil, p.errs.Wrap(err, "describe available resource ("+kind.String()+")", region)
	}
	var out []zoneStock
	for _, z := range resp.AvailableZones.AvailableZone {
		if z.ZoneId == "" {
			continue
		}
		for _, res := range z.AvailableResources.AvailableResource {
			if res.Type != "" && res.Type != "InstanceType" {
				continue
			}
			for _, s := range res.SupportedResources.SupportedResource {
				if s.Value == "" {
					continue
				}
				st := stockStatus(s.Status)
				if stockStatus(z.Status) == catalog.SoldOut {
					st = catalog.SoldOut
				}
				out = append(out, zoneStock{zone: z.ZoneId, instanceType: s.Value, status: st})
			}
		}
	}
	return out, nil
}

// stockStatus maps DescribeAvailableResource's Status: Available or SoldOut;
// anything else (or nothing) is unknown.
func stockStatus(s string) catalog.Availability {
	switch s {
	case "Available":
		return catalog.Available
	case "SoldOut":
		return catalog.SoldOut
	}
	return catalog.Unknown
}

// Crawl fetches the region's GPU instance types, the zones that sell them in
// each way (pay-as-you-go, spot, subscription) with their stock, and the
// prices of exactly those: pay-as-you-go and spot per zone, monthly and
// yearly subscription per region. No price is asked of a type, zone and
// billing method that DescribeAvailableResource does not list.
func (p *Adapter) Crawl(ctx context.Context, region string) (*providers.RegionData, error) {
	types, err := p.gpuTypes(ctx)
	if err != nil {
		return nil, err
	}
	// sold[i][type] are the zones that sell type in saleKinds[i]'s way.
	sold := make([]map[string][]zoneStock, len(saleKinds))
	for i, kind := range saleKinds {
		stock, err := p.availability(ctx, region, kind)
		if err != nil {
			return nil, err
		}
		sold[i] = map[string][]zoneStock{}
		for _, s := range stock {
			if _, ok := types[s.instanceType]; ok { // else not a GPU type
				sold[i][s.instanceType] = append(sold[i][s.instanceType], s)
			}
		}
		for _, zs := range sold[i] {
			sort.Slice(zs, func(a, b int) bool { return zs[a].zone < zs[b].zone })
		}
	}
	idSet := map[string]bool{}
	for _, byType := range sold {
		for id := range byType {
			idSet[id] = true
		}
	}
	ids := make([]string, 0, len(idSet))
	for id := range idSet {
		ids = append(ids, id)
	}
	sort.Strings(ids)

	data := &providers.RegionData{}
	var queries []priceQuery
	for _, id := range ids {
		data.Instances = append(data.Instances, types[id])
		data.Placements = append(data.Placements, placements(region, id, sold)...)
		for i, kind := range saleKinds {
			zs := sold[i][id]
			if len(zs) == 0 {
				continue
			}
			for _, b := range kind.billings {
				if kind.perZone {
					for _, z := range zs {
						queries = append(queries, priceQuery{key: priceKey{region: region, zone: z.zone, instanceType: id, billing: b}, availability: z.status})
					}
					continue
				}
				zones := make([]string, len(zs))
				for j, z := range zs {
					zones[j] = z.zone
				}
				queries = append(queries, priceQuery{key: priceKey{region: region, instanceType: id, billing: b}, availability: regionalStatus(zs), zones: zones})
			}
		}
	}

	// A price call that fails after its retries leaves a shortfall for its
	// type, not a failed region: the runner asks it again at the end of the
	// crawl, and failing that keeps only that type's previous offers.
	data.Offers, data.Missing, err = providers.Gather(ctx, priceWorkers, queries,
		func(q priceQuery) []string { return []string{q.key.instanceType} },
		func(ctx context.Context, q priceQuery) ([]catalog.Offer, error) {
			o, err := p.offer(ctx, q)
			if o == nil || err != nil {
				return nil, err
			}
			return []catalog.Offer{*o}, nil
		})
	if err != nil {
		return nil, err
	}
	return data, nil
}

// placements are one type's zones in the region, whichever way they sell it,
// each with the stock of the first answer that lists it (saleKinds' order:
// pay-as-you-go's first), in zone order.
func placements(region, id string, sold []map[string][]zoneStock) []catalog.Placement {
	status := map[string]catalog.Availability{}
	for _, byType := range sold {
		for _, z := range byType[id] {
			if _, ok := status[z.zone]; !ok {
				status[z.zone] = z.status
			}
		}
	}
	zones := make([]string, 0, len(status))
	for z := range status {
		zones = append(zones, z)
	}
	sort.Strings(zones)
	out := make([]catalog.Placement, len(zones))
	for i, z := range zones {
		out[i] = catalog.Placement{Provider: catalog.Alibaba, InstanceType: id, Region: region, Zone: z, Status: status[z]}
	}
	return out
}

// regionalStatus is a region-wide offer's stock: available when any zone is,
// sold out when every zone is.
func regionalStatus(zs []zoneStock) catalog.Availability {
	all := catalog.Unknown
	for i, z := range zs {
		switch {
		case z.status == catalog.Available:
			return catalog.Available
		case i == 0:
			all = z.status
		case z.status != all:
			all = catalog.Unknown
		}
	}
	return all
}
