package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// TestRun_TencentIntl reads six versions of Tencent Cloud International's GPU
// price page (testdata cut from the third batch) and checks the archive's
// quirks: the 元 typo of the Chinese pages, the region-group tables without an
// instance type (their group a plain line above the table in one version), the
// "8*P80" typo, the monthly figures converted from CNY, and each version
// holding until the next of its language.
func TestRun_TencentIntl(t *testing.T) {
	out := convert(t)
	obs := read(t, out, "tencent_intl_gpu_list_prices_2018_2023.jsonl")
	find := func(typ, region string, billing catalog.BillingKind, at string) catalog.Observation {
		t.Helper()
		for _, o := range obs {
			if o.InstanceType == typ && o.Region == region && o.Billing == billing && strings.HasPrefix(o.ObservedAt.Format(time.RFC3339), at) {
				return o
			}
		}
		t.Fatalf("no %s %s %s at %s", typ, region, billing, at)
		return catalog.Observation{}
	}
	for _, o := range obs {
		if o.Price.Currency != catalog.USD || o.Provider != catalog.Tencent || o.Includes != "" {
			t.Errorf("%s: %s, includes %q: every price is USD for the instance alone", o.SeriesKey(), o.Price, o.Includes)
		}
		if !o.RetrievedAt.Equal(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)) {
			t.Fatalf("%s retrieved %s, want the third batch's date 2026-12-04", o.SeriesKey(), o.RetrievedAt)
		}
	}

	// The Chinese page of 2018-09-25 writes 元 for the two larger GN8 rows:
	// kept as USD, the cell in the note. It holds until the next Chinese
	// version in the cut (2020-04-01), not until the English page of 2018-10-29.
	typo := find("GN8.7XLARGE224", "international", catalog.OnDemand, "2018-09-25T12:30")
	if typo.Price.String() != "8.01 USD/hour" || !strings.Contains(typo.Note, "元/小时起") || !strings.Contains(typo.Note, "typo") || !strings.Contains(typo.Note, "starting price") {
		t.Errorf("the 元 typo = %+v", typo)
	}
	if typo.ObservedUntil.Format(time.RFC3339) != "2020-04-01T08:19:57Z" {
		t.Errorf("the 2018-09-25 zh version holds until %s, want the next zh version 2020-04-01T08:19:57Z", typo.ObservedUntil)
	}
	if !strings.HasPrefix(typo.Source, "https://github.com/tencentyun/intlcloud-documents/blob/c9f7c0de64d8817bacb3478a90f7c53dce743b63/product/计算/GPU%20云服务器/") {
		t.Errorf("source = %s", typo.Source)
	}
	en := find("GN8.7XLARGE224", "international", catalog.OnDemand, "2018-10-29")
	if en.Price.String() != "8.01 USD/hour" || strings.Contains(en.Note, "typo") {
		t.Errorf("the English page of 2018-10-29 = %+v", en)
	}

	// The region groups: a monthly subscription and an hourly price for every
	// region of the group, the type named by its vCPUs and memory.
	for _, region := range []string{"ap-beijing", "ap-shanghai", "ap-guangzhou", "ap-chongqing"} {
		m := find("GN8.LARGE56", region, catalog.SubscriptionMonth, "2020-04-01")
		if m.Price.String() != "637.6811594 USD/month" || !strings.Contains(m.Note, "converted by the page from 4400 CNY at 6.9") {
			t.Errorf("%s monthly = %+v", region, m)
		}
	}
	if h := find("GN8.LARGE56", "ap-chengdu", catalog.OnDemand, "2020-04-01"); h.Price.String() != "1.77 USD/hour" || strings.Contains(h.Note, "converted") {
		t.Errorf("Chengdu hourly = %+v (1.77 is a rounded figure, not a raw conversion)", h)
	}
	p80 := find("GN8.14XLARGE448", "na-siliconvalley", catalog.SubscriptionMonth, "2020-04-01")
	if p80.Price.String() != "8765.217391 USD/month" || !strings.Contains(p80.Note, `"8*P80", a typo for P40`) {
		t.Errorf("the 8*P80 row = %+v", p80)
	}
	// 2020-04-07 (a3f7d8e6d9) writes the group as a bold line the archive's
	// parse left out: read from the page.
	bold := find("GN8.LARGE56", "ap-hongkong", catalog.SubscriptionMonth, "2020-04-07")
	if bold.Price.String() != "1081.15942 USD/month" || !strings.Contains(bold.Note, "腾讯云（硅谷、香港）") {
		t.Errorf("the 2020-04-07 Hong Kong row = %+v", bold)
	}
	if _, err := time.Parse(time.RFC3339, "2020-07-14T09:00:34Z"); err != nil || bold.ObservedUntil.Format(time.RFC3339) != "2020-07-14T09:00:34Z" {
		t.Errorf("the last region-group version holds until %s, want the next zh version", bold.ObservedUntil)
	}

	// The list price rises (From 1.98 to 2.45), and the 2023 page says Guangzhou
	// Zone 3; the last English version holds until the repository snapshot.
	if o := find("GN8.LARGE56", "international", catalog.OnDemand, "2020-07-14"); o.Price.String() != "2.45 USD/hour" || strings.Contains(o.Note, "From") {
		t.Errorf("GN8.LARGE56 of 2020-07-14 = %+v", o)
	}
	gn7 := find("GN7.2XLARGE32", "international", catalog.OnDemand, "2023-05-17")
	if gn7.Price.String() != "1.26 USD/hour" || !strings.Contains(gn7.Note, "Guangzhou Zone 3") || gn7.ObservedUntil.Format("2006-01-02") != "2024-12-24" {
		t.Errorf("GN7.2XLARGE32 of 2023-05-17 = %+v", gn7)
	}

	readme, _ := os.ReadFile(filepath.Join(out, "README.md"))
	for _, want := range []string{"Tencent Cloud International GPU list prices", "`retrieved_at` 2026-12-04", "2 prices the Chinese pages write as 元", "6 region-group rows read `8*P80`"} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("the README lacks %q", want)
		}
	}
}

// TestRun_TencentIntlRefuses: a region-group row whose GPU cell names no GN8
// size (1*P99) is an error naming its line, and nothing is written.
func TestRun_TencentIntlRefuses(t *testing.T) {
	bare := t.TempDir()
	if err := os.CopyFS(bare, os.DirFS(filepath.Join("testdata", "realdata"))); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(bare, intlFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(b), ",1*P40,", ",1*P99,", 1)
	if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := run(bare, dst); err == nil || !strings.Contains(err.Error(), "tencent/intl_gpu_list_prices_2018_2023.csv:") {
		t.Errorf("run = %v, want an error naming the file and line", err)
	}
	if entries, _ := os.ReadDir(dst); len(entries) != 0 {
		t.Errorf("a refused archive wrote %d files", len(entries))
	}
}
