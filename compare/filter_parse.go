package compare

import (
	"regexp"
	"strconv"
	"strings"
)

// Filter expressions are read here exactly as templates/static/filter.js reads
// them, clause by clause (README "Filter expressions" is the written grammar):
//
//	expression = { space } [ term { space { space } term } ] { space }
//	term       = [ "-" ] field operator values   (a field term)
//	           | [ "-" ] word                    (a search word)
//	field      = letter { letter | digit | "_" }  case-insensitive, or an alias
//	operator   = ">=" | "<=" | "!=" | ":" | "=" | ">" | "<"
//	values     = value { "," value }
//	value      = { plain | quoted }                 at least one character
//	word       = { plain | quoted | "," }           at least one character
//	plain      = any character but space, "," and '"'
//	quoted     = '"' { any character but '"' and "\" | "\" any character } '"'
//
// Positions are columns: Unicode code points counted from 1. A term with an
// error is left out and reported; the others apply.

// FilterExpr is a parsed expression: its field terms in order, its search
// words and its errors.
type FilterExpr struct {
	Terms  []FilterTerm
	Words  []FilterWord
	Errors []FilterError
}

// FilterTerm is a field term: the field by its canonical name, the operator
// ("=" is read as ":" for number and keyword fields) and the values, lower case
// and unquoted.
type FilterTerm struct {
	Field  string
	Neg    bool
	Op     string
	Values []FilterValue
	Col    int
	Src    string
}

// FilterValue is one value of a term; N is its number for a number field.
type FilterValue struct {
	Text string
	Col  int
	N    float64
}

// FilterWord is a search word, lower case; Neg: the word must be absent.
type FilterWord struct {
	Text string
	Neg  bool
	Col  int
}

// FilterError is a term the parser left out: a code (unterminated_quote,
// unknown_field, bad_operator, expected_value, one_value, expected_number,
// expected_country, unknown_value), the column it is at, the term as written
// and the figures its message names.
type FilterError struct {
	Code string
	Col  int
	Term string
	Args map[string]string
}

// filterEnglish are the messages' English words, used where a catalog of words
// has none (the same defaults as the script's).
var filterEnglish = map[string]string{
	"expr.at":                 "{term}: at column {col}: {message}",
	"expr.unterminated_quote": "a quote is not closed",
	"expr.unknown_field":      "unknown field {field}",
	"expr.bad_operator":       "{op} does not apply to {field}",
	"expr.expected_value":     "expected a value",
	"expr.one_value":          "expected one value after {op}",
	"expr.expected_number":    "expected a number",
	"expr.expected_country":   "expected a two-letter country code",
	"expr.unknown_value":      "unknown {field} {value}; one of: {values}",
}

var fillField = regexp.MustCompile(`\{(\w+)\}`)

// Message is the error in words, "gpus>=x: at column 7: expected a number",
// with the templates text gives ("expr.at", "expr.<code>"; English where text
// is nil or has no such key).
func (e FilterError) Message(text func(key string) (string, bool)) string {
	t := func(k string) string {
		if text != nil {
			if s, ok := text(k); ok {
				return s
			}
		}
		return filterEnglish[k]
	}
	vals := map[string]string{"term": e.Term, "col": strconv.Itoa(e.Col)}
	for k, v := range e.Args {
		vals[k] = v
	}
	fill := func(s string) string {
		return fillField.ReplaceAllStringFunc(s, func(m string) string {
			if v, ok := vals[m[1:len(m)-1]]; ok {
				return v
			}
			return m
		})
	}
	vals["message"] = fill(t("expr." + e.Code))
	return fill(t("expr.at"))
}

// Error is the message in English.
func (e FilterError) Error() string { return e.Message(nil) }

var (
	filterOperators = []string{">=", "<=", "!=", ":", "=", ">", "<"}
	filterNumber    = regexp.MustCompile(`^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)%?$`) // "10%" reads as 10
	filterCountry   = regexp.MustCompile(`^[a-z]{2}$`)
)

func orderOp(op string) bool { return op == ">=" || op == "<=" || op == ">" || op == "<" }

// filterSpace is the script's white space: what splits terms.
func filterSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\f', '\v', '\u00a0', '\u2028', '\u2029', '\u3000':
		return true
	}
	return false
}

func letter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// lowerASCII lower-cases a field name (letters, digits and "_").
func lowerASCII(s string) string { return strings.ToLower(s) }

// rawTerm is a term's code points and the column of its first one.
type rawTerm struct {
	cps []rune
	col int
	src string
}

// splitTerms cuts the expression into terms at white space outside quotes.
func splitTerms(cps []rune, errs *[]FilterError) []rawTerm {
	var terms []rawTerm
	i := 0
	for i < len(cps) {
		if filterSpace(cps[i]) {
			i++
			continue
		}
		start, quote := i, -1
	term:
		for ; i < len(cps); i++ {
			c := cps[i]
			switch {
			case quote >= 0 && c == '\\':
				i++ // the next character is quoted, a space or a quote too
			case quote >= 0 && c == '"':
				quote = -1
			case quote >= 0:
			case c == '"':
				quote = i
			case filterSpace(c):
				break term
			}
		}
		end := min(i, len(cps))
		src := string(cps[start:end])
		if quote >= 0 {
			*errs = append(*errs, FilterError{Code: "unterminated_quote", Col: quote + 1, Term: src, Args: map[string]string{}})
			continue
		}
		terms = append(terms, rawTerm{cps: cps[start:end], col: start + 1, src: src})
	}
	return terms
}

