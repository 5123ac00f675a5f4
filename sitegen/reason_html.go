package sitegen

import (
	"html/template"
	"strings"

	"github.com/gpuatlas/gpuatlas/compare"
)

// A reason's text figures are names from outside (a benchmark's submitter and
// system, an instance type id, a run's file and line) that are shown as
// written: on a page they are marked with their language (outsideText) so that
// the words around them are the page's and the names are not translated.
// Private-use characters, which no message or figure holds, delimit them
// between rendering and escaping.
const (
	markOpen  = "\uE000"
	markClose = "\uE001"
)

// ReasonHTML is Reason for a page: escaped, with text figures marked.
func (w ReasonWords) ReasonHTML(r compare.Reason) template.HTML {
	w.exact, w.mark = false, true
	s := w.render(r)
	var b strings.Builder
	for {
		i := strings.Index(s, markOpen)
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], markClose)
		if j < 0 {
			break
		}
		b.WriteString(template.HTMLEscapeString(s[:i]))
		b.WriteString(string(outsideText(s[i+len(markOpen) : i+j])))
		s = s[i+j+len(markClose):]
	}
	b.WriteString(template.HTMLEscapeString(strings.ReplaceAll(strings.ReplaceAll(s, markOpen, ""), markClose, "")))
	return template.HTML(b.String())
}
