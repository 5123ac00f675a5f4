package sitegen

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/words"
)

func TestTCO_Golden(t *testing.T) {
	out := buildSite(t, withScenarios)
	goldenCheck(t, out, "tco.html", "tco.html")
}

var (
	cellRe = regexp.MustCompile(`(?s)<t[hd][^>]*>(.*?)</t[hd]>`)
	rowRe  = regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`)
	tagRe  = regexp.MustCompile(`(?s)<small.*?</small>|<[^>]+>`)
)

// TableCells returns the text of every body cell of the table with the given id,
// row by row (tags and <small> notes removed).
func tableCells(t *testing.T, page, id string) [][]string {
	t.Helper()
	i := strings.Index(page, `id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no table %s", id)
	}
	body := pagePart(t, page[i:], "<tbody>", "</tbody>")
	var out [][]string
	for _, r := range rowRe.FindAllStringSubmatch(body, -1) {
		var row []string
		for _, c := range cellRe.FindAllStringSubmatch(r[1], -1) {
			row = append(row, strings.TrimSpace(html.UnescapeString(tagRe.ReplaceAllString(c[1], ""))))
		}
		out = append(out, row)
	}
	return out
}

// presetFromConfig builds each scenario's preset TCO input from the page's
// calculator configuration as static/tco.js does on load: the preset offers and
// billing groups, the default workload.
func presetFromConfig(cfg tcoConfig, s tcoCalcScenario) compare.TCOInput {
	groups := map[string]bool{}
	for _, g := range cfg.Preset {
		groups[g] = true
	}
	d := cfg.Defaults
	in := compare.TCOInput{Schema: compare.TCOSchema, Source: s.Source, Workload: compare.TCOWorkload{WorkUnit: s.WorkUnit,
		JobSize: d.Hours.Mul(s.BaseSpeed), JobsPerMonth: decimal.NewFromInt(1), Utilisation: d.Utilisation,
		IdleHoursPerMonth: d.Idle, HorizonMonths: d.Months}}
	for _, o := range s.Offers {
		if !o.Preset {
			continue
		}
		for _, g := range o.Options {
			if !groups[g.Group] {
				continue
			}
			// As the script does: the offer's shared speed, else the option's own.
			opt := g.Option.TCOOption
			switch {
			case o.Speed != nil:
				opt.Speed = *o.Speed
			case g.Option.Speed != nil:
				opt.Speed = *g.Option.Speed
			}
			in.Options = append(in.Options, opt)
		}
	}
	return in
}

func pageConfig(t *testing.T, page string) tcoConfig {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="tco-config">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("tco.html has no calculator configuration")
	}
	var cfg tcoConfig
	if err := json.Unmarshal([]byte(m[1]), &cfg); err != nil {
		t.Fatalf("calculator configuration: %v", err)
	}
	return cfg
}

