package sitegen

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/words"
)

// language is one language the site is rendered in. English is at the root of the
// site, every other language under its own folder (Prefix).
type language struct {
	Tag      string // message catalog name: i18n/<Tag>.json
	HTMLLang string // the lang attribute
	Name     string // the language's own name, for the switch link
	Prefix   string // folder under the site root: "" or "zh/"
	messages map[string]string
	fx       pageFX // the snapshot's USD to CNY rate (page_currency.go)
}

// languages are rendered in this order; the first is the default at the root.
func newLanguages() []*language {
	return []*language{
		{Tag: "en", HTMLLang: "en", Name: "English", Prefix: ""},
		{Tag: "zh", HTMLLang: "zh-CN", Name: "中文", Prefix: "zh/"},
	}
}

// loadMessages reads every language's catalog (words.Catalogs), which checks
// that they all define the same keys.
func loadMessages(fsys fs.FS, langs []*language) error {
	tags := make([]string, len(langs))
	for i, l := range langs {
		tags[i] = l.Tag
	}
	cats, err := words.Catalogs(fsys, tags...)
	if err != nil {
		return err
	}
	for i, l := range langs {
		l.messages = cats[i]
	}
	return nil
}

// t returns the message for key with {name} placeholders replaced from pairs
// (name, value, name, value ...). A missing key is an error, which fails the build.
func (l *language) t(key string, pairs ...any) (string, error) {
	s, ok := l.messages[key]
	if !ok {
		return "", fmt.Errorf("message %q is not in i18n/%s.json", key, l.Tag)
	}
	if len(pairs)%2 != 0 {
		return "", fmt.Errorf("message %q: placeholders need name, value pairs", key)
	}
	for i := 0; i < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, "{"+fmt.Sprint(pairs[i])+"}", fmt.Sprint(pairs[i+1]))
	}
	return s, nil
}

// msg is the message for key, or the key itself when the catalog lacks it; for
// text the code builds (chart titles), whose keys TestMessages_EveryKeyInBothLanguages
// checks.
func (l *language) msg(key string) string {
	if s, ok := l.messages[key]; ok {
		return s
	}
	return key
}

// label is the display name of a code (billing kind, status, unit ...): the
// message "<group>.<code>" where the catalog has one, the code itself otherwise, so
// that a value a provider adds tomorrow is shown rather than failing the build.
func (l *language) label(group string, code any) string {
	c := fmt.Sprint(code)
	if s, ok := l.messages[group+"."+c]; ok {
		return s
	}
	return c
}

// jsLabels is the part of the catalog the explorer's script needs.
func (l *language) jsLabels() map[string]string {
	out := map[string]string{}
	for k, v := range l.messages {
		for _, p := range []string{"js.", "billing.", "avail.", "unit.", "badge.", "provider.", "price.", "col.", "filter.", "per.", "cmp."} {
			if strings.HasPrefix(k, p) {
				out[k] = v
			}
		}
	}
	return out
}

// words puts compare's reasons into the language's words, their money in the
// page's currency (page_currency.go).
func (l *language) words() words.ReasonWords {
	return words.NewReasonWords(l.Tag, l.messages).InCurrency(l.currency(), l.fx.Rate)
}

// regionName is a region's display name in the language, or its id when the
// snapshot has no name for it.
func (l *language) regionName(r catalog.Region) string {
	name := r.NameEN
	if l.Tag == "zh" && r.NameZH != "" {
		name = r.NameZH
	}
	if name == "" {
		// An area a list price covers, such as mainland-china, is no region of
		// the snapshot: its name is in the message catalog.
		if s, ok := l.messages["area."+r.ID]; ok {
			return s
		}
		return r.ID
	}
	return name
}
