package sitegen

import (
	"html"
	"regexp"
	"strings"
	"testing"
)

// The visible text of a page and its runs of English words: what a reader of a
// Chinese page would find untranslated. Scripts and styles are not text; text
// inside an element marked with the skipped language (lang="en" or "en-…" on a
// Chinese page) is in that language on purpose.

var (
	tagOrText = regexp.MustCompile(`(?s)<!--.*?-->|<[^>]*>|[^<]+`)
	tagName   = regexp.MustCompile(`^</?\s*([a-zA-Z0-9]+)`)
	langAttr  = regexp.MustCompile(`\slang\s*=\s*"([a-zA-Z]+)(-[^"]*)?"`)
	// englishWord is a word of letters: ids (aws/p4d.24xlarge), product names
	// with digits (H100, 80GB) and units between figures are not words.
	englishWord = regexp.MustCompile(`^[A-Za-z][A-Za-z'’-]*[A-Za-z]$`)
)

var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

// visibleText is the text a reader sees, blocks separated by spaces, without the
// elements marked lang=skipLang ("" skips none).
func visibleText(page, skipLang string) string {
	type open struct {
		name string
		skip bool
	}
	var stack []open
	skipping := func() bool {
		for _, o := range stack {
			if o.skip {
				return true
			}
		}
		return false
	}
	var b strings.Builder
	for _, tok := range tagOrText.FindAllString(page, -1) {
		switch {
		case strings.HasPrefix(tok, "<!--"), strings.HasPrefix(tok, "<!"):
		case strings.HasPrefix(tok, "</"):
			m := tagName.FindStringSubmatch(tok)
			for m != nil && len(stack) > 0 {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if strings.EqualFold(top.name, m[1]) {
					break
				}
			}
			b.WriteByte(' ')
		case strings.HasPrefix(tok, "<"):
			m := tagName.FindStringSubmatch(tok)
			if m == nil {
				continue
			}
			name := strings.ToLower(m[1])
			if !voidElements[name] && !strings.HasSuffix(tok, "/>") {
				skip := name == "script" || name == "style" || name == "template"
				if l := langAttr.FindStringSubmatch(tok); l != nil && skipLang != "" && strings.EqualFold(l[1], skipLang) {
					skip = true
				}
				stack = append(stack, open{name, skip})
			}
			b.WriteByte(' ')
		default:
			if !skipping() {
				b.WriteString(html.UnescapeString(tok))
			}
		}
	}
	return b.String()
}

// englishRuns lists the runs of four or more English words in text.
func englishRuns(text string) []string {
	var runs, run []string
	end := func() {
		if len(run) >= 4 {
			runs = append(runs, strings.Join(run, " "))
		}
		run = nil
	}
	for _, tok := range strings.Fields(text) {
		tok = strings.Trim(tok, ",.;:()[]!?\"'“”")
		if englishWord.MatchString(tok) {
			run = append(run, tok)
			continue
		}
		end()
	}
	end()
	return runs
}

func TestVisibleText_SkipsScriptsStylesAndEnglishMarkedText(t *testing.T) {
	page := `<html lang="zh-Hans"><head><style>p { color: red }</style><script>var a = "one two three four";</script></head>
<body><p>显存 <b>80 GiB</b><br>per GPU &amp; more</p><p lang="en">Up to 100 Gigabit of network</p><img alt="x"><p>GPU 参考表</p></body></html>`
	got := strings.Join(strings.Fields(visibleText(page, "en")), " ")
	if want := "显存 80 GiB per GPU & more GPU 参考表"; got != want {
		t.Errorf("visible text %q, want %q", got, want)
	}
	// Three words, then a figure: not a run of four.
	if runs := englishRuns("ample GPU memory (1,432.5 GiB of 640 GiB)"); len(runs) != 0 {
		t.Errorf("runs %q, want none", runs)
	}
	if runs := englishRuns("ample GPU memory of the target, 显存 8 × NVIDIA H100 SXM5 80GB"); len(runs) != 1 || runs[0] != "ample GPU memory of the target" {
		t.Errorf("runs %q", runs)
	}
}
