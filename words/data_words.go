package words

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The catalog and the price history carry a few texts of fixed forms written by
// GPU Atlas's own tools: what a price includes (catalog.IncludesSystemDisk),
// where an AWS spot figure comes from (providers/aws/internal/fixturegen), and
// the notes of imported prices (internal/tools/historysources). The site reads
// the form and its facts back and says it in the page's language through the
// data.* messages; a text of a form it does not know is shown as written.

var dataForms = []struct {
	key   string
	re    *regexp.Regexp
	names []string
}{
	{"data.spot_average", regexp.MustCompile(`^regional average of observed spot prices \((\S+) via (\S+), (\d{4}-\d{2}-\d{2})\), shown in each zone that offers the type; not a per-zone DescribeSpotPriceHistory figure$`),
		[]string{"dataset", "copy", "date"}},
	{"data.spot_estimate", regexp.MustCompile(`^estimate, not an observed price: on-demand less the Spot Instance Advisor's (\d+)% savings \((\S+) via (\S+), (\d{4}-\d{2}-\d{2})\), shown in each zone that offers the type$`),
		[]string{"percent", "dataset", "copy", "date"}},
	{"data.reported", regexp.MustCompile(`^reported, not from an API: (.+) \((\d{4}-\d{2}-\d{2})\), read from Huawei Cloud's purchase page$`),
		[]string{"where", "date"}},
	{"data.commit_date", regexp.MustCompile(`^observed_at is the commit date of the price file$`), nil},
	{"data.capture_earlier", regexp.MustCompile(`^the capture may be earlier$`), nil},
	{"data.spot_cap", regexp.MustCompile(`^equals the on-demand price: the API reports the spot cap$`), nil},
	{"data.starting_price", regexp.MustCompile(`^a starting price \(起: from\)$`), nil},
	{"data.specs_only", regexp.MustCompile(`^instance specs only, from (.+); no region, zone or stock from a source; (no price|one reported price|\d+ reported prices)$`),
		[]string{"source", "prices"}},
	{"data.otc_flavors", regexp.MustCompile(`^Open Telekom Cloud's GPU flavor tables, which use Huawei's ECS flavors$`), nil},
	{"data.no_price", regexp.MustCompile(`^no price$`), nil},
	{"data.one_reported", regexp.MustCompile(`^one reported price$`), nil},
	{"data.n_reported", regexp.MustCompile(`^(\d+) reported prices$`), []string{"n"}},
	{"data.published_as", regexp.MustCompile(`^published as ("(?:[^"\\]|\\.)*")$`), []string{"quote"}},
}

// DataText is a text of one of the catalog's fixed forms (a "; "-separated
// list of them) in w's words; ok is false, and s is returned as written, when a
// part's form or its message is unknown.
func (w ReasonWords) DataText(s string) (string, bool) {
	if d, ok := catalog.ParseIncludes(s); ok {
		if _, ok := w.msgs["data.system_disk"]; ok {
			return w.T("data.system_disk", "gib", strconv.Itoa(d.GiB), "disk", w.Label("disk", d.Category)), true
		}
		return s, false
	}
	if t, ok := w.dataPart(s); ok {
		return t, true
	}
	parts := strings.Split(s, "; ")
	out := make([]string, len(parts))
	for i, p := range parts {
		t, ok := w.dataPart(p)
		if !ok {
			return s, false
		}
		out[i] = t
	}
	return strings.Join(out, w.SuspectSep()), true
}

func (w ReasonWords) dataPart(p string) (string, bool) {
	for _, f := range dataForms {
		m := f.re.FindStringSubmatch(p)
		if m == nil {
			continue
		}
		if _, ok := w.msgs[f.key]; !ok {
			return p, false
		}
		var pairs []string
		for i, name := range f.names {
			v := m[i+1]
			switch name {
			case "quote":
				if u, err := strconv.Unquote(v); err == nil {
					v = u
				}
			case "source", "prices":
				// A part of its own form: said in words too, or the whole
				// text is kept as written.
				t, ok := w.dataPart(v)
				if !ok {
					return p, false
				}
				v = t
			}
			pairs = append(pairs, name, v)
		}
		return w.T(f.key, pairs...), true
	}
	return p, false
}
