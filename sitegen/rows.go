package sitegen

import (
	"html/template"
	"strings"
	"unicode/utf8"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The largest table of the site (every offer of an instance type on its page) is
// written by Go code rather than by html/template: a template spends most of a
// large build in reflection, one call per value of every row. The code writes
// exactly the bytes the template it replaces wrote, escaping each value the way
// html/template's contextual escaper does in that place; TestOfferRows_AsTheTemplate
// renders the same rows both ways, hostile values included, and compares them.

// htmlReplacement is html/template's htmlReplacementTable: how it escapes text
// and quoted attribute values.
var htmlReplacement = [...]string{
	0:    "\uFFFD",
	'"':  "&#34;",
	'&':  "&amp;",
	'\'': "&#39;",
	'+':  "&#43;",
	'<':  "&lt;",
	'>':  "&gt;",
}

// escapeText writes s as html/template writes a string in text or in a quoted
// attribute value.
func escapeText(b *strings.Builder, s string) {
	written := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if int(r) < len(htmlReplacement) {
			if repl := htmlReplacement[r]; repl != "" {
				b.WriteString(s[written:i])
				b.WriteString(repl)
				written = i + w
			}
		}
		i += w
	}
	b.WriteString(s[written:])
}

// writeRegion is the "region" template of _partials.html.
func writeRegion(b *strings.Builder, l *language, o *offerView) {
	escapeText(b, l.regionName(o.Region))
	b.WriteString(` <small class="id" translate="no">`)
	escapeText(b, o.Region.ID)
	b.WriteString(`</small>`)
}

// writeMarks is the "marks" template of _partials.html.
func writeMarks(b *strings.Builder, l *language, o *offerView) {
	if o.Offer.Synthetic {
		b.WriteString(`<span class="badge synthetic" title="`)
		escapeText(b, l.msg("badge.synthetic_title"))
		b.WriteString(`">`)
		escapeText(b, l.msg("badge.synthetic"))
		b.WriteString(`</span> `)
	}
	if o.Offer.Reported {
		writeBadge(b, "reported", l.msg("badge.reported_title"), l.msg("badge.reported"))
		b.WriteString(" ")
	}
	if o.Offer.Estimated {
		writeBadge(b, "estimated", l.msg("badge.estimated_title"), l.msg("badge.estimated"))
		b.WriteString(" ")
	}
	if o.Offer.Suspect != "" {
		writeBadge(b, "suspect", l.words().Suspect(o.Offer.Suspect), l.msg("badge.suspect"))
		b.WriteString(" ")
	}
	switch {
	case o.Stale:
		writeBadge(b, "stale", l.msg("badge.stale_title"), l.msg("badge.stale"))
		b.WriteString(" ")
	case o.Old:
		title, _ := l.t("badge.old_title", "date", o.Observed, "days", o.AgeDays) // the key is in every catalog (TestMessages)
		writeBadge(b, "stale", title, l.msg("badge.stale"))
		b.WriteString(" ")
	}
	if o.Undated {
		writeBadge(b, "undated", l.msg("badge.undated_title"), l.msg("badge.undated"))
	}
}

// writeBadge writes <span class="badge CLASS" title="TITLE">TEXT</span>.
func writeBadge(b *strings.Builder, class, title, text string) {
	b.WriteString(`<span class="badge `)
	b.WriteString(class)
	b.WriteString(`" title="`)
	escapeText(b, title)
	b.WriteString(`">`)
	escapeText(b, text)
	b.WriteString(`</span>`)
}

