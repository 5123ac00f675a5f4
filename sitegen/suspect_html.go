package sitegen

import (
	"html/template"
	"strings"
)

// suspectHTML is an offer's suspect reasons in the page's words (words'
// Suspect) for a page: a reason of a form the site does not know is marked as
// English.
func suspectHTML(l *language, reasons string) template.HTML {
	w := l.words()
	var out []string
	for _, r := range strings.Split(reasons, "; ") {
		if s := w.SuspectReason(r); s != r || l.Tag == "en" {
			out = append(out, template.HTMLEscapeString(s))
		} else {
			out = append(out, string(outsideText(r)))
		}
	}
	return template.HTML(strings.Join(out, w.SuspectSep()))
}
