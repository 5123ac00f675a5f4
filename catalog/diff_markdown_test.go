package catalog

import (
	"strings"
	"testing"
)

// TestDiffMarkdown_CellsStayInTheirRow: a carriage return (or any control
// character) in a provider's string cannot split a table row, and a backtick
// in an id cannot close its code span (issue 32: the job summary).
func TestDiffMarkdown_CellsStayInTheirRow(t *testing.T) {
	for _, in := range []string{"a\rb", "a\nb", "a\r\n| x | y |", "a\u2028b", "a\u0085b", "a\x1b[31mb"} {
		if got := diffMDCell(in); strings.ContainsAny(got, "\r\n\u2028\u0085\x1b") {
			t.Errorf("diffMDCell(%q) = %q: a line break or control character survives", in, got)
		}
		if got := diffMDCode(in); strings.ContainsAny(got, "\r\n\u2028\u0085\x1b") {
			t.Errorf("diffMDCode(%q) = %q: a line break or control character survives", in, got)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"p5.48xlarge", "`p5.48xlarge`"},
		{"a`b", "`` a`b ``"},
		{"a``b", "``` a``b ```"},
		{"x``` | y", "```` x``` \\| y ````"},
	} {
		if got := diffMDCode(c.in); got != c.want {
			t.Errorf("diffMDCode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
