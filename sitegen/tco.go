package sitegen

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-analyze/charts"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/words"
)

// The TCO page: for each scenario the preset comparison that compare.TCOPresets
// chose and computed (a few representative offers from its ranking: cumulative
// cost over the horizon, cost per unit of work, break-even utilisation of
// commitments), drawn as SVG with a data table beside each chart; and a
// calculator (static/tco.js) that recomputes the same model in the browser from
// the TCO input JSON embedded in the page, with the same exact decimal arithmetic
// and rounding, so that its figures agree with `gpuatlas tco --input` to the cent.

// tcoPageData is the model of tco.html.
type tcoPageData struct {
	Sections []tcoSection
	Config   tcoConfig
	Months   int
	Hours    string
	Util     string
	// Checkpoint and Restart are the spot interruption model's default minutes.
	Checkpoint, Restart string
}

// tcoSection is one scenario's preset comparison.
type tcoSection struct {
	ID, Anchor, Name, Href string
	WorkUnit               string // the work unit in words
	T                      *compare.ScenarioTCO
	BaseHardware           string
	BaseHref               string
	Offers                 []tcoOfferView
	Columns                []tcoColumn
	Months                 []tcoMonth
	Rows                   []tcoResultRow
	BreakEvens             []tcoBreakEvenView
	Comparisons            []tcoComparisonView
	CumChart, UnitChart    string
	UtilPct                string
}

type tcoOfferView struct {
	O       compare.TCOOffer
	Href    string // instance page
	GPUHref string
	Region  catalog.Region
	Groups  []string
	// OnDemand is the offer of the on-demand option (every compared offer has
	// one): its age marks say when the comparison's prices are stale or undated.
	OnDemand *offerView
}

type tcoColumn struct {
	ID, Label string
}

type tcoMonth struct {
	Month int
	Cum   []decimal.Decimal
}

type tcoResultRow struct {
	Col   tcoColumn
	Opt   compare.TCOOption
	R     compare.TCOOptionResult
	Group string
	// The money in the page's currency: R's USD figures, or on a CNY page
	// compare's TCOResult.InCurrency of them (what the calculator and
	// `gpuatlas tco --currency CNY` show).
	PerHour, Total, PerUnit decimal.Decimal
}

type tcoBreakEvenView struct {
	Commitment, OnDemand tcoColumn
	B                    compare.BreakEven
	Pct                  string
	Never                bool
}

type tcoComparisonView struct {
	A, B tcoColumn
	C    compare.Comparison
}

// tcoConfig is handed to static/tco.js as JSON in the page.
type tcoConfig struct {
	Lang      string            `json:"lang"`
	Groups    []string          `json:"groups"`
	Preset    []string          `json:"preset_groups"`
	Defaults  tcoDefaults       `json:"defaults"`
	Labels    map[string]string `json:"labels"`
	Scenarios []tcoCalcScenario `json:"scenarios"`
	// Data is the explorer's offers file, where static/tco-offers.js finds
	// any offer of the catalog.
	Data string `json:"data"`
	// FX is the other currency the calculator shows its figures in: the
	// snapshot's rate from USD; nil when the table has none.
	FX *tcoFX `json:"fx,omitempty"`
}

// tcoFX is a currency the calculator converts to, as compare's
// TCOResult.InCurrency does: each USD figure times Rate, rounded as it is.
type tcoFX struct {
	Currency catalog.Currency `json:"currency"`
	Rate     decimal.Decimal  `json:"rate"` // units of Currency per USD
	Date     string           `json:"date"`
	Source   string           `json:"source"`
}

type tcoDefaults struct {
	Hours       decimal.Decimal `json:"hours_per_month"`
	Months      int             `json:"months"`
	Utilisation decimal.Decimal `json:"utilisation"`
	Idle        decimal.Decimal `json:"idle_hours_per_month"`
	// The spot interruption model's default checkpoint interval and restart
	// time, in minutes.
	CheckpointMinutes decimal.Decimal `json:"checkpoint_minutes"`
	RestartMinutes    decimal.Decimal `json:"restart_minutes"`
}

