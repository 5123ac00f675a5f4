package sitegen

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Series imported from public archives can name instance types the snapshot no
// longer has (Tencent's GN2 of 2018, a size since retired). Each gets a page of
// its own beside the instance pages, with its price history and nothing that is
// not known: no specs, no current offer.

// archivedType is an instance type that only imported prices name.
type archivedType struct {
	Key      string
	Provider catalog.Provider
	ID       string
	Href     string // page path relative to a language root
}

// archivedData is the model of an archived type's page.
type archivedData struct {
	Type         *archivedType
	PriceHistory priceHistoryView
	// First and Last are the first and last days a price of it held, as the
	// archives say.
	First, Last string
}

// useObserved indexes the imported series by instance type and gives each type
// that the snapshot lacks a page path: after the snapshot's own types, so that
// theirs never change, "-2", "-3" ... where a slug is taken.
func (m *siteModel) useObserved(h *catalog.History) {
	m.observedOf = map[string][]catalog.ObservedSeriesRuns{}
	for _, s := range h.ObservedSeries() {
		k := s.Runs[0].InstanceKey()
		m.observedOf[k] = append(m.observedOf[k], s)
	}
	taken := map[string]bool{}
	for _, t := range m.types {
		taken[t.Href] = true
	}
	keys := make([]string, 0, len(m.observedOf))
	for k := range m.observedOf {
		if _, ok := m.typeByKey[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	m.archivedBy = map[string]*archivedType{}
	for _, k := range keys {
		first := m.observedOf[k][0].Runs[0]
		dir := "instances/" + slugify(string(first.Provider)) + "/"
		base := slugify(first.InstanceType)
		p := dir + base + ".html"
		for n := 2; taken[p]; n++ {
			p = dir + base + "-" + strconv.Itoa(n) + ".html"
		}
		taken[p] = true
		a := &archivedType{Key: k, Provider: first.Provider, ID: first.InstanceType, Href: p}
		m.archived = append(m.archived, a)
		m.archivedBy[k] = a
	}
}

// typeHref is the page of an instance type by key: the snapshot's, or an
// archived type's; "" when it has none.
func (m *siteModel) typeHref(key string) string {
	if t, ok := m.typeByKey[key]; ok {
		return t.Href
	}
	if a, ok := m.archivedBy[key]; ok {
		return a.Href
	}
	return ""
}

func (m *siteModel) archivedPage(a *archivedType) archivedData {
	d := archivedData{Type: a, PriceHistory: m.historyOf(a.Key, nil)}
	for _, s := range m.observedOf[a.Key] {
		for _, r := range s.Runs {
			from, last := r.From.UTC().Format("2006-01-02"), r.Until.Add(-time.Nanosecond).UTC().Format("2006-01-02")
			if d.First == "" || from < d.First {
				d.First = from
			}
			if last > d.Last {
				d.Last = last
			}
		}
	}
	return d
}

// sourceLink is an archive's URL and a short name for it: the host and the
// repository ("github.com/amorton45/aws-gpu-price-tracker").
type sourceLink struct {
	URL, Name string
}

// sourceLinks shortens each source that is an http(s) URL; other text is kept
// as its own name with no link.
func sourceLinks(sources []string) []sourceLink {
	var out []sourceLink
	for _, s := range sources {
		if !isHTTPURL(s) {
			out = append(out, sourceLink{Name: s})
			continue
		}
		rest := s[strings.Index(s, "://")+3:]
		parts := strings.SplitN(rest, "/", 4)
		name := strings.Join(parts[:min(3, len(parts))], "/")
		out = append(out, sourceLink{URL: s, Name: name})
	}
	return out
}

// sourceGroup is the versions of one archive that observed a run of prices:
// its short name, the first and last version's URLs and how many there are (a
// run of a list-price page spans many versions of it).
type sourceGroup struct {
	Name, First, Last string
	N                 int
}

// sourceGroups groups sources by their short name (sourceLinks), in the order
// first seen.
func sourceGroups(sources []string) []sourceGroup {
	var out []sourceGroup
	at := map[string]int{}
	for _, l := range sourceLinks(sources) {
		i, ok := at[l.Name]
		if !ok {
			at[l.Name] = len(out)
			out = append(out, sourceGroup{Name: l.Name, First: l.URL, Last: l.URL, N: 1})
			continue
		}
		out[i].Last = l.URL
		out[i].N++
	}
	return out
}
