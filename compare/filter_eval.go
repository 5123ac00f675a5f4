package compare

import (
	"math"
	"strings"
)

// A parsed expression bound to the catalog's facts, as static/explorer-view.js
// compile binds it to the page's rows: a test per level (the type, the offer,
// a view row's prices), billing terms apart (they choose the price columns),
// and the search words as an offer test.

type filterTests struct {
	typ     []func(*findType) bool
	offer   []func(*findOffer) bool
	price   []func(*FindRow) bool
	billing []func(*findOffer) bool
}

// termTest is one term's test at its level (one of the three is set).
type termTest struct {
	typ   func(*findType) bool
	offer func(*findOffer) bool
	price func(*FindRow) bool
}

func compileFilter(e FilterExpr) filterTests {
	var out filterTests
	for _, term := range e.Terms {
		tt := compileTerm(term)
		switch {
		case term.Field == "billing":
			out.billing = append(out.billing, tt.offer)
		case tt.typ != nil:
			out.typ = append(out.typ, tt.typ)
		case tt.offer != nil:
			out.offer = append(out.offer, tt.offer)
		default:
			out.price = append(out.price, tt.price)
		}
	}
	if words := e.Words; len(words) > 0 {
		out.offer = append(out.offer, func(o *findOffer) bool {
			for _, w := range words {
				if strings.Contains(o.hay, w.Text) == w.Neg {
					return false
				}
			}
			return true
		})
	}
	return out
}

// numTest is a number term's test of a value (nil: no figure, which fails
// every operator; "-" negates the whole term).
func numTest(op string, nums []float64) func(*float64) bool {
	x := nums[0]
	eq := func(v float64) bool {
		for _, n := range nums {
			if math.Abs(v-n) < filterEps {
				return true
			}
		}
		return false
	}
	return func(p *float64) bool {
		if p == nil {
			return false
		}
		v := *p
		switch op {
		case ">=":
			return v >= x-filterEps
		case "<=":
			return v <= x+filterEps
		case ">":
			return v > x+filterEps
		case "<":
			return v < x-filterEps
		case "!=":
			return !eq(v)
		}
		return eq(v)
	}
}

// strTest is a text or name term's test of lower-case strings: ":" any
// contains a value (a name term: as whole words, nameMatch), "=" any is a
// value, "!=" none is.
func strTest(op string, vals []string, name bool) func([]string) bool {
	eq := func(ss []string) bool {
		for _, v := range vals {
			if contains(ss, v) {
				return true
			}
		}
		return false
	}
	switch op {
	case ":":
		return func(ss []string) bool {
			for _, v := range vals {
				for _, s := range ss {
					if name && nameMatch(s, v) || !name && strings.Contains(s, v) {
						return true
					}
				}
			}
			return false
		}
	case "!=":
		return func(ss []string) bool { return !eq(ss) }
	}
	return eq
}

// nameMatch is a name term's ":" test of a lower-case name s: v occurs in s
// as whole words, that is, not inside a run of ASCII letters and digits that
// goes on before or after it (gpu:h20 is the H20, not the H200; a10 is not
// the A10G); a value ending in "*" may go on after it (gpu:h20* is both).
// Other characters (Chinese names) match anywhere. static/explorer-view.js
// nameMatch is the same rule.
func nameMatch(s, v string) bool {
	prefix := strings.HasSuffix(v, "*")
	v = strings.TrimSuffix(v, "*")
	if v == "" {
		return true
	}
	for from := 0; from <= len(s)-len(v); {
		i := strings.Index(s[from:], v)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(v)
		before := i == 0 || !wordByte(s[i-1]) || !wordByte(v[0])
		after := prefix || end == len(s) || !wordByte(s[end]) || !wordByte(v[len(v)-1])
		if before && after {
			return true
		}
		from = i + 1
	}
	return false
}

func wordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// keyTest is a keyword term's test of codes: ":" any is one of the values,
// "!=" none is.
func keyTest(op string, vals []string) func([]string) bool {
	anyOf := func(ks []string) bool {
		for _, k := range ks {
			if contains(vals, k) {
				return true
			}
		}
		return false
	}
	if op == "!=" {
		return func(ks []string) bool { return !anyOf(ks) }
	}
	return anyOf
}

func fptr(v float64) *float64 { return &v }

