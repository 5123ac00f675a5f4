package words

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/compare"
)

// FitWords puts the memory estimate's codes and figures into words from a
// message catalog (templates/i18n/<lang>.fit.json): the estimator page, its
// script (static/fit.js, the same rules) and `gpuatlas fit` say the same thing
// in both languages.
type FitWords struct {
	msgs map[string]string
}

// NewFitWords reads the words of one language's catalog (Messages).
func NewFitWords(msgs map[string]string) FitWords { return FitWords{msgs: msgs} }

// T is the message for key with {name} placeholders filled from pairs (name,
// value, …); the key itself when the catalog lacks it.
func (f FitWords) T(key string, pairs ...string) string {
	s, ok := f.msgs[key]
	if !ok {
		s = key
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, "{"+pairs[i]+"}", pairs[i+1])
	}
	return s
}

// Terms fills a formula's message from its terms, numbers grouped in thousands.
func (f FitWords) Terms(key string, terms []compare.Term, extra ...string) string {
	pairs := make([]string, 0, 2*len(terms)+len(extra))
	for _, t := range terms {
		pairs = append(pairs, t.Name, GroupDigits(t.Value.String()))
	}
	return f.T(key, append(pairs, extra...)...)
}

// GroupDigits writes a decimal's whole part in groups of three: 70553706496 is
// 70,553,706,496.
func GroupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	if len(whole) > 3 {
		var b strings.Builder
		for i, c := range whole {
			if i > 0 && (len(whole)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(c)
		}
		whole = b.String()
	}
	if hasFrac {
		return sign + whole + "." + frac
	}
	return sign + whole
}

// GB is a size in GB or GiB to 2 places, grouped.
func GB(d decimal.Decimal) string { return GroupDigits(d.StringFixed(compare.SizePlaces)) }

// Price is an hourly price to 4 places.
func Price(d decimal.Decimal) string { return GroupDigits(d.StringFixed(4)) }

// ModelName is the estimate's model: its name, or "a 70,000,000,000-parameter
// model".
func (f FitWords) ModelName(e compare.MemoryEstimate) string {
	if e.Model != nil {
		return e.Model.Name
	}
	return f.T("fit.custom_model", "params", GroupDigits(fmt.Sprint(e.Params)))
}

// Component is a component's formula with its result ("… = 141,107,412,992
// B"), or its status in words.
func (f FitWords) Component(c compare.MemoryComponent) string {
	if c.Status != compare.StatusEstimated {
		return f.T("fit.status." + c.Status)
	}
	return f.Terms("fit.formula."+c.Formula, c.Terms) + " = " + GroupDigits(c.Bytes.String()) + " B"
}

// Figure is a derived figure's line.
func (f FitWords) Figure(d compare.DerivedFigure) string {
	return f.Terms("fit.figure."+d.Formula, d.Terms, "value", GroupDigits(d.Value.String()))
}

// Note is a note's sentence.
func (f FitWords) Note(n compare.MemoryNote) string { return f.Terms("fit.note."+n.Code, n.Terms) }

// Hardware is "8x NVIDIA H100 SXM5 80GB, 80.00 GB each".
func (f FitWords) Hardware(r compare.MemoryFitRow) string {
	each := "?"
	if r.MemoryEachGB != nil {
		each = GB(*r.MemoryEachGB)
	}
	if r.MemoryEachReportedGiB != nil {
		// the provider's figure in the provider's unit
		return f.T("fit.hardware_reported", "devices", fmt.Sprint(r.Devices), "gpu", f.GPUName(r.MemoryCandidate),
			"gib", GB(*r.MemoryEachReportedGiB))
	}
	return f.T("fit.hardware", "devices", fmt.Sprint(r.Devices), "gpu", f.GPUName(r.MemoryCandidate), "each", each)
}

// GPUName is the candidate's GPU model name, marked "(model uncertain)" where
// the alias table's mapping is not certain.
func (f FitWords) GPUName(c compare.MemoryCandidate) string {
	if c.MappingConfidence != "" {
		return f.T("fit.mapping_uncertain", "gpu", c.GPUName)
	}
	return c.GPUName
}

// Placement is how a fitting row holds the model.
func (f FitWords) Placement(r compare.MemoryFitRow) string {
	s := f.T("fit.reason."+r.Reason, "devices", fmt.Sprint(r.Devices))
	if r.Verdict == compare.FitMayFit {
		s = f.T("fit.may_fit") + f.T("fit.sep") + s
	}
	return s
}

// MissReason is why a configuration misses (short of memory, or a reason of
// the capability rule: not identified, inference only, no native bf16 …), with how many more of its GPU model
// miss and from how many of its GPUs it fits.
func (f FitWords) MissReason(r compare.MemoryFitRow) string {
	key := "fit.reason.short"
	switch {
	case r.Reason != "" && r.Reason != compare.ReasonShort:
		key = "fit.reason." + r.Reason // the capability rule's reason
	case r.Devices == 1:
		key = "fit.reason.short_one"
	}
	s := f.T(key, "need", GB(r.NeedGB), "devices", fmt.Sprint(r.Devices), "gpu", f.GPUName(r.MemoryCandidate), "have", GB(r.HaveGB))
	if r.OtherTypes > 0 {
		s += f.T("fit.sep") + f.T("fit.miss_more", "n", fmt.Sprint(r.OtherTypes))
	}
	if r.FitsFrom > 0 {
		s += f.T("fit.sep") + f.T("fit.miss_fits_from", "n", fmt.Sprint(r.FitsFrom))
	}
	return s
}
