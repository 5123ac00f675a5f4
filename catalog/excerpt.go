package catalog

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxExcerpt is the most characters of outside text (an upload's value, a
// file's name) that a message repeats.
const maxExcerpt = 40

// Excerpt quotes s for a message: at most its first 40 characters, with "…"
// after the closing quote when there were more, and every control, format
// (bidirectional overrides) or invalid byte escaped as in a Go string literal.
// A message says which value it is about; it never repeats a whole line of a
// file (which may be anything: a symlink to /proc/self/environ reads as one
// line of secrets) or bytes a terminal or a CI log would act on.
func Excerpt(s string) string { return ExcerptN(s, maxExcerpt) }

// ExcerptN is Excerpt with at most n characters: for a text a message keeps
// more of (a panic's, which names a runtime error and its value).
func ExcerptN(s string, n int) string {
	cut, runes := 0, 0
	for cut < len(s) && runes < n {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
		runes++
	}
	q := strconv.Quote(s[:cut])
	if cut < len(s) {
		q += "…"
	}
	return q
}

// SafeLine returns s with every control or format character and invalid byte
// escaped (\n, \x1b, \u202e), so that it prints as one line that means what it
// shows: for a file name or a message built from outside text. Text without
// such characters is returned as it is.
func SafeLine(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unsafeRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(strconv.QuoteToASCII(s[i : i+1])[1:5]) // \xNN
		case unsafeRune(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// unsafeRune reports a character that does not print as itself on one line:
// a control (but tab) or a format character.
func unsafeRune(r rune) bool {
	return (unicode.IsControl(r) && r != '\t') || unicode.Is(unicode.Cf, r)
}
