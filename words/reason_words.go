package words

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// ReasonWords puts compare's reasons (a code and its figures) into one language's
// words, from the message catalog (templates/i18n/<lang>.reasons.json): the
// scenario and TCO pages and `gpuatlas scenarios|tco --lang` say the same thing.
//
// A reason's message is "reason.<code>", with a placeholder per figure:
//   - {name}: the figure with its unit ("1,432.5 GiB"), codes in words joined
//     by the list separator ("GPU, NPU"), or a name as published;
//   - {name|n}: a quantity's number alone; {name|or}: codes joined by "or";
//   - {part1}, {part2} …: the reason's parts by position; {parts}: the rest,
//     joined by "reason.<code>.sep" when the catalog has one, else "reason.sep".
//
// Parts that no placeholder takes are added after the sentence in
// "reason.parts" (parentheses). Numbers follow the rules of number_format.go;
// Exact keeps every decimal, for formulas. Compare's money is in USD; words
// InCurrency show it in another currency (a Chinese page's CNY).
type ReasonWords struct {
	tag   string
	msgs  map[string]string
	exact bool
	mark  bool // text figures between MarkOpen and MarkClose (Marked)
	// cur is the currency money figures are shown in, at rate units of it
	// per USD; "" keeps them in USD.
	cur  catalog.Currency
	rate decimal.Decimal
}

// NewReasonWords reads the words of one language's catalog (Messages).
func NewReasonWords(tag string, msgs map[string]string) ReasonWords {
	return ReasonWords{tag: tag, msgs: msgs}
}

// InCurrency is w with every money figure (compare's USD units: an amount, a
// price per hour or per GPU-hour ...) converted into currency c at rate, the
// units of c per USD (the snapshot's FX cross rate): the figure times the
// rate, rounded by its unit's rule as the USD figure would be, and worded with
// c's unit ("unitfmt.CNY/h"). USD or "" keeps the figures in USD.
func (w ReasonWords) InCurrency(c catalog.Currency, rate decimal.Decimal) ReasonWords {
	w.cur, w.rate = "", decimal.Decimal{}
	if c != "" && c != catalog.USD {
		w.cur, w.rate = c, rate
	}
	return w
}

// Lang is the language tag the words are in.
func (w ReasonWords) Lang() string { return w.tag }

// T is the message for key with {name} placeholders filled from pairs (name,
// value, …); the key itself when the catalog lacks it.
func (w ReasonWords) T(key string, pairs ...string) string {
	s, ok := w.msgs[key]
	if !ok {
		s = key
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, "{"+pairs[i]+"}", pairs[i+1])
	}
	return s
}

// Label is a code of a vocabulary in words ("billing", "on_demand" → "On-demand"),
// the code itself when the catalog has no word for it.
func (w ReasonWords) Label(group, code string) string {
	if group == "" {
		return code
	}
	if group == compare.GroupWorkUnit {
		return w.WorkUnit(code)
	}
	if s, ok := w.msgs[group+"."+code]; ok {
		return s
	}
	return code
}

// Reason is r in words, numbers rounded for people.
func (w ReasonWords) Reason(r compare.Reason) string {
	w.exact = false
	return w.render(r)
}

// Exact is r in words with every figure as computed: for formulas.
func (w ReasonWords) Exact(r compare.Reason) string {
	w.exact = true
	return w.render(r)
}

// Marked is Reason with its text figures between MarkOpen and MarkClose, for a
// page to show as outside text (sitegen's ReasonHTML).
func (w ReasonWords) Marked(r compare.Reason) string {
	w.exact, w.mark = false, true
	return w.render(r)
}

// Reasons are rs in words, joined by the language's separator.
func (w ReasonWords) Reasons(rs []compare.Reason) string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = w.Reason(r)
	}
	return strings.Join(out, w.T("reason.sep"))
}

var placeholder = regexp.MustCompile(`\{([a-z0-9_]+)(\|(n|or))?\}`)

func (w ReasonWords) render(r compare.Reason) string {
	if r.Code == compare.ReasonTCOComparison {
		return w.comparison(r)
	}
	msg, ok := w.msgs["reason."+string(r.Code)]
	if !ok {
		// A code this build's catalog does not know: say the code and its
		// figures rather than nothing.
		msg = string(r.Code)
		for _, f := range r.Figures {
			msg += " {" + f.Name + "}"
		}
	}
	used := make([]bool, len(r.Parts))
	out := placeholder.ReplaceAllStringFunc(msg, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		name, mod := sub[1], sub[3]
		if strings.HasPrefix(name, "part") && name != "parts" {
			var i int
			if _, err := fmt.Sscanf(name, "part%d", &i); err == nil && i >= 1 && i <= len(r.Parts) {
				used[i-1] = true
				return w.render(r.Parts[i-1])
			}
			return ""
		}
		if name == "parts" {
			var rest []compare.Reason
			for i, p := range r.Parts {
				if !used[i] {
					used[i] = true
					rest = append(rest, p)
				}
			}
			return w.join(r.Code, rest)
		}
		f, ok := r.Figure(name)
		if !ok {
			return m
		}
		return w.figure(f, mod)
	})
	var rest []compare.Reason
	for i, p := range r.Parts {
		if !used[i] {
			rest = append(rest, p)
		}
	}
	if len(rest) > 0 {
		out += w.T("reason.parts", "parts", w.join(r.Code, rest))
	}
	return out
}

