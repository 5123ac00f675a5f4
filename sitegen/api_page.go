package sitegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The API page (api.html, in every language) and llms.txt at the site root:
// what the JSON API holds and how to read it, for people, scripts and
// language models. llms.txt follows llmstxt.org (an H1, a summary blockquote,
// sections of links); its dates are the catalog's, never the clock's, so the
// same catalog builds the same file.

const (
	apiPagePath = "api.html"
	llmsTxtPath = "llms.txt"
)

// apiPageData is the model of api.html.
type apiPageData struct {
	Docs []apiDocRow
	// Origin is where the site is published (SiteURL and base), "" when the
	// build does not know it: the examples then use $SITE as it is.
	Origin       string
	Index        string // api/v1/index.json
	Files        int
	Bytes        int64
	Curl, DuckDB string
}

// apiDocRow is one document kind on the API page.
type apiDocRow struct {
	Kind    string // message api.kind.<kind>
	Pattern string // api/v1/instances/{provider}/{type}.json
	Example string // a document of the kind, from the site root
	Schema  string
	Count   int
}

// Parts splits a path at its slashes, for a page that breaks it there on a
// narrow screen.
func (apiDocRow) Parts(p string) []string { return strings.Split(p, "/") }

// apiPage is the API page's model.
func apiPage(sum apiSummary, siteURL, base string) apiPageData {
	d := apiPageData{Index: apiRoot + "index.json", Files: sum.Files, Bytes: sum.Bytes}
	if siteURL != "" {
		d.Origin = siteURL + base
	}
	row := func(kind, pattern, example string, n int) {
		if n == 0 {
			return
		}
		d.Docs = append(d.Docs, apiDocRow{Kind: kind, Pattern: apiRoot + pattern, Example: apiRoot + example, Schema: apiRoot + "schema/" + kind + ".json", Count: n})
	}
	row("index", "index.json", "index.json", 1)
	row("instance", "instances/{provider}/{type}.json", sum.ExampleInstance, sum.Instances)
	row("offers", "offers/{provider}.json", sum.ExampleOffers, sum.Offers)
	row("gpu", "gpus/{id}.json", sum.ExampleGPU, sum.GPUs)
	row("region", "regions/{provider}/{region}.json", sum.ExampleRegion, sum.Regions)
	row("scenario", "scenarios/{id}.json", sum.ExampleScenario, sum.Scenarios)
	site := "$SITE"
	var c strings.Builder
	if d.Origin != "" {
		fmt.Fprintf(&c, "SITE=%s\n", strings.TrimSuffix(d.Origin, "/"))
	}
	fmt.Fprintf(&c, "curl -s \"%s/%sindex.json\" | jq '.providers[] | {provider, offers, newest_observed_at}'\n", site, apiRoot)
	if sum.ExampleInstance != "" {
		fmt.Fprintf(&c, "curl -s \"%s/%s%s\" | jq '.offers[] | select(.billing == \"on_demand\") | {region, price, provenance, marks}'\n", site, apiRoot, sum.ExampleInstance)
	}
	fmt.Fprintf(&c, "curl -s -o offers.json \"%s/%s%s\"", site, apiRoot, sum.ExampleOffers)
	d.Curl = c.String()
	d.DuckDB = `SELECT o.instance_type, o.region, o.price.amount AS amount, o.price.currency AS currency,
       o.usd_per_gpu_hour.amount AS usd_per_gpu_hour, o.provenance.observed_at
FROM (SELECT unnest(offers) AS o FROM read_json_auto('offers.json'))
WHERE o.billing = 'on_demand' AND NOT list_has_any(o.marks, ['suspect', 'reported'])
ORDER BY CAST(o.usd_per_gpu_hour.amount AS DECIMAL(18, 8)) NULLS LAST
LIMIT 10;`
	return d
}