// instanceOfferRows writes the rows of an instance page's offer table
// (instance.html): one per offer, as the template's row did. Each cell names
// its column (data-label): on a narrow screen a row is a card.
func instanceOfferRows(l *language, offers []*offerView) template.HTML {
	var b strings.Builder
	b.Grow(len(offers) * 900)
	var cells [9]string
	for i, k := range []string{"col.region", "col.zone", "col.billing", "col.price_published", "col.price_hour", "col.price_gpu_hour", "col.availability", "col.includes", "col.marks"} {
		var c strings.Builder
		c.WriteString(`<td`)
		if i >= 3 && i <= 5 {
			c.WriteString(` class="num"`)
		}
		c.WriteString(` data-label="`)
		label, _ := l.t(k, "cur", l.curName()) // every key is in both catalogs (TestMessages)
		escapeText(&c, label)
		c.WriteString(`">`)
		cells[i] = c.String()
	}
	for _, o := range offers {
		b.WriteString("<tr>\n")
		b.WriteString(cells[0])
		writeRegion(&b, l, o)
		b.WriteString("</td>\n")
		b.WriteString(cells[1])
		escapeText(&b, o.Offer.Zone)
		b.WriteString("</td>\n")
		b.WriteString(cells[2])
		escapeText(&b, l.label("billing", o.Offer.Billing))
		b.WriteString("</td>\n")
		b.WriteString(cells[3])
		writePublished(&b, l, o.Offer)
		writeParts(&b, l, o.Offer)
		if pm := l.perMonthText(o.Offer); pm != "" {
			b.WriteString(`<small class="sub per-month">`)
			escapeText(&b, pm)
			b.WriteString(`</small>`)
		}
		b.WriteString("</td>\n")
		b.WriteString(cells[4])
		if o.USDHour != nil {
			escapeText(&b, l.pageMoney(o.USDHour))
			b.WriteString(" " + string(l.currency()))
		}
		b.WriteString("</td>\n")
		b.WriteString(cells[5])
		if o.USDGPUHour != nil {
			escapeText(&b, l.pageMoney(o.USDGPUHour))
			b.WriteString(" " + string(l.currency()))
		}
		b.WriteString("</td>\n")
		b.WriteString(cells[6])
		escapeText(&b, l.label("avail", o.Offer.Availability))
		b.WriteString("</td>\n")
		b.WriteString(cells[7])
		if o.Offer.Includes != "" {
			b.WriteString(string(dataHTML(l, o.Offer.Includes)))
		} else {
			b.WriteString("—")
		}
		b.WriteString("</td>\n")
		b.WriteString(cells[8])
		writeMarks(&b, l, o)
		if o.Offer.Suspect != "" {
			b.WriteString(" <small>")
			b.WriteString(string(suspectHTML(l, o.Offer.Suspect)))
			b.WriteString("</small>")
		}
		b.WriteString("</td>\n</tr>\n")
	}
	return template.HTML(b.String())
}

// writePublished is the "published" template of _partials.html: an offer's
// price as published, with the source's band where it gives one.
func writePublished(b *strings.Builder, l *language, o catalog.Offer) {
	writePrice(b, l, o.Price)
	if r := o.PriceRange; r != nil {
		band, _ := l.t("price.band", "min", r.Min, "max", r.Max) // the key is in every catalog (TestMessages)
		b.WriteString(` <small class="band">`)
		escapeText(b, band)
		b.WriteString(`</small>`)
	}
}

// writeParts says what an offer's price is made of, where the provider
// prices it in parts (Google Cloud: the machine, and its GPUs).
func writeParts(b *strings.Builder, l *language, o catalog.Offer) {
	if len(o.Parts) == 0 {
		return
	}
	args := []any{}
	for _, p := range o.Parts {
		args = append(args, p.Part, p.Amount.String())
	}
	if len(args) != 4 {
		return // a price of one part says nothing more than its amount
	}
	text, _ := l.t("price.parts", args...) // the key is in every catalog (TestMessages)
	b.WriteString(` <small class="sub parts">`)
	escapeText(b, text)
	b.WriteString(`</small>`)
}

// writePrice is the "price" template of _partials.html: a published price.
func writePrice(b *strings.Builder, l *language, p catalog.Price) {
	escapeText(b, p.Amount.String())
	b.WriteString(" ")
	escapeText(b, string(p.Currency))
	if p.Unit == "upfront" {
		b.WriteString(" ")
		escapeText(b, l.msg("price.upfront"))
		return
	}
	b.WriteString("/")
	escapeText(b, l.label("unit", p.Unit))
	if p.Upfront != nil && !p.Upfront.IsZero() {
		b.WriteString(" + ")
		escapeText(b, p.Upfront.String())
		b.WriteString(" ")
		escapeText(b, string(p.Currency))
		b.WriteString(" ")
		escapeText(b, l.msg("price.upfront"))
	}
}
