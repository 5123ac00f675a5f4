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
// the notes of imported prices (internal/tools/historysources); and two
// software texts of the published benchmark results (data/benchmarks/published)
// that are a description, not a name. The site reads
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
	{"data.starting_price", regexp.MustCompile(`^a starting price \((?:起: from|From, 起)\)$`), nil},
	{"data.same_price_versions", regexp.MustCompile(`^the same price in the (\d+) versions generated (\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})$`),
		[]string{"n", "from", "to"}},
	{"data.region_group", regexp.MustCompile(`^region group ([^;]+)$`), []string{"group"}},
	{"data.guangzhou_zone", regexp.MustCompile(`^the page says its prices are Guangzhou Zone (\d+)'s$`), []string{"zone"}},
	{"data.zones_differ", regexp.MustCompile(`^other zones and operating systems differ$`), nil},
	{"data.type_by_shape", regexp.MustCompile(`^the table names no instance type: (\S+) by its (\d+) vCPU and (\d+) GB memory$`),
		[]string{"type", "vcpu", "memory"}},
	{"data.converted_cny", regexp.MustCompile(`^converted by the page from ([0-9.]+) CNY at ([0-9.]+) CNY per USD, unrounded$`),
		[]string{"cny", "rate"}},
	{"data.gpu_typo", regexp.MustCompile(`^the GPU cell reads "([^"]+)", a typo for (\S+) \((\S+) has Tesla (\S+)s; there is no (\S+)\)$`),
		[]string{"read", "fix", "family", "model", "wrong"}},
	{"data.currency_typo", regexp.MustCompile(`^published as ("(?:[^"\\]|\\.)*") \(元, CNY\), a typo: the English page of the same period and the page's other rows give USD$`),
		[]string{"quote"}},
	{"data.kept_usd", regexp.MustCompile(`^kept as USD$`), nil},
	{"data.local_ssd", regexp.MustCompile(`^local SSD data disk$`), nil},
	{"data.synthetic", regexp.MustCompile(`^synthetic fixture$`), nil},
	{"data.specs_only", regexp.MustCompile(`^instance specs only, from (.+); no region, zone or stock from a source; (no price|one reported price|\d+ reported prices)$`),
		[]string{"source", "prices"}},
	{"data.otc_flavors", regexp.MustCompile(`^Open Telekom Cloud's GPU flavor tables, which use Huawei's ECS flavors$`), nil},
	{"data.no_price", regexp.MustCompile(`^no price$`), nil},
	{"data.one_reported", regexp.MustCompile(`^one reported price$`), nil},
	{"data.n_reported", regexp.MustCompile(`^(\d+) reported prices$`), []string{"n"}},
	{"data.published_as", regexp.MustCompile(`^published as ("(?:[^"\\]|\\.)*")$`), []string{"quote"}},
	// Published benchmark software where the results name no single version.
	{"data.ngc_per_config", regexp.MustCompile(`^NGC PyTorch container \(version per config; see repo\)$`), nil},
	{"data.trtllm_backend", regexp.MustCompile(`^TensorRT-LLM \(PyTorch backend, (\S+)\)$`), []string{"versions"}},
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
	parts := splitParts(s)
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

// splitParts splits a "; "-separated list of parts, leaving a "; " inside
// parentheses to its part.
func splitParts(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
			}
		case ';':
			if depth == 0 && strings.HasPrefix(s[i:], "; ") {
				parts = append(parts, s[start:i])
				start = i + 2
			}
		}
	}
	return append(parts, s[start:])
}
