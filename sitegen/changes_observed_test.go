package sitegen

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

const trackerURL = "https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d09be8a9c9dcc8fad26adeee559004c23e/gpu_prices.csv"

// importedSite builds the site of importedHistory's snapshot and history and
// returns its folder.
func importedSite(t *testing.T) string {
	t.Helper()
	cur, h := importedHistory(t)
	return historySite(t, cur, h)
}

// importedHistory is twoCrawls with prices imported from archives: the p5.48xlarge
// cut of 2025-06-05 in us-east-1, a Tencent list price of a type the snapshot
// does not have (a rise, then a published range), and an on-demand price of
// the p5 that includes a disk (another series, never compared).
func importedHistory(t testing.TB) (*catalog.Snapshot, *catalog.History) {
	t.Helper()
	cur, h := twoCrawls(t)
	obs := func(typ, region string, billing catalog.BillingKind, at, until, price, high, cur string, unit catalog.PriceUnit, includes, source string) catalog.ObservationAt {
		o := catalog.Observation{Provider: catalog.AWS, InstanceType: typ, Region: region, Billing: billing,
			Price:      catalog.Price{Amount: catalog.Dec(price), Currency: catalog.Currency(cur), Unit: unit},
			ObservedAt: mustTime(t, at), Includes: includes, Source: source}
		if strings.HasPrefix(typ, "GN") {
			o.Provider = catalog.Tencent
		}
		if until != "" {
			o.ObservedUntil = mustTime(t, until)
		}
		if high != "" {
			o.PriceHigh = catalog.DecPtr(high)
		}
		return catalog.ObservationAt{Observation: o, File: "test.jsonl", Line: 1}
	}
	page := "https://github.com/ZoeyYann/qcloud-documents/blob/abc/价格总览.md"
	_, err := h.Import([]catalog.ObservationAt{
		obs("p5.48xlarge", "us-east-1", catalog.OnDemand, "2025-06-04T07:23:25Z", "", "98.32", "", "USD", catalog.PerHour, "", trackerURL),
		obs("p5.48xlarge", "us-east-1", catalog.OnDemand, "2025-06-05T07:22:36Z", "", "55.04", "", "USD", catalog.PerHour, "", trackerURL),
		obs("p5.48xlarge", "us-east-1", catalog.OnDemand, "2025-06-06T07:22:21Z", "", "55.04", "", "USD", catalog.PerHour, "", trackerURL),
		obs("p5.48xlarge", "us-east-1", catalog.OnDemand, "2025-06-05T00:00:00Z", "2025-07-01T00:00:00Z", "60", "", "USD", catalog.PerHour, "100 GiB disk", "https://example.org/other"),
		obs("GN2.7XLARGE56", "mainland-china", catalog.SubscriptionMonth, "2018-05-24T05:49:02Z", "2018-05-28T11:15:33Z", "2928", "", "CNY", catalog.PerMonth, "", page),
		obs("GN2.7XLARGE56", "mainland-china", catalog.SubscriptionMonth, "2018-05-28T11:15:33Z", "2020-08-24T00:00:00Z", "4248", "", "CNY", catalog.PerMonth, "", page),
		obs("GN2.7XLARGE56", "mainland-china", catalog.SubscriptionMonth, "2020-08-24T00:00:00Z", "2021-07-15T00:00:00Z", "2250", "2500", "CNY", catalog.PerMonth, "", page),
	}, importTime)
	if err != nil {
		t.Fatal(err)
	}
	return cur, h
}

// importTime is when the test's archives were imported: their offers'
// fetched_at.
var importTime = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

