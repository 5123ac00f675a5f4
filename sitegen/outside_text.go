package sitegen

import (
	"fmt"
	"html/template"
	"regexp"
	"strings"
	"unicode"
)

// Text from outside the site (source notes, provider messages, upload notes,
// system names, the FX table's source) is shown as written, never translated:
// it is marked with the language it is written in so that a screen reader
// reads it right and the site's language test (TestSite_EveryPageInItsLanguage)
// knows it is in that language on purpose.

// quoted is a double-quoted stretch of a note or a run of Chinese: an English
// note that quotes a Chinese price page ("8576 元/月") or glosses a word
// (起: from) holds that stretch in Chinese.
var quoted = regexp.MustCompile(`"[^"]*"|“[^”]*”|[\p{Han}\x{3000}-\x{303f}\x{ff00}-\x{ffef}]+`)

// outsideText is s, escaped, in an element marked lang="en" when it has no
// Chinese, lang="zh" when it is all Chinese (a provider's Chinese message);
// an English note that quotes Chinese has each Chinese quote marked lang="zh".
func outsideText(s string) template.HTML {
	if s == "" {
		return ""
	}
	if !hasHan(s) {
		return template.HTML(`<span lang="en">` + template.HTMLEscapeString(s) + `</span>`)
	}
	if !hasLatinWord(quoted.ReplaceAllString(s, "")) {
		return template.HTML(`<span lang="zh-CN">` + template.HTMLEscapeString(s) + `</span>`)
	}
	var b strings.Builder
	b.WriteString(`<span lang="en">`)
	last := 0
	for _, m := range quoted.FindAllStringIndex(s, -1) {
		b.WriteString(template.HTMLEscapeString(s[last:m[0]]))
		q := s[m[0]:m[1]]
		if hasHan(q) {
			b.WriteString(`<span lang="zh-CN">` + template.HTMLEscapeString(q) + `</span>`)
		} else {
			b.WriteString(template.HTMLEscapeString(q))
		}
		last = m[1]
	}
	b.WriteString(template.HTMLEscapeString(s[last:]))
	b.WriteString(`</span>`)
	return template.HTML(b.String())
}

// nameText is a proper name from outside (a submitter, a system, a round),
// shown as written: outsideText marked translate="no", so that no reader's
// tool translates it and the language tests know it is a name.
func nameText(s string) template.HTML {
	h := string(outsideText(s))
	if strings.HasPrefix(h, "<span ") {
		h = `<span translate="no" ` + h[len("<span "):]
	}
	return template.HTML(h)
}

func hasHan(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}

// hasLatinWord reports whether s holds two Latin letters in a row: a word of
// English rather than a unit or an id's letter.
func hasLatinWord(s string) bool {
	prev := false
	for _, r := range s {
		latin := r < unicode.MaxASCII && unicode.IsLetter(r)
		if latin && prev {
			return true
		}
		prev = latin
	}
	return false
}

// enArg is a placeholder value for tOutside that is text from outside.
type enArg string

// tOutside is t with the placeholders given through "en" shown as outside text
// (outsideText) and the rest escaped: "the FX table of {source}" with the
// source marked lang="en".
func (l *language) tOutside(key string, pairs ...any) (template.HTML, error) {
	s, err := l.t(key)
	if err != nil {
		return "", err
	}
	if len(pairs)%2 != 0 {
		return "", fmt.Errorf("message %q: placeholders need name, value pairs", key)
	}
	// One pass (a Replacer): a value that holds "{name}" is not filled in.
	var olds []string
	for i := 0; i+1 < len(pairs); i += 2 {
		name := "{" + template.HTMLEscapeString(fmt.Sprint(pairs[i])) + "}"
		var v string
		if e, ok := pairs[i+1].(enArg); ok {
			v = string(nameText(string(e)))
		} else {
			v = template.HTMLEscapeString(fmt.Sprint(pairs[i+1]))
		}
		olds = append(olds, name, v)
	}
	return template.HTML(strings.NewReplacer(olds...).Replace(template.HTMLEscapeString(s))), nil
}
