package sitegen

import (
	"html/template"
	"regexp"
	"strings"
)

// The catalog records why a price looks implausible as English sentences of a
// few fixed forms (catalog/plausibility.go, kept in data/catalog.json). The
// site reads the form and its figures back and says it in the page's language
// through the suspect.* messages; a reason of a form it does not know (a newer
// catalog) is shown as written, marked lang="en".

var suspectForms = []struct {
	key   string
	re    *regexp.Regexp
	names []string
}{
	{"suspect.peer_median", regexp.MustCompile(`^price per GPU (\S+) (\S+)/(\S+) is below 10% of the median (\S+) of (\d+) (\S+) offers for (.+)$`),
		[]string{"price", "currency", "unit", "median", "n", "billing", "gpu"}},
	{"suspect.spot_high", regexp.MustCompile(`^spot price (\S+) is at or above the on-demand price (\S+) (\S+)/hour$`),
		[]string{"price", "ondemand", "currency"}},
	{"suspect.spot_low", regexp.MustCompile(`^spot price (\S+) is at or below 10% of the on-demand price (\S+) (\S+)/hour$`),
		[]string{"price", "ondemand", "currency"}},
	{"suspect.month_high", regexp.MustCompile(`^monthly price (\S+) (\S+)/month is above 730 hours of the on-demand price (\S+) \S+/hour \((\S+) \S+\)$`),
		[]string{"price", "currency", "ondemand", "month"}},
	{"suspect.upfront_high", regexp.MustCompile(`^effective hourly price (\S+) \(upfront spread over the term\) is above the on-demand price (\S+) (\S+)/hour$`),
		[]string{"price", "ondemand", "currency"}},
}

// suspectText is an offer's suspect reasons ("; "-separated) in l's words.
func suspectText(l *language, reasons string) string {
	var out []string
	for _, r := range strings.Split(reasons, "; ") {
		out = append(out, suspectReason(l, r))
	}
	sep := "; "
	if l.Tag == "zh" {
		sep = "；"
	}
	return strings.Join(out, sep)
}

func suspectReason(l *language, r string) string {
	for _, f := range suspectForms {
		m := f.re.FindStringSubmatch(r)
		if m == nil {
			continue
		}
		var pairs []any
		for i, name := range f.names {
			v := m[i+1]
			switch name {
			case "unit":
				v = l.label("unit", v)
			case "billing":
				v = l.label("billing", v)
			}
			pairs = append(pairs, name, v)
		}
		if s, err := l.t(f.key, pairs...); err == nil {
			return s
		}
	}
	return r
}

// suspectHTML is suspectText for a page: a reason of a form the site does not
// know is marked as English.
func suspectHTML(l *language, reasons string) template.HTML {
	var out []string
	for _, r := range strings.Split(reasons, "; ") {
		if s := suspectReason(l, r); s != r || l.Tag == "en" {
			out = append(out, template.HTMLEscapeString(s))
		} else {
			out = append(out, string(outsideText(r)))
		}
	}
	sep := "; "
	if l.Tag == "zh" {
		sep = "；"
	}
	return template.HTML(strings.Join(out, sep))
}
