package words

import (
	"regexp"
	"strings"
)

// The catalog records why a price looks implausible as English sentences of a
// few fixed forms (catalog/plausibility.go, kept in data/catalog.json). The
// site reads the form and its figures back and says it in the page's language
// through the suspect.* messages; a reason of a form it does not know (a newer
// catalog) is shown as written (on a page marked lang="en": sitegen's
// suspectHTML).

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
	{"suspect.regional_median", regexp.MustCompile(`^on-demand price (\S+) (\S+)/hour is below 55% of the median (\S+) of its (\d+) regions' on-demand prices$`),
		[]string{"price", "currency", "median", "n"}},
	{"suspect.regional_part", regexp.MustCompile(`^on-demand GPU part (\S+) (\S+)/hour per GPU is below 60% of the median (\S+) over (\d+) regions for (.+)$`),
		[]string{"price", "currency", "median", "n", "gpu"}},
	{"suspect.check_elsewhere", regexp.MustCompile(`^in (\S+), (.+) gives (\S+) (\S+)/(\S+) \((\d{4}-\d{2}-\d{2})\) where the source says (\S+): its price here is in doubt too$`),
		[]string{"region", "source", "check", "currency", "unit", "date", "price"}},
	{"suspect.check", regexp.MustCompile(`^(.+) gives (\S+) (\S+)/(\S+) \((\d{4}-\d{2}-\d{2})\), not (\S+)$`),
		[]string{"source", "check", "currency", "unit", "date", "price"}},
}

// Suspect is an offer's suspect reasons ("; "-separated) in w's words.
func (w ReasonWords) Suspect(reasons string) string {
	var out []string
	for _, r := range strings.Split(reasons, "; ") {
		out = append(out, w.SuspectReason(r))
	}
	return strings.Join(out, w.SuspectSep())
}

// SuspectSep joins suspect reasons in w's language.
func (w ReasonWords) SuspectSep() string {
	if w.tag == "zh" {
		return "；"
	}
	return "; "
}

// SuspectReason is one suspect reason in w's words, or r as written when its
// form or its message is unknown.
func (w ReasonWords) SuspectReason(r string) string {
	for _, f := range suspectForms {
		m := f.re.FindStringSubmatch(r)
		if m == nil {
			continue
		}
		var pairs []string
		for i, name := range f.names {
			v := m[i+1]
			switch name {
			case "unit":
				v = w.Label("unit", v)
			case "billing":
				v = w.Label("billing", v)
			}
			pairs = append(pairs, name, v)
		}
		if _, ok := w.msgs[f.key]; ok {
			return w.T(f.key, pairs...)
		}
	}
	return r
}
