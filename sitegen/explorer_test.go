package sitegen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/compare"
)

// TestExplorer_MessagesOfCodes checks the explorer's words that are made from
// codes exist in every language: the help's field, type and level names, the
// price column names and the filter errors.
func TestExplorer_MessagesOfCodes(t *testing.T) {
	var keys []string
	for _, f := range grammarFields {
		keys = append(keys, "field."+f.Name, "ex.ftype."+f.Type, "level."+f.Level)
	}
	for _, c := range billingColumns {
		keys = append(keys, "ex.col."+c.ID)
	}
	for _, code := range []string{"at", "unterminated_quote", "unknown_field", "bad_operator", "expected_value", "one_value",
		"expected_number", "expected_country", "unknown_value"} {
		keys = append(keys, "expr."+code)
	}
	for _, l := range loadTestLanguages(t) {
		labels := l.explorerLabels()
		for _, k := range keys {
			if _, ok := l.messages[k]; !ok {
				t.Errorf("i18n/%s lacks %q", l.Tag, k)
			}
			// The script gets every key but the help's, which the server writes.
			if _, ok := labels[k]; !ok && (k[:3] == "ex." || k[:5] == "expr.") {
				t.Errorf("the %s explorer's labels lack %q", l.Tag, k)
			}
		}
		if _, ok := labels["ex.help_intro"]; ok {
			t.Errorf("the %s explorer's labels carry the help, which the page already has", l.Tag)
		}
	}
}

// TestExplorer_OffersJSONScenarios checks offers.json carries compare's
// verdicts: per scenario the types that fit and those that may fit, as
// indexes into its types.
func TestExplorer_OffersJSONScenarios(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	opts := scenarioOptions(t, out)
	build(t, opts)
	b, err := os.ReadFile(filepath.Join(out, offersDataPath))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Types     [][]any              `json:"types"`
		Providers map[string][2]string `json:"providers"`
		Scenarios []json.RawMessage    `json:"scenarios"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if got := f.Providers["alibaba"]; got != [2]string{"Alibaba Cloud", "阿里云"} {
		t.Errorf("Alibaba's names = %q", got)
	}
	typeKey := func(i int) string { return f.Types[i][0].(string) + "/" + f.Types[i][1].(string) }
	if len(f.Scenarios) != len(opts.Scenarios.Matrix.Scenarios) {
		t.Fatalf("%d scenarios in offers.json, want %d", len(f.Scenarios), len(opts.Scenarios.Matrix.Scenarios))
	}
	for i, sr := range opts.Scenarios.Matrix.Scenarios {
		var s []any
		if err := json.Unmarshal(f.Scenarios[i], &s); err != nil {
			t.Fatal(err)
		}
		var fits, may, wantFits, wantMay []string
		for _, x := range s[3].([]any) {
			fits = append(fits, typeKey(int(x.(float64))))
		}
		for _, x := range s[4].([]any) {
			may = append(may, typeKey(int(x.(float64))))
		}
		for _, r := range sr.Ranked {
			switch r.Verdict {
			case compare.Fits:
				wantFits = append(wantFits, r.InstanceKey)
			case compare.MayFit:
				wantMay = append(wantMay, r.InstanceKey)
			}
		}
		if s[0] != sr.Scenario.ID || s[1] != sr.Scenario.Name || s[2] != sr.Scenario.NameZH {
			t.Errorf("scenario %d = %v, want %s", i, s[:3], sr.Scenario.ID)
		}
		if diff := cmp.Diff(wantFits, fits); diff != "" {
			t.Errorf("%s: types that fit (-compare +offers.json):\n%s", sr.Scenario.ID, diff)
		}
		if diff := cmp.Diff(wantMay, may); diff != "" {
			t.Errorf("%s: types that may fit (-compare +offers.json):\n%s", sr.Scenario.ID, diff)
		}
	}
	// Accelerator kind and the partial flag close each type's tuple.
	for i, tp := range f.Types {
		if typeKey(i) == "aws/g6f.large" && (tp[18] != "gpu" || tp[19] != float64(1)) {
			t.Errorf("g6f.large (an L4 slice) = %v, want kind gpu, partial", tp[18:])
		}
		if typeKey(i) == "aws/p5.48xlarge" && tp[19] != float64(0) {
			t.Errorf("p5.48xlarge is marked partial")
		}
	}
	if !slices.ContainsFunc(f.Types, func(tp []any) bool { return tp[19] == float64(1) }) {
		t.Error("no type is partial")
	}
}
