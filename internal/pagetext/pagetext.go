package pagetext

import (
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

var (
	tagOrText = regexp.MustCompile(`(?s)<!--.*?-->|<[^>]*>|[^<]+`)
	tagName   = regexp.MustCompile(`^</?\s*([a-zA-Z0-9]+)`)
	langAttr  = regexp.MustCompile(`\slang\s*=\s*"([a-zA-Z]+)(-[^"]*)?"`)
	// englishWord is a word of letters: ids (aws/p4d.24xlarge), product names
	// with digits (H100, 80GB) and units between figures are not words.
	englishWord = regexp.MustCompile(`^[A-Za-z][A-Za-z'’-]*[A-Za-z]$`)
)

// blockElements end a line of text: a heading and the paragraph after it, or
// two table cells, are not one sentence.
var blockElements = map[string]bool{"address": true, "article": true, "aside": true, "blockquote": true, "br": true, "caption": true,
	"dd": true, "details": true, "div": true, "dl": true, "dt": true, "figcaption": true, "figure": true, "footer": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "header": true, "hr": true, "li": true, "main": true,
	"nav": true, "ol": true, "option": true, "p": true, "pre": true, "section": true, "summary": true, "table": true,
	"td": true, "th": true, "title": true, "tr": true, "ul": true}

var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

// Visible is the text a reader sees on page: inline elements separated by
// spaces, blocks (paragraphs, headings, cells, list items) by new lines.
// Scripts, styles and templates are not text; an element whose lang attribute's
// primary subtag is skipLang ("en" skips lang="en" and lang="en-GB"; "zh" skips
// lang="zh-CN") is left out with all it holds, because it is in that language on
// purpose. An empty skipLang skips no language.
func Visible(page, skipLang string) string {
	return visible(page, func(tag string) bool {
		l := langAttr.FindStringSubmatch(tag)
		return l != nil && skipLang != "" && strings.EqualFold(l[1], skipLang)
	})
}

// noTranslate finds translate="no": an element that holds a proper name or an
// identifier (a system's or a document's name, a benchmark's id), which no
// language translates.
var noTranslate = regexp.MustCompile(`\stranslate\s*=\s*"no"`)

// Readable is the text a reader sees on page in the page's language: Visible's
// text, every language included, less the elements marked translate="no" and
// code (codeElements).
func Readable(page string) string {
	return visible(page, func(tag string) bool {
		m := tagName.FindStringSubmatch(tag)
		return noTranslate.MatchString(tag) || m != nil && codeElements[strings.ToLower(m[1])]
	})
}

// codeElements hold code (a command, a filter expression, an identifier), not
// prose.
var codeElements = map[string]bool{"code": true, "kbd": true, "samp": true, "pre": true}

// visible is Visible's walk, leaving out the elements for which skip says so.
func visible(page string, skipElem func(tag string) bool) string {
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
			b.WriteByte(sep(m))
		case strings.HasPrefix(tok, "<"):
			m := tagName.FindStringSubmatch(tok)
			if m == nil {
				continue
			}
			b.WriteByte(sep(m))
			name := strings.ToLower(m[1])
			if !voidElements[name] && !strings.HasSuffix(tok, "/>") {
				skip := name == "script" || name == "style" || name == "template"
				if skipElem(tok) {
					skip = true
				}
				stack = append(stack, open{name, skip})
			}
		default:
			if !skipping() {
				b.WriteString(html.UnescapeString(tok))
			}
		}
	}
	return b.String()
}

// sep is what a tag leaves in the text: a new line for a block, a space otherwise.
func sep(m []string) byte {
	if m != nil && blockElements[strings.ToLower(m[1])] {
		return '\n'
	}
	return ' '
}

// EnglishRuns lists the runs of four or more English words in one line of
// text: a sentence left untranslated. Three words and a figure ("ample GPU memory
// (1,432.5 GiB") are not a run; nor are ids and product names with digits.
func EnglishRuns(text string) []string {
	var runs, run []string
	end := func() {
		if len(run) >= 4 {
			runs = append(runs, strings.Join(run, " "))
		}
		run = nil
	}
	for _, line := range strings.Split(text, "\n") {
		line = workTitle.ReplaceAllString(line, " 《》 ") // a work's title is a name
		for _, tok := range strings.Fields(line) {
			tok = strings.Trim(tok, ",.;:()[]!?\"'“”")
			if englishWord.MatchString(tok) {
				run = append(run, tok)
				continue
			}
			end()
		}
		end()
	}
	return runs
}

// ChineseRuns lists the runs of Han characters in text (with the CJK
// punctuation between them), each with up to ten characters of what surrounds
// it so that a failure says where.
func ChineseRuns(text string) []string {
	var runs []string
	rs := []rune(text)
	for i := 0; i < len(rs); {
		if !unicode.Is(unicode.Han, rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && (unicode.Is(unicode.Han, rs[j]) || isCJKPunct(rs[j])) {
			j++
		}
		from, to := max(0, i-10), min(len(rs), j+10)
		runs = append(runs, strings.Join(strings.Fields(string(rs[from:to])), " "))
		i = j
	}
	return runs
}

func isCJKPunct(r rune) bool { return r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef }

// CheckSite reads every HTML page under out and returns, as "page: problem"
// lines, the runs of text in the wrong language: English on a zh/ page
// (outside lang="en"), Chinese on any other page (outside lang="zh"); and how
// many pages of each language it read.
func CheckSite(out string) (zh, en int, problems []string, err error) {
	err = eachPage(out, "", func(rel, page string) {
		if strings.HasPrefix(rel, "zh/") {
			zh++
			for _, r := range EnglishRuns(Visible(page, "en")) {
				problems = append(problems, fmt.Sprintf("%s: English on a Chinese page: %q", rel, r))
			}
			return
		}
		en++
		for _, r := range ChineseRuns(Visible(page, "zh")) {
			problems = append(problems, fmt.Sprintf("%s: Chinese on an English page: %q", rel, r))
		}
	})
	return zh, en, problems, err
}

// eachPage calls page with the path from out (slashed) and the text of every
// HTML page under out's folder dir ("" for all of out).
func eachPage(out, dir string, page func(rel, text string)) error {
	return filepath.WalkDir(filepath.Join(out, dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(out, p)
		if err != nil {
			return err
		}
		page(filepath.ToSlash(rel), string(b))
		return nil
	})
}
