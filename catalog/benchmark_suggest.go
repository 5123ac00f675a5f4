package catalog

import (
	"fmt"
	"sort"
	"strings"
)

// unknownFieldMessage says a CSV column or YAML key is no upload field. A name
// that does not look like a field name is not repeated: it may be anything
// (a file that is not an upload reads as one header cell of 4,000 characters).
func unknownFieldMessage(name string) string {
	if !fieldLike(name) {
		return fmt.Sprintf("unknown field: a name of %d bytes that is not a field name (fields are lower-case words joined by _, e.g. run_date)", len(name))
	}
	msg := fmt.Sprintf("unknown field %q", name)
	if s := closest(name, BenchmarkFields, 1); len(s) > 0 && editDistance(name, s[0]) <= 3 {
		msg += fmt.Sprintf("; did you mean %q?", s[0])
	}
	return msg
}

// fieldLike reports whether s could be meant as a field name: at most 40
// letters, digits, spaces, _, - and . (a misspelt field, not a stray line).
func fieldLike(s string) bool {
	if s == "" || len(s) > maxExcerpt {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.', r == ' ':
		default:
			return false
		}
	}
	return true
}

// unknownInstanceMessage says id is no instance type of p in the catalog,
// naming the closest of known when suggest is set.
func unknownInstanceMessage(p Provider, id string, known []string, suggest bool) string {
	msg := fmt.Sprintf("unknown %s instance type %s", p, Excerpt(id))
	if len(known) == 0 {
		return msg + fmt.Sprintf(" (the catalog has no %s instance types)", p)
	}
	if !suggest {
		return msg
	}
	if s := closest(id, known, 3); len(s) > 0 {
		msg += "; closest: " + strings.Join(s, ", ")
	}
	return msg
}

// closest returns up to n candidates nearest to s by edit distance (ties by name).
// Names longer than 100 bytes get no suggestion: the distance is quadratic.
func closest(s string, candidates []string, n int) []string {
	if len(s) > 100 || len(candidates) == 0 {
		return nil
	}
	type cand struct {
		name string
		d    int
	}
	cs := make([]cand, 0, len(candidates))
	for _, c := range candidates {
		if len(c) > 100 {
			continue
		}
		cs = append(cs, cand{c, editDistance(strings.ToLower(s), strings.ToLower(c))})
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, over runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
