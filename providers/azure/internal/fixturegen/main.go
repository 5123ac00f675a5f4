// Command fixturegen writes the Azure replay fixtures from ../shared/realdata/azure:
// Resource SKUs answers built from the sizes the cluster autoscaler generated from
// that API (autoscaler_azure_instance_types_gpu.csv: vCPUs, memory, GPU count as
// the API gave them, quirks kept), in the ARM shape of the documented example
// (arm_resource_skus_list_example_spec_2021-07-01.json); Retail Prices answers
// built from the newest of Karpenter's dated price tables
// (karpenter_static_ondemand_prices_gpu_history.csv, generated 2026-06-18 from
// the API's Consumption items); the identity service's answers a token
// request needs; and manifest.json. It replaces the output folder; its output is
// deterministic.
//
//	go run ./providers/azure/internal/fixturegen -realdata ../shared/realdata/azure -out providers/azure/testdata/replay
package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/providers/internal/fixture"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	retrieved    = "2026-12-04" // when GPU Atlas copied the sources (the shared real-data set)
	observed     = "2026-06-18" // the newest price table's generated_at
	subscription = "11111111-2222-3333-4444-555555555555"
	skuVersion   = "2021-07-01" // armcompute v6's api-version for the SKU list
	pricesAPI    = "2023-01-01-preview"
	// pricePage is the fixture's page size: the API's is 1,000, smaller here so
	// that the crawl of the fixtures follows NextPageLink.
	pricePage = 40
	skuPage   = 200

	specSource  = "kubernetes/autoscaler cluster-autoscaler/cloudprovider/azure/azure_instance_types.go @ 03e49d9cb822bfdbc769cde771124f695f3f5619 (2026-03-17, Apache-2.0; generated from the Resource SKUs API), via ../shared/realdata/azure/autoscaler_azure_instance_types_gpu.csv"
	priceSource = "Azure/karpenter-provider-azure pkg/providers/pricing/zz_generated.pricing.go @ 2b431da153a6a92b705c18046512c60b1631b682 (data generated 2026-06-18T03:43:41Z from the Retail Prices API: Consumption, Linux, not Spot or Low Priority; Apache-2.0), via ../shared/realdata/azure/karpenter_static_ondemand_prices_gpu_history.csv"
	shapeSource = "Azure/azure-rest-api-specs Microsoft.Compute/Skus/stable/2021-07-01/examples/skus/ListAvailableResourceSkusForARegion.json @ dd68c545 (MIT): the Resource SKUs answer shape"
)

func main() {
	fixture.Command{Cloud: "azure", Reads: "autoscaler_azure_instance_types_gpu.csv and karpenter_static_ondemand_prices_gpu_history.csv", Generate: run}.Main()
}

type price struct{ region, sku, usd string }

