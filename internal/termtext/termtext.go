// Package termtext makes outside text (a provider's string, an upload's value,
// a scenario file's name, a TCO input's id) safe to print as one field of a
// terminal line, a CI log line or a Markdown table: the commands' text, table
// and Markdown outputs put every data field through it.
//
// A field stays on its line and means what it shows: line breaks, tabs and
// every other control (C0, C1, DEL, ESC), format (bidirectional overrides) or
// invalid byte are written as Go escapes (\n, \t, \x1b, \u202e), the line and
// paragraph separators too, and a colon that would open the line (after
// blanks) as \x3a, so that no field starts a GitHub Actions workflow command
// ("::error::…"). Markdown also escapes its own syntax with a backslash.
package termtext

import (
	"strings"
	"unicode/utf8"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// MaxEcho is the most characters of a user's input (a search term, a flag's
// value) that a message repeats (Clip); the same as catalog.Excerpt's.
const MaxEcho = 40

// separators are what catalog.SafeLine leaves, but a field must not hold:
// the tab (a column break in a table) and the Unicode line and paragraph
// separators (a line break to some terminals and editors).
var separators = strings.NewReplacer("\t", `\t`, "\u2028", `\u2028`, "\u2029", `\u2029`)

// Field returns s as one printable field of a line (see the package comment).
// Text without such characters is returned as it is.
func Field(s string) string {
	s = catalog.SafeLine(separators.Replace(s))
	if t := strings.TrimLeft(s, " "); strings.HasPrefix(t, ":") {
		i := len(s) - len(t)
		s = s[:i] + `\x3a` + s[i+1:]
	}
	return s
}

// markdownSyntax is every character that Markdown (GitHub's, in a table cell
// or a line of prose) reads as syntax: the escape itself, table cells,
// code spans, emphasis, links and images, HTML and autolinks, headings,
// entities.
var markdownSyntax = strings.NewReplacer(`\`, `\\`, "|", `\|`, "`", "\\`", "*", `\*`, "_", `\_`,
	"[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "#", `\#`, "&", `\&`, "!", `\!`, "~", `\~`)

// Markdown returns s as one field of a Markdown table or line: Field, then
// every character of Markdown syntax escaped with a backslash, so that it
// shows as written. A carriage return is already \r (Field).
func Markdown(s string) string { return markdownSyntax.Replace(Field(s)) }

// Clip returns at most MaxEcho characters of s as a Field, followed by "…"
// when s was longer: for a message that repeats a user's input.
func Clip(s string) string {
	cut, n := 0, 0
	for cut < len(s) && n < MaxEcho {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
		n++
	}
	if cut < len(s) {
		return Field(s[:cut]) + "…"
	}
	return Field(s)
}