func mustTime(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestBuild_ImportedHistory(t *testing.T) {
	out := importedSite(t)

	p5 := readPage(t, out, "instances/aws/p5.48xlarge.html")
	hist := pagePart(t, p5, `<h2 id="history">`, `<h2 id="similar">`)
	for _, w := range []string{
		`<img src="/instances/aws/p5.48xlarge.history.svg"`, "98.32 USD/hour", "55.04 USD/hour",
		`<a href="` + trackerURL + `" rel="nofollow noopener">github.com/amorton45/aws-gpu-price-tracker</a>`,
		`<small>(+<span lang="en">100 GiB disk</span>)</small>`, `<a href="/changes/archives.html">`,
	} {
		if !strings.Contains(hist, w) {
			t.Errorf("the p5.48xlarge price history lacks %q", w)
		}
	}
	// The crawled us-east-1 price joins the imported series it continues.
	if n := strings.Count(hist, "<td>US East (N. Virginia) <small class=\"id\" translate=\"no\">us-east-1</small></td>"); n != 4 {
		t.Errorf("%d us-east-1 rows, want 4 (two imported runs, one crawled price, one run with a disk)", n)
	}
	for _, f := range []string{"instances/aws/p5.48xlarge.history.svg", "zh/instances/aws/p5.48xlarge.history.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("no chart: %v", err)
		}
	}

	// A type only the archive knows has its own page, in both languages.
	gn2 := readPage(t, out, "instances/tencent/gn2.7xlarge56.html")
	for _, w := range []string{"Mainland China (list price)", "4248 CNY/month", "2250 – 2500 CNY/month", "Not in the current catalog", "2018-05-24 to 2021-07-14"} {
		if !strings.Contains(gn2, w) {
			t.Errorf("the GN2.7XLARGE56 page lacks %q", w)
		}
	}
	if zh := readPage(t, out, "zh/instances/tencent/gn2.7xlarge56.html"); !strings.Contains(zh, "中国大陆（刊例价）") || !strings.Contains(zh, "2250 – 2500 CNY/月") {
		t.Error("the Chinese GN2.7XLARGE56 page lacks its history")
	}
	if _, err := os.Stat(filepath.Join(out, "instances/tencent/gn2.7xlarge56.history.subscription_month.svg")); err != nil {
		t.Errorf("no subscription chart: %v", err)
	}

	// The archives' changes: each dated change with its source; a range has no
	// percentage; the run with a disk is no change of the instance-only price.
	arch := readPage(t, out, "changes/archives.html")
	day := pagePart(t, arch, `id="d-2025-06-05"`, "</section>")
	for _, w := range []string{`<tr data-key="aws/p5.48xlarge/us-east-1//on_demand" class="down">`, "98.32 USD/hour", "55.04 USD/hour", "-44.02 %", "github.com/amorton45/aws-gpu-price-tracker"} {
		if !strings.Contains(day, w) {
			t.Errorf("the archives' 2025-06-05 lacks %q", w)
		}
	}
	if strings.Contains(arch, "60 USD/hour") {
		t.Error("the price with a disk was listed as a change")
	}
	rng := pagePart(t, arch, `id="d-2020-08-24"`, "</section>")
	if !strings.Contains(rng, "2250 – 2500 CNY/month") || !strings.Contains(rng, `<td class="num pct">—</td>`) || !strings.Contains(rng, `<a href="/instances/tencent/gn2.7xlarge56.html">`) {
		t.Errorf("the range of 2020-08-24: %s", rng)
	}
	if idx := readPage(t, out, "changes/index.html"); !strings.Contains(idx, "3 dated price changes on 3 days, from 2018-05-28 to 2025-06-05.") {
		t.Error("the changes index does not sum up the archives' changes")
	}

	// The feed carries them, newest first after the crawl.
	var f struct {
		Entries []struct {
			Title string `xml:"title"`
			Link  struct {
				Href string `xml:"href,attr"`
			} `xml:"link"`
			Content string `xml:"content"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal([]byte(readPage(t, out, "changes/feed.atom")), &f); err != nil {
		t.Fatal(err)
	}
	var links []string
	for _, e := range f.Entries {
		links = append(links, e.Link.Href)
	}
	want := []string{"/changes/2026-11-30.html", "/changes/archives.html#d-2025-06-05", "/changes/archives.html#d-2020-08-24", "/changes/archives.html#d-2018-05-28"}
	if strings.Join(links, " ") != strings.Join(want, " ") {
		t.Errorf("feed entries %v, want %v", links, want)
	}
	if len(f.Entries) > 1 && !strings.Contains(f.Entries[1].Content, trackerURL) {
		t.Errorf("the feed entry of 2025-06-05 does not name its source: %s", f.Entries[1].Content)
	}

	// The history is a download, and the GPU trend has the archived prices.
	if dl := readPage(t, out, "downloads.html"); !strings.Contains(dl, "data/parquet/history/provider=aws/part-0.parquet") || !strings.Contains(dl, `<code lang="en">valid_until</code>`) {
		t.Error("the downloads page does not offer the history Parquet")
	}
	trend := pagePart(t, readPage(t, out, "gpus/nvidia-h100-sxm-80gb.html"), `id="price-trend"`, "</table>")
	for _, w := range []string{"2025-06-04 07:23 UTC", "12.29", "2025-06-05 07:22 UTC", "6.88"} {
		if !strings.Contains(trend, w) {
			t.Errorf("the H100 trend lacks %q:\n%s", w, trend)
		}
	}
}

// TestBuild_ImportedSeriesNeverCurrent: an archived price is history only: the
// offers explorer and the instance's price table list the crawl's offers alone.
func TestBuild_ImportedSeriesNeverCurrent(t *testing.T) {
	out := importedSite(t)
	offers := readPage(t, out, "data/offers.csv")
	if strings.Contains(offers, "GN2.7XLARGE56") || strings.Contains(offers, "mainland-china") || strings.Contains(offers, "55.04") {
		t.Error("an imported price is in the offers export")
	}
	prices := pagePart(t, readPage(t, out, "instances/aws/p5.48xlarge.html"), `<h2 id="prices">`, `<h2 id="history">`)
	if strings.Contains(prices, "55.04") || strings.Contains(prices, "100 GiB disk") {
		t.Error("an imported price is among the p5.48xlarge's current prices")
	}
}

func TestSourceLinks(t *testing.T) {
	got := sourceLinks([]string{trackerURL, "aws:pricing:GetProducts", "https://example.org"})
	want := []sourceLink{{URL: trackerURL, Name: "github.com/amorton45/aws-gpu-price-tracker"}, {Name: "aws:pricing:GetProducts"}, {URL: "https://example.org", Name: "example.org"}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestSourceGroups(t *testing.T) {
	page := func(c string) string {
		return "https://github.com/ZoeyYann/qcloud-documents/blob/" + c + "/价格总览.md"
	}
	got := sourceGroups([]string{page("a"), page("b"), trackerURL, page("c")})
	want := []sourceGroup{
		{Name: "github.com/ZoeyYann/qcloud-documents", First: page("a"), Last: page("c"), N: 3},
		{Name: "github.com/amorton45/aws-gpu-price-tracker", First: trackerURL, Last: trackerURL, N: 1},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// TestObservedMinima_SuspectNeverLeads: the GPU pages' cheapest price over
// time counts an archived price only where it may lead (Offer.Leads). Beside
// the tracker's p5.48xlarge readings, three archived on-demand prices of the
// same day: two like it and one at 0.50 USD/hour (0.0625 per GPU, below a tenth
// of the median: an artefact, as Alibaba's zero prices were). The trend keeps
// 6.88 per GPU-hour; the artefact is shown nowhere as the cheapest.
func TestObservedMinima_SuspectNeverLeads(t *testing.T) {
	cur, h := importedHistory(t)
	var obs []catalog.ObservationAt
	for _, p := range []struct{ region, price string }{{"us-west-2", "55.04"}, {"eu-west-1", "57.8"}, {"ap-northeast-1", "0.50"}} {
		obs = append(obs, catalog.ObservationAt{Observation: catalog.Observation{Provider: catalog.AWS, InstanceType: "p5.48xlarge",
			Region: p.region, Billing: catalog.OnDemand, Price: catalog.Price{Amount: catalog.Dec(p.price), Currency: catalog.USD, Unit: catalog.PerHour},
			ObservedAt: mustTime(t, "2025-06-05T12:00:00Z"), Source: "https://example.org/archive"}, File: "more.jsonl", Line: 1})
	}
	if _, err := h.Import(obs, importTime); err != nil {
		t.Fatal(err)
	}
	m, err := newSiteModel(cur, nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var suspect int
	for _, o := range h.ObservedOffersAt(mustTime(t, "2025-06-05T12:00:00Z"), cur.Instances) {
		if o.Region == "ap-northeast-1" && !o.Leads() {
			suspect++
		}
		if o.Region != "ap-northeast-1" && !o.Leads() {
			t.Errorf("a plausible archived price is marked: %s %s", o.Key(), o.Suspect)
		}
	}
	if suspect != 1 {
		t.Fatalf("the 0.50 USD/hour archived price is not marked suspect")
	}
	c := &changesModel{m: m, observedMin: newObservedMinima(m, h)}
	for _, tc := range []struct{ at, want string }{
		{"2025-06-04T12:00:00Z", "12.29"},
		{"2025-06-05T12:00:00Z", "6.88"},
		{"2025-06-05T23:59:59Z", "6.88"},
	} {
		got, ok := c.minimaAt("nvidia-h100-sxm-80gb", mustTime(t, tc.at))[catalog.AWS]
		if r, _ := moneyRound(got); !ok || r.String() != tc.want {
			t.Errorf("cheapest archived H100 per GPU-hour at %s = %s (%v), want %s", tc.at, got, ok, tc.want)
		}
	}
}
