package sitegen

import (
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/words"
)

// funcMap is every function the templates can call, bound to one language. Links
// are absolute paths under the base URL so that every page, the 404 page included,
// works wherever it is served from (/ or /<repo>/).
func funcMap(base string, l *language, versions map[string]string) template.FuncMap {
	// The words are taken when a template calls them: the page currency they
	// show money in is set after the templates are parsed (setPageFX).
	w := l.words
	return template.FuncMap{
		"t": l.t,
		// en is text from outside shown as written (outside_text.go); th is t
		// with placeholders given through en marked as such.
		"en":  outsideText,
		"ena": func(s string) enArg { return enArg(s) },
		// name is a proper name from outside (a submitter, a system): en's
		// text, marked translate="no".
		"name": nameText,
		"th":   l.tOutside,
		// suspect is an offer's implausibility reasons in words (words/suspect_words.go).
		"suspect": func(s string) string { return l.words().Suspect(s) },
		// hourly is an hourly price in the page's currency (page_currency.go);
		// pagecur that currency, pagefx its rate from USD and the rate's date.
		"hourly":  l.hourly,
		"pagecur": func() string { return string(l.currency()) },
		"pmoney":  l.pageMoney,
		// permonth is a subscription or reservation per month with its hourly
		// equivalent (subscription.go); "" for pay-as-you-go.
		"permonth": l.perMonthText,
		"curname":  l.curName,
		"pagefx":   func() pageFX { return l.fx },
		// costunit is a workload's cost unit in the page's currency.
		"costunit": l.costUnit,
		"suspecth": func(s string) template.HTML { return suspectHTML(l, s) },
		// data is a text of the catalog's fixed forms (data_text.go).
		"data":    func(s string) template.HTML { return dataHTML(l, s) },
		"datasrc": func(s string) template.HTML { return dataSourceHTML(l, s) },
		// datawords is a text of the fixed forms in the page's words, or ""
		// (data_text.go).
		"datawords": func(s string) string { return dataWords(l, s) },
		// runnotes are a benchmark run's notes in the page's language.
		"runnotes": func(r catalog.BenchmarkRun) template.HTML { return runNotesHTML(l, r) },
		// capsource is a GPU's capability source in the page's language.
		"capsource": func(m catalog.GPUModel) template.HTML { return capabilitySourceHTML(l, m) },
		"label":     l.label,
		// sp separates two sentences: a space in English, nothing after a
		// Chinese full stop.
		"sp": func() string {
			if l.Tag == "zh" {
				return ""
			}
			return " "
		},
		// link is a page of the current language; "index.html" is its folder.
		"link": func(rel string) string { return base + l.Prefix + strings.TrimSuffix(rel, "index.html") },
		// narrowchart is the path of a chart's phone drawing (charts.go).
		"narrowchart": narrowChart,
		// asset is a language-independent file; static files carry a content
		// version so a browser never mixes an old script with a new page.
		"asset": func(rel string) string {
			if v, ok := versions[rel]; ok {
				return base + rel + "?v=" + v
			}
			return base + rel
		},
		"rname": l.regionName,
		"money": func(d *decimal.Decimal) string {
			if d == nil {
				return ""
			}
			return moneyText(*d)
		},
		"when": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
		"size": humanSize,
		// gpuhref is a GPU model's page path relative to a language root.
		"gpuhref": gpuHref,
		// sourcelinks shortens the URLs of an imported price's archives.
		"sourcelinks":  sourceLinks,
		"sourcegroups": sourceGroups,
		// pricegroups are the columns of the price summaries (prices.go).
		"pricegroups": func() []priceGroup { return priceGroups },
		// scname is a scenario's name in the language; fitreasons a
		// verdict's reasons (fits.go).
		"scname":     func(s compare.Scenario) string { return scenarioName(l, s) },
		"fitreasons": func(f compare.OfferFit) []fitReason { return fitReasons(l, f) },
		// instanceOfferRows are the rows of an instance page's offer table.
		"instanceOfferRows": func(offers []*offerView) template.HTML { return instanceOfferRows(l, offers) },
		// compare's reasons in the page's language (words/reason_words.go): reason
		// rounds figures for people, exact keeps them for formulas.
		"reason":   func(r compare.Reason) template.HTML { return ReasonHTML(w(), r) },
		"exact":    func(r compare.Reason) string { return w().Exact(r) },
		"reasons":  func(rs []compare.Reason) string { return w().Reasons(rs) },
		"hardware": func(h compare.Hardware) string { return w().Hardware(h) },
		"workunit": func(u string) string { return w().WorkUnit(u) },
		// qty is a figure with its unit in words: qty 640 "GiB" is "640 GiB".
		"qty": func(v decimal.Decimal, unit string) string { return w().Q(v, compare.Unit(unit)) },
		// workcost is a cost per unit of work in the page's currency: "15.29 USD
		// per 1M tokens", "每百万 token 108.56 元".
		"workcost": func(c compare.WorkCost) string {
			w := w()
			return w.T("workcost.value", "cost", w.Q(c.CostPerUnit, compare.UnitUSD), "unit", w.Label(compare.GroupCostUnit, c.Workload))
		},
		// Numbers for people (words/number_format.go).
		"num":   words.FormatQuantity,
		"cents": words.FormatMoney,
		"rate":  words.FormatRate,
		"pct":   words.FormatPercent,
		"share": words.FormatShare,
	}
}

// moneyRound rounds a derived price for display: 4 decimals below 10 (a GPU slice
// costs cents an hour), 2 from 10 up. The explorer's script formats the same
// rounded figure, so server and script rows read alike.
func moneyRound(d decimal.Decimal) (decimal.Decimal, int32) {
	r := d.Round(4)
	if r.Abs().LessThan(decimal.NewFromInt(10)) {
		return r, 4
	}
	return d.Round(2), 2
}

func moneyText(d decimal.Decimal) string {
	r, places := moneyRound(d)
	return r.StringFixed(places)
}

// humanSize is a file size in B, KB, MB (powers of 1000).
func humanSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/1000/1000)
	}
}
