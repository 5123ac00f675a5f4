package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The Azure archive: every version of the price table that Azure's Karpenter
// provider generates from the Retail Prices API (Linux pay-as-you-go, USD per
// hour, per region), eight versions dated by the time written in them,
// 2023-10-27 to 2026-06-18. It came with the fourth batch of
// ../shared/realdata ("# GCP and Azure (added 2026-12-04)").
const (
	azureFile      = "azure/karpenter_static_ondemand_prices_gpu_history.csv"
	azureSource    = "https://github.com/Azure/karpenter-provider-azure/blob/%s/pkg/providers/pricing/zz_generated.pricing.go"
	azureRetrieved = "2026-12-04"
)

// convertAzure reads the versions. A (region, size) whose price is the same
// in consecutive versions is two observations: the first version's, holding
// until the last's, and the last version's, holding until the next version
// (which no longer has that price; none after the newest). The history joins
// them into one run.
func convertAzure(realdata string) (archive, error) {
	t, err := readTable(realdata, azureFile, "armRegionName", "armSkuName", "retailPrice_usd_per_hour", "generated_at", "source_commit")
	if err != nil {
		return archive{}, err
	}
	retrieved, err := time.Parse("2006-01-02", azureRetrieved)
	if err != nil {
		return archive{}, err
	}
	type key struct{ region, sku string }
	prices := map[key]map[time.Time]string{}
	commits := map[time.Time]string{}
	var trimmed int
	for i, row := range t.rows {
		at, err := time.Parse(time.RFC3339, t.get(row, "generated_at"))
		if err != nil {
			return archive{}, fmt.Errorf("%s: generated_at %q: %w", t.where(i), t.get(row, "generated_at"), err)
		}
		at = at.UTC()
		commit := t.get(row, "source_commit")
		if c, ok := commits[at]; ok && c != commit {
			return archive{}, fmt.Errorf("%s: version %s in commits %s and %s", t.where(i), at.Format(time.RFC3339), c, commit)
		}
		commits[at] = commit
		sku := t.get(row, "armSkuName")
		if s := strings.TrimSpace(sku); s != sku {
			sku = s
			trimmed++
		}
		price := t.get(row, "retailPrice_usd_per_hour")
		if _, err := dec(price); err != nil {
			return archive{}, fmt.Errorf("%s: price %q: %w", t.where(i), price, err)
		}
		k := key{t.get(row, "armRegionName"), sku}
		if prices[k] == nil {
			prices[k] = map[time.Time]string{}
		}
		if prev, ok := prices[k][at]; ok && prev != price {
			return archive{}, fmt.Errorf("%s: %s %s has two prices in one version", t.where(i), k.region, k.sku)
		}
		prices[k][at] = price
	}
	versions := make([]time.Time, 0, len(commits))
	for v := range commits {
		versions = append(versions, v)
	}
	slices.SortFunc(versions, func(a, b time.Time) int { return a.Compare(b) })
	keys := make([]key, 0, len(prices))
	for k := range prices {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int { return strings.Compare(a.region+"\x00"+a.sku, b.region+"\x00"+b.sku) })
	a := archive{file: "azure_on_demand_2023_2026.jsonl", title: "Azure virtual machine sizes (N series), on demand, Linux, eight versions 2023-10-27 to 2026-06-18"}
	rows := 0
	for _, k := range keys {
		for i := 0; i < len(versions); i++ {
			price, ok := prices[k][versions[i]]
			if !ok {
				continue
			}
			j := i
			for j+1 < len(versions) && prices[k][versions[j+1]] == price {
				j++
			}
			rows += j - i + 1
			amount, _ := dec(price)
			obs := func(v int, note string) catalog.Observation {
				return catalog.Observation{Provider: catalog.Azure, InstanceType: k.sku, Region: k.region, Billing: catalog.OnDemand,
					Price: catalog.Price{Amount: amount, Currency: catalog.USD, Unit: catalog.PerHour}, ObservedAt: versions[v],
					RetrievedAt: retrieved, Source: fmt.Sprintf(azureSource, commits[versions[v]]), Note: note}
			}
			if j > i {
				// The first version of the run, holding until its last.
				o := obs(i, fmt.Sprintf("the same price in the %d versions generated %s to %s", j-i+1,
					versions[i].Format("2006-01-02"), versions[j].Format("2006-01-02")))
				o.ObservedUntil = versions[j]
				a.obs = append(a.obs, o)
			}
			// The last version of the run, holding until the next version,
			// which no longer has it (a day where no version follows).
			o := obs(j, "")
			if j+1 < len(versions) {
				o.ObservedUntil = versions[j+1]
			}
			a.obs = append(a.obs, o)
			i = j
		}
	}
	if rows != len(t.rows) {
		return archive{}, fmt.Errorf("%s: %d rows read into %d observations covering %d rows", azureFile, len(t.rows), len(a.obs), rows)
	}
	a.notes = []string{
		"Source: repository `Azure/karpenter-provider-azure`, `pkg/providers/pricing/zz_generated.pricing.go`, each of its eight versions (commits in each record's `source`; Apache-2.0). Its generator reads the Azure Retail Prices API: Consumption items in USD of service Virtual Machines per `armRegionName`, leaving out Windows, Low Priority and Spot items, so each figure is a Linux pay-as-you-go price per instance-hour.",
		"`observed_at` is the generation time written in the version (`generated_at`). A price that is the same in consecutive versions is two records: the first version's, with `observed_until` the last version's time, and the last version's, with `observed_until` the time of the next version, which no longer has that price (none after the newest, 2026-06-18: that sighting holds its day). The history joins them into one run; the versions in between are named in the first record's note.",
		fmt.Sprintf("%d rows (every `Standard_N*` size of 41 to 52 regions per version) give %d records. One size name has trailing spaces in the source (`Standard_NM16ads_MA35D  `, %d rows): trimmed. Sizes GPU Atlas has no size record for (ND GB200 v6, NC RTX PRO 6000 BSE v6, promo sizes) are kept: the history says what Azure priced.", len(t.rows), len(a.obs), trimmed),
		"`retrieved_at` is " + azureRetrieved + ", the day the fourth batch with this file was added to `../shared/realdata`. The archive has no spot, savings-plan or reservation prices: none are made up.",
	}
	return a, nil
}
