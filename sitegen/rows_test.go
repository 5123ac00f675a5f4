package sitegen

import (
	"html/template"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/templates"
)

// instanceOfferRowTemplate is the row of instance.html's offer table.
const instanceOfferRowTemplate = `{{range .}}<tr>
<td data-label="{{t "col.region"}}">{{template "region" .Region}}</td>
<td data-label="{{t "col.zone"}}">{{.Offer.Zone}}</td>
<td data-label="{{t "col.billing"}}">{{label "billing" .Offer.Billing}}</td>
<td class="num" data-label="{{t "col.price_published"}}">{{template "published" .Offer}}</td>
<td class="num" data-label="{{t "col.price_hour" "cur" curname}}">{{with .USDHour}}{{pmoney .}} {{pagecur}}{{end}}</td>
<td class="num" data-label="{{t "col.price_gpu_hour" "cur" curname}}">{{with .USDGPUHour}}{{pmoney .}} {{pagecur}}{{end}}</td>
<td data-label="{{t "col.availability"}}">{{label "avail" .Offer.Availability}}</td>
<td data-label="{{t "col.includes"}}">{{with .Offer.Includes}}{{en .}}{{else}}—{{end}}</td>
<td data-label="{{t "col.marks"}}">{{template "marks" .}}{{with .Offer.Suspect}} <small>{{suspecth .}}</small>{{end}}</td>
</tr>
{{end}}`

// hostileOffers are offer rows with every value a provider or an upload could
// make awkward: markup, quotes, plus signs, NUL, bad UTF-8, script URLs.
func hostileOffers() []*offerView {
	hostile := []string{`<script>alert("x")</script>`, `a'b"c&d+e`, "nul\x00byte", "bad\xffutf8", "中文 名称", `javascript:alert(1)`,
		"x%20y z", "JavaScript:void(0)", "https://example.com/a?b=c", "/ok/path.html", "a:b/c", "a/b:c", "\uFDD0\uFFFE"}
	var out []*offerView
	for i, h := range hostile {
		usd := decimal.RequireFromString("12.3456789")
		gpu := decimal.RequireFromString("0.5")
		o := &offerView{
			Key: h + "/key",
			Offer: catalog.Offer{Provider: catalog.Provider([]string{"aws", "alibaba", h}[i%3]), InstanceType: h, Region: "r" + h,
				Zone: h, Billing: catalog.BillingKind([]string{"on_demand", "spot", h}[i%3]), Availability: catalog.Availability([]string{"available", h}[i%2]),
				Synthetic: i%2 == 0, Suspect: []string{"", h}[i%2]},
			Type:   &typeView{Href: []string{"instances/aws/" + h + ".html", h, "index.html"}[i%3], GPUs: h},
			Region: catalog.Region{ID: h, NameEN: h + " en", NameZH: []string{"", h + " 中"}[i%2]},
			Stale:  i%3 == 1,
			// Every mark of a price's age and kind: old (with its date), undated, reported.
			Old: i%4 == 1 || i%4 == 2, Undated: i%4 == 3, Observed: h, AgeDays: 366,
		}
		o.Offer.Reported = i%5 == 0
		if i%3 == 0 {
			o.Offer.PriceRange = &catalog.PriceRange{Min: decimal.RequireFromString("1.2500"), Max: decimal.RequireFromString("9")}
		}
		if i%2 == 0 {
			o.USDHour, o.USDGPUHour = &usd, &gpu
		}
		// Every shape of price: hourly, monthly with an upfront part, all
		// upfront, a zero upfront, odd units and currencies.
		up, zero := decimal.RequireFromString("1234.50"), decimal.Zero
		o.Offer.Price = catalog.Price{Amount: decimal.RequireFromString("3.0500"), Currency: catalog.Currency([]string{"USD", "CNY", h}[i%3]),
			Unit: catalog.PriceUnit([]string{"hour", "month", "upfront", h}[i%4])}
		switch i % 3 {
		case 1:
			o.Offer.Price.Upfront = &up
		case 2:
			o.Offer.Price.Upfront = &zero
		}
		o.Offer.Includes = []string{"", h}[i%2]
		out = append(out, o)
	}
	return out
}

func TestOfferRows_AsTheTemplate(t *testing.T) {
	langs := newLanguages()
	if err := loadMessages(templates.FS, langs); err != nil {
		t.Fatal(err)
	}
	// The Chinese rows are in CNY at the snapshot's rate.
	setPageFX(langs, catalog.FXTable{Base: "USD", Date: "2026-11-28", Rates: map[catalog.Currency]decimal.Decimal{catalog.USD: catalog.Dec("1"), catalog.CNY: catalog.Dec("7.1")}})
	offers := hostileOffers()
	for _, tc := range []struct {
		name, template string
		rows           func(base string, l *language, offers []*offerView) template.HTML
	}{
		{"instance", instanceOfferRowTemplate, func(_ string, l *language, offers []*offerView) template.HTML { return instanceOfferRows(l, offers) }},
	} {
		for _, base := range []string{"/", "/sub path/"} {
			for _, l := range langs {
				tmpl, err := template.New("row").Funcs(funcMap(base, l, nil)).ParseFS(templates.FS, "_partials.html")
				if err != nil {
					t.Fatal(err)
				}
				if tmpl, err = tmpl.New("rows").Parse(tc.template); err != nil {
					t.Fatal(err)
				}
				var want strings.Builder
				if err := tmpl.ExecuteTemplate(&want, "rows", offers); err != nil {
					t.Fatal(err)
				}
				if got := string(tc.rows(base, l, offers)); got != want.String() {
					gl, wl := strings.Split(got, "\n"), strings.Split(want.String(), "\n")
					for i := range min(len(gl), len(wl)) {
						if gl[i] != wl[i] {
							t.Fatalf("%s rows, %s, base %q: line %d differs:\n got %q\nwant %q", tc.name, l.Tag, base, i+1, gl[i], wl[i])
						}
					}
					t.Fatalf("%s rows, %s, base %q: %d lines, want %d", tc.name, l.Tag, base, len(gl), len(wl))
				}
			}
		}
	}
}
