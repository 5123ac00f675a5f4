// Package aws is the Amazon Web Services adapter: EC2 instance types, zones and spot
// prices from the EC2 API (spot.go), on-demand and reserved prices from the Price
// List API (pricing.go), through aws-sdk-go-v2 with its retryer off: each call
// is retried by providers.Retry (sdk.go), as for the other clouds, with the
// SDK's own tests of what is retryable. transport.go vets EC2 answers
// and works around a request-body race of smithy-go. The files follow the
// adapter skeleton described in package providers.
package aws

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	awsv2 "github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/pricing"
	"github.com/aws/smithy-go/logging"
	"golang.org/x/sync/errgroup"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// Factory describes the AWS adapter to the crawl runner.
//
// Rate limits: EC2 throttles each API per account and region with a token bucket;
// non-mutating Describe* actions have a bucket of 100 tokens refilled at 20 a
// second (docs.aws.amazon.com/ec2/latest/devguide/ec2-api-throttling.html). The Price
// List Query API's GetProducts has a bucket of 10 refilled at 5 a second
// (docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/using-pelong.html, "Quotas").
// The transport's limit (all calls of the provider together) stays at the EC2 refill
// rate with a burst of the Pricing bucket; GetProducts additionally waits on its
// own 5/s bucket (APILimits). Four regions are crawled at once, each with its
// zones, list prices and spot prices in flight together.
var Factory = providers.Factory{
	ID:            catalog.AWS,
	Services:      []string{"ec2", "pricing", spotAdvisorService},
	Credentials:   []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"},
	RatePerSecond: 20,
	Burst:         10,
	Concurrency:   regionsAtOnce,
	APILimits:     []providers.APILimit{{Actions: []string{actionGetProducts}, PerSecond: 5, Burst: 10}},
	MaxInFlight:   regionsAtOnce * callsPerRegion,
	New:           New,
}

const (
	// regionsAtOnce is the number of regions crawled at once.
	regionsAtOnce = 4
	// callsPerRegion is the most calls a region has in flight: after its
	// instance types, the zones, list prices and spot prices are read together.
	callsPerRegion = 3
	// actionGetProducts is the Price List call with its own limit.
	actionGetProducts = "GetProducts"
)

const (
	// defaultRegion is where DescribeRegions is asked when nothing else is configured.
	defaultRegion = "us-east-1"
	// pricingRegion serves the Price List Query API for the commercial partition
	// (it also lists GovCloud prices); the other endpoints are eu-central-1 and
	// ap-south-1. China prices are served in the China partition only.
	pricingRegion      = "us-east-1"
	pricingRegionChina = "cn-northwest-1"
	// defaultMaxAttempts and defaultBackoff are the retries' when the runner
	// sets none.
	defaultMaxAttempts = 5
	defaultBackoff     = 500 * time.Millisecond
	// credentialCheckTimeout bounds the look-up of credentials at construction
	// (the default chain may ask the instance metadata service).
	credentialCheckTimeout = 5 * time.Second

	sourceInstanceTypes = "aws:ec2:DescribeInstanceTypes"
	sourcePriceList     = "aws:pricing:GetProducts"
	sourceSpot          = "aws:ec2:DescribeSpotPriceHistory"
)

// Adapter is the AWS adapter.
type Adapter struct {
	ec2        ec2API
	pricing    pricingAPI
	homeRegion string
	clock      func() time.Time
	errs       providers.CallErrors
	// advisor is the Spot Instance Advisor feed (spotadvisor.go), fetched over
	// the runner's transport without credentials.
	advisor *spotAdvisor
}

