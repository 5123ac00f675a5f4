package sitegen

import (
	"strings"
	"testing"
)

// TestCoverage_BillingTable: the coverage page says per provider and billing
// kind what prices exist, in both languages: observed (with source and date),
// archived list prices only (the Tencent list prices of the history, with the
// archive's repository and dates), synthetic, or none, and where no public
// source has a kind (Alibaba subscriptions, Tencent spot, Volcano Engine), it
// says so instead of leaving a blank. No cell without data says observed.
func TestCoverage_BillingTable(t *testing.T) {
	out := importedSite(t)
	cell := func(page, provider, group string) string {
		t.Helper()
		row := pagePart(t, page, `<tr data-provider="`+provider+`">`, `</tr>`)
		return pagePart(t, row, `<td data-group="`+group+`"`, `</td>`)
	}
	for _, tc := range []struct {
		page  string
		words map[string][]string
	}{
		{"coverage.html", map[string][]string{
			"aws/on_demand":              {`data-status="observed"`, "Observed", "current offers, newest price 2026-", "pricing.GetProducts"},
			"aws/subscription_month":     {`data-status="missing"`, "Missing"},
			"tencent/subscription_month": {`data-status="archived"`, "Archived list prices only", "History: 1 list-price series, 2018-05-24 to 2021-07-14", "github.com/ZoeyYann/qcloud-documents"},
			"tencent/spot":               {`data-status="none_public"`, "No public source", "Tencent Cloud&#39;s spot prices exist in no public source", "2026-12-04"},
			"alibaba/yearly":             {`data-status="none_public"`, "Alibaba Cloud&#39;s monthly and yearly subscription GPU prices exist in no public source"},
			"volcengine/on_demand":       {`data-status="synthetic"`, "Synthetic test data"},
			"volcengine/spot":            {`data-status="none_public"`, "Volcano Engine&#39;s GPU prices exist in no public source"},
		}},
		{"zh/coverage.html", map[string][]string{
			"aws/on_demand":              {`data-status="observed"`, "实测", "当前"},
			"tencent/subscription_month": {`data-status="archived"`, "仅有历史刊例价", "历史：1 个刊例价序列"},
			"tencent/spot":               {"无公开来源", "腾讯云竞价实例（抢占式）价格没有任何公开来源"},
			"alibaba/yearly":             {"阿里云 GPU 实例的包年包月价格没有任何公开来源"},
			"volcengine/spot":            {"火山引擎的 GPU 价格没有任何公开来源"},
		}},
	} {
		page := readPage(t, out, tc.page)
		for k, want := range tc.words {
			p, g, _ := strings.Cut(k, "/")
			c := cell(page, p, g)
			for _, w := range want {
				if !strings.Contains(c, w) {
					t.Errorf("%s: %s: %q not in %s", tc.page, k, w, c)
				}
			}
		}
		table := pagePart(t, page, `<table class="data billing-coverage">`, `</table>`)
		for _, bad := range []string{`data-status="ok"`, `data-status=""`} {
			if strings.Contains(table, bad) {
				t.Errorf("%s: a billing cell says %s", tc.page, bad)
			}
		}
	}
}
