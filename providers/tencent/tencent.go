// Package tencent is the Tencent Cloud adapter: CVM GPU instance types, their
// zones and stock (convert.go), and pay-as-you-go, spot and monthly prices
// (pricing.go: those DescribeZoneInstanceConfigInfos quotes, and
// InquiryPriceRunInstances for the rest) from the CVM API through the official
// SDK. The CVM API names no GPU: families.go reads the GPU family table the
// registry passes in (WithFamilies). transport.go turns gateway pages and 5xx
// answers into retryable transport errors. The files follow the adapter
// skeleton described in package providers.
package tencent

import (
	"context"
	"errors"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/common/profile"
	cvm "github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/cvm/v20170312"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// Factory describes the Tencent Cloud adapter to the crawl runner.
//
// Rate: CVM read APIs allow 20 requests a second per account and API (40 for
// some); InquiryPriceRunInstances allows 10, which its own bucket (APILimits)
// keeps, with a burst of 1 that spaces the inquiries so that no one-second
// window holds more. The transport holds all calls together at 20 a second.
// Four regions are crawled at once, each with up to inquiryWorkers inquiries
// in flight.
//
// Its adapters have no GPU family table (every GPU is reported unmapped):
// WithFamilies gives them one, as the registry does with the data folder's.
var Factory = providers.Factory{
	ID:            catalog.Tencent,
	Services:      []string{"cvm", stsService},
	Credentials:   []string{envSecretID, envSecretKey, envSessionToken, envRoleARN, envOIDCProvider, envOIDCTokenFile},
	RatePerSecond: 20,
	Burst:         10,
	Concurrency:   regionsAtOnce,
	APILimits:     []providers.APILimit{{Actions: []string{actionInquiry}, PerSecond: 10, Burst: 1}},
	MaxInFlight:   regionsAtOnce * inquiryWorkers,
	New:           func(cfg providers.Config) (providers.Provider, error) { return New(cfg, nil) },
}

// WithFamilies is Factory whose adapters map instance families to GPU models
// through the family table in tables (familiesFile, read when an adapter is
// built; the registry passes data.FS).
func WithFamilies(tables fs.FS) providers.Factory {
	f := Factory
	f.New = func(cfg providers.Config) (providers.Provider, error) {
		families, err := LoadFamilies(tables)
		if err != nil {
			return nil, err
		}
		return New(cfg, families)
	}
	return f
}

const (
	homeRegion    = "ap-guangzhou"
	regionsAtOnce = 4
	// actionInquiry is the call with its own limit (Factory.APILimits).
	actionInquiry = "InquiryPriceRunInstances"
	// defaultImage prices a Linux instance (TencentOS Server) when
	// TENCENTCLOUD_IMAGE_ID is not set: InquiryPriceRunInstances requires an
	// image, and public Linux images carry no licence fee.
	defaultImage    = "img-eb30mz89"
	inquiryWorkers  = 4
	defaultAttempts = 4
	defaultBackoff  = 500 * time.Millisecond
	defaultTimeout  = 20 * time.Second

	sourceConfigInfos = "tencent:cvm:DescribeZoneInstanceConfigInfos"
	sourceInquiry     = "tencent:cvm:InquiryPriceRunInstances"
)

// The charge types read from DescribeZoneInstanceConfigInfos and the billing
// kinds they give, in the order a zone's stock is taken from (see Crawl).
// PREPAID prices are for one month. Other charge types (CDHPAID: dedicated
// hosts) are not instance offers and are left out.
var chargeTypes = []struct {
	name    string
	billing catalog.BillingKind
}{
	{"POSTPAID_BY_HOUR", catalog.OnDemand},
	{"SPOTPAID", catalog.Spot},
	{"PREPAID", catalog.SubscriptionMonth},
}

// chargeRank is a charge type's place in chargeTypes; ok is false for one the
// crawl does not price.
func chargeRank(name string) (int, bool) {
	for i, ct := range chargeTypes {
		if ct.name == name {
			return i, true
		}
	}
	return 0, false
}

// Adapter is the Tencent Cloud adapter.
type Adapter struct {
	newClient func(region string) (cvmAPI, error)
	clientsMu sync.Mutex
	clients   map[string]cvmAPI

	families Families
	image    string
	currency catalog.Currency
	clock    func() time.Time
	timeout  time.Duration
	retry    providers.Retry
	limits   providers.APILimiters
	errs     providers.CallErrors
	// authErr stops the provider: once the API refuses the credentials, every
	// region fails at once with that error instead of asking again.
	authErr atomic.Pointer[error]
	// debugSDK turns on the SDK's debug dump of each request and answer
	// (through its logger, see New); tests set it.
	debugSDK bool
}

// New builds the adapter, mapping GPU families through families (nil: none).
// Credentials are TENCENTCLOUD_SECRET_ID and TENCENTCLOUD_SECRET_KEY read
// through cfg.Getenv; the endpoint is cfg.Endpoints["cvm"] (HOST:PORT, or a
// URL with an http:// or https:// scheme) or cvm.tencentcloudapi.com over
// HTTPS. TENCENTCLOUD_IMAGE_ID sets the image price inquiries use;
// TENCENTCLOUD_PRICE_CURRENCY the currency of the account's prices (CNY on the
// China site, the default; USD on the international site): the CVM API's
// prices carry no currency field, so the currency rule of the other adapters
// (providers.NoCurrency) has nothing to check here.
func New(cfg providers.Config, families Families) (providers.Provider, error) {
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	transport := cfg.BaseTransport()
	cred, secrets, err := credential(cfg, transport, timeout)
	if err != nil {
		return nil, err
	}
	host, scheme, err := cfg.HostEndpoint(catalog.Tencent, "cvm")
	if err != nil {
		return nil, err
	}
	p := &Adapter{
		clients:  map[string]cvmAPI{},
		families: families,
		image:    cfg.Env("TENCENTCLOUD_IMAGE_ID"),
		currency: catalog.Currency(strings.ToUpper(cfg.Env("TENCENTCLOUD_PRICE_CURRENCY"))),
		clock:    cfg.Now,
		timeout:  timeout,
		limits:   cfg.APILimiters,
		errs:     callErrors(secrets),
	}
	p.retry = p.errs.Retry(cfg, defaultAttempts, defaultBackoff)
	if p.image == "" {
		p.image = defaultImage
	}
	if p.currency == "" {
		p.currency = catalog.CNY
	}
	logger := providers.Printf(cfg.SDKLog(catalog.Tencent, secrets...))
	p.newClient = func(region string) (cvmAPI, error) {
		cpf := profile.NewClientProfile()
		cpf.HttpProfile.Scheme = scheme
		if host != "" {
			cpf.HttpProfile.Endpoint = host // no scheme: the SDK splits at the first "/"
		}
		cpf.HttpProfile.ReqTimeout = int((p.timeout + time.Second - 1) / time.Second)
		// The SDK's retries are off; p.retry retries throttling and 5xx.
		cpf.RateLimitExceededMaxRetries = 0
		cpf.NetworkFailureMaxRetries = 0
		cpf.Debug = p.debugSDK
		c, err := cvm.NewClient(cred, region, cpf)
		if err != nil {
			return nil, err
		}
		c.WithHttpTransport(statusTransport{transport})
		c.WithLogger(logger) // its default logger writes to standard error as it is
		return newCVMCalls(c), nil
	}
	return p, nil
}

// ID is tencent.
func (p *Adapter) ID() catalog.Provider { return catalog.Tencent }

func (p *Adapter) client(region string) (cvmAPI, error) {
	p.clientsMu.Lock()
	defer p.clientsMu.Unlock()
	if c, ok := p.clients[region]; ok {
		return c, nil
	}
	c, err := p.newClient(region)
	if err != nil {
		return nil, p.errs.Wrap(err, "build cvm client", region)
	}
	p.clients[region] = c
	return c, nil
}

// call runs one API call with a per-request timeout, retrying throttling and
// server errors with backoff; the caller wraps the error (p.errs.Wrap). An
// authentication failure stops the provider: every later call returns it.
func (p *Adapter) call(ctx context.Context, region string, fn func(ctx context.Context, c cvmAPI) error) error {
	if e := p.authErr.Load(); e != nil {
		return *e
	}
	c, err := p.client(region)
	if err != nil {
		return err
	}
	err = p.retry.Do(ctx, func() error {
		cctx, cancel := context.WithTimeout(ctx, p.timeout)
		defer cancel()
		return fn(cctx, c)
	})
	if errors.Is(p.errs.Class(err), providers.ErrAuth) {
		p.authErr.CompareAndSwap(nil, &err)
	}
	return err
}

// Regions lists the regions DescribeRegions reports as AVAILABLE.
func (p *Adapter) Regions(ctx context.Context) ([]string, error) {
	// Regions starts a crawl: a refusal in an earlier crawl of this adapter
	// (the key may have been fixed since) is asked again.
	p.authErr.Store(nil)
	var resp *cvm.DescribeRegionsResponse
	err := p.call(ctx, homeRegion, func(ctx context.Context, c cvmAPI) error {
		var err error
		resp, err = c.DescribeRegionsWithContext(ctx, cvm.NewDescribeRegionsRequest())
		return err
	})
	if err != nil {
		return nil, p.errs.Wrap(err, "describe regions", "")
	}
	var out []string
	if resp.Response != nil {
		for _, r := range resp.Response.RegionSet {
			if r != nil && str(r.Region) != "" && (r.RegionState == nil || *r.RegionState == "AVAILABLE") {
				out = append(out, *r.Region)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// quota is one item of DescribeZoneInstanceConfigInfos with its charge type.
type quota struct {
	item    *cvm.InstanceTypeQuotaItem
	billing catalog.BillingKind
	charge  string
	rank    int // the charge type's place in chargeTypes
}

// Crawl fetches the region's GPU instance types and offers: one
// DescribeZoneInstanceConfigInfos without a charge-type filter, whose items
// say, per zone and type, each charge type it is sold with (InstanceChargeType)
// and mostly its price; then InquiryPriceRunInstances only for an item whose
// price that answer lacks. A type, zone and charge type the answer does not
// list is not sold, and is never quoted.
func (p *Adapter) Crawl(ctx context.Context, region string) (*providers.RegionData, error) {
	var resp *cvm.DescribeZoneInstanceConfigInfosResponse
	err := p.call(ctx, region, func(ctx context.Context, c cvmAPI) error {
		var err error
		resp, err = c.DescribeZoneInstanceConfigInfosWithContext(ctx, cvm.NewDescribeZoneInstanceConfigInfosRequest())
		return err
	})
	if err != nil {
		return nil, p.errs.Wrap(err, "describe zone instance config infos", region)
	}
	var quotas []quota
	if resp.Response != nil {
		for _, it := range resp.Response.InstanceTypeQuotaSet {
			if it == nil || !isGPU(it) || str(it.InstanceType) == "" || str(it.Zone) == "" {
				continue
			}
			if rank, ok := chargeRank(str(it.InstanceChargeType)); ok {
				quotas = append(quotas, quota{item: it, billing: chargeTypes[rank].billing, charge: chargeTypes[rank].name, rank: rank})
			}
		}
	}
	// Pay-as-you-go items first, then spot, then monthly, each kind in the
	// answer's order: the placements below take a zone's stock in that order.
	sort.SliceStable(quotas, func(a, b int) bool { return quotas[a].rank < quotas[b].rank })

	data := &providers.RegionData{}
	seenType := map[string]bool{}
	placement := map[string]int{} // zone/type -> index in data.Placements
	for _, q := range quotas {
		id := *q.item.InstanceType
		if !seenType[id] {
			seenType[id] = true
			data.Instances = append(data.Instances, p.convertInstanceType(q.item))
		}
		key := *q.item.Zone + "/" + id
		st := status(q.item.Status)
		if i, ok := placement[key]; ok {
			// Pay-as-you-go stock wins; otherwise the first known status.
			if q.billing == catalog.OnDemand || data.Placements[i].Status == catalog.Unknown {
				if st != catalog.Unknown {
					data.Placements[i].Status = st
				}
			}
			continue
		}
		placement[key] = len(data.Placements)
		data.Placements = append(data.Placements, catalog.Placement{Provider: catalog.Tencent, InstanceType: id, Region: region, Zone: *q.item.Zone, Status: st})
	}

	var inquiries []quota
	for _, q := range quotas {
		if pr, ok := p.quotedPrice(q); ok {
			data.Offers = append(data.Offers, *p.newOffer(region, q, pr, sourceConfigInfos))
		} else {
			inquiries = append(inquiries, q)
		}
	}
	// An inquiry that fails after its retries leaves a shortfall for its
	// type, not a failed region (see providers.Shortfall).
	asked, missing, err := providers.Gather(ctx, inquiryWorkers, inquiries,
		func(q quota) []string { return []string{*q.item.InstanceType} },
		func(ctx context.Context, q quota) ([]catalog.Offer, error) {
			pr, err := p.inquire(ctx, region, q)
			if errors.Is(err, providers.ErrNotFound) {
				return nil, nil // not sold with this charge type in this zone
			}
			if pr == nil || err != nil {
				return nil, err
			}
			return []catalog.Offer{*p.newOffer(region, q, *pr, sourceInquiry)}, nil
		})
	if err != nil {
		return nil, err
	}
	data.Offers = append(data.Offers, asked...)
	data.Missing = missing
	return data, nil
}

// status maps DescribeZoneInstanceConfigInfos' Status.
func status(s *string) catalog.Availability {
	switch str(s) {
	case "SELL":
		return catalog.Available
	case "SOLD_OUT":
		return catalog.SoldOut
	}
	return catalog.Unknown
}

func isGPU(it *cvm.InstanceTypeQuotaItem) bool {
	return (it.Gpu != nil && *it.Gpu > 0) || (it.GpuCount != nil && *it.GpuCount > 0)
}

func ptr[T any](v T) *T { return &v }

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
