package sitegen

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/internal/datatest"
)

// The changes index sums up the last seven days and links their page: one
// comparison of the newest crawl with the crawl seven days before it, so the
// p5's two changes in the week read as 100 → 110, and what changed earlier
// (the withdrawn spot offer, the 90 → 100 of ten days ago) is left out.
func TestChanges_LastSevenDays(t *testing.T) {
	cur, h := datatest.WeekOfCrawls(t, canonicalCopy(testSnapshot(t)), "aws/p5.48xlarge/us-west-2//on_demand")
	out := historySite(t, cur, h)

	week := readPage(t, out, "changes/week.html")
	if diff := tableKeys(t, week, "prices-aws"); len(diff) != 1 || diff[0] != "aws/p5.48xlarge/us-west-2//on_demand" {
		t.Errorf("the week's AWS price changes: %v", diff)
	}
	price := pagePart(t, week, `<caption id="prices-aws">`, "</table>")
	wantContains(t, "the week's p5 row", price, "100 USD/hour", "110 USD/hour", "&#43;10.00 %")
	if strings.Contains(price, "105 USD/hour") || strings.Contains(price, "90 USD/hour") {
		t.Errorf("the week's p5 row shows a figure from inside or before the week:\n%s", price)
	}
	if keys := tableKeys(t, week, "offers-removed-aws"); keys != nil {
		t.Errorf("the week lists an offer withdrawn eight days ago: %v", keys)
	}
	wantContains(t, "changes/week.html", week, "<h1>Changes in the last 7 days</h1>",
		"From the crawl of 2026-11-23 02:00 UTC to that of 2026-11-30 02:00 UTC.")
	if strings.Contains(week, "less than 7 days") {
		t.Error("a full week is said to be short")
	}

	idx := readPage(t, out, "changes/index.html")
	wantContains(t, "changes/index.html", idx, `<h2 id="week">Changes in the last 7 days</h2>`,
		`<a href="/changes/week.html">Every change of the last 7 days</a>`)
	// The latest crawl's own changes stay those since the crawl before it.
	if got := pagePart(t, idx, `<caption id="prices-aws">`, "</table>"); !strings.Contains(got, "105 USD/hour") {
		t.Errorf("the latest crawl's p5 change does not start from 105:\n%s", got)
	}
	zh := readPage(t, out, "zh/changes/week.html")
	wantContains(t, "zh/changes/week.html", zh, "<h1>最近 7 天的变化</h1>")
	wantContains(t, "zh/changes/index.html", readPage(t, out, "zh/changes/index.html"), `<a href="/zh/changes/week.html">最近 7 天的全部变化</a>`)
}

// A history younger than a week says so: its changes are those since the
// first crawl. A single crawl has no week page.
func TestChanges_WeekShorterThanSevenDays(t *testing.T) {
	cur, h := twoCrawls(t)
	out := historySite(t, cur, h)
	short := "The history begins less than 7 days before the newest crawl: these are the changes since its first crawl."
	wantContains(t, "changes/week.html", readPage(t, out, "changes/week.html"), short)
	wantContains(t, "changes/index.html", readPage(t, out, "changes/index.html"), short, "1 price change")

	one := filepath.Join(t.TempDir(), "one")
	build(t, testOptions(t, one))
	if tree := readTree(t, one); tree["changes/week.html"] != nil {
		t.Error("a site of a single crawl has a week page")
	}
}