// typeNumbers are the number fields of an instance type.
var typeNumbers = map[string]func(*findType) *float64{
	"gpus":             func(t *findType) *float64 { return fptr(t.units) },
	"gpu_memory":       func(t *findType) *float64 { return fptr(t.gmemEach) },
	"gpu_memory_total": func(t *findType) *float64 { return fptr(t.gmem) },
	"vcpus":            func(t *findType) *float64 { return fptr(t.vcpus) },
	"memory":           func(t *findType) *float64 { return fptr(t.mem) },
	"cpu_per_gpu":      func(t *findType) *float64 { return t.cpuPerGPU },
	"disk":             func(t *findType) *float64 { return fptr(t.disk) },
	"network":          func(t *findType) *float64 { return t.gbps },
}

// typeStrings are the text and name fields of an instance type.
var typeStrings = map[string]func(*findType) []string{
	"provider":     func(t *findType) []string { return t.names["provider"] },
	"type":         func(t *findType) []string { return lowerAll(t.t.ID) },
	"family":       func(t *findType) []string { return lowerAll(t.t.Family) },
	"gpu":          func(t *findType) []string { return t.names["gpu"] },
	"rdma":         func(t *findType) []string { return t.names["rdma"] },
	"interconnect": func(t *findType) []string { return t.names["interconnect"] },
}

// offerStrings are the text and name fields of an offer.
var offerStrings = map[string]func(*findOffer) []string{
	"region": func(o *findOffer) []string { return o.regNames },
	"zone": func(o *findOffer) []string {
		if o.o.Zone != "" {
			return []string{strings.ToLower(o.o.Zone)}
		}
		return []string{strings.ToLower(strings.Join(o.o.Zones, " "))}
	},
	"fetched": func(o *findOffer) []string {
		return []string{strings.ToLower(o.o.FetchedAt.UTC().Format("2006-01-02T15:04:05Z"))}
	},
}

// offerNumbers are the number fields of an offer.
var offerNumbers = map[string]func(*findOffer) *float64{
	"interruption": func(o *findOffer) *float64 {
		if o.o.Interruption == nil {
			return nil
		}
		v := o.o.Interruption.Band.UpperPct().InexactFloat64()
		return &v
	},
}

// offerKeys are the keyword fields of an offer.
var offerKeys = map[string]func(*findOffer) []string{
	"country":      func(o *findOffer) []string { return []string{strings.ToLower(o.region.Country)} },
	"billing":      func(o *findOffer) []string { return []string{string(o.o.Billing)} },
	"availability": func(o *findOffer) []string { return []string{string(o.o.Availability)} },
	"marks":        func(o *findOffer) []string { return o.marks },
}

func compileTerm(term FilterTerm) termTest {
	def := filterAliases[term.Field]
	vals := make([]string, len(term.Values))
	nums := make([]float64, len(term.Values))
	for i, v := range term.Values {
		vals[i], nums[i] = v.Text, v.N
	}
	neg := func(b bool) bool { return b != term.Neg }
	var tt termTest
	switch {
	case def.Type == "number" && def.Level == "type":
		get, nt := typeNumbers[term.Field], numTest(term.Op, nums)
		tt.typ = func(t *findType) bool { return neg(nt(get(t))) }
	case def.Type == "number" && def.Level == "offer":
		get, nt := offerNumbers[term.Field], numTest(term.Op, nums)
		tt.offer = func(o *findOffer) bool { return neg(nt(get(o))) }
	case def.Type == "number":
		nt, f := numTest(term.Op, nums), term.Field
		tt.price = func(r *FindRow) bool { return neg(nt(r.num[f])) }
	case def.Type == "keyword":
		kinds := vals
		if term.Field == "billing" {
			kinds = nil
			for _, v := range vals {
				kinds = append(kinds, BillingKindsOf(v)...)
			}
		}
		kt := keyTest(term.Op, kinds)
		switch term.Field {
		case "kind":
			tt.typ = func(t *findType) bool { return neg(kt([]string{t.kind})) }
		case "scenario":
			tt.typ = func(t *findType) bool { return neg(kt(t.fits)) }
		default:
			get := offerKeys[term.Field]
			tt.offer = func(o *findOffer) bool { return neg(kt(get(o))) }
		}
	default:
		st := strTest(term.Op, vals, def.Type == "name")
		if get, ok := typeStrings[term.Field]; ok {
			tt.typ = func(t *findType) bool { return neg(st(get(t))) }
		} else {
			get := offerStrings[term.Field]
			tt.offer = func(o *findOffer) bool { return neg(st(get(o))) }
		}
	}
	return tt
}
