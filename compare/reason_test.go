package compare

import (
	"os"
	"strings"
	"testing"
)

// rs writes a reason compactly for tests: code(name=value unit, …)[parts].
func rs(r Reason) string {
	var b strings.Builder
	b.WriteString(string(r.Code))
	if len(r.Figures) > 0 {
		b.WriteString("(")
		for i, f := range r.Figures {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name + "=")
			switch {
			case f.Value != nil:
				b.WriteString(f.Value.String())
				if f.Unit != "" {
					b.WriteString(" " + string(f.Unit))
				}
			case f.Codes != nil || f.Group != "":
				b.WriteString(strings.Join(f.Codes, "|"))
			default:
				b.WriteString(f.Text)
				if f.TextZH != "" {
					b.WriteString("/" + f.TextZH)
				}
				if f.Unmapped {
					b.WriteString(" (unmapped)")
				}
			}
		}
		b.WriteString(")")
	}
	if len(r.Parts) > 0 {
		b.WriteString("[")
		for i, p := range r.Parts {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(rs(p))
		}
		b.WriteString("]")
	}
	return b.String()
}

func rsAll(rs0 []Reason) []string {
	out := []string{}
	for _, r := range rs0 {
		out = append(out, rs(r))
	}
	return out
}

func TestReasonCodes_UniqueAndDocumented(t *testing.T) {
	readme, err := os.ReadFile("../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[ReasonCode]bool{}
	for _, c := range ReasonCodes {
		if c == "" || strings.ContainsAny(string(c), " .{}") {
			t.Errorf("code %q is not a plain snake_case word", c)
		}
		if seen[c] {
			t.Errorf("code %q is listed twice", c)
		}
		seen[c] = true
		if !strings.Contains(string(readme), "`"+string(c)+"`") {
			t.Errorf("README.md does not document reason code `%s`", c)
		}
	}
	for _, u := range Units {
		if u != UnitCount && !strings.Contains(string(readme), "`"+string(u)+"`") {
			t.Errorf("README.md does not document unit `%s`", u)
		}
	}
}

func checkReasons(f OfferFit) []Reason {
	var out []Reason
	for _, c := range f.Checks {
		out = append(out, c.Reason)
	}
	return out
}
