package compare

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseVector is one vector of sitegen/testdata/filter_parse.json, the grammar
// vectors TestBrowser_FilterGrammar runs through static/filter.js.
type parseVector struct {
	Expr      string   `json:"expr"`
	Scenarios []string `json:"scenarios,omitempty"`
	Terms     []struct {
		Field  string   `json:"field"`
		Neg    bool     `json:"neg"`
		Op     string   `json:"op"`
		Values []string `json:"values"`
	} `json:"terms"`
	Words []struct {
		Text string `json:"text"`
		Neg  bool   `json:"neg"`
	} `json:"words"`
	Errors []struct {
		Code    string `json:"code"`
		Col     int    `json:"col"`
		Message string `json:"message"`
	} `json:"errors"`
}

// TestParseFilter_Vectors: the Go parser reads every grammar vector as the
// explorer's script does: same terms, same words, same errors at the same
// columns with the same messages.
func TestParseFilter_Vectors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "sitegen", "testdata", "filter_parse.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []parseVector `json:"vectors"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) < 30 {
		t.Fatalf("only %d vectors", len(file.Vectors))
	}
	for _, v := range file.Vectors {
		p := ParseFilter(v.Expr, v.Scenarios)
		var got parseVector
		got.Expr, got.Scenarios = v.Expr, v.Scenarios
		for _, term := range p.Terms {
			vals := []string{}
			for _, x := range term.Values {
				vals = append(vals, x.Text)
			}
			got.Terms = append(got.Terms, struct {
				Field  string   `json:"field"`
				Neg    bool     `json:"neg"`
				Op     string   `json:"op"`
				Values []string `json:"values"`
			}{term.Field, term.Neg, term.Op, vals})
		}
		for _, w := range p.Words {
			got.Words = append(got.Words, struct {
				Text string `json:"text"`
				Neg  bool   `json:"neg"`
			}{w.Text, w.Neg})
		}
		for _, e := range p.Errors {
			got.Errors = append(got.Errors, struct {
				Code    string `json:"code"`
				Col     int    `json:"col"`
				Message string `json:"message"`
			}{e.Code, e.Col, e.Error()})
		}
		if diff := cmp.Diff(normal(v), normal(got)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", v.Expr, diff)
		}
	}
}

// normal makes empty lists nil, so that a vector's [] and an empty answer agree.
func normal(v parseVector) parseVector {
	if len(v.Terms) == 0 {
		v.Terms = nil
	}
	if len(v.Words) == 0 {
		v.Words = nil
	}
	if len(v.Errors) == 0 {
		v.Errors = nil
	}
	return v
}

// TestParseFilter_Positions: the issue's own example, a column counted in code
// points after a Chinese word, and a term left out while the others apply.
func TestParseFilter_Positions(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{"gpus>=x", "gpus>=x: at column 7: expected a number"},
		{"上海 gpus>=x", "gpus>=x: at column 10: expected a number"},
		{`region:"US East`, "region:\"US East: at column 8: a quote is not closed"},
		{"gpus>=8 vram>=1,2", "vram>=1,2: at column 17: expected one value after >="},
	} {
		p := ParseFilter(c.expr, nil)
		if len(p.Errors) != 1 || p.Errors[0].Error() != c.want {
			t.Errorf("%q: errors %v, want %q", c.expr, p.Errors, c.want)
		}
	}
	if p := ParseFilter("gpus>=8 vram>=1,2", nil); len(p.Terms) != 1 || p.Terms[0].Field != "gpus" || p.Terms[0].Values[0].N != 8 {
		t.Errorf("terms %+v, want gpus>=8 kept", p.Terms)
	}
}

// FuzzParseFilter: any text parses without a panic, every error's column is
// inside the expression and every term names a field of the grammar.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"gpus>=8 gpu:h100", `region:"us \"east"`, "-kind:npu,gpu", "上海 gpus>=x", `"a\`, "a,b,", "x:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := ParseFilter(s, []string{"dev-test"})
		n := len([]rune(s))
		for _, e := range p.Errors {
			if e.Col < 1 || e.Col > n+1 {
				t.Fatalf("%q: error %v at column %d of %d", s, e, e.Col, n)
			}
		}
		for _, term := range p.Terms {
			if _, ok := FilterFieldOf(term.Field); !ok {
				t.Fatalf("%q: unknown field %q", s, term.Field)
			}
		}
	})
}