func (w ReasonWords) join(code compare.ReasonCode, rs []compare.Reason) string {
	sep, ok := w.msgs["reason."+string(code)+".sep"]
	if !ok {
		sep = w.T("reason.sep")
	}
	out := make([]string, len(rs))
	for i, p := range rs {
		out[i] = w.render(p)
	}
	return strings.Join(out, sep)
}

// figure is one figure in words; mod "n" is the number alone, "or" joins codes
// with "or".
func (w ReasonWords) figure(f compare.ReasonFigure, mod string) string {
	switch {
	case f.Value != nil:
		v, u := w.money(*f.Value, f.Unit)
		n := w.number(v, f.Unit)
		if mod == "n" {
			return n
		}
		return w.Quantity(v, u, n)
	case f.Codes != nil || f.Group != "":
		words := make([]string, len(f.Codes))
		for i, c := range f.Codes {
			words[i] = w.Label(f.Group, c)
		}
		if mod == "or" {
			return strings.Join(words, w.T("reason.or"))
		}
		return strings.Join(words, w.T("reason.list_sep"))
	}
	s := f.Text
	if w.tag == "zh" && f.TextZH != "" {
		s = f.TextZH
	}
	if f.Unmapped {
		if s == "" {
			return w.T("reason.no_accelerator")
		}
		return w.T("reason.unmapped", "name", s)
	}
	if w.mark && s == f.Text && s != "" {
		return MarkOpen + s + MarkClose
	}
	return s
}

// number is a figure's number by its unit's rule.
func (w ReasonWords) number(v decimal.Decimal, u compare.Unit) string {
	if w.exact {
		return FormatExact(v)
	}
	switch u {
	case compare.UnitUSD:
		return FormatMoney(v)
	case compare.UnitUSDHour, compare.UnitUSDGPUH, compare.UnitUSDGBH, compare.UnitUSDTFLOPH, compare.UnitUSDTOPSH, compare.UnitUSDNVENCH:
		return FormatRate(v)
	case compare.UnitPercent:
		return FormatPercent(v)
	case compare.UnitShare:
		return FormatShare(v)
	case compare.UnitScore:
		return trimZeros(v.StringFixed(2))
	case compare.UnitTimes:
		return v.StringFixed(1)
	}
	return FormatQuantity(v)
}

// Quantity is a number (already formatted) with its unit in words: "1,432.5
// GiB", "8 GPUs", "12.24 美元/小时". The catalog's "unitfmt.<unit>" holds the
// pattern, with a ".one" form for exactly 1 where the language has a plural.
func (w ReasonWords) Quantity(v decimal.Decimal, u compare.Unit, number string) string {
	key := "unitfmt." + unitKey(u)
	if w.exact && u == compare.UnitShare {
		key = "unitfmt.count" // an exact share is the decimal in the formula
	}
	if v.Equal(decOne) {
		if _, ok := w.msgs[key+".one"]; ok {
			key += ".one"
		}
	}
	if _, ok := w.msgs[key]; !ok {
		return strings.TrimSpace(number + " " + string(u))
	}
	return w.T(key, "n", number)
}

// Q is a quantity in words by its unit's rule: Q(640, GiB) is "640 GiB"; a USD
// figure in the words' currency.
func (w ReasonWords) Q(v decimal.Decimal, u compare.Unit) string {
	c, cu := w.money(v, u)
	return w.Quantity(c, cu, w.number(c, u))
}

// moneyUnits are compare's units of money, all in USD.
var moneyUnits = map[compare.Unit]bool{compare.UnitUSD: true, compare.UnitUSDHour: true, compare.UnitUSDGPUH: true,
	compare.UnitUSDGBH: true, compare.UnitUSDTFLOPH: true, compare.UnitUSDTOPSH: true, compare.UnitUSDNVENCH: true}

// currencyUnit is money unit u in currency c: "USD/h" in CNY is "CNY/h".
func currencyUnit(u compare.Unit, c catalog.Currency) compare.Unit {
	return compare.Unit(string(c) + strings.TrimPrefix(string(u), string(catalog.USD)))
}

