package main

import (
	"context"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gpuatlas/gpuatlas/internal/browsertest"
)

// TestBrowser_SubscriptionsPerMonthAndBillingCoverage: on the embedded catalog
// with the committed history, in both languages, on a desktop and a phone:
//   - the explorer's offer view of 1-year reservations shows, in its per-month
//     column, each offer per month with its hourly equivalent, the month 730
//     times the hour and the hour the price column's;
//   - an instance page (aws/p5.48xlarge) shows its reservations per month with
//     the hourly equivalent under the published price;
//   - the coverage page's billing table says per provider and billing kind
//     what prices exist: AWS on demand observed, Tencent's monthly
//     subscriptions archived list prices only, and Tencent spot, Alibaba
//     subscriptions and Volcano Engine "no public source" in the page's
//     language; no cell says ok or nothing.
func TestBrowser_SubscriptionsPerMonthAndBillingCoverage(t *testing.T) {
	t.Parallel()
	site := serveSite(t, buildArchiveSite(t))
	num := regexp.MustCompile(`[0-9][0-9,]*\.?[0-9]*`)
	figures := func(s string) []float64 {
		var out []float64
		for _, m := range num.FindAllString(s, -1) {
			if f, err := strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64); err == nil {
				out = append(out, f)
			}
		}
		return out
	}
	forLangsAndSizes(t, func(t *testing.T, ctx context.Context, prefix string) {
		zh := prefix == "/zh/"
		perMonthWord, hourWord := "per month", "per hour equivalent"
		if zh {
			perMonthWord, hourWord = "每月", "折合每小时"
		}
		noSideways := func(page string) {
			t.Helper()
			if w := browsertest.Eval[int](t, ctx, `document.scrollingElement.scrollWidth`); w > browsertest.Eval[int](t, ctx, `innerWidth`) {
				t.Errorf("%s scrolls sideways: %d pixels wide", page, w)
			}
		}

		// The explorer: 1-year reservations without upfront, per month.
		browsertest.Do(t, ctx, "open explorer", chromedp.Navigate(site+prefix+"offers.html?view=offers&billing=reserved_1y_no_upfront"), chromedp.WaitReady(chromedp.CSS(ready)))
		browsertest.WaitFor(t, ctx, `document.querySelectorAll('tbody#offers-body tr td.c-per_month .per-month').length > 0`)
		head := browsertest.Eval[string](t, ctx, `(document.querySelector('#offers-head th[data-sort="per_month"]') || {}).textContent || ''`)
		if want := map[bool]string{false: "Per month (hourly equivalent)", true: "每月（折合每小时）"}[zh]; !strings.Contains(head, want) {
			t.Errorf("the per-month column's heading is %q, want %q", head, want)
		}
		rows := browsertest.Eval[[][]string](t, ctx, `[...document.querySelectorAll('tbody#offers-body tr')].slice(0, 5).map(r => [r.querySelector('td.c-per_month').textContent, r.querySelector('td.c-price').textContent, String(r.querySelector('td.c-per_month').getBoundingClientRect().width)])`)
		if len(rows) == 0 {
			t.Fatal("no reservation rows")
		}
		for _, r := range rows {
			if !strings.Contains(r[0], perMonthWord) || !strings.Contains(r[0], hourWord) {
				t.Errorf("per-month cell %q lacks %q and %q", r[0], perMonthWord, hourWord)
				continue
			}
			f, p := figures(r[0]), figures(r[1])
			if len(f) < 2 || len(p) < 1 {
				t.Errorf("per-month cell %q, price %q: figures missing", r[0], r[1])
				continue
			}
			month, hour := f[0], f[1]
			if math.Abs(month-hour*730) > 0.01*month || math.Abs(hour-p[0]) > 0.0001+0.001*hour {
				t.Errorf("per-month cell %q against price %q: want the month 730 times the hour, the hour the price", r[0], r[1])
			}
			if r[2] == "0" {
				t.Errorf("the per-month cell %q is not shown", r[0])
			}
		}
		noSideways("the explorer")

		// An instance page: its reservations per month under the published price.
		browsertest.Do(t, ctx, "open p5.48xlarge", chromedp.Navigate(site+prefix+"instances/aws/p5.48xlarge.html"), chromedp.WaitReady(chromedp.CSS("#price-matrix")))
		pm := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#price-matrix .per-month')].filter(e => e.getBoundingClientRect().width > 0).map(e => e.textContent)`)
		if len(pm) == 0 {
			t.Fatal("the price matrix shows no subscription per month")
		}
		for _, s := range pm {
			f := figures(s)
			if !strings.Contains(s, perMonthWord) || !strings.Contains(s, hourWord) || !strings.Contains(s, "USD") || len(f) < 2 || math.Abs(f[0]-f[1]*730) > 0.01*f[0] {
				t.Errorf("instance page per month %q: want the month in words, 730 times the hourly equivalent, in USD", s)
			}
		}
		noSideways("the instance page")

		// The coverage page's billing table.
		browsertest.Do(t, ctx, "open coverage", chromedp.Navigate(site+prefix+"coverage.html"), chromedp.WaitReady(chromedp.CSS("table.billing-coverage")))
		cell := func(provider, group string) [2]string {
			t.Helper()
			got := browsertest.Eval[[]string](t, ctx, `(c => c ? [c.dataset.status, c.textContent] : ['', ''])(document.querySelector('table.billing-coverage tr[data-provider="`+provider+`"] td[data-group="`+group+`"]'))`)
			return [2]string{got[0], got[1]}
		}
		for _, tc := range []struct {
			provider, group, status, en, zh string
		}{
			{"aws", "on_demand", "observed", "Observed", "实测"},
			{"aws", "yearly", "observed", "Observed", "实测"},
			{"tencent", "on_demand", "observed", "History:", "历史："},
			{"tencent", "subscription_month", "archived", "Archived list prices only", "仅有历史刊例价"},
			{"tencent", "spot", "none_public", "Tencent Cloud's spot prices exist in no public source", "腾讯云竞价实例（抢占式）价格没有任何公开来源"},
			{"alibaba", "subscription_month", "none_public", "Alibaba Cloud's monthly and yearly subscription GPU prices exist in no public source", "阿里云 GPU 实例的包年包月价格没有任何公开来源"},
			{"alibaba", "yearly", "none_public", "No public source", "无公开来源"},
			{"volcengine", "on_demand", "none_public", "Volcano Engine's GPU prices exist in no public source", "火山引擎的 GPU 价格没有任何公开来源"},
			{"volcengine", "spot", "none_public", "No public source", "无公开来源"},
		} {
			got := cell(tc.provider, tc.group)
			want := tc.en
			if zh {
				want = tc.zh
			}
			if got[0] != tc.status || !strings.Contains(got[1], want) {
				t.Errorf("%s %s: %q %q, want %s and %q", tc.provider, tc.group, got[0], got[1], tc.status, want)
			}
		}
		if bad := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('table.billing-coverage td')].filter(c => !c.dataset.status || c.dataset.status === 'ok' || !c.textContent.trim()).map(c => c.outerHTML.slice(0, 120))`); len(bad) > 0 {
			t.Errorf("billing cells without a status: %v", bad)
		}
		if vis := browsertest.Eval[bool](t, ctx, `document.querySelector('table.billing-coverage').getBoundingClientRect().height > 0`); !vis {
			t.Error("the billing table is not shown")
		}
		noSideways("the coverage page")
	})
}
