package catalog

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExcerpt(t *testing.T) {
	tests := []struct{ in, want string }{
		{"g5.xlarge", `"g5.xlarge"`},
		{"a\nb\x1b[2J\u202e", `"a\nb\x1b[2J\u202e"`},
		{strings.Repeat("x", 41), `"` + strings.Repeat("x", 40) + `"…`},
		{"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", `"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MD"…`},
		{"\xff", `"\xff"`},
	}
	for _, tt := range tests {
		if got := Excerpt(tt.in); got != tt.want {
			t.Errorf("Excerpt(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if got, want := ExcerptN("价格价格价格", 4), `"价格价格"…`; got != want {
		t.Errorf("ExcerptN = %s, want %s", got, want)
	}
}

func TestSafeLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text, 中文, tab\there", "plain text, 中文, tab\there"},
		{"x.csv\n::error::forged", `x.csv\n::error::forged`},
		{"\r\x00\x1b\u202e\u200b", `\r\x00\x1b\u202e\u200b`},
		{"bad \xff byte", `bad \xff byte`},
	}
	for _, tt := range tests {
		if got := SafeLine(tt.in); got != tt.want {
			t.Errorf("SafeLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Whatever the text, an excerpt is short, one line and a quoted prefix of it;
// SafeLine is one printable line.
func FuzzExcerpt(f *testing.F) {
	for _, s := range []string{"", "g5.xlarge", "a\nb", "\xff\xfe", strings.Repeat("é", 50), "\u202e\u0000%0A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := Excerpt(s)
		quoted, _ := strings.CutSuffix(e, "…")
		prefix, err := strconv.Unquote(quoted)
		if err != nil || !strings.HasPrefix(s, prefix) || utf8.RuneCountInString(prefix) > maxExcerpt {
			t.Fatalf("Excerpt(%q) = %s: not a quoted prefix of at most %d characters (%v)", s, e, maxExcerpt, err)
		}
		if (prefix != s) != strings.HasSuffix(e, "…") {
			t.Fatalf("Excerpt(%q) = %s: … does not say whether text was left out", s, e)
		}
		line := SafeLine(s)
		if !utf8.ValidString(line) {
			t.Fatalf("SafeLine(%q) = %q is not UTF-8", s, line)
		}
		for _, r := range line {
			if unsafeRune(r) {
				t.Fatalf("SafeLine(%q) = %q holds %U", s, line, r)
			}
		}
	})
}