// llmsTxt is llms.txt: the site, the API and the data's dates.
func llmsTxt(m *siteModel, sum apiSummary, siteURL, base string, scenarios bool) []byte {
	u := func(p string) string { return siteURL + base + p }
	snap := m.snap
	var b strings.Builder
	b.WriteString("# GPU Atlas\n\n")
	b.WriteString("> GPU cloud instance types of AWS, Alibaba Cloud, Tencent Cloud, Huawei Cloud, Volcano Engine, Microsoft Azure and Google Cloud in one catalog: specs, native prices with their source and dates, scenario fit and cost per unit of work. The site is in English and Chinese; the JSON API under api/v1/ serves the same figures to scripts.\n\n")
	fmt.Fprintf(&b, "Catalog taken at %s. Every offer carries its source, fetched_at (when GPU Atlas retrieved it) and observed_at (when the source says the price held). Money is an exact decimal string with its currency (%s); USD figures use the FX table of %s (%s, base %s).\n\n",
		snap.TakenAt.UTC().Format("2006-01-02"), strings.Join(currencies(snap), ", "), snap.FX.Date, markdownText(snap.FX.Source), snap.FX.Base)
	b.WriteString("Data dates by provider:\n\n")
	for _, p := range m.providers() {
		var age catalog.DataAge
		for _, a := range m.ages {
			if a.Provider == p {
				age = a
			}
		}
		status := "unknown"
		if c, ok := m.coverage[p]; ok {
			status = string(c.Status)
		}
		fmt.Fprintf(&b, "- %s: coverage %s, offers %d", p, status, age.Offers)
		if !age.Oldest.IsZero() {
			fmt.Fprintf(&b, ", observed %s to %s", age.Oldest.UTC().Format("2006-01-02"), age.Newest.UTC().Format("2006-01-02"))
		}
		if age.Unknown > 0 {
			fmt.Fprintf(&b, ", undated offers %d", age.Unknown)
		}
		if !age.Retrieved.IsZero() {
			fmt.Fprintf(&b, ", retrieved %s", age.Retrieved.UTC().Format("2006-01-02"))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## API\n\n")
	fmt.Fprintf(&b, "- [API index](%s): providers, data dates per provider, counts, and a link to every document\n", u(apiRoot+"index.json"))
	link := func(name, example, pattern string, n int, what string) {
		if n > 0 {
			fmt.Fprintf(&b, "- [%s](%s): %d documents at %s%s; %s\n", name, u(apiRoot+example), n, apiRoot, pattern, what)
		}
	}
	link("Instance types", sum.ExampleInstance, "instances/{provider}/{type}.json", sum.Instances, "specs, accelerators (reported and reference memory), every offer with provenance and marks, scenario verdicts with reason codes, cost per unit of work")
	link("Offers", sum.ExampleOffers, "offers/{provider}.json", sum.Offers, "every offer of a provider")
	link("GPU models", sum.ExampleGPU, "gpus/{id}.json", sum.GPUs, "reference specs, instance types, lowest prices per GPU-hour, scenarios, published benchmark costs")
	link("Regions", sum.ExampleRegion, "regions/{provider}/{region}.json", sum.Regions, "location, zones, instance types with their lowest on-demand price")
	link("Scenarios", sum.ExampleScenario, "scenarios/{id}.json", sum.Scenarios, "requirements, weights and the whole ranking; for interruptible work (training, batch inference, rendering) also the ranking on spot prices adjusted for the interruption risk")
	fmt.Fprintf(&b, "- [JSON Schemas](%s): one JSON Schema (draft 2020-12) per document kind under %sschema/; within v1 fields are only added, never renamed or removed\n", u(apiRoot+"schema/index.json"), apiRoot)
	fmt.Fprintf(&b, "- [API page](%s): the documents, curl and DuckDB examples\n", u(apiPagePath))
	b.WriteString("\n## Pages\n\n")
	fmt.Fprintf(&b, "- [Overview](%s): providers, coverage and data age\n", u("index.html"))
	fmt.Fprintf(&b, "- [Instance explorer](%s): every offer, filtered and sorted\n", u("offers.html"))
	fmt.Fprintf(&b, "- [GPU models](%s): one page per GPU model\n", u("gpus/index.html"))
	if scenarios {
		fmt.Fprintf(&b, "- [Scenarios](%s): which instance types fit training, inference, rendering, video, HPC and dev-test, and why\n", u("scenarios/index.html"))
	}
	fmt.Fprintf(&b, "- [Methodology](%s): sources, normalisation and rules\n", u("methodology.html"))
	b.WriteString("\n## Optional\n\n")
	fmt.Fprintf(&b, "- [Downloads](%s): the catalog as JSON, CSV and Parquet\n", u("downloads.html"))
	fmt.Fprintf(&b, "- [Catalog snapshot](%s): the whole catalog in one file\n", u("data/catalog.json"))
	fmt.Fprintf(&b, "- [Chinese site](%s): the same pages in Chinese\n", u("zh/index.html"))
	return []byte(b.String())
}

// currencies are the currencies the catalog's offers are priced in, and USD.
func currencies(snap *catalog.Snapshot) []string {
	seen := map[string]bool{string(catalog.USD): true}
	for _, o := range snap.Offers {
		seen[string(o.Price.Currency)] = true
	}
	out := make([]string, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// oneLine is a catalog's text on one line of llms.txt: a line break in it
// would start a Markdown block of its own.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// markdownText is text from outside (the FX table's source) on one line
// with Markdown's punctuation backslash-escaped, so that llms.txt shows it as
// written: it cannot open a link, an image, an HTML tag or emphasis.
func markdownText(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		if strings.ContainsRune("\\`*_{}[]()<>#!|\"=", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
