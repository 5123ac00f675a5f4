// Package huawei is the Huawei Cloud adapter: GPU flavors from ECS ListFlavors
// (convert.go) in the regions where the account has an IAM project
// (projects.go), and their prices from the BSS price inquiry (pricing.go), with
// the official huaweicloud-sdk-go-v3 (its calls take no context; providers.Retry
// retries them aside). The files follow the adapter skeleton described in
// package providers.
package huawei

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/huaweicloud/huaweicloud-sdk-go-v3/core/auth/basic"
	"github.com/huaweicloud/huaweicloud-sdk-go-v3/core/auth/global"
	"github.com/huaweicloud/huaweicloud-sdk-go-v3/core/config"
	"github.com/huaweicloud/huaweicloud-sdk-go-v3/core/region"
	bss "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/bss/v2"
	ecs "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/ecs/v2"
	ecsregion "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/ecs/v2/region"
	iam "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/iam/v3"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// Environment variables the adapter reads. AK/SK are the SDK's standard names.
const (
	envAK        = "HUAWEICLOUD_SDK_AK"
	envSK        = "HUAWEICLOUD_SDK_SK"
	envProjectID = "HUAWEICLOUD_SDK_PROJECT_ID"
	envRegion    = "HUAWEICLOUD_SDK_REGION"
	envDomainID  = "HUAWEICLOUD_SDK_DOMAIN_ID"
)

// Default endpoints. IAM is global; BSS is the Chinese site's price inquiry (CNY);
// ECS endpoints come from the SDK's region definitions.
const (
	defaultIAMEndpoint = "https://iam.myhuaweicloud.com"
	defaultBSSEndpoint = "https://bss.myhuaweicloud.com"
)

// Factory describes the Huawei Cloud adapter.
//
// Rate limits: Huawei documents API Gateway flow control per API and account
// (APIGW.0308 "The throttling threshold has been reached"); BSS price inquiry is
// documented at 10 requests/s per account (bss "API flow control"), and ECS
// queries allow more. 5 req/s with a burst of 5 keeps BSS well under its limit,
// and a crawl sends only a few requests per region. Four regions are crawled at
// once, one call at a time in each (so MaxInFlight is Concurrency).
var Factory = providers.Factory{
	ID:            catalog.Huawei,
	Services:      []string{"ecs", "bss", "iam"},
	Credentials:   []string{envAK, envSK, envProjectID, envRegion, envDomainID},
	RatePerSecond: 5,
	Burst:         5,
	Concurrency:   4,
	New:           New,
}

// sdkRegions are the ECS regions the SDK defines (services/ecs/v2/region), the
// candidate list; the crawl keeps those the account has an IAM project in.
var sdkRegions = []*region.Region{
	ecsregion.AF_NORTH_1, ecsregion.AF_SOUTH_1, ecsregion.AE_AD_1, ecsregion.AP_SOUTHEAST_1,
	ecsregion.AP_SOUTHEAST_2, ecsregion.AP_SOUTHEAST_3, ecsregion.AP_SOUTHEAST_4, ecsregion.AP_SOUTHEAST_5,
	ecsregion.CN_EAST_2, ecsregion.CN_EAST_3, ecsregion.CN_EAST_4, ecsregion.CN_EAST_5,
	ecsregion.CN_NORTH_1, ecsregion.CN_NORTH_2, ecsregion.CN_NORTH_4, ecsregion.CN_NORTH_9,
	ecsregion.CN_NORTH_11, ecsregion.CN_NORTH_12, ecsregion.CN_SOUTH_1, ecsregion.CN_SOUTH_2,
	ecsregion.CN_SOUTH_4, ecsregion.CN_SOUTHWEST_2, ecsregion.CN_SOUTHWEST_3, ecsregion.EU_WEST_0,
	ecsregion.EU_WEST_101, ecsregion.LA_NORTH_2, ecsregion.LA_SOUTH_2, ecsregion.ME_EAST_1,
	ecsregion.MY_KUALALUMPUR_1, ecsregion.NA_MEXICO_1, ecsregion.RU_MOSCOW_1, ecsregion.SA_BRAZIL_1,
	ecsregion.TR_WEST_1,
}