// TestTCOPage_TablesAreTheModel checks that every preset table of the TCO page
// holds compare.TCO's figures for the preset built from the page's own calculator
// data, to the cent, as the page writes numbers (FormatMoney, FormatRate,
// FormatQuantity, FormatShare): cumulative cost month by month, totals, cost per
// unit, break-even and the comparisons' totals, in USD on the English page and
// CNY on the Chinese one; and that each chart exists.
func TestTCOPage_TablesAreTheModel(t *testing.T) {
	out := buildSite(t, withScenarios)
	for _, name := range []string{"tco.html", "zh/tco.html"} {
		page := readPage(t, out, name)
		cfg := pageConfig(t, page)
		if len(cfg.Scenarios) == 0 {
			t.Fatalf("%s: no scenarios in the calculator", name)
		}
		for _, s := range cfg.Scenarios {
			res, err := compare.TCO(presetFromConfig(cfg, s))
			if err != nil {
				t.Fatalf("%s %s: %v", name, s.ID, err)
			}
			// The money as the page shows it: USD in English; in Chinese
			// compare's conversion to CNY at the page's rate.
			cumAt := func(i, mth int) decimal.Decimal { return res.Options[i].CumulativeUSD[mth] }
			total := func(i int) decimal.Decimal { return res.Options[i].TotalUSD }
			perUnit := func(i int) decimal.Decimal { return res.Options[i].CostPerUnitUSD }
			if strings.HasPrefix(name, "zh/") {
				fx := catalog.FXTable{Base: "USD", Date: cfg.FX.Date, Rates: map[catalog.Currency]decimal.Decimal{catalog.USD: decimal.NewFromInt(1), catalog.CNY: cfg.FX.Rate}}
				c, err := res.InCurrency(fx, catalog.CNY)
				if err != nil {
					t.Fatal(err)
				}
				cumAt = func(i, mth int) decimal.Decimal { return c.Options[i].Cumulative[mth] }
				total = func(i int) decimal.Decimal { return c.Options[i].Total }
				perUnit = func(i int) decimal.Decimal { return c.Options[i].CostPerUnit }
			}
			anchor := "tco-" + s.ID
			cum := tableCells(t, page, anchor+"-cum")
			if len(cum) != cfg.Defaults.Months {
				t.Fatalf("%s %s: %d months in the table, want %d", name, s.ID, len(cum), cfg.Defaults.Months)
			}
			for mth, row := range cum {
				for i, o := range res.Options {
					if got, want := row[i+1], words.FormatMoney(cumAt(i, mth)); got != want {
						t.Errorf("%s %s month %d %s: table %s, model %s", name, s.ID, mth+1, o.ID, got, want)
					}
				}
			}
			rows := tableCells(t, page, anchor+"-res")
			if len(rows) != len(res.Options) {
				t.Fatalf("%s %s: %d result rows, want %d", name, s.ID, len(rows), len(res.Options))
			}
			for i, o := range res.Options {
				if got, want := rows[i][6], words.FormatMoney(total(i)); got != want {
					t.Errorf("%s %s %s: total %s, model %s", name, s.ID, o.ID, got, want)
				}
				if got, want := rows[i][7], words.FormatRate(perUnit(i)); got != want {
					t.Errorf("%s %s %s: cost per unit %s, model %s", name, s.ID, o.ID, got, want)
				}
			}
			// The comparisons' sentences say the same totals, in the page's
			// currency.
			if len(res.Comparisons) > 0 {
				sec := pagePart(t, page, `id="`+anchor+`"`, "</section>")
				items := strings.Split(pagePart(t, sec, `<ul class="plain tco-sentences">`, "</ul>"), "</li>")
				unit, other := " USD", "美元"
				if strings.HasPrefix(name, "zh/") {
					unit, other = " 元", "USD"
				}
				idx := map[string]int{}
				for i, o := range res.Options {
					idx[o.ID] = i
				}
				for k, c := range res.Comparisons {
					li := html.UnescapeString(items[k])
					for _, id := range []string{c.A, c.B} {
						if want := words.FormatMoney(total(idx[id])) + unit; !strings.Contains(li, want) {
							t.Errorf("%s %s: the comparison of %s and %s lacks %s's total %s: %s", name, s.ID, c.A, c.B, id, want, li)
						}
					}
					if strings.Contains(li, other) {
						t.Errorf("%s %s: a comparison with money in %s: %s", name, s.ID, other, li)
					}
				}
			}
			if len(res.BreakEvens) > 0 {
				be := tableCells(t, page, anchor+"-be")
				for i, b := range res.BreakEvens {
					if be[i][2] != words.FormatQuantity(b.HoursPerMonth) || !strings.HasPrefix(be[i][3], words.FormatShare(b.Utilisation)+" %") {
						t.Errorf("%s %s: break-even %v, model %s h, %s", name, s.ID, be[i], b.HoursPerMonth, b.Utilisation)
					}
				}
			}
			for _, chart := range []string{".cumulative.svg", ".unit.svg"} {
				svg, err := os.ReadFile(filepath.Join(out, filepath.Dir(name), "tco", s.ID+chart))
				if err != nil || !strings.HasPrefix(string(svg), "<svg") {
					t.Errorf("%s %s: chart %s missing: %v", name, s.ID, chart, err)
				}
			}
		}
	}
}

// TestTCOScenario_PresetHasCommitmentAndOnDemand checks the preset of the LLM
// scenarios: the H100 box on-demand and its 1-year reservation, with a break-even.
func TestTCOScenario_Preset(t *testing.T) {
	out := buildSite(t, withScenarios)
	cfg := pageConfig(t, readPage(t, out, "tco.html"))
	var s *tcoCalcScenario
	for i := range cfg.Scenarios {
		if cfg.Scenarios[i].ID == "llm-training" {
			s = &cfg.Scenarios[i]
		}
	}
	if s == nil {
		t.Fatal("no llm-training comparison")
	}
	in := presetFromConfig(cfg, *s)
	var ids []string
	for _, o := range in.Options {
		ids = append(ids, o.ID)
	}
	want := []string{"aws/p5.48xlarge/us-east-1/on_demand", "aws/p5.48xlarge/us-east-1/reserved_1y_all_upfront"}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("preset options %v, want %v", ids, want)
	}
	if s.WorkUnit != "gpu_hour:nvidia-h100-sxm-80gb" || s.BaseSpeed.String() != "8" {
		t.Errorf("work unit %q, base speed %s", s.WorkUnit, s.BaseSpeed)
	}
	res, err := compare.TCO(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.BreakEvens) != 1 {
		t.Errorf("break-evens %+v, want one", res.BreakEvens)
	}
}