func run(realdata, out string) error {
	specs, err := fixture.ReadCSV(realdata+"/autoscaler_azure_instance_types_gpu.csv", "InstanceType", "SkuFamily", "VCPU", "MemoryMb", "GPU", "Architecture")
	if err != nil {
		return err
	}
	rows, err := fixture.ReadCSV(realdata+"/karpenter_static_ondemand_prices_gpu_history.csv", "armRegionName", "armSkuName", "retailPrice_usd_per_hour", "generated_at")
	if err != nil {
		return err
	}
	var prices []price
	regionsOf := map[string][]string{}
	for _, r := range rows {
		if !strings.HasPrefix(r.Get("generated_at"), observed) {
			continue
		}
		usd := r.Get("retailPrice_usd_per_hour")
		if _, err := decimal.NewFromString(usd); err != nil {
			return r.Errorf("price %q: %w", usd, err)
		}
		p := price{region: r.Get("armRegionName"), sku: r.Get("armSkuName"), usd: usd}
		prices = append(prices, p)
		regionsOf[p.sku] = append(regionsOf[p.sku], p.region)
	}
	f, err := fixture.Create(out)
	if err != nil {
		return err
	}
	identity(f)
	// One Resource SKUs record per size and location, as the unfiltered list
	// gives them; a size is listed in the regions that price it.
	var skus []map[string]any
	for _, s := range specs {
		name := s.Get("InstanceType")
		gpus, err1 := strconv.Atoi(s.Get("GPU"))
		mb, err2 := strconv.Atoi(s.Get("MemoryMb"))
		if err1 != nil || err2 != nil {
			return s.Errorf("GPU %q or MemoryMb %q is not a number", s.Get("GPU"), s.Get("MemoryMb"))
		}
		if gpus <= 0 && !strings.HasPrefix(name, "Standard_N") {
			continue
		}
		if s.Get("Architecture") != "amd64" {
			return s.Errorf("architecture %q", s.Get("Architecture"))
		}
		regions := slices.Clone(regionsOf[name])
		slices.Sort(regions)
		for _, region := range slices.Compact(regions) {
			skus = append(skus, map[string]any{
				"resourceType": "virtualMachines", "name": name, "tier": "Standard",
				"size": strings.TrimPrefix(name, "Standard_"), "family": s.Get("SkuFamily"),
				"locations": []string{region}, "locationInfo": []map[string]any{{"location": region}},
				"capabilities": []map[string]string{
					{"name": "vCPUs", "value": s.Get("VCPU")},
					{"name": "MemoryGB", "value": decimal.NewFromInt(int64(mb)).Div(decimal.NewFromInt(1024)).String()},
					{"name": "GPUs", "value": s.Get("GPU")},
					{"name": "CpuArchitectureType", "value": "x64"},
				},
				"restrictions": []any{},
			})
		}
	}
	for page, start := 1, 0; start < len(skus); page, start = page+1, start+skuPage {
		end := min(start+skuPage, len(skus))
		body := map[string]any{"value": skus[start:end]}
		if end < len(skus) {
			body["nextLink"] = "https://management.azure.com/subscriptions/" + subscription + "/providers/Microsoft.Compute/skus?api-version=" + skuVersion + "&$skiptoken=page-" + strconv.Itoa(page+1)
		}
		token := ""
		if page > 1 {
			token = "page-" + strconv.Itoa(page)
		}
		f.Add(replay.Exchange{Service: "arm", Action: "GET /subscriptions/{subscription_id}/providers/Microsoft.Compute/skus",
			Params: map[string]string{"$skiptoken": token}, Body: f.JSON(fmt.Sprintf("skus/page-%d.json", page), body)})
	}
	// Retail Prices pages per region.
	byRegion := map[string][]price{}
	for _, p := range prices {
		byRegion[p.region] = append(byRegion[p.region], p)
	}
	for _, region := range mapsKeys(byRegion) {
		ps := byRegion[region]
		slices.SortStableFunc(ps, func(a, b price) int { return strings.Compare(a.sku, b.sku) })
		filter := "serviceName eq 'Virtual Machines' and armRegionName eq '" + region + "'"
		for start := 0; start < len(ps); start += pricePage {
			end := min(start+pricePage, len(ps))
			items := make([]map[string]any, 0, end-start)
			for _, p := range ps[start:end] {
				items = append(items, map[string]any{
					"currencyCode": "USD", "retailPrice": json.Number(p.usd), "unitPrice": json.Number(p.usd),
					"armRegionName": p.region, "armSkuName": p.sku, "serviceName": "Virtual Machines",
					"serviceFamily": "Compute", "unitOfMeasure": "1 Hour", "type": "Consumption",
				})
			}
			body := map[string]any{"BillingCurrency": "USD", "CustomerEntityId": "Default", "CustomerEntityType": "Retail",
				"Items": items, "NextPageLink": nil, "Count": len(items)}
			if end < len(ps) {
				q := url.Values{"api-version": {pricesAPI}, "$filter": {filter}, "$skip": {strconv.Itoa(end)}}
				body["NextPageLink"] = "https://prices.azure.com:443/api/retail/prices?" + q.Encode()
			}
			skip := ""
			if start > 0 {
				skip = strconv.Itoa(start)
			}
			f.Add(replay.Exchange{Service: "prices", Action: "GET /api/retail/prices", Region: region,
				Params: map[string]string{"$skip": skip}, Body: f.JSON(fmt.Sprintf("prices/%s-%d.json", region, start/pricePage+1), body)})
		}
	}
	return f.WriteManifest(replay.Manifest{
		Provider: "azure", Real: replay.RealAll, Retrieved: retrieved,
		Observed: &replay.ObservedDates{Default: observed},
		Sources:  []string{specSource, priceSource, shapeSource},
		Notes: []string{
			"Sizes: one Resource SKUs record per size and region, with the vCPUs, memory and GPU count the autoscaler's table has (kept as the API gave them: 1 for a partitioned GPU, 0 for some AMD GPUs; the adapter reads the device from the size name). The table has no locations or zones: a size is listed in the regions where the price table prices it, with no zones.",
			"Prices: one Consumption item per size and region of the 2026-06-18 price table, with the fields the table keeps (armRegionName, armSkuName, retailPrice; unitPrice set equal) and the generator's filter (USD, Virtual Machines, Compute, 1 Hour); no productName, meterName or dates. Pages hold 40 items (the API's hold 1,000) so that the crawl follows NextPageLink.",
			"No spot, savings-plan or reservation prices: the price table keeps none. Sizes the price table has but the size table lacks (ND GB200 v6, NC RTX PRO 6000 BSE v6, promo sizes) have no record and are not crawled.",
			"Identity: the OpenID configuration, instance discovery and token answers are the documented shapes with a placeholder token; nothing in them is published.",
		},
	})
}

// identity writes the identity service's answers a client secret credential
// asks for before its first token.
func identity(f *fixture.Folder) {
	host := "https://login.microsoftonline.com/"
	f.Add(replay.Exchange{Service: "login", Action: "GET /common/discovery/instance", Body: f.JSON("login/instance-discovery.json", map[string]any{
		"tenant_discovery_endpoint": host + "{tenant}/v2.0/.well-known/openid-configuration", "api-version": "1.1",
		"metadata": []map[string]any{{"preferred_network": "login.microsoftonline.com", "preferred_cache": "login.windows.net",
			"aliases": []string{"login.microsoftonline.com", "login.windows.net", "login.microsoft.com", "sts.windows.net"}}}})})
	f.Add(replay.Exchange{Service: "login", Action: "GET /{tenant}/v2.0/.well-known/openid-configuration", Body: f.JSON("login/openid-configuration.json", map[string]any{
		"token_endpoint":         host + "replay-tenant/oauth2/v2.0/token",
		"authorization_endpoint": host + "replay-tenant/oauth2/v2.0/authorize",
		"issuer":                 host + "replay-tenant/v2.0",
	})})
	f.Add(replay.Exchange{Service: "login", Action: "POST /{tenant}/oauth2/v2.0/token", Body: f.JSON("login/token.json", map[string]any{
		"token_type": "Bearer", "expires_in": 3599, "ext_expires_in": 3599, "access_token": "replay-access-token",
	})})
}

func mapsKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