// Adapter is the Huawei Cloud provider.
type Adapter struct {
	iam    iamAPI
	bss    bssAPI
	newECS func(regionID, projectID string) (ecsAPI, error)
	clock  func() time.Time
	retry  providers.Retry
	errs   providers.CallErrors

	// fixed is set when HUAWEICLOUD_SDK_PROJECT_ID names the one region to crawl.
	fixedRegion, fixedProject string
	projects                  map[string]string // region -> project id, from Regions
	pageSize                  int32
}

// New builds the adapter from cfg. Without HUAWEICLOUD_SDK_AK and _SK it returns an
// error wrapping providers.ErrNoCredentials.
func New(cfg providers.Config) (providers.Provider, error) {
	keys, err := cfg.Credentials(catalog.Huawei, envAK, envSK)
	if err != nil {
		return nil, err
	}
	ak, sk := keys[0], keys[1]
	a := &Adapter{clock: cfg.Now, errs: callErrors(keys), pageSize: 1000}
	// The SDK's calls take no context: each attempt runs aside (Detach), and
	// the SDK's own retries are off (HttpConfig.Retries is unused).
	a.retry = a.errs.Retry(cfg, 3, 500*time.Millisecond)
	a.retry.Detach = true
	if p := cfg.Env(envProjectID); p != "" {
		r := cfg.Env(envRegion)
		if r == "" {
			return nil, fmt.Errorf("huawei: %s is set but %s is not: a project id belongs to one region, so name it (e.g. %s=cn-north-4), or unset the project id to resolve projects through IAM", envProjectID, envRegion, envRegion)
		}
		a.fixedRegion, a.fixedProject = r, p
	}
	rt := cfg.BaseTransport()
	httpConfig := func() *config.HttpConfig {
		hc := config.DefaultHttpConfig().WithHttpRoundTripper(rt)
		if cfg.Timeout > 0 {
			hc = hc.WithTimeout(cfg.Timeout)
		}
		return hc
	}
	// IAM credentials carry no project id: KeystoneListProjects is not project-scoped.
	// Building with WithEndpoints (never WithRegion) keeps the SDK from calling IAM
	// on its own; SafeBuild returns errors where Build panics.
	globalCred, err := basic.NewCredentialsBuilder().WithAk(ak).WithSk(sk).SafeBuild()
	if err != nil {
		return nil, a.errs.Wrap(err, "credentials", "")
	}
	iamClient, err := iam.IamClientBuilder().WithEndpoints([]string{endpoint(cfg, "iam", defaultIAMEndpoint)}).
		WithCredential(globalCred).WithHttpConfig(httpConfig()).SafeBuild()
	if err != nil {
		return nil, a.errs.Wrap(err, "build iam client", "")
	}
	// BSS takes account-level (global) credentials; the domain id is optional.
	bssCred, err := global.NewCredentialsBuilder().WithAk(ak).WithSk(sk).WithDomainId(cfg.Env(envDomainID)).SafeBuild()
	if err != nil {
		return nil, a.errs.Wrap(err, "credentials", "")
	}
	bssClient, err := bss.BssClientBuilder().WithEndpoints([]string{endpoint(cfg, "bss", defaultBSSEndpoint)}).
		WithCredential(bssCred).WithHttpConfig(httpConfig()).SafeBuild()
	if err != nil {
		return nil, a.errs.Wrap(err, "build bss client", "")
	}
	a.iam = newIAMCalls(iam.NewIamClient(iamClient))
	a.bss = newBSSCalls(bss.NewBssClient(bssClient))
	ecsOverride := cfg.Endpoints["ecs"]
	a.newECS = func(regionID, projectID string) (ecsAPI, error) {
		ep := ecsOverride
		if ep == "" {
			r, err := ecsregion.SafeValueOf(regionID)
			if err != nil || len(r.Endpoints) == 0 {
				return nil, fmt.Errorf("huawei: no ECS endpoint for region %s: %w", regionID, providers.ErrNotFound)
			}
			ep = r.Endpoints[0]
		}
		cred, err := basic.NewCredentialsBuilder().WithAk(ak).WithSk(sk).WithProjectId(projectID).SafeBuild()
		if err != nil {
			return nil, a.errs.Wrap(err, "credentials", regionID)
		}
		hc, err := ecs.EcsClientBuilder().WithEndpoints([]string{ep}).WithCredential(cred).
			WithHttpConfig(httpConfig()).SafeBuild()
		if err != nil {
			return nil, a.errs.Wrap(err, "build ecs client", regionID)
		}
		return newECSCalls(ecs.NewEcsClient(hc)), nil
	}
	return a, nil
}

