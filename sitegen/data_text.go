package sitegen

import (
	"html/template"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// dataHTML is a text of the catalog's fixed forms (what a price includes, an
// AWS spot figure's source, an imported price's notes: words/data_words.go) for
// a page: in Chinese on a Chinese page; on an English page, and for a form the
// words do not know, as written and marked with its language (outsideText).
func dataHTML(l *language, s string) template.HTML {
	if t, ok := dataText(l, s); ok {
		return template.HTML(template.HTMLEscapeString(t))
	}
	return outsideText(s)
}

// dataText is s in the page's words where it is Chinese and words knows the
// form; ok is false otherwise, and English pages show the text as written.
func dataText(l *language, s string) (string, bool) {
	if l.Tag != "zh" || s == "" {
		return s, false
	}
	return l.words().DataText(s)
}

// dataSourceHTML is an offer's source: an identifier (aws:pricing:GetProducts)
// as code, a source of the catalog's fixed forms in the page's words.
func dataSourceHTML(l *language, s string) template.HTML {
	if t, ok := dataText(l, s); ok {
		return template.HTML(template.HTMLEscapeString(t))
	}
	return template.HTML(`<code lang="en">` + template.HTMLEscapeString(s) + `</code>`)
}

// runNotesHTML are a benchmark run's notes: in Chinese on a Chinese page (the
// upload's notes_zh, which the committed data always has), else as written.
func runNotesHTML(l *language, r catalog.BenchmarkRun) template.HTML {
	if l.Tag == "zh" && r.NotesZH != "" {
		return template.HTML(template.HTMLEscapeString(r.NotesZH))
	}
	return outsideText(r.Notes)
}

// dataWords is s in the page's words where dataText knows its form, else "":
// for a template that shows the text as written otherwise (a published
// benchmark's software, a name but for the descriptions words knows).
func dataWords(l *language, s string) string {
	if t, ok := dataText(l, s); ok {
		return t
	}
	return ""
}

// capabilitySourceHTML is where a GPU's training use and native precisions
// come from: on a Chinese page its Chinese text (capability_source_zh), the
// addresses marked as names; else as written.
func capabilitySourceHTML(l *language, m catalog.GPUModel) template.HTML {
	if l.Tag != "zh" || m.CapabilitySourceZH == "" {
		return nameText(m.CapabilitySource)
	}
	var b strings.Builder
	s, last := m.CapabilitySourceZH, 0
	for _, r := range catalog.SourceAddresses(s) {
		b.WriteString(template.HTMLEscapeString(s[last:r[0]]))
		b.WriteString(`<span translate="no" lang="en">` + template.HTMLEscapeString(s[r[0]:r[1]]) + `</span>`)
		last = r[1]
	}
	b.WriteString(template.HTMLEscapeString(s[last:]))
	return template.HTML(b.String())
}
