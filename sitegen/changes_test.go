package sitegen

import (
	"encoding/xml"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/synth"
)

var (
	crawl1 = time.Date(2026, 11, 29, 2, 0, 0, 0, time.UTC)
	crawl2 = time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC) // the test snapshot's time
)

// twoCrawls is a history of two hand-made crawls, the second of which is the
// returned snapshot (the test snapshot with the p5.48xlarge us-west-2 on-demand
// price at 110 USD). From the first to the second: the instance type g6f.large is
// added (with its offer), a g5.xlarge spot offer is removed, the p5.48xlarge
// us-west-2 on-demand price goes from 100 to 110 USD (+10%) and the Alibaba
// gn8is.4xlarge on-demand offer goes from available to sold out.
func twoCrawls(t testing.TB) (*catalog.Snapshot, *catalog.History) {
	t.Helper()
	cur := canonicalCopy(testSnapshot(t))
	for i, o := range cur.Offers {
		if o.Key() == "aws/p5.48xlarge/us-west-2//on_demand" {
			cur.Offers[i].Price.Amount = catalog.Dec("110")
		}
	}
	if !cur.TakenAt.Equal(crawl2) {
		t.Fatalf("the test snapshot was taken at %s, want %s", cur.TakenAt, crawl2)
	}
	old := canonicalCopy(cur)
	old.TakenAt = crawl1
	old.Instances = slicesDelete(old.Instances, func(it catalog.InstanceType) bool { return it.Key() == "aws/g6f.large" })
	old.Placements = slicesDelete(old.Placements, func(p catalog.Placement) bool { return p.Provider == catalog.AWS && p.InstanceType == "g6f.large" })
	old.Offers = slicesDelete(old.Offers, func(o catalog.Offer) bool { return o.InstanceKey() == "aws/g6f.large" })
	for i, o := range old.Offers {
		old.Offers[i].FetchedAt = crawl1
		switch o.Key() {
		case "aws/p5.48xlarge/us-west-2//on_demand":
			old.Offers[i].Price.Amount = catalog.Dec("100")
		case "alibaba/ecs.gn8is.4xlarge/cn-hangzhou//on_demand":
			old.Offers[i].Availability = catalog.Available
		}
	}
	old.Offers = append(old.Offers, catalog.Offer{
		Provider: catalog.AWS, InstanceType: "g5.xlarge", Region: "us-east-1", Zone: "us-east-1b", Billing: catalog.Spot,
		Price:        catalog.Price{Amount: catalog.Dec("0.35"), Currency: catalog.USD, Unit: catalog.PerHour},
		Availability: catalog.Available, Source: "aws:ec2:DescribeSpotPriceHistory", FetchedAt: crawl1,
	})
	h := catalog.NewHistory()
	for _, s := range []*catalog.Snapshot{old, cur} {
		if _, err := h.Append(s); err != nil {
			t.Fatal(err)
		}
	}
	return cur, h
}

func slicesDelete[T any](s []T, del func(T) bool) []T {
	var out []T
	for _, v := range s {
		if !del(v) {
			out = append(out, v)
		}
	}
	return out
}

// tableKeys lists the data-key of every row of the table whose caption has the id.
func tableKeys(t *testing.T, page, captionID string) []string {
	t.Helper()
	i := strings.Index(page, `<caption id="`+captionID+`">`)
	if i < 0 {
		return nil
	}
	table := pagePart(t, page[i:], "", "</table>")
	var out []string
	for _, m := range regexp.MustCompile(`<tr data-key="([^"]*)"`).FindAllStringSubmatch(table, -1) {
		out = append(out, m[1])
	}
	return out
}