func endpoint(cfg providers.Config, service, def string) string {
	if ep := cfg.Endpoints[service]; ep != "" {
		return ep
	}
	return def
}

// ID is catalog.Huawei.
func (a *Adapter) ID() catalog.Provider { return catalog.Huawei }

// Regions lists the SDK's ECS regions in which the account has a project (IAM
// KeystoneListProjects), or the one region HUAWEICLOUD_SDK_REGION names when a
// project id is given.
func (a *Adapter) Regions(ctx context.Context) ([]string, error) {
	if a.fixedProject != "" {
		a.projects = map[string]string{a.fixedRegion: a.fixedProject}
		return []string{a.fixedRegion}, nil
	}
	projects, err := a.listProjects(ctx)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, r := range sdkRegions {
		known[r.Id] = true
	}
	a.projects = map[string]string{}
	var out []string
	for name, id := range projects {
		// Sub-projects are named "<region>_<suffix>"; the crawl uses the region's
		// default project.
		if known[name] {
			a.projects[name] = id
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Crawl fetches the GPU flavors of one region and their prices.
func (a *Adapter) Crawl(ctx context.Context, regionID string) (*providers.RegionData, error) {
	projectID := a.projects[regionID]
	if projectID == "" {
		return nil, fmt.Errorf("huawei: region %s: no IAM project in this account: %w", regionID, providers.ErrNotFound)
	}
	client, err := a.newECS(regionID, projectID)
	if err != nil {
		return nil, err
	}
	flavors, err := a.listFlavors(ctx, client, regionID)
	if err != nil {
		return nil, err
	}
	fetched := a.clock().UTC()
	data := &providers.RegionData{}
	var priced []flavorInfo
	for _, f := range flavors {
		info, ok := convertFlavor(f, regionID)
		if !ok {
			continue
		}
		data.Instances = append(data.Instances, info.instance)
		data.Placements = append(data.Placements, info.placements...)
		priced = append(priced, info)
	}
	if len(priced) == 0 {
		return data, nil
	}
	data.Offers, data.Missing, err = a.prices(ctx, regionID, projectID, priced, fetched)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// listFlavors pages through ECS ListFlavors (limit/marker; a short page is the last).
func (a *Adapter) listFlavors(ctx context.Context, client ecsAPI, regionID string) ([]flavor, error) {
	var out []flavor
	err := providers.Paginate(func(marker string) (string, error) {
		req := newListFlavorsRequest(a.pageSize, marker)
		var page []flavor
		err := a.retry.Do(ctx, func() error {
			resp, err := client.ListFlavors(req)
			if err != nil {
				return err
			}
			page = flavorsOf(resp)
			return nil
		})
		if err != nil {
			return "", err
		}
		out = append(out, page...)
		if len(page) < int(a.pageSize) || len(page) == 0 {
			return "", nil // a short page is the last
		}
		return page[len(page)-1].Id, nil
	})
	if err != nil {
		return nil, a.errs.Wrap(err, "list flavors", regionID)
	}
	return out, nil
}