type tcoCalcScenario struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	WorkUnit string `json:"work_unit"`
	// WorkUnitLabel is the work unit in the page's words, for captions.
	WorkUnitLabel string             `json:"work_unit_label"`
	Base          string             `json:"base"`
	BaseSpeed     decimal.Decimal    `json:"base_speed"`
	Source        *compare.TCOSource `json:"source,omitempty"`
	Offers        []tcoCalcOffer     `json:"offers"`
}

type tcoCalcOffer struct {
	Key      string `json:"key"`
	Instance string `json:"instance"`
	Type     string `json:"type"`
	Region   string `json:"region"`
	Provider string `json:"provider"`
	Hardware string `json:"hardware"`
	Href     string `json:"href"`
	Preset   bool   `json:"preset"`
	// Speed is the speed every option of the offer shares (an instance type's
	// speed does not depend on how it is billed), written once: the script
	// gives it to each option it puts in the calculator's input. Nil where
	// the options' speeds differ; each then carries its own.
	Speed   *compare.Speed   `json:"speed,omitempty"`
	Options []tcoCalcOptions `json:"options"`
}

type tcoCalcOptions struct {
	Group  string        `json:"group"`
	Option tcoCalcOption `json:"option"`
}

// tcoCalcOption is a TCO option as the calculator's configuration holds it:
// without its speed where the offer holds the shared one.
type tcoCalcOption struct {
	compare.TCOOption
	Speed *compare.Speed `json:"speed,omitempty"`
}

// calcOptions are an offer's options for the calculator, and the speed they
// share (nil if they do not all share one).
func calcOptions(gs []compare.TCOGroupOption) ([]tcoCalcOptions, *compare.Speed) {
	shared := len(gs) > 0
	for _, g := range gs[min(1, len(gs)):] {
		if !reflect.DeepEqual(g.Option.Speed, gs[0].Option.Speed) {
			shared = false
		}
	}
	out := make([]tcoCalcOptions, 0, len(gs))
	for _, g := range gs {
		o := tcoCalcOption{TCOOption: g.Option}
		if !shared {
			sp := g.Option.Speed
			o.Speed = &sp
		}
		out = append(out, tcoCalcOptions{Group: g.Group, Option: o})
	}
	if !shared {
		return out, nil
	}
	sp := gs[0].Option.Speed
	return out, &sp
}

// groupLabel is a billing group in words: the option's own billing kinds.
func groupLabel(l *language, o compare.TCOOption) string {
	var parts []string
	if c := o.Commitment; c != nil {
		parts = append(parts, l.label("billing", c.Billing))
	}
	if p := o.PayAsYouGo; p != nil {
		parts = append(parts, l.label("billing", p.Billing))
	}
	return strings.Join(parts, " + ")
}