func TestChanges_TwoCrawls(t *testing.T) {
	cur, h := twoCrawls(t)
	out := historySite(t, cur, h)

	want := map[string][]string{
		"types-added-aws":       {"aws/g6f.large"},
		"types-removed-aws":     nil,
		"offers-added-aws":      {"aws/g6f.large/us-east-1//on_demand"},
		"offers-removed-aws":    {"aws/g5.xlarge/us-east-1/us-east-1b/spot"},
		"prices-aws":            {"aws/p5.48xlarge/us-west-2//on_demand"},
		"availability-aws":      nil,
		"prices-alibaba":        nil,
		"availability-alibaba":  {"alibaba/ecs.gn8is.4xlarge/cn-hangzhou//on_demand"},
		"offers-added-alibaba":  nil,
		"types-added-alibaba":   nil,
		"regions-added-aws":     nil,
		"offers-removed-alibab": nil,
	}
	for _, page := range []string{"changes/index.html", "changes/2026-11-30.html", "zh/changes/index.html"} {
		s := readPage(t, out, page)
		for id, keys := range want {
			if diff := cmp.Diff(keys, tableKeys(t, s, id)); diff != "" {
				t.Errorf("%s: table %s (-want +got):\n%s", page, id, diff)
			}
		}
		// Only the two providers with changes have a section.
		if got := regexp.MustCompile(`<section class="provider-changes" id="p-([a-z]+)">`).FindAllStringSubmatch(s, -1); len(got) != 2 || got[0][1] != "aws" || got[1][1] != "alibaba" {
			t.Errorf("%s: provider sections %v, want aws and alibaba", page, got)
		}
	}
	en := readPage(t, out, "changes/index.html")
	price := pagePart(t, en, `<caption id="prices-aws">`, "</table>")
	for _, w := range []string{`<tr data-key="aws/p5.48xlarge/us-west-2//on_demand" class="up">`, "100 USD/hour", "110 USD/hour", "&#43;10.00 %", `<a href="/instances/aws/p5.48xlarge.html">p5.48xlarge</a>`} {
		if !strings.Contains(price, w) {
			t.Errorf("the price change lacks %q:\n%s", w, price)
		}
	}
	avail := pagePart(t, en, `<caption id="availability-alibaba">`, "")
	if !strings.Contains(pagePart(t, avail, "", "</tr>\n</tbody>"), `<td>available</td><td class="avail-sold_out">sold out</td>`) {
		t.Errorf("the availability change is not available → sold out:\n%.600s", avail)
	}
	wantContains(t, "changes/index.html", en,
		"1 instance type added", "1 offer added", "1 offer removed", "1 price change", "1 availability change",
		`<a href="/changes/2026-11-30.html">2026-11-30</a>`, // the archive links the second crawl
		"<td>2026-11-29</td>",                               // and lists the first without a page
		`<a href="/changes/feed.atom" class="feed" type="application/atom+xml">`,
	)
	if zh := readPage(t, out, "zh/changes/index.html"); !strings.Contains(zh, "新增 1 个实例规格") || !strings.Contains(zh, "售罄") {
		t.Error("the Chinese changes page is not in Chinese")
	}
	if _, err := filepath.Glob(filepath.Join(out, "changes", "2026-11-29.html")); err != nil {
		t.Fatal(err)
	}
	if tree := readTree(t, out); tree["changes/2026-11-29.html"] != nil {
		t.Error("the first crawl has a page although nothing precedes it")
	}
	// Every page links the changes and announces the feed.
	idx := readPage(t, out, "index.html")
	if !strings.Contains(idx, `<a href="/changes/">Changes</a>`) || !strings.Contains(idx, `<link rel="alternate" type="application/atom+xml" title="GPU Atlas: catalog changes" href="/changes/feed.atom">`) {
		t.Error("the overview does not link the changes or the feed")
	}
	// The GPU page has the price trend: the H100's cheapest on-demand per GPU-hour
	// (98.32 / 8 in both crawls).
	gpu := readPage(t, out, "gpus/nvidia-h100-sxm-80gb.html")
	if !strings.Contains(gpu, `<img src="/gpus/nvidia-h100-sxm-80gb.trend.svg"`) || !strings.Contains(gpu, `<td class="num">12.29</td>`) {
		t.Errorf("the H100 page lacks its price trend")
	}
	// The instance page charts its price history from the history.
	if p5 := readPage(t, out, "instances/aws/p5.48xlarge.html"); !strings.Contains(p5, `<img src="/instances/aws/p5.48xlarge.history.svg"`) || !strings.Contains(p5, "100 USD/hour") {
		t.Error("the p5.48xlarge page lacks its price history")
	}
}

