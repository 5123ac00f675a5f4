package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// testdata/realdata holds a few rows of each archive, cut from
// ../shared/realdata unchanged (CRLF line ends and all).

func convert(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	if err := run(filepath.Join("testdata", "realdata"), out); err != nil {
		t.Fatal(err)
	}
	return out
}

func read(t *testing.T, dir, name string) []catalog.Observation {
	t.Helper()
	got, err := catalog.ReadObservationFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]catalog.Observation, len(got))
	for i, o := range got {
		out[i] = o.Observation
	}
	return out
}

func TestRun_AWS(t *testing.T) {
	out := convert(t)
	obs := read(t, out, "aws_p5.48xlarge_us-east-1_on_demand_daily.jsonl")
	var got []string
	for _, o := range obs {
		got = append(got, o.ObservedAt.Format("2006-01-02T15:04:05Z")+" "+o.PriceText())
	}
	want := "2025-04-23T18:52:57Z 98.32 USD/hour 2025-04-23T19:41:48Z 98.32 USD/hour 2025-06-03T07:24:23Z 98.32 USD/hour 2025-06-04T07:23:25Z 98.32 USD/hour 2025-06-05T07:22:36Z 55.04 USD/hour 2025-06-06T07:22:21Z 55.04 USD/hour"
	if strings.Join(got, " ") != want {
		t.Errorf("observations:\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	if obs[0].Includes != "" || obs[0].Region != "us-east-1" || !strings.HasPrefix(obs[0].Source, "https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d09be8a9c9dcc8fad26adeee559004c23e/") {
		t.Errorf("first = %+v", obs[0])
	}
	readme, _ := os.ReadFile(filepath.Join(out, "README.md"))
	if !strings.Contains(string(readme), "Left out: 2 rows without a price dated `YYYY-MM-01`") || !strings.Contains(string(readme), "and 1 empty reading") {
		t.Errorf("the README does not account for the rows left out:\n%s", readme)
	}
}

func TestRun_Tencent(t *testing.T) {
	obs := read(t, convert(t), "tencent_gpu_list_prices_2016_2021.jsonl")
	find := func(typ string, billing catalog.BillingKind, at string) catalog.Observation {
		t.Helper()
		for _, o := range obs {
			if o.InstanceType == typ && o.Billing == billing && strings.HasPrefix(o.ObservedAt.Format("2006-01-02T15:04"), at) {
				return o
			}
		}
		t.Fatalf("no %s %s at %s", typ, billing, at)
		return catalog.Observation{}
	}
	g2 := find("G2.large", catalog.SubscriptionMonth, "2017-03-20")
	if g2.Region != "mainland-china" || g2.Includes != "" || g2.Price.Amount.String() != "4288" || g2.ObservedUntil.Format("2006-01-02T15:04") != "2017-05-27T04:52" {
		t.Errorf("G2.large of 2017-03-20 = %+v", g2)
	}
	// The cell that says the price includes the local SSD is another basis.
	ssd := find("G2.large", catalog.SubscriptionMonth, "2017-05-27")
	if ssd.Includes != "local SSD data disk" || !strings.Contains(ssd.Note, "含本地SSD盘价格") {
		t.Errorf("G2.large of 2017-05-27 = %+v", ssd)
	}
	rng := find("GN7.2XLARGE32", catalog.SubscriptionMonth, "2020-08-24T02:16")
	if rng.Price.Amount.String() != "2250" || rng.PriceHigh == nil || rng.PriceHigh.String() != "2500" || !strings.Contains(rng.Note, "2250 - 2500") {
		t.Errorf("the range = %+v", rng)
	}
	if !strings.HasPrefix(rng.Source, "https://github.com/ZoeyYann/qcloud-documents/blob/7b4cf7257734eb77a36167f6acee822d1957a959/product/计算与网络/GPU%20云服务器/购买指导/价格总览.md") {
		t.Errorf("source = %s", rng.Source)
	}
	// The last version holds until the fork's head.
	last := find("GN7.2XLARGE32", catalog.OnDemand, "2020-08-24T07:10")
	if last.ObservedUntil.Format("2006-01-02") != "2021-07-15" {
		t.Errorf("the last version holds until %s", last.ObservedUntil)
	}
	for _, o := range obs {
		if o.InstanceType == "GN10X.LARGE20" {
			t.Errorf("a cell published as \"-\" became %+v", o)
		}
	}
}

func TestRun_Alibaba(t *testing.T) {
	out := convert(t)
	od := read(t, out, "alibaba_on_demand_2024.jsonl")
	if len(od) != 2 {
		t.Fatalf("%d on-demand observations, want the 2 with a price (the zero prices are left out): %+v", len(od), od)
	}
	for _, o := range od {
		if o.InstanceType != "ecs.gn6i-c4g1.xlarge" || o.Zone != "" || o.Price.Currency != catalog.CNY || o.Includes != "" || !strings.Contains(o.Note, "commit date") {
			t.Errorf("on demand = %+v", o)
		}
	}
	spot := read(t, out, "alibaba_spot_by_zone_2024-06-12.jsonl")
	var got []string
	for _, o := range spot {
		got = append(got, o.Zone+" "+o.Price.Amount.String())
		if o.InstanceType == "ecs.ebmgn7e.32xlarge" && !strings.Contains(o.Note, "equals the on-demand price") {
			t.Errorf("a spot price at the cap is not noted: %+v", o)
		}
	}
	if strings.Join(got, ", ") != "ap-northeast-1b 297.476, ap-northeast-1c 297.476, ap-northeast-1a 2.933, ap-northeast-1b 1.257" {
		t.Errorf("spot prices (float32 as their shortest decimal): %v", got)
	}
	readme, _ := os.ReadFile(filepath.Join(out, "README.md"))
	if !strings.Contains(string(readme), "Left out: 2 rows with price 0") {
		t.Error("the README does not name the zero prices left out")
	}
}

func TestRun_Reproducible(t *testing.T) {
	a, b := convert(t), convert(t)
	for _, name := range []string{"README.md", "aws_p5.48xlarge_us-east-1_on_demand_daily.jsonl", "tencent_gpu_list_prices_2016_2021.jsonl", "alibaba_on_demand_2024.jsonl", "alibaba_spot_by_zone_2024-06-12.jsonl"} {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if string(x) != string(y) || len(x) == 0 {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

// TestRun_RetrievedAt: every record carries when GPU Atlas retrieved its
// archive, the date of the second batch in realdata's README, and never one
// before the price was observed; without that README nothing is written.
func TestRun_RetrievedAt(t *testing.T) {
	out := convert(t)
	want := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, name := range []string{"aws_p5.48xlarge_us-east-1_on_demand_daily.jsonl", "tencent_gpu_list_prices_2016_2021.jsonl", "alibaba_on_demand_2024.jsonl", "alibaba_spot_by_zone_2024-06-12.jsonl"} {
		for _, o := range read(t, out, name) {
			if !o.RetrievedAt.Equal(want) || o.RetrievedAt.Before(o.ObservedAt) {
				t.Fatalf("%s: %s observed %s, retrieved %s; want retrieved %s", name, o.SeriesKey(), o.ObservedAt, o.RetrievedAt, want)
			}
		}
	}
	readme, _ := os.ReadFile(filepath.Join(out, "README.md"))
	if !strings.Contains(string(readme), "`retrieved_at` 2026-12-01, when GPU Atlas retrieved the copy of the archive") {
		t.Errorf("the README does not state the retrieval date:\n%s", readme)
	}

	bare := t.TempDir()
	if err := os.CopyFS(bare, os.DirFS(filepath.Join("testdata", "realdata"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(bare, "README.md")); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := run(bare, dst); err == nil || !strings.Contains(err.Error(), "the retrieval date of the archives") {
		t.Errorf("run without the README = %v, want an error about the retrieval date", err)
	}
	if entries, _ := os.ReadDir(dst); len(entries) != 0 {
		t.Errorf("run without a retrieval date wrote %d files", len(entries))
	}
}
