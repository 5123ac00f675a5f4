package sitegen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"html/template"
	"sort"
	"strings"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// feedPath is the Atom feed of the changes, relative to a language root.
const feedPath = "changes/feed.atom"

// Atom 1.0 (RFC 4287), as much of it as the feed uses.
type atomFeed struct {
	XMLName   xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Lang      string      `xml:"xml:lang,attr"`
	ID        string      `xml:"id"`
	Title     string      `xml:"title"`
	Subtitle  string      `xml:"subtitle,omitempty"`
	Updated   string      `xml:"updated"`
	Links     []atomLink  `xml:"link"`
	Author    atomAuthor  `xml:"author"`
	Generator string      `xml:"generator"`
	Entries   []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel      string `xml:"rel,attr"`
	Type     string `xml:"type,attr,omitempty"`
	HrefLang string `xml:"hreflang,attr,omitempty"`
	Href     string `xml:"href,attr"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomEntry struct {
	ID      string     `xml:"id"`
	Title   string     `xml:"title"`
	Updated string     `xml:"updated"`
	Links   []atomLink `xml:"link"`
	Summary string     `xml:"summary"`
	Content atomText   `xml:"content"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Body string `xml:",chardata"`
}

// feed renders the Atom feed of one language: an entry per crawl with changes,
// newest first (at most maxFeedEntries), each with an HTML summary as escaped
// text. Its links are absolute URLs with Options.SiteURL, else paths under the
// base URL; ids are those URLs, or, without a site URL, urn:uuid ids derived from
// the base URL, language and crawl time, so that they never change.
func (c *changesModel) feed(l *language, base, siteURL string) ([]byte, error) {
	url := func(rel string) string { return siteURL + base + l.Prefix + rel }
	id := func(rel string) string {
		if siteURL != "" {
			return url(rel)
		}
		return stableUUID(base + "\x00" + l.Tag + "\x00" + rel)
	}
	last := c.crawls[len(c.crawls)-1]
	updated := last.At
	if o := c.observed; o != nil && len(o.Days) > 0 && o.Days[0].At.After(updated) {
		updated = o.Days[0].At
	}
	f := atomFeed{
		Lang: l.HTMLLang, ID: id(feedPath), Title: l.msg("changes.feed_title"), Subtitle: l.msg("changes.feed_subtitle"),
		Updated: atomTime(updated),
		Links: []atomLink{
			{Rel: "self", Type: "application/atom+xml", Href: url(feedPath)},
			{Rel: "alternate", Type: "text/html", HrefLang: l.HTMLLang, Href: url("changes/")},
		},
		Author: atomAuthor{Name: "GPU Atlas"}, Generator: "GPU Atlas",
	}
	for i := len(c.crawls) - 1; i > 0 && len(f.Entries) < maxFeedEntries; i-- {
		cr := c.crawls[i]
		if cr.Set == nil || cr.Set.Empty() {
			continue
		}
		summary := countsText(l, cr.Set.Total)
		content, err := feedContent(l, cr, url(cr.Path()))
		if err != nil {
			return nil, err
		}
		f.Entries = append(f.Entries, atomEntry{
			ID:      id(cr.Path()),
			Title:   l.msg("changes.feed_entry_title") + " " + cr.At.UTC().Format("2006-01-02 15:04 UTC"),
			Updated: atomTime(cr.At),
			Links:   []atomLink{{Rel: "alternate", Type: "text/html", HrefLang: l.HTMLLang, Href: url(cr.Path())}},
			Summary: summary,
			Content: atomText{Type: "html", Body: content},
		})
	}
	if err := c.addObservedEntries(l, &f, url, id); err != nil {
		return nil, err
	}
	if len(f.Entries) == 0 {
		// Nothing has changed yet (one crawl): the feed starts with the
		// first crawl, so that a reader who subscribes sees what it follows.
		first := c.crawls[0]
		text, err := l.t("changes.feed_first", "time", atomTime(first.At), "types", len(c.m.snap.Instances), "offers", len(c.m.snap.Offers))
		if err != nil {
			return nil, err
		}
		var body strings.Builder
		template.HTMLEscape(&body, []byte(text))
		f.Entries = append(f.Entries, atomEntry{
			ID:      id("changes/#first-" + first.Slug),
			Title:   l.msg("changes.feed_first_title") + " " + first.At.UTC().Format("2006-01-02 15:04 UTC"),
			Updated: atomTime(first.At),
			Links:   []atomLink{{Rel: "alternate", Type: "text/html", HrefLang: l.HTMLLang, Href: url("changes/")}},
			Summary: text,
			Content: atomText{Type: "html", Body: "<p>" + body.String() + "</p>"},
		})
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", " ")
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("encode %s: %w", feedPath, err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func atomTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// stableUUID is a name-based UUID (version 5 layout, SHA-256) of s as a URN.
func stableUUID(s string) string {
	sum := sha256.Sum256([]byte("gpuatlas feed\x00" + s))
	u := sum[:16]
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u)
	return "urn:uuid:" + h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// countsText says what a diff counted, in words: "1 instance type added, 2 price
// changes".
func countsText(l *language, c catalog.DiffCounts) string {
	var parts []string
	for _, it := range countItems(c) {
		s, err := l.t(it.Key, "n", it.N)
		if err != nil {
			s = fmt.Sprintf("%d %s", it.N, it.Key)
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return l.msg("changes.none")
	}
	return strings.Join(parts, l.msg("changes.list_sep"))
}

// maxFeedRows bounds the price and availability changes an entry lists.
const maxFeedRows = 10

// feedContentTmpl is an entry's HTML. html/template escapes every value: the
// provider data in it is text.
var feedContentTmpl = template.Must(template.New("entry").Parse(
	`<p>{{.Summary}}</p>
{{range .Providers}}<h3>{{.Name}}</h3>
<p>{{.Summary}}</p>
{{if .Rows}}<ul>
{{range .Rows}}<li>{{.}}</li>
{{end}}{{if .More}}<li>{{.More}}</li>
{{end}}</ul>
{{end}}{{end}}<p><a href="{{.Link}}">{{.LinkText}}</a></p>
`))

type feedProvider struct {
	Name, Summary string
	Rows          []string
	More          string
}

func feedContent(l *language, cr crawlInfo, link string) (string, error) {
	d := struct {
		Summary        string
		Providers      []feedProvider
		Link, LinkText string
	}{Summary: countsText(l, cr.Set.Total), Link: link, LinkText: l.msg("changes.feed_read_more")}
	for _, p := range cr.Set.Providers {
		fp := feedProvider{Name: l.label("provider", p.Provider), Summary: countsText(l, p.Counts)}
		for _, t := range p.TypesAdded.Rows {
			fp.Rows = append(fp.Rows, l.msg("changes.added")+": "+t.T.ID)
		}
		for _, t := range p.TypesRemoved.Rows {
			fp.Rows = append(fp.Rows, l.msg("changes.removed")+": "+t.T.ID)
		}
		for _, c := range p.Prices.Rows {
			s := offerText(l, c.changedOffer) + ": " + priceText(l, c.Old) + " → " + priceText(l, c.New)
			if pct := c.PercentText(); pct != "" {
				s += " (" + pct + ")"
			}
			fp.Rows = append(fp.Rows, s)
		}
		for _, c := range p.Avail.Rows {
			fp.Rows = append(fp.Rows, offerText(l, c.changedOffer)+": "+l.label("avail", c.Old)+" → "+l.label("avail", c.New))
		}
		total := p.TypesAdded.Total + p.TypesRemoved.Total + p.Prices.Total + p.Avail.Total
		if len(fp.Rows) > maxFeedRows {
			fp.Rows = fp.Rows[:maxFeedRows]
		}
		if total > len(fp.Rows) {
			more, err := l.t("changes.feed_more", "n", total-len(fp.Rows))
			if err != nil {
				return "", err
			}
			fp.More = more
		}
		d.Providers = append(d.Providers, fp)
	}
	var b strings.Builder
	if err := feedContentTmpl.Execute(&b, d); err != nil {
		return "", fmt.Errorf("feed entry %s: %w", cr.Slug, err)
	}
	return b.String(), nil
}

// offerText names an offer in a line: "p5.48xlarge us-east-1 (us-east-1a) On-demand".
func offerText(l *language, o changedOffer) string {
	s := o.O.InstanceType + " " + o.O.Region
	if o.O.Zone != "" {
		s += " (" + o.O.Zone + ")"
	}
	return s + " " + l.label("billing", o.O.Billing)
}

// priceText is a published price as the pages' "price" template writes it.
func priceText(l *language, p catalog.Price) string {
	up := l.msg("price.upfront")
	if p.Unit == catalog.Upfront {
		return p.Amount.String() + " " + string(p.Currency) + " " + up
	}
	s := p.Amount.String() + " " + string(p.Currency) + "/" + l.label("unit", p.Unit)
	if p.Upfront != nil && !p.Upfront.IsZero() {
		s += " + " + p.Upfront.String() + " " + string(p.Currency) + " " + up
	}
	return s
}

// addObservedEntries adds an entry per day of the archives' dated price changes
// to the feed's crawl entries, keeping the newest maxFeedEntries of them all,
// newest first.
func (c *changesModel) addObservedEntries(l *language, f *atomFeed, url, id func(string) string) error {
	if c.observed == nil {
		return nil
	}
	type dated struct {
		at time.Time
		e  atomEntry
	}
	var all []dated
	for _, e := range f.Entries {
		at, _ := time.Parse(time.RFC3339, e.Updated)
		all = append(all, dated{at, e})
	}
	for i, d := range c.observed.Days {
		if i == maxFeedEntries {
			break
		}
		rel := archivesPath + "#d-" + d.Date
		content, err := observedFeedContent(l, d, url(rel))
		if err != nil {
			return err
		}
		summary, err := l.t(pluralKey("changes.n.price_changes", len(d.Rows)), "n", len(d.Rows))
		if err != nil {
			return err
		}
		all = append(all, dated{d.At, atomEntry{
			ID: id(rel), Title: l.msg("changes.feed_archive_title") + " " + d.Date, Updated: atomTime(d.At),
			Links:   []atomLink{{Rel: "alternate", Type: "text/html", HrefLang: l.HTMLLang, Href: url(rel)}},
			Summary: summary, Content: atomText{Type: "html", Body: content},
		}})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].at.After(all[j].at) })
	f.Entries = f.Entries[:0]
	for _, d := range all {
		if len(f.Entries) == maxFeedEntries {
			break
		}
		f.Entries = append(f.Entries, d.e)
	}
	return nil
}

// pluralKey is key.one for 1, key.other otherwise.
func pluralKey(key string, n int) string {
	if n == 1 {
		return key + ".one"
	}
	return key + ".other"
}

// observedFeedContentTmpl is an archive day's entry: its changes with the
// archive that observed each.
var observedFeedContentTmpl = template.Must(template.New("observed").Parse(
	`<p>{{.Lead}}</p>
<ul>
{{range .Rows}}<li>{{.Text}}{{range .Sources}} · {{if .URL}}<a href="{{.URL}}">{{.Name}}</a>{{else}}{{.Name}}{{end}}{{end}}</li>
{{end}}{{if .More}}<li>{{.More}}</li>
{{end}}</ul>
<p><a href="{{.Link}}">{{.LinkText}}</a></p>
`))

func observedFeedContent(l *language, d observedDay, link string) (string, error) {
	type row struct {
		Text    string
		Sources []sourceLink
	}
	v := struct {
		Lead           string
		Rows           []row
		More           string
		Link, LinkText string
	}{Lead: l.msg("changes.archives_lead"), Link: link, LinkText: l.msg("changes.feed_read_more")}
	for i, r := range d.Rows {
		if i == maxFeedRows {
			more, err := l.t("changes.feed_more", "n", len(d.Rows)-i)
			if err != nil {
				return "", err
			}
			v.More = more
			break
		}
		s := offerText(l, r.changedOffer) + ": " + rangeText(l, r.Old) + " → " + rangeText(l, r.New)
		if pct := r.PercentText(); pct != "" {
			s += " (" + pct + ")"
		}
		v.Rows = append(v.Rows, row{Text: s, Sources: r.Sources})
	}
	var b strings.Builder
	if err := observedFeedContentTmpl.Execute(&b, v); err != nil {
		return "", fmt.Errorf("feed entry %s: %w", d.Date, err)
	}
	return b.String(), nil
}

// rangeText is a published price or range: "2250 - 2500 CNY/month".
func rangeText(l *language, p priceRange) string {
	if p.High == nil {
		return priceText(l, p.Price)
	}
	return p.Amount.String() + " - " + p.High.String() + " " + string(p.Currency) + "/" + l.label("unit", p.Unit)
}