// New builds the adapter from the runner's configuration. Credentials come from
// AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (/ AWS_SESSION_TOKEN) as read by
// cfg.Getenv, otherwise from the SDK's default chain (AWS_PROFILE, shared files,
// SSO, web identity, container roles where their variables are set), and from
// the instance metadata service only when GPUATLAS_ALLOW_METADATA_CREDENTIALS
// is set. It returns an error wrapping providers.ErrNoCredentials when none
// can be found.
func New(cfg providers.Config) (providers.Provider, error) {
	getenv := cfg.Env
	transport := cfg.BaseTransport()

	// One attempt per SDK operation: retryingEC2 and retryingPricing retry
	// (see sdk.go).
	retryer := func() awsv2.Retryer { return awsv2.NopRetryer{} }

	home := cmp.Or(getenv("AWS_REGION"), getenv("AWS_DEFAULT_REGION"))
	// The HTTP client is set after loading: the SDK applies a custom CA bundle
	// (AWS_CA_BUNDLE, ca_bundle) only to its own client type, so the bundle is
	// carried over to the runner's transport below.
	opts := []func(*config.LoadOptions) error{
		config.WithRetryer(retryer),
		config.WithLogger(sdkLogger(cfg)),
	}
	if !cfg.MetadataCredentialsAllowed() {
		// The default chain's last resort is the instance metadata service
		// (169.254.169.254, or AWS_EC2_METADATA_SERVICE_ENDPOINT); it is off
		// unless the user opts in (providers.AllowMetadataCredentials), so
		// credentials come from the environment and the shared files only.
		// A profile's credential_source = Ec2InstanceMetadata then finds none.
		opts = append(opts, config.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	if home != "" {
		opts = append(opts, config.WithRegion(home))
	}
	if p := getenv("AWS_PROFILE"); p != "" {
		opts = append(opts, config.WithSharedConfigProfile(p))
	}
	var secrets []string
	keyID, secret := getenv("AWS_ACCESS_KEY_ID"), getenv("AWS_SECRET_ACCESS_KEY")
	static := keyID != "" && secret != ""
	if static {
		token := getenv("AWS_SESSION_TOKEN")
		secrets = append(secrets, keyID, secret, token)
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(keyID, secret, token)))
	}
	awsCfg, err := config.LoadDefaultConfig(context.Background(), opts...)
	if err != nil {
		return nil, callErrors(secrets).Wrap(err, "load configuration", "")
	}
	if awsCfg.Region == "" {
		awsCfg.Region = defaultRegion
	}
	if sdkClient, ok := awsCfg.HTTPClient.(*awshttp.BuildableClient); ok {
		if tlsCfg := sdkClient.GetTransport().TLSClientConfig; tlsCfg != nil && tlsCfg.RootCAs != nil {
			transport = withRootCAs(transport, tlsCfg.RootCAs)
		}
	}
	// The runner's transport rate-limits and counts every attempt; the client adds
	// the per-request timeout.
	awsCfg.HTTPClient = &http.Client{Transport: detachedBody{base: checkedAnswer{base: transport}}, Timeout: cfg.Timeout}
	if !static {
		if awsCfg.Credentials == nil {
			return nil, errNoCredentials
		}
		ctx, cancel := context.WithTimeout(context.Background(), credentialCheckTimeout)
		creds, err := awsCfg.Credentials.Retrieve(ctx)
		cancel()
		if err != nil || !creds.HasKeys() {
			return nil, errNoCredentials
		}
		secrets = append(secrets, creds.AccessKeyID, creds.SecretAccessKey, creds.SessionToken)
	}

	ec2Endpoint := endpoint(cfg, getenv, "ec2", "AWS_ENDPOINT_URL_EC2")
	pricingEndpoint := endpoint(cfg, getenv, "pricing", "AWS_ENDPOINT_URL_PRICING")
	ec2Client := ec2.NewFromConfig(awsCfg, func(o *ec2.Options) {
		if ec2Endpoint != "" {
			o.BaseEndpoint = awsv2.String(ec2Endpoint)
		}
	})
	pricingClient := pricing.NewFromConfig(awsCfg, func(o *pricing.Options) {
		o.Region = pricingRegion
		if pricingEndpoint != "" {
			o.BaseEndpoint = awsv2.String(pricingEndpoint)
		}
	})
	errs := callErrors(secrets)
	retry := errs.Retry(cfg, defaultMaxAttempts, defaultBackoff)
	return &Adapter{
		ec2:        newRetryingEC2(ec2Client, retry),
		pricing:    retryingPricing{getProducts: pricingClient.GetProducts, retry: retry, limits: cfg.APILimiters},
		homeRegion: awsCfg.Region,
		clock:      cfg.Now,
		errs:       errs,
		advisor: &spotAdvisor{client: &http.Client{Transport: transport, Timeout: cfg.Timeout},
			url: spotAdvisorURL(cfg, getenv), retry: retry, errs: errs},
	}, nil
}

