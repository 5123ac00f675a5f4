package sitegen

import (
	"html/template"
	"strings"

	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/words"
)

// ReasonHTML is words' Reason for a page: escaped, with text figures (between
// words.MarkOpen and words.MarkClose) marked with their language and as names (nameText).
func ReasonHTML(w words.ReasonWords, r compare.Reason) template.HTML {
	s := w.Marked(r)
	var b strings.Builder
	for {
		i := strings.Index(s, words.MarkOpen)
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], words.MarkClose)
		if j < 0 {
			break
		}
		b.WriteString(template.HTMLEscapeString(s[:i]))
		b.WriteString(string(nameText(s[i+len(words.MarkOpen) : i+j])))
		s = s[i+j+len(words.MarkClose):]
	}
	b.WriteString(template.HTMLEscapeString(strings.ReplaceAll(strings.ReplaceAll(s, words.MarkOpen, ""), words.MarkClose, "")))
	return template.HTML(b.String())
}
