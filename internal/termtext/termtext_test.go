package termtext

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestField(t *testing.T) {
	tests := []struct{ in, want string }{
		{"p5.48xlarge", "p5.48xlarge"},
		{"东京 区域", "东京 区域"},
		{"x\n::error::forged", `x\n::error::forged`},
		{"::error::forged", `\x3a:error::forged`},
		{"  ::warning::x", `  \x3a:warning::x`},
		{"a\tb", `a\tb`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"c1\u009bcsi", `c1\u009bcsi`},
		{"del\x7f", `del\x7f`},
		{"cr\rlf", `cr\rlf`},
		{"rtl\u202eexe.txt", `rtl\u202eexe.txt`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"a::b", "a::b"},
	}
	for _, tt := range tests {
		if got := Field(tt.in); got != tt.want {
			t.Errorf("Field(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	tests := []struct{ in, want string }{
		{"p5.48xlarge", "p5.48xlarge"},
		{"a|b", `a\|b`},
		{"**bold** _it_ `code` [link](x) <b> # h &amp; ![i]", `\*\*bold\*\* \_it\_ \` + "`" + `code\` + "`" + ` \[link\](x) \<b\> \# h \&amp; \!\[i\]`},
		{"x\r\n| forged | row |", `x\\r\\n\| forged \| row \|`},
		{`back\slash`, `back\\slash`},
	}
	for _, tt := range tests {
		if got := Markdown(tt.in); got != tt.want {
			t.Errorf("Markdown(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("gpu:h100 ", 500)
	got := Clip(long)
	if n := utf8.RuneCountInString(strings.TrimSuffix(got, "…")); n != MaxEcho || !strings.HasSuffix(got, "…") {
		t.Errorf("Clip of %d bytes = %q (%d characters before …), want %d and …", len(long), got, n, MaxEcho)
	}
	if got := Clip("short\x1b"); got != `short\x1b` {
		t.Errorf("Clip(short) = %q", got)
	}
	if got := Clip(strings.Repeat("界", 41)); got != strings.Repeat("界", 40)+"…" {
		t.Errorf("Clip(41 wide) = %q", got)
	}
}

// checkField fails on what a field must never hold.
func checkField(t *testing.T, in, got string) {
	t.Helper()
	if !utf8.ValidString(got) {
		t.Fatalf("Field(%q) = %q: invalid UTF-8", in, got)
	}
	for _, r := range got {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			t.Fatalf("Field(%q) = %q holds %U", in, got, r)
		}
	}
	if strings.HasPrefix(strings.TrimLeft(got, " \t"), ":") {
		t.Fatalf("Field(%q) = %q opens with a colon", in, got)
	}
}

func FuzzField(f *testing.F) {
	for _, s := range []string{"", "x\n::error::y", "::a", " \t::", "\x1b]8;;http://x\x07", "a|b*c_d`e[f]<g>#h&", "\xff\xfe", "\u2028\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Field(s)
		checkField(t, s, got)
		if Field(got) != got {
			t.Fatalf("Field is not idempotent on %q: %q then %q", s, got, Field(got))
		}
		md := Markdown(s)
		checkField(t, s, md)
		// Every Markdown syntax character is escaped: preceded by an odd
		// number of backslashes.
		run := 0
		for _, r := range md {
			if strings.ContainsRune("|`*_[]<>#&!~", r) && run%2 == 0 {
				t.Fatalf("Markdown(%q) = %q: %q unescaped", s, md, r)
			}
			if r == '\\' {
				run++
			} else {
				run = 0
			}
		}
		if c := Clip(s); utf8.RuneCountInString(strings.TrimSuffix(c, "…")) > 10*MaxEcho+1 {
			t.Fatalf("Clip(%q) = %q: too long", s, c)
		}
	})
}