// sdkLogger is the SDK's logger: its own log lines (its warnings; the
// default logger writes them to standard error as they are) go through the
// reporter, made safe (providers.Config.SDKLog).
func sdkLogger(cfg providers.Config) logging.Logger {
	log := cfg.SDKLog(catalog.AWS)
	return logging.LoggerFunc(func(c logging.Classification, format string, v ...any) {
		log(string(c) + " " + fmt.Sprintf(format, v...))
	})
}

// withRootCAs makes the transport trust the given roots (a custom CA bundle from
// the AWS configuration) where it can: the runner's transport over an
// *http.Transport (its base is replaced; the transport is this provider's own), or
// an *http.Transport (a copy is returned).
func withRootCAs(rt http.RoundTripper, roots *x509.CertPool) http.RoundTripper {
	withRoots := func(t *http.Transport) *http.Transport {
		t = t.Clone()
		if t.TLSClientConfig == nil {
			t.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
		}
		t.TLSClientConfig.RootCAs = roots
		return t
	}
	switch t := rt.(type) {
	case *providers.Transport:
		if base, ok := t.Base.(*http.Transport); ok {
			t.Base = withRoots(base)
		}
	case *http.Transport:
		return withRoots(t)
	}
	return rt
}

// endpoint is the configured base URL of a service: --endpoint aws.<service>=URL
// first, then the SDK's own variable read through cfg.Getenv. Without either the
// SDK resolves the endpoint itself (including AWS_ENDPOINT_URL from the process
// environment and the shared config file).
func endpoint(cfg providers.Config, getenv func(string) string, service, envName string) string {
	if u := cfg.Endpoints[service]; u != "" {
		return u
	}
	if strings.EqualFold(getenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"), "true") {
		return ""
	}
	return getenv(envName)
}

// ID is aws.
func (p *Adapter) ID() catalog.Provider { return catalog.AWS }

// Regions lists the regions enabled for the account (EC2 DescribeRegions), sorted.
func (p *Adapter) Regions(ctx context.Context) ([]string, error) {
	// Regions starts a crawl: the advisor feed is asked for again.
	p.advisor.reset()
	out, err := p.ec2.DescribeRegions(ctx, &ec2.DescribeRegionsInput{}, func(o *ec2.Options) { o.Region = p.homeRegion })
	if err != nil {
		return nil, p.errs.Wrap(err, "describe regions", p.homeRegion)
	}
	var regions []string
	for _, r := range out.Regions {
		if name := awsv2.ToString(r.RegionName); name != "" {
			regions = append(regions, name)
		}
	}
	sort.Strings(regions)
	return regions, nil
}