type piece struct {
	v   string
	col int
}

// pieces cuts code points into parts at commas outside quotes (none when
// commas is false), unquoting each.
func pieces(cps []rune, col int, commas bool) []piece {
	var out []piece
	var cur strings.Builder
	at := col
	for i := 0; i < len(cps); i++ {
		c := cps[i]
		switch {
		case c == '"':
			for i++; i < len(cps) && cps[i] != '"'; i++ {
				if cps[i] == '\\' {
					i++
				}
				if i < len(cps) {
					cur.WriteRune(cps[i])
				}
			}
		case c == ',' && commas:
			out = append(out, piece{cur.String(), at})
			cur.Reset()
			at = col + i + 1
		default:
			cur.WriteRune(c)
		}
	}
	return append(out, piece{cur.String(), at})
}

// termHead is "-field op" at the start of a term.
type termHead struct {
	neg            bool
	name           string
	nameCol, opCol int
	op             string
	rest           int
}

// readHead reads "-field op" at the start of a term; ok is false for a word.
func readHead(cps []rune) (termHead, bool) {
	i, neg := 0, false
	if len(cps) > 0 && cps[0] == '-' {
		neg, i = true, 1
	}
	if i >= len(cps) || !letter(cps[i]) {
		return termHead{}, false
	}
	j := i + 1
	for j < len(cps) && (letter(cps[j]) || cps[j] >= '0' && cps[j] <= '9' || cps[j] == '_') {
		j++
	}
	at := func(k int) string {
		if k < len(cps) {
			return string(cps[k])
		}
		return ""
	}
	for _, op := range filterOperators {
		got := at(j)
		if len(op) == 2 {
			got += at(j + 1)
		}
		if got == op {
			return termHead{neg: neg, name: string(cps[i:j]), nameCol: i, op: op, opCol: j, rest: j + len(op)}, true
		}
	}
	return termHead{}, false
}

// ParseFilter reads an expression. scenarios, when not nil, are the scenario
// ids a scenario term may name (nil: any).
func ParseFilter(expr string, scenarios []string) FilterExpr {
	out := FilterExpr{}
	cps := []rune(expr)
	for _, t := range splitTerms(cps, &out.Errors) {
		h, ok := readHead(t.cps)
		if !ok {
			neg := t.cps[0] == '-' && len(t.cps) > 1
			from := 0
			if neg {
				from = 1
			}
			w := pieces(t.cps[from:], t.col+from, false)[0]
			out.Words = append(out.Words, FilterWord{Text: strings.ToLower(w.v), Neg: neg, Col: t.col})
			continue
		}
		if term, err := parseTerm(t, h, scenarios); err != nil {
			out.Errors = append(out.Errors, *err)
		} else {
			out.Terms = append(out.Terms, term)
		}
	}
	return out
}

func parseTerm(t rawTerm, h termHead, scenarios []string) (FilterTerm, *FilterError) {
	fail := func(code string, col int, args ...string) (FilterTerm, *FilterError) {
		e := &FilterError{Code: code, Col: col, Term: t.src, Args: map[string]string{}}
		for i := 0; i+1 < len(args); i += 2 {
			e.Args[args[i]] = args[i+1]
		}
		return FilterTerm{}, e
	}
	def, ok := filterAliases[lowerASCII(h.name)]
	if !ok {
		return fail("unknown_field", t.col+h.nameCol, "field", h.name)
	}
	if def.Type != "number" && orderOp(h.op) {
		return fail("bad_operator", t.col+h.opCol, "op", h.op, "field", def.Name)
	}
	vals := pieces(t.cps[h.rest:], t.col+h.rest, true)
	op := h.op
	if op == "=" && (def.Type == "number" || def.Type == "keyword") {
		op = ":"
	}
	term := FilterTerm{Field: def.Name, Neg: h.neg, Op: op, Col: t.col, Src: t.src}
	for k, v := range vals {
		if v.v == "" {
			return fail("expected_value", v.col)
		}
		if k > 0 && orderOp(h.op) {
			return fail("one_value", v.col, "op", h.op)
		}
		val := FilterValue{Text: strings.ToLower(v.v), Col: v.col}
		switch {
		case def.Type == "number":
			if !filterNumber.MatchString(v.v) {
				return fail("expected_number", v.col, "value", v.v)
			}
			n, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSuffix(v.v, "%"), "."), 64)
			if err != nil {
				return fail("expected_number", v.col, "value", v.v)
			}
			val.N = n
		case def.Name == "country":
			if !filterCountry.MatchString(val.Text) {
				return fail("expected_country", v.col, "value", v.v)
			}
		case def.Name == "scenario":
			if scenarios != nil && !contains(scenarios, val.Text) {
				return fail("unknown_value", v.col, "value", v.v, "field", def.Name, "values", strings.Join(scenarios, ", "))
			}
		case def.Values != nil:
			if !contains(def.Values, val.Text) {
				return fail("unknown_value", v.col, "value", v.v, "field", def.Name, "values", strings.Join(def.Values, ", "))
			}
		}
		term.Values = append(term.Values, val)
	}
	return term, nil
}