// atom is what the test reads of the feed.
type atom struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string   `xml:"http://www.w3.org/XML/1998/namespace lang,attr"`
	ID      string   `xml:"id"`
	Title   string   `xml:"title"`
	Updated string   `xml:"updated"`
	Author  string   `xml:"author>name"`
	Links   []struct {
		Rel  string `xml:"rel,attr"`
		Type string `xml:"type,attr"`
		Href string `xml:"href,attr"`
	} `xml:"link"`
	Entries []struct {
		ID      string `xml:"id"`
		Title   string `xml:"title"`
		Updated string `xml:"updated"`
		Summary string `xml:"summary"`
		Link    struct {
			Rel  string `xml:"rel,attr"`
			Href string `xml:"href,attr"`
		} `xml:"link"`
		Content struct {
			Type string `xml:"type,attr"`
			Body string `xml:",chardata"`
		} `xml:"content"`
	} `xml:"entry"`
}

func readFeed(t *testing.T, out, name string) (atom, string) {
	t.Helper()
	raw := readPage(t, out, name)
	var f atom
	if err := xml.Unmarshal([]byte(raw), &f); err != nil {
		t.Fatalf("%s is not XML: %v", name, err)
	}
	return f, raw
}

func TestChanges_Feed(t *testing.T) {
	cur, h := twoCrawls(t)
	out := filepath.Join(t.TempDir(), "site")
	opts := testOptions(t, out)
	opts.Snapshot, opts.History, opts.BaseURL = cur, h, "/gpuatlas/"
	build(t, opts)
	f, raw := readFeed(t, out, "changes/feed.atom")
	if !strings.HasPrefix(raw, `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("the feed does not start with an XML declaration: %.80s", raw)
	}
	if f.Title != "GPU Atlas: catalog changes" || f.Updated != "2026-11-30T02:00:00Z" || f.Lang != "en" || f.Author != "GPU Atlas" || !strings.HasPrefix(f.ID, "urn:uuid:") {
		t.Errorf("feed head: title %q, updated %q, lang %q, author %q, id %q", f.Title, f.Updated, f.Lang, f.Author, f.ID)
	}
	links := map[string]string{}
	for _, l := range f.Links {
		links[l.Rel] = l.Href
	}
	if diff := cmp.Diff(map[string]string{"self": "/gpuatlas/changes/feed.atom", "alternate": "/gpuatlas/changes/"}, links); diff != "" {
		t.Errorf("feed links (-want +got):\n%s", diff)
	}
	if len(f.Entries) != 1 {
		t.Fatalf("the feed has %d entries, want 1 (one crawl with changes)", len(f.Entries))
	}
	e := f.Entries[0]
	if e.Updated != "2026-11-30T02:00:00Z" || e.Link.Rel != "alternate" || e.Link.Href != "/gpuatlas/changes/2026-11-30.html" || !strings.HasPrefix(e.ID, "urn:uuid:") || e.ID == f.ID {
		t.Errorf("entry: updated %q, link %s %q, id %q", e.Updated, e.Link.Rel, e.Link.Href, e.ID)
	}
	if e.Summary != "1 instance type added, 1 offer added, 1 offer removed, 1 price change, 1 availability change" {
		t.Errorf("entry summary = %q", e.Summary)
	}
	if e.Content.Type != "html" {
		t.Errorf("entry content type = %q", e.Content.Type)
	}
	for _, w := range []string{
		"<h3>AWS</h3>", "<li>added: g6f.large</li>",
		"<li>p5.48xlarge us-west-2 On-demand: 100 USD/hour → 110 USD/hour (&#43;10.00 %)</li>",
		"<h3>Alibaba Cloud</h3>", "<li>ecs.gn8is.4xlarge cn-hangzhou On-demand: available → sold out</li>",
		`<a href="/gpuatlas/changes/2026-11-30.html">`,
	} {
		if !strings.Contains(e.Content.Body, w) {
			t.Errorf("entry content lacks %q:\n%s", w, e.Content.Body)
		}
	}
	if strings.Contains(raw, "<li>") || !strings.Contains(raw, "&lt;li&gt;") {
		t.Error("the entry's HTML is not escaped text in the XML")
	}
	// The Chinese feed is in Chinese; ids differ per language.
	zh, _ := readFeed(t, out, "zh/changes/feed.atom")
	if zh.Lang != "zh-CN" || len(zh.Entries) != 1 || zh.Entries[0].ID == e.ID || !strings.Contains(zh.Entries[0].Content.Body, "新增") {
		t.Errorf("zh feed: lang %q, %d entries", zh.Lang, len(zh.Entries))
	}

	// With a site URL every link and id is an absolute URL of the site.
	out2 := filepath.Join(t.TempDir(), "site")
	opts.OutDir, opts.SiteURL = out2, "https://example.github.io"
	build(t, opts)
	f2, _ := readFeed(t, out2, "changes/feed.atom")
	if f2.ID != "https://example.github.io/gpuatlas/changes/feed.atom" || f2.Entries[0].ID != "https://example.github.io/gpuatlas/changes/2026-11-30.html" ||
		f2.Entries[0].Link.Href != "https://example.github.io/gpuatlas/changes/2026-11-30.html" || !strings.Contains(f2.Entries[0].Content.Body, `href="https://example.github.io/gpuatlas/changes/2026-11-30.html"`) {
		t.Errorf("feed with a site URL: id %q, entry id %q, link %q", f2.ID, f2.Entries[0].ID, f2.Entries[0].Link.Href)
	}
	// The same inputs give the same feed.
	out3 := filepath.Join(t.TempDir(), "site")
	opts.OutDir = out3
	build(t, opts)
	if readPage(t, out2, "changes/feed.atom") != readPage(t, out3, "changes/feed.atom") {
		t.Error("two builds wrote different feeds")
	}
}

func TestChanges_SnapshotNotYetRecorded(t *testing.T) {
	// The build's snapshot is newer than the history's last crawl: it is compared
	// with that crawl, and is the newest archive entry.
	cur, h := twoCrawls(t)
	next := canonicalCopy(cur)
	next.TakenAt = crawl2.Add(24 * time.Hour)
	for i := range next.Offers {
		next.Offers[i].FetchedAt = next.TakenAt
	}
	out := historySite(t, next, h)
	idx := readPage(t, out, "changes/index.html")
	wantContains(t, "changes/index.html", idx, "Nothing changed.", `<a href="/changes/2026-11-30.html">2026-11-30</a>`, `<a href="/changes/2026-12-01.html">2026-12-01</a>`, "<td>no change</td>")
	f, _ := readFeed(t, out, "changes/feed.atom")
	if len(f.Entries) != 1 || f.Updated != "2026-12-01T02:00:00Z" {
		t.Errorf("feed: %d entries, updated %s; want the one crawl with changes, updated at the snapshot", len(f.Entries), f.Updated)
	}
}

func TestChanges_OneCrawl(t *testing.T) {
	snap := testSnapshot(t)
	h := catalog.NewHistory()
	if _, err := h.Append(snap); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	opts := testOptions(t, out)
	opts.History = h
	build(t, opts)
	if idx := readPage(t, out, "changes/index.html"); !strings.Contains(idx, "is the first recorded") {
		t.Error("with one crawl the changes page does not say it is the first")
	}
	if f, _ := readFeed(t, out, "changes/feed.atom"); len(f.Entries) != 1 || !strings.Contains(f.Entries[0].Title, "2026-11-30") {
		t.Errorf("the feed of one crawl has %d entries, want the first crawl's: %+v", len(f.Entries), f.Entries)
	}
}

func TestChanges_NoHistory(t *testing.T) {
	// Without a history the site's snapshot is the first crawl: the changes
	// page says so with its date, and the feed has the first crawl.
	out := buildSite(t)
	idx := readPage(t, out, "changes/index.html")
	wantContains(t, "changes/index.html", idx, "is the first recorded", "2026-11-30")
	if !strings.Contains(readPage(t, out, "index.html"), `href="/changes/"`) {
		t.Error("the layout does not link the changes page")
	}
	f, _ := readFeed(t, out, "changes/feed.atom")
	if len(f.Entries) != 1 {
		t.Fatalf("the feed has %d entries, want the first crawl's", len(f.Entries))
	}
	if e := f.Entries[0]; !strings.Contains(e.Summary, "first crawl") || !strings.HasPrefix(e.ID, "urn:uuid:") {
		t.Errorf("first crawl's entry: %+v", e)
	}
}

func TestCrawlSlugs(t *testing.T) {
	d := func(day, hour int) time.Time { return time.Date(2026, 1, day, hour, 0, 0, 0, time.UTC) }
	got := crawlSlugs([]time.Time{d(1, 0), d(2, 0), d(2, 12), d(2, 18), d(3, 0)})
	if diff := cmp.Diff([]string{"2026-01-01", "2026-01-02", "2026-01-02-2", "2026-01-02-3", "2026-01-03"}, got); diff != "" {
		t.Errorf("slugs (-want +got):\n%s", diff)
	}
}

// TestChangesModel_StepsMatchWholeSnapshots checks the changes model, made from
// the history's steps, against the way it was first made: every crawl rebuilt
// whole, diffed with the one before, and its GPU minima computed from scratch.
// The made-up history has prices moving daily, types coming and going and a
// change of FX rates; the site's snapshot is newer than the last crawl.
func TestChangesModel_StepsMatchWholeSnapshots(t *testing.T) {
	h, last, err := synth.History(synth.HistoryOptions{Offers: 1200, Days: 30, Seed: 9, Churn: 0.02})
	if err != nil {
		t.Fatal(err)
	}
	// A crawl with new FX rates, then the site's own, unrecorded snapshot.
	fxDay := *last
	fxDay.TakenAt = last.TakenAt.Add(24 * time.Hour)
	fxDay.FX.Rates = map[catalog.Currency]decimal.Decimal{catalog.USD: decimal.NewFromInt(1), catalog.CNY: catalog.Dec("7.3")}
	if _, err := h.Append(&fxDay); err != nil {
		t.Fatal(err)
	}
	site := fxDay
	site.TakenAt = fxDay.TakenAt.Add(24 * time.Hour)
	site.Offers = append([]catalog.Offer(nil), fxDay.Offers...)
	site.Offers[0].Price.Amount = site.Offers[0].Price.Amount.Add(catalog.Dec("1"))
	m, err := newSiteModel(&site, testReference(t), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := newChangesModel(m, h)
	if err != nil {
		t.Fatal(err)
	}
	crawls := append(h.Crawls(), site.TakenAt)
	if len(c.crawls) != len(crawls) {
		t.Fatalf("%d crawls in the model, want %d", len(c.crawls), len(crawls))
	}
	var prev *catalog.Snapshot
	for i, at := range crawls {
		s := &site
		if i < len(crawls)-1 {
			if s, err = h.At(at); err != nil {
				t.Fatal(err)
			}
		}
		if prev != nil {
			want := c.changeSet(catalog.Diff(prev, s))
			if !reflect.DeepEqual(c.crawls[i].Set, want) {
				t.Errorf("crawl %d (%s): the change set differs from the whole snapshots'", i, at)
			}
		}
		if want := gpuMinima(s); fmt.Sprint(c.gpuMin[i]) != fmt.Sprint(want) {
			t.Errorf("crawl %d (%s): GPU minima %v, want %v", i, at, c.gpuMin[i], want)
		}
		prev = s
	}
}

// historySite builds, in a folder of t's, the site of a snapshot and its
// history (the test options but for those) and returns the folder.
func historySite(t *testing.T, snap *catalog.Snapshot, h *catalog.History) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "site")
	opts := testOptions(t, out)
	opts.Snapshot, opts.History = snap, h
	build(t, opts)
	return out
}
