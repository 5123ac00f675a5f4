package compare

import (
	"math"
	"sort"
	"strconv"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Why a query finds nothing, by the explorer's rule (static/explorer.js
// explainEmpty; the two must say the same, TestFind_WhyEmpty and
// TestBrowser_ExplorerWholeGPUsAndWholeWords ask the same question of each):
// for each term in turn, the rows the rest of the expression keeps; the first
// term whose field those rows hold no data for is the answer (as for
// interconnect:nvlink among types whose provider states no link); else the
// term whose removal brings back the fewest rows, with the values its field
// holds among them; else the terms only together exclude every row.

// Why codes, the explorer's message keys without their ex.empty_ prefix.
const (
	WhyAll    = "all"     // each term on its own keeps rows
	WhyNoData = "no_data" // the rows the rest keeps have no data in the term's field
	WhyTerm   = "term"    // the rows the rest keeps have these values in the field
	WhyTermNV = "term_nv" // a field without values to show (a price, a scenario)
)

// FindWhy is why nothing matches: a code and, but for WhyAll, the term as
// written, its field, how many rows the rest keeps and (WhyTerm) the values of
// the field among them, at most WhyValues of them (More: there are others).
// Values are codes and figures: provider, country, billing, availability and
// kind codes, GPU names, numbers rounded to 2 places; renderers label them.
type FindWhy struct {
	Code   string
	Term   string
	Field  string
	N      int
	Values []string
	More   bool
}

// WhyValues is how many values FindWhy names.
const WhyValues = 8

// FindEmpty says why q finds nothing in snap (call it when Find found no
// row). An expression without terms gives WhyAll.
func FindEmpty(snap *catalog.Snapshot, in FindInput, q FindQuery) (FindWhy, error) {
	why, fewest := FindWhy{Code: WhyAll}, math.MaxInt
	terms := q.Expr.Terms
	for k, term := range terms {
		rq := q
		rq.Expr.Terms = append(append([]FilterTerm{}, terms[:k]...), terms[k+1:]...)
		res, err := Find(snap, in, rq)
		if err != nil {
			return FindWhy{}, err
		}
		if len(res.Rows) == 0 {
			continue
		}
		level := filterAliases[term.Field].Level
		has := level == "type" && term.Field != "scenario" || level == "offer"
		vals, num := map[string]float64{}, filterAliases[term.Field].Type == "number"
		if has {
			for i := range res.Rows {
				for _, v := range whyValues(&res.Rows[i], term.Field, level) {
					if _, ok := vals[v.s]; !ok {
						vals[v.s] = v.n
					}
				}
			}
		}
		keys := make([]string, 0, len(vals))
		for s := range vals {
			keys = append(keys, s)
		}
		if num {
			sort.SliceStable(keys, func(i, j int) bool { return vals[keys[i]] < vals[keys[j]] })
		} else {
			sort.Strings(keys)
		}
		w := FindWhy{Code: WhyTermNV, Term: term.Src, Field: term.Field, N: len(res.Rows)}
		switch {
		case has && len(keys) == 0:
			w.Code = WhyNoData
			return w, nil
		case has:
			w.Code = WhyTerm
			w.More = len(keys) > WhyValues
			if w.More {
				keys = keys[:WhyValues]
			}
			w.Values = keys
		}
		if len(res.Rows) < fewest {
			why, fewest = w, len(res.Rows)
		}
	}
	return why, nil
}

// whyValue is a value as shown (s) and, for a number, its figure (n).
type whyValue struct {
	s string
	n float64
}

// whyValues are the values of field in a row: its type's, or for an offer
// field its shown offers' (the row's cells). Empty values are none.
func whyValues(r *FindRow, field, level string) []whyValue {
	str := func(ss ...string) []whyValue {
		var out []whyValue
		for _, s := range ss {
			if s != "" {
				out = append(out, whyValue{s: s})
			}
		}
		return out
	}
	if level == "type" {
		t := r.Type
		switch field {
		case "type":
			return str(t.ID)
		case "provider":
			return str(string(t.Provider))
		case "family":
			return str(t.Family)
		case "gpu":
			if r.GPU != "" {
				return str(r.GPU)
			}
			return str(r.GPUModel)
		case "kind":
			if a, ok := t.PrimaryAccelerator(); ok {
				return str(string(a.Kind))
			}
			return nil
		case "rdma":
			return str(t.RDMA)
		case "interconnect":
			return str(t.Interconnect)
		}
		if v := typeNumber(field, r); v != nil {
			return []whyValue{{s: plainNumber(*v), n: *v}}
		}
		return nil
	}
	var out []whyValue
	for _, c := range r.Cells {
		if c == nil {
			continue
		}
		o := c.Offer
		switch field {
		case "region":
			out = append(out, str(o.Region)...)
		case "country":
			out = append(out, str(c.Region.Country)...)
		case "zone":
			if o.Zone != "" {
				out = append(out, str(o.Zone)...)
			}
		case "billing":
			out = append(out, str(string(o.Billing))...)
		case "availability":
			out = append(out, str(string(o.Availability))...)
		case "marks":
			if len(c.Marks) > 0 {
				out = append(out, str(c.Marks[0])...)
			}
		case "fetched":
			out = append(out, str(o.FetchedAt.UTC().Format("2006-01-02T15:04:05Z"))...)
		case "interruption":
			if o.Interruption != nil {
				v := o.Interruption.Band.UpperPct().InexactFloat64()
				out = append(out, whyValue{s: plainNumber(v), n: v})
			}
		}
	}
	return out
}

// plainNumber is a figure to 2 places without trailing zeros, as the
// explorer's GPUAtlas.plain writes it.
func plainNumber(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}
