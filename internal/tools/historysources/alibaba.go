package main

import (
	"fmt"
	"strconv"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The Alibaba archives: cloudpilot-ai/priceserver's committed price file at two
// commits (on demand per region), and the first commit's per-zone spot map.
const (
	alibabaOnDemandFile = "alibaba/instance_prices_2024_two_snapshots.csv"
	alibabaSpotFile     = "alibaba/spot_by_zone_2024-06-12.csv"
	alibabaSource       = "https://github.com/cloudpilot-ai/priceserver/blob/%s/pkg/client/builtin-data/alibabacloud_price.json"
	// alibabaCaptureNote: the file carries no capture time; its commit date is
	// when it was committed, so the prices were read then or before.
	alibabaCaptureNote = "observed_at is the commit date of the price file; the capture may be earlier"
)

func convertAlibabaOnDemand(realdata string) (archive, error) {
	t, err := readTable(realdata, alibabaOnDemandFile, "snapshot_commit", "snapshot_commit_date", "region", "instance_type", "onDemandPricePerHour")
	if err != nil {
		return archive{}, err
	}
	a := archive{file: "alibaba_on_demand_2024.jsonl", title: "Alibaba Cloud on demand per region, 2024-06-12 and 2024-10-09"}
	var zero []string
	for i, row := range t.rows {
		at, err := parseTime(t.get(row, "snapshot_commit_date"))
		if err != nil {
			return archive{}, fmt.Errorf("%s: %w", t.where(i), err)
		}
		amount, err := dec(t.get(row, "onDemandPricePerHour"))
		if err != nil {
			return archive{}, fmt.Errorf("%s: price: %w", t.where(i), err)
		}
		if amount.IsZero() {
			zero = append(zero, t.get(row, "instance_type")+" in "+t.get(row, "region")+" ("+at.Format("2006-01-02")+")")
			continue
		}
		a.obs = append(a.obs, catalog.Observation{Provider: catalog.Alibaba, InstanceType: t.get(row, "instance_type"),
			Region: t.get(row, "region"), Billing: catalog.OnDemand,
			Price:      catalog.Price{Amount: amount, Currency: catalog.CNY, Unit: catalog.PerHour},
			ObservedAt: at, Source: fmt.Sprintf(alibabaSource, t.get(row, "snapshot_commit")), Note: alibabaCaptureNote})
	}
	a.notes = []string{
		"Source: repository `cloudpilot-ai/priceserver` (Apache-2.0), `pkg/client/builtin-data/alibabacloud_price.json` at commits `60cef47f24c2c7e5020b923b121923ee2e5ea055` (2024-06-12) and `93dab418095a0191a4a1e166c287307629c98c50` (2024-10-09); rows of types with GPUs.",
		"`onDemandPricePerHour` per region (zone empty: the whole region), in CNY per hour for the instance alone: the file does not name its currency, and against the SkyPilot catalog every matching price is lower by 0.056-0.084 CNY/h, the cost of the 40 GiB system disk included there. So `includes` is `instance only`, a series of its own beside the crawled prices that include the disk.",
		"`observed_at` is the commit date of the price file: the capture may be earlier (noted on each). No GPU price changed between the two commits, so each series is one interval from 2024-06-12 to the end of 2024-10-09.",
		fmt.Sprintf("Left out: %d rows with price 0, an artefact of the source: %s.", len(zero), joinList(zero)),
	}
	return a, nil
}

func convertAlibabaSpot(realdata string) (archive, error) {
	t, err := readTable(realdata, alibabaSpotFile, "snapshot_commit", "snapshot_commit_date", "region", "zone", "instance_type", "spot_price_per_hour", "ondemand_price_per_hour")
	if err != nil {
		return archive{}, err
	}
	a := archive{file: "alibaba_spot_by_zone_2024-06-12.jsonl", title: "Alibaba Cloud spot per zone, 2024-06-12"}
	capped := 0
	for i, row := range t.rows {
		at, err := parseTime(t.get(row, "snapshot_commit_date"))
		if err != nil {
			return archive{}, fmt.Errorf("%s: %w", t.where(i), err)
		}
		spot, err := float32Decimal(t.get(row, "spot_price_per_hour"))
		if err != nil {
			return archive{}, fmt.Errorf("%s: spot price: %w", t.where(i), err)
		}
		note := alibabaCaptureNote
		if od, err := dec(t.get(row, "ondemand_price_per_hour")); err == nil && od.Equal(spot) {
			note = "equals the on-demand price: the API reports the spot cap; " + note
			capped++
		}
		o := catalog.Observation{Provider: catalog.Alibaba, InstanceType: t.get(row, "instance_type"), Region: t.get(row, "region"),
			Zone: t.get(row, "zone"), Billing: catalog.Spot, Price: catalog.Price{Amount: spot, Currency: catalog.CNY, Unit: catalog.PerHour},
			ObservedAt: at, Source: fmt.Sprintf(alibabaSource, t.get(row, "snapshot_commit")), Note: note}
		a.obs = append(a.obs, o)
	}
	a.notes = []string{
		"Source: the first commit above (`60cef47f24c2c7e5020b923b121923ee2e5ea055`, 2024-06-12): its per-zone spot map, in CNY per hour for the instance alone.",
		"The source stores spot prices as float32 and the archive prints them in full (2.5360000133514404); each is kept as the shortest decimal that is the same float32 (2.536).",
		fmt.Sprintf("%d spot prices equal the on-demand price exactly: the API reports the cap there (noted on each; 174 are within 0.5%% of it).", capped),
		"One observation per zone at one date: each holds for that day only.",
	}
	return a, nil
}

// float32Decimal is the shortest decimal that parses to the same float32 as s.
func float32Decimal(s string) (d decimalT, err error) {
	f, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return d, err
	}
	return dec(strconv.FormatFloat(f, 'f', -1, 32))
}

func joinList(items []string) string {
	out := ""
	for i, s := range items {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}