// Crawl fetches one region: its accelerated instance types first, then their
// zones, list prices and spot prices concurrently.
func (p *Adapter) Crawl(ctx context.Context, region string) (*providers.RegionData, error) {
	now := p.clock().UTC()
	instances, err := p.instanceTypes(ctx, region)
	if err != nil {
		return nil, err
	}
	data := &providers.RegionData{Instances: instances}
	if len(instances) == 0 {
		return data, nil
	}
	described := map[string]bool{}
	names := make([]string, 0, len(instances))
	for _, it := range instances {
		described[it.ID] = true
		names = append(names, it.ID)
	}
	var (
		placements []catalog.Placement
		listed     []catalog.Offer
		spot       []catalog.Offer
	)
	g, gctx := errgroup.WithContext(ctx)
	// Each call runs under providers.Safely: a panic on these goroutines
	// would escape the runner's recovery and end the process.
	g.Go(func() error {
		return providers.Safely(catalog.AWS, "describe instance type offerings in "+region, func() (err error) {
			placements, err = p.placements(gctx, region, described)
			return err
		})
	})
	g.Go(func() error {
		return providers.Safely(catalog.AWS, "list prices in "+region, func() (err error) {
			listed, err = p.listPrices(gctx, region, described, now)
			return err
		})
	})
	g.Go(func() error {
		return providers.Safely(catalog.AWS, "spot prices in "+region, func() (err error) {
			spot, err = p.spotPrices(gctx, region, names, now)
			return err
		})
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	data.Placements = placements
	zones := map[string][]string{}
	for _, pl := range placements {
		zones[pl.InstanceType] = append(zones[pl.InstanceType], pl.Zone)
	}
	for i := range listed {
		o := &listed[i]
		if z := zones[o.InstanceType]; len(z) > 0 {
			o.Zones = append([]string(nil), z...)
			o.Availability = catalog.Available
		}
	}
	if len(spot) > 0 {
		// The feed is an optional enrichment: when it cannot be had, the
		// spot prices are kept without a band and the crawl is warned, once.
		feed, fetched, err := p.advisor.get(ctx, now)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err == nil:
			withInterruption(spot, region, feed, fetched)
		default:
			data.Warnings = append(data.Warnings, advisorWarning(err))
		}
	}
	listed = append(listed, spot...)
	data.Offers = listed
	return data, nil
}

// instanceTypes pages through every instance type of the region and keeps those
// with an accelerator. EC2 has no filter for "has an accelerator", and a list of
// family wildcards would miss new families, so all types are read (about ten pages
// of 100 in a large region).
func (p *Adapter) instanceTypes(ctx context.Context, region string) ([]catalog.InstanceType, error) {
	pages := ec2.NewDescribeInstanceTypesPaginator(p.ec2, &ec2.DescribeInstanceTypesInput{MaxResults: awsv2.Int32(100)})
	var out []catalog.InstanceType
	seen := map[string]bool{}
	err := eachPage(ctx, pages, inRegion(region), func(page *ec2.DescribeInstanceTypesOutput) (*string, error) {
		for _, info := range page.InstanceTypes {
			it, ok := convertInstanceType(info)
			if !ok || seen[it.ID] {
				continue
			}
			seen[it.ID] = true
			out = append(out, it)
		}
		return page.NextToken, nil
	})
	if err != nil {
		return nil, p.errs.Wrap(err, "describe instance types", region)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// placements lists the availability zones each described type can be launched in.
func (p *Adapter) placements(ctx context.Context, region string, described map[string]bool) ([]catalog.Placement, error) {
	pages := ec2.NewDescribeInstanceTypeOfferingsPaginator(p.ec2, &ec2.DescribeInstanceTypeOfferingsInput{
		LocationType: "availability-zone",
		MaxResults:   awsv2.Int32(1000),
	})
	var out []catalog.Placement
	seen := map[string]bool{}
	err := eachPage(ctx, pages, inRegion(region), func(page *ec2.DescribeInstanceTypeOfferingsOutput) (*string, error) {
		for _, o := range page.InstanceTypeOfferings {
			typ, zone := string(o.InstanceType), awsv2.ToString(o.Location)
			if !described[typ] || zone == "" || seen[typ+"/"+zone] {
				continue
			}
			seen[typ+"/"+zone] = true
			out = append(out, catalog.Placement{Provider: catalog.AWS, InstanceType: typ, Region: region, Zone: zone, Status: catalog.Available})
		}
		return page.NextToken, nil
	})
	if err != nil {
		return nil, p.errs.Wrap(err, "describe instance type offerings", region)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out, nil
}

// pager is an SDK paginator of output O with options Opt.
type pager[O, Opt any] interface {
	HasMorePages() bool
	NextPage(ctx context.Context, optFns ...func(Opt)) (O, error)
}

// eachPage asks for every page of a listing with opt and hands each to read,
// which returns the page's next token; a token that comes back ends the
// listing with an error (providers.PageTokens) instead of a loop.
func eachPage[O, Opt any](ctx context.Context, pages pager[O, Opt], opt func(Opt), read func(O) (next *string, err error)) error {
	var tokens providers.PageTokens
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx, opt)
		if err != nil {
			return err
		}
		next, err := read(page)
		if err == nil {
			err = tokens.Next(awsv2.ToString(next))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func inRegion(region string) func(*ec2.Options) {
	return func(o *ec2.Options) { o.Region = region }
}

// currencyOf is the currency EC2 quotes spot prices in: yuan in the China regions.
func currencyOf(region string) catalog.Currency {
	if strings.HasPrefix(region, "cn-") {
		return catalog.CNY
	}
	return catalog.USD
}

var _ providers.Provider = (*Adapter)(nil)
