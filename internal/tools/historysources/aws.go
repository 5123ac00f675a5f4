package main

import (
	"fmt"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The AWS archive: a tracker's daily reading of the AWS Price List API for
// p5.48xlarge on demand in us-east-1 (Linux, shared tenancy, the first on-demand
// term), 2025-04-23 to 2026-08-22.
const (
	awsFile   = "history/aws_p5.48xlarge_us-east-1_ondemand_daily.csv"
	awsSource = "https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d09be8a9c9dcc8fad26adeee559004c23e/gpu_prices.csv"
)

func convertAWS(realdata string) (archive, error) {
	t, err := readTable(realdata, awsFile, "timestamp", "instance", "price_usd")
	if err != nil {
		return archive{}, err
	}
	a := archive{file: "aws_p5.48xlarge_us-east-1_on_demand_daily.jsonl", title: "AWS p5.48xlarge in us-east-1, on demand, daily"}
	var backfill, empty int
	for i, row := range t.rows {
		ts, typ, price := t.get(row, "timestamp"), t.get(row, "instance"), t.get(row, "price_usd")
		if price == "" {
			// Rows dated YYYY-MM-01 without a time are the tracker's monthly
			// back-fill, which returned nothing; one empty reading is a failed
			// read of that day.
			if len(ts) == len("2006-01-02") {
				backfill++
			} else {
				empty++
			}
			continue
		}
		if typ != "p5.48xlarge" {
			return archive{}, fmt.Errorf("%s: instance %q, want p5.48xlarge", t.where(i), typ)
		}
		// The tracker writes UTC times without a zone.
		at, err := time.Parse("2006-01-02T15:04:05", ts)
		if err != nil {
			return archive{}, fmt.Errorf("%s: timestamp %q: %w", t.where(i), ts, err)
		}
		amount, err := dec(price)
		if err != nil {
			return archive{}, fmt.Errorf("%s: price %q: %w", t.where(i), price, err)
		}
		a.obs = append(a.obs, catalog.Observation{Provider: catalog.AWS, InstanceType: typ, Region: "us-east-1",
			Billing: catalog.OnDemand, Price: catalog.Price{Amount: amount, Currency: catalog.USD, Unit: catalog.PerHour},
			ObservedAt: at.UTC(), Source: awsSource})
	}
	a.notes = []string{
		"Source: repository `amorton45/aws-gpu-price-tracker`, `gpu_prices.csv` at commit `b81b52d09be8a9c9dcc8fad26adeee559004c23e` (2026-08-22; no licence file). The tracker reads the AWS Price List API (`AmazonEC2`, `RegionCode=us-east-1`, Linux, the first OnDemand term) once a day.",
		"Each reading is one observation: USD per instance-hour, the instance only (no EBS), the tracker's UTC time given the zone `Z`.",
		fmt.Sprintf("Left out: %d rows without a price dated `YYYY-MM-01` (the tracker's monthly back-fill, which returned nothing) and %d empty reading (2025-04-23T19:14:17).", backfill, empty),
		"The readings hold the real cut of 2025-06-05: 98.32 USD/h to 2025-06-04, 55.04 from 2025-06-05.",
	}
	return a, nil
}