// money is a figure in the words' currency: a USD one converted (v times the
// rate, the unit in the currency), any other as it is.
func (w ReasonWords) money(v decimal.Decimal, u compare.Unit) (decimal.Decimal, compare.Unit) {
	if w.cur == "" || !moneyUnits[u] {
		return v, u
	}
	return v.Mul(w.rate), currencyUnit(u, w.cur)
}

func unitKey(u compare.Unit) string {
	if u == compare.UnitCount {
		return "count"
	}
	return string(u)
}

// WorkUnit is a TCO work unit in words: "gpu_hour:nvidia-h100-sxm-80gb" is
// "GPU-hour on nvidia-h100-sxm-80gb"; a unit of another form is shown as it is.
func (w ReasonWords) WorkUnit(u string) string {
	switch {
	case strings.HasPrefix(u, compare.WorkUnitGPUHour):
		return w.T("workunit.gpu_hour", "ref", strings.TrimPrefix(u, compare.WorkUnitGPUHour))
	case strings.HasPrefix(u, compare.WorkUnitHour):
		return w.T("workunit.hour", "ref", strings.TrimPrefix(u, compare.WorkUnitHour))
	}
	return u
}

// Hardware is an instance type's accelerators: "8x NVIDIA H100 SXM5 80GB, 80 GiB
// each, NVLink".
func (w ReasonWords) Hardware(h compare.Hardware) string {
	if h.None {
		return w.T("reason.no_accelerator")
	}
	gpu := w.figure(compare.ReasonFigure{Name: "gpu", Text: h.GPU, Unmapped: h.Unmapped}, "")
	var s string
	if h.Share != nil {
		s = w.T("hw.slice", "n", fmt.Sprint(h.Count), "gpu", gpu, "share", FormatQuantity(*h.Share))
	} else {
		s = w.T("hw.count", "n", fmt.Sprint(h.Count), "gpu", gpu)
	}
	sep := w.T("hw.sep")
	if h.MemoryEachGiB != nil {
		s += sep + w.T("hw.memory_each", "memory", w.Q(*h.MemoryEachGiB, compare.UnitGB)) // the class: units.go
		if h.MemorySource != nil {
			s += w.T("reason.parts", "parts", w.Reason(*h.MemorySource))
		}
	}
	switch h.Link {
	case "nvlink":
		s += sep + w.T("hw.nvlink")
	case "pcie":
		s += sep + w.T("hw.pcie")
	}
	if h.MoreKinds > 0 {
		s += w.T("hw.more_kinds", "n", fmt.Sprint(h.MoreKinds))
	}
	return s
}

// comparison is tco_comparison: three clauses chosen by the signs of its figures
// ("costs 168% more per hour than", "but finishes 80% sooner", "and costs 46% less
// in total").
func (w ReasonWords) comparison(r compare.Reason) string {
	fig := func(name string) string {
		f, _ := r.Figure(name)
		return w.figure(f, "")
	}
	abs := func(name string) (decimal.Decimal, string) {
		f, ok := r.Figure(name)
		if !ok || f.Value == nil {
			return decimal.Zero, ""
		}
		return *f.Value, w.Q(f.Value.Abs(), f.Unit)
	}
	pairs := []string{"a", fig("a"), "b", fig("b"), "a_hours", fig("a_hours"), "b_hours", fig("b_hours")}
	with := func(extra ...string) []string { return append(append([]string(nil), pairs...), extra...) }
	key := "reason.tco_comparison"
	more, moreText := abs("hourly_more")
	hourly := w.T(key+".hourly_more", with("pct", moreText)...)
	if more.IsZero() {
		hourly = w.T(key+".hourly_same", pairs...)
	}
	sooner, soonerText := abs("sooner")
	_, longerText := abs("longer")
	var speed string
	switch {
	case sooner.IsPositive():
		speed = w.T(key+".sooner", with("pct", soonerText)...)
	case sooner.IsNegative():
		speed = w.T(key+".longer", with("pct", longerText)...)
	default:
		speed = w.T(key+".same_time", pairs...)
	}
	total := ""
	if t, totalText := abs("total_more"); totalText != "" {
		tp := with("pct", totalText, "a_total", fig("a_total"), "b_total", fig("b_total"), "months", fig("months"))
		switch {
		case t.IsNegative():
			total = w.T(key+".total_less", tp...)
		case t.IsPositive():
			total = w.T(key+".total_more", tp...)
		default:
			total = w.T(key+".total_same", tp...)
		}
	}
	return w.T(key, "hourly", hourly, "speed", speed, "total", total)
}