func (s *scenarioSite) tcoPage(m *siteModel, base string, l *language) (page, error) {
	p := page{Path: "tco.html", Template: "tco.html", Nav: "tco"}
	def := compare.TCOPresetDefaults()
	d := tcoPageData{Months: def.Months, Hours: def.Hours.String(), Util: def.Utilisation.Mul(hundred).String(),
		Checkpoint: def.CheckpointMinutes.String(), Restart: def.RestartMinutes.String()}
	d.Config = tcoConfig{Lang: l.Tag, Groups: compare.TCOGroups, Preset: compare.TCOPresetGroups, Labels: l.tcoLabels(), Data: base + offersDataPath,
		Defaults: tcoDefaults{Hours: def.Hours, Months: def.Months, Utilisation: def.Utilisation, Idle: def.Idle,
			CheckpointMinutes: def.CheckpointMinutes, RestartMinutes: def.RestartMinutes}}
	if r, err := m.snap.FX.CrossRate(catalog.USD, catalog.CNY); err == nil {
		d.Config.FX = &tcoFX{Currency: catalog.CNY, Rate: r, Date: m.snap.FX.Date, Source: m.snap.FX.Source}
	}
	for i := range s.tco.Scenarios {
		t := &s.tco.Scenarios[i]
		sec := tcoSection{ID: t.ID, Anchor: "tco-" + slugify(t.ID), Name: scenarioName(l, t.Scenario), Href: scenarioHref(t.ID), T: t,
			WorkUnit: l.words().WorkUnit(t.WorkUnit), UtilPct: words.FormatShare(t.Preset.Workload.Utilisation)}
		cs := tcoCalcScenario{ID: t.ID, Name: sec.Name, WorkUnit: t.WorkUnit, WorkUnitLabel: sec.WorkUnit, Base: t.Base, BaseSpeed: t.BaseSpeed, Source: t.Source}
		for _, o := range t.Offers {
			v := tcoOfferView{O: o, Region: m.region(o.Provider, o.Region)}
			if tv, ok := m.typeByKey[o.Instance]; ok {
				v.Href = tv.Href
			}
			if o.GPUModel != "" {
				v.GPUHref = gpuHref(o.GPUModel)
			}
			co := tcoCalcOffer{Key: o.Key(), Instance: o.Instance, Type: o.Type, Region: o.Region, Provider: l.label("provider", o.Provider),
				Hardware: o.Hardware, Preset: o.Preset}
			if v.Href != "" {
				co.Href = base + l.Prefix + v.Href
			}
			for _, g := range o.Options {
				if p := g.Option.PayAsYouGo; g.Group == compare.TCOGroupOnDemand && p != nil {
					v.OnDemand = m.offerByKey[p.Offer]
				}
				v.Groups = append(v.Groups, g.Group)
			}
			co.Options, co.Speed = calcOptions(o.Options)
			if o.Instance == t.Base {
				sec.BaseHardware, sec.BaseHref = o.Hardware, v.Href
			}
			if o.Preset {
				sec.Offers = append(sec.Offers, v)
			}
			cs.Offers = append(cs.Offers, co)
		}
		d.Config.Scenarios = append(d.Config.Scenarios, cs)

		var inCur *compare.TCOInCurrency
		if l.currency() == catalog.CNY {
			c, err := t.Result.InCurrency(m.snap.FX, catalog.CNY)
			if err != nil {
				return page{}, fmt.Errorf("tco %s: %w", t.ID, err)
			}
			inCur = &c
		}
		cols := map[string]tcoColumn{}
		for i, o := range t.Preset.Options {
			c := tcoColumn{ID: o.ID, Label: instanceID(o.Instance) + " · " + groupLabel(l, o)}
			cols[o.ID] = c
			sec.Columns = append(sec.Columns, c)
			r := t.Result.Options[i]
			row := tcoResultRow{Col: c, Opt: o, R: r, PerHour: r.USDPerHour, Total: r.TotalUSD, PerUnit: r.CostPerUnitUSD}
			if inCur != nil {
				oc := inCur.Options[i]
				row.PerHour, row.Total, row.PerUnit = oc.PerHour, oc.Total, oc.CostPerUnit
			}
			sec.Rows = append(sec.Rows, row)
		}
		for mth := 0; mth < t.Preset.Workload.HorizonMonths; mth++ {
			row := tcoMonth{Month: mth + 1}
			for i, r := range t.Result.Options {
				if inCur != nil {
					row.Cum = append(row.Cum, inCur.Options[i].Cumulative[mth])
				} else {
					row.Cum = append(row.Cum, r.CumulativeUSD[mth])
				}
			}
			sec.Months = append(sec.Months, row)
		}
		for _, b := range t.Result.BreakEvens {
			sec.BreakEvens = append(sec.BreakEvens, tcoBreakEvenView{Commitment: cols[b.Commitment], OnDemand: cols[b.OnDemand], B: b,
				Pct: words.FormatShare(b.Utilisation), Never: b.Utilisation.GreaterThanOrEqual(decimal.NewFromInt(1))})
		}
		for _, c := range t.Result.Comparisons {
			sec.Comparisons = append(sec.Comparisons, tcoComparisonView{A: cols[c.A], B: cols[c.B], C: c})
		}
		cum, unit, err := tcoCharts(l, sec)
		if err != nil {
			return page{}, fmt.Errorf("tco %s: %w", t.ID, err)
		}
		sec.CumChart = "tco/" + slugify(t.ID) + ".cumulative.svg"
		sec.UnitChart = "tco/" + slugify(t.ID) + ".unit.svg"
		p.Files = append(p.Files, cum.files(sec.CumChart)...)
		p.Files = append(p.Files, unit.files(sec.UnitChart)...)
		d.Sections = append(d.Sections, sec)
	}
	p.Data = d
	return p, nil
}

var hundred = decimal.NewFromInt(100)

// instanceID is the type id of a provider/type key.
func instanceID(key string) string {
	if _, id, ok := strings.Cut(key, "/"); ok {
		return id
	}
	return key
}

// tcoCharts draws a section's cumulative cost lines and its cost-per-unit bars;
// the page's tables next to them hold the exact figures.
func tcoCharts(l *language, sec tcoSection) (chartSVG, chartSVG, error) {
	months := make([]string, len(sec.Months))
	for i, m := range sec.Months {
		months[i] = strconv.Itoa(m.Month)
	}
	values := make([][]float64, len(sec.Columns))
	names := make([]string, len(sec.Columns))
	for i, c := range sec.Columns {
		names[i] = c.Label
		for _, m := range sec.Months {
			values[i] = append(values[i], m.Cum[i].InexactFloat64())
		}
	}
	// The legend goes under the plot, one entry a line (withLegend); the axes
	// name the unit and the month.
	opt := func(width int) charts.LineChartOption {
		opt := charts.NewLineChartOptionWithData(values)
		// The month axis has no title (the library draws it over the
		// ticks; the caption says months); a phone's labels one month in
		// step, four at most.
		opt.XAxis.Labels = sparseLabels(months, width*6/chartWide)
		opt.XAxis.LabelCount = len(months)
		opt.Legend.Show = charts.Ptr(false)
		opt.YAxis = []charts.YAxisOption{{Title: chartText(l.msgCur("tco.chart_cumulative_title")), ValueFormatter: tickLabel, TitleFontStyle: charts.FontStyle{FontSize: 12}}}
		opt.Padding = charts.Box{Top: 16, Right: 24, Bottom: 16, Left: 16}
		opt.Symbol.Shape = charts.SymbolCircle
		opt.LineStrokeWidth = 1.5
		opt.ValueFormatter = tickLabel
		return opt
	}
	cum, err := bothWidths(func(width int) ([]byte, error) {
		p := charts.NewPainter(charts.PainterOptions{OutputFormat: charts.ChartOutputSVG, Width: width, Height: 320})
		if err := p.LineChart(opt(width)); err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		svg, err := p.Bytes()
		if err != nil {
			return nil, err
		}
		return withLegend(svg, names)
	})
	if err != nil {
		return chartSVG{}, chartSVG{}, err
	}
	var cats []string
	bars := barSeries{Name: l.msgCur("tco.col_cost_per_unit")}
	for _, r := range sec.Rows {
		cats = append(cats, r.Col.Label)
		bars.Values = append(bars.Values, r.PerUnit.InexactFloat64())
	}
	unit, err := horizontalBarSVG(cats, []barSeries{bars}, l.msgCur("tco.col_cost_per_unit")+" ("+sec.T.WorkUnit+")")
	if err != nil {
		return chartSVG{}, chartSVG{}, err
	}
	return cum, unit, nil
}

// tcoLabels is the part of the catalog the calculator's script needs.
func (l *language) tcoLabels() map[string]string {
	out := map[string]string{}
	for k, v := range l.messages {
		for _, p := range []string{"tcojs.", "tco.", "billing.", "col.usd_hour"} {
			if strings.HasPrefix(k, p) {
				out[k] = v
			}
		}
	}
	return out
}
