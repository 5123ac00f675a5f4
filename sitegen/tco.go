package sitegen

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/go-analyze/charts"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// The TCO page: for each scenario a preset comparison of a few representative
// offers from its ranking (cumulative cost over the horizon, cost per unit of
// work, break-even utilisation of commitments), computed at build time with
// compare.TCO and drawn as SVG with a data table beside each chart; and a
// calculator (static/tco.js) that recomputes the same model in the browser from
// the TCO input JSON embedded in the page, with the same exact decimal arithmetic
// and rounding, so that its figures agree with `gpuatlas tco --input` to the cent.

const (
	// tcoMaxOffers is how many offers of a scenario the calculator can pick
	// from; the first tcoPresetOffers of them are the preset comparison.
	tcoMaxOffers    = 5
	tcoPresetOffers = 3
	// tcoCandidates bounds how far down a ranking offers are looked for.
	tcoCandidates = 60
)

// Billing groups: the calculator's billing mix. Each offer has at most one option
// per group.
const (
	groupOnDemand = "on_demand"
	groupSpot     = "spot"
	groupCommit1y = "commit_1y" // the cheapest 1-year commitment: reserved 1y or yearly subscription
	groupCommit3y = "commit_3y" // the cheapest 3-year reservation
	groupSubMonth = "subscription_month"
	groupBurst    = "burst" // the 1-year (else monthly) commitment as a base, spot (else on-demand) burst
)

var tcoGroups = []string{groupOnDemand, groupSpot, groupCommit1y, groupCommit3y, groupSubMonth, groupBurst}

// tcoPresetGroups are the billing groups of the preset comparison.
var tcoPresetGroups = []string{groupOnDemand, groupCommit1y}

// The preset workload: busy hours a month on the base (the first offer's
// instance type), utilisation, idle hours, horizon and spot overhead.
var (
	tcoDefaultHours        = decimal.NewFromInt(500)
	tcoDefaultUtilisation  = decimal.RequireFromString("0.9")
	tcoDefaultIdle         = decimal.Zero
	tcoDefaultSpotOverhead = decimal.RequireFromString("0.1")
)

const tcoDefaultMonths = 12

// tcoScenario is one scenario's comparison: the offers the calculator offers,
// and the preset's input and result.
type tcoScenario struct {
	ID       string
	S        compare.Scenario
	WorkUnit string
	RefGPU   string
	// BaseSpeed is the base instance type's work per hour: the hours a month
	// entered are hours on it, job_size = hours × BaseSpeed.
	BaseSpeed decimal.Decimal
	Base      string // the base's instance key
	Source    string
	Offers    []tcoOffer
	Preset    compare.TCOInput
	Result    compare.TCOResult
}

// tcoOffer is one instance type in one region with an option per billing group
// it has.
type tcoOffer struct {
	Instance string // provider/type
	Type     string // type id
	Region   string
	Provider catalog.Provider
	Hardware string
	GPUModel string
	Preset   bool
	Options  []tcoGroupOption
}

type tcoGroupOption struct {
	Group  string
	Option compare.TCOOption
}

// calcState is what the calculator's controls hold; the preset is one state.
type calcState struct {
	Hours, Utilisation, Idle, SpotOverhead decimal.Decimal
	Months                                 int
	Offers                                 map[string]bool // instance + "@" + region
	Groups                                 map[string]bool
}

func (o tcoOffer) key() string { return o.Instance + "@" + o.Region }

// calcInput is the TCO input of a calculator state, built exactly as static/tco.js
// builds it: the job is the entered hours on the base, the options are those of
// the chosen offers and billing groups in page order, spot options take the
// entered interruption overhead.
func (t *tcoScenario) calcInput(st calcState) compare.TCOInput {
	in := compare.TCOInput{Schema: compare.TCOSchema, Source: t.Source, Workload: compare.TCOWorkload{
		WorkUnit: t.WorkUnit, JobSize: st.Hours.Mul(t.BaseSpeed), JobsPerMonth: decimal.NewFromInt(1),
		Utilisation: st.Utilisation, IdleHoursPerMonth: st.Idle, HorizonMonths: st.Months,
	}}
	for _, o := range t.Offers {
		if !st.Offers[o.key()] {
			continue
		}
		for _, g := range o.Options {
			if !st.Groups[g.Group] {
				continue
			}
			opt := g.Option
			if p := opt.PayAsYouGo; p != nil && p.Billing == catalog.Spot {
				c := *p
				c.InterruptionOverhead = st.SpotOverhead
				opt.PayAsYouGo = &c
			}
			in.Options = append(in.Options, opt)
		}
	}
	return in
}

func (t *tcoScenario) presetState() calcState {
	st := calcState{Hours: tcoDefaultHours, Utilisation: tcoDefaultUtilisation, Idle: tcoDefaultIdle, SpotOverhead: tcoDefaultSpotOverhead,
		Months: tcoDefaultMonths, Offers: map[string]bool{}, Groups: map[string]bool{}}
	for _, o := range t.Offers {
		if o.Preset {
			st.Offers[o.key()] = true
		}
	}
	for _, g := range tcoPresetGroups {
		st.Groups[g] = true
	}
	return st
}

// billingIndex lists the billing kinds each instance type has in each region.
func billingIndex(snap *catalog.Snapshot) map[string][]catalog.BillingKind {
	seen := map[string]map[catalog.BillingKind]bool{}
	for _, o := range snap.Offers {
		k := o.InstanceKey() + "@" + o.Region
		if seen[k] == nil {
			seen[k] = map[catalog.BillingKind]bool{}
		}
		seen[k][o.Billing] = true
	}
	out := map[string][]catalog.BillingKind{}
	for k, have := range seen {
		for _, b := range catalog.BillingKinds {
			if have[b] {
				out[k] = append(out[k], b)
			}
		}
	}
	return out
}

// newTCOScenario picks a scenario's offers from its ranking and computes the
// preset; nil when no ranked offer can be compared (no USD price, no spec figure).
func newTCOScenario(snap *catalog.Snapshot, ref *catalog.GPUReference, kinds map[string][]catalog.BillingKind, r compare.ScenarioRanking) (*tcoScenario, error) {
	sc := r.Scenario
	var cands []compare.OfferFit
	for _, f := range r.Ranked {
		if len(cands) == tcoCandidates {
			break
		}
		if f.USDPerHour != nil && f.USDPerHour.IsPositive() && f.GPUModel != "" {
			cands = append(cands, f)
		}
	}
	t := &tcoScenario{ID: sc.ID, S: sc}
	// The base: the best-ranked candidate whose GPU is in the reference with a
	// compute figure of the scenario; the work is measured in GPU-hours on one
	// of its GPUs.
	for _, f := range cands {
		o, ok := t.offer(snap, ref, kinds, f, f.GPUModel)
		if !ok {
			continue
		}
		t.RefGPU, t.Base = f.GPUModel, f.InstanceKey
		t.BaseSpeed = o.Options[0].Option.Speed.WorkPerHour
		o.Preset = true
		t.Offers = append(t.Offers, o)
		break
	}
	if len(t.Offers) == 0 {
		return nil, nil
	}
	used := map[string]bool{t.Base: true}
	providers := map[catalog.Provider]bool{t.Offers[0].Provider: true}
	add := func(f compare.OfferFit, preset bool) {
		if used[f.InstanceKey] || len(t.Offers) >= tcoMaxOffers {
			return
		}
		if o, ok := t.offer(snap, ref, kinds, f, t.RefGPU); ok {
			used[f.InstanceKey] = true
			providers[o.Provider] = true
			o.Preset = preset
			t.Offers = append(t.Offers, o)
		}
	}
	// The preset: the best-ranked offer, the best of another provider, and the
	// cheapest per hour of the rest that fit.
	for _, f := range cands {
		if !providers[f.Offer.Provider] {
			add(f, true)
			break
		}
	}
	byPrice := append([]compare.OfferFit(nil), cands...)
	sort.SliceStable(byPrice, func(i, j int) bool { return byPrice[i].USDPerHour.LessThan(*byPrice[j].USDPerHour) })
	for _, f := range byPrice {
		if !used[f.InstanceKey] && f.Verdict == compare.Fits {
			add(f, len(t.Offers) < tcoPresetOffers)
			break
		}
	}
	// Then more of the ranking for the calculator to pick from.
	for _, f := range cands {
		add(f, len(t.Offers) < tcoPresetOffers)
	}
	t.Preset = t.calcInput(t.presetState())
	res, err := compare.TCO(t.Preset)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: preset TCO: %w", sc.ID, err)
	}
	t.Result = res
	return t, nil
}

// offer builds the options of one ranked offer's instance type in its region: one
// per billing group, through compare.NewTCOInput (USD rates, speed relative to one
// refGPU from the scenario's compute figures).
func (t *tcoScenario) offer(snap *catalog.Snapshot, ref *catalog.GPUReference, kinds map[string][]catalog.BillingKind, f compare.OfferFit, refGPU string) (tcoOffer, bool) {
	region := f.Offer.Region
	var plans []string
	for _, b := range kinds[f.InstanceKey+"@"+region] {
		plans = append(plans, string(b))
	}
	if len(plans) == 0 {
		return tcoOffer{}, false
	}
	in, err := compare.NewTCOInput(snap, ref, compare.TCORequest{
		Instances: []string{f.InstanceKey}, Region: region, Billing: plans, SpotOverhead: tcoDefaultSpotOverhead,
		ReferenceGPU: refGPU, Figures: t.S.Compute,
		Workload: compare.TCOWorkload{JobSize: decimal.NewFromInt(1), JobsPerMonth: decimal.NewFromInt(1), Utilisation: decimal.NewFromInt(1), HorizonMonths: 1},
	})
	if err != nil || len(in.Options) == 0 {
		return tcoOffer{}, false
	}
	if t.WorkUnit == "" {
		t.WorkUnit, t.Source = in.Workload.WorkUnit, in.Source
	}
	o := tcoOffer{Instance: f.InstanceKey, Type: f.Offer.InstanceType, Region: region, Provider: f.Offer.Provider, Hardware: in.Options[0].Hardware, GPUModel: f.GPUModel}
	var od, spot, c1, c3, sub *compare.TCOOption
	cheaperCommit := func(a, b *compare.TCOOption) bool {
		if b == nil {
			return true
		}
		return perMonth(a.Commitment).LessThan(perMonth(b.Commitment))
	}
	for i := range in.Options {
		op := &in.Options[i]
		switch {
		case op.PayAsYouGo != nil && op.PayAsYouGo.Billing == catalog.OnDemand:
			od = op
		case op.PayAsYouGo != nil && op.PayAsYouGo.Billing == catalog.Spot:
			spot = op
		case op.Commitment != nil && op.Commitment.TermMonths == 12 && cheaperCommit(op, c1):
			c1 = op
		case op.Commitment != nil && op.Commitment.TermMonths == 36 && cheaperCommit(op, c3):
			c3 = op
		case op.Commitment != nil && op.Commitment.TermMonths == 1:
			sub = op
		}
	}
	if od == nil {
		return tcoOffer{}, false
	}
	for _, g := range []struct {
		group string
		op    *compare.TCOOption
	}{{groupOnDemand, od}, {groupSpot, spot}, {groupCommit1y, c1}, {groupCommit3y, c3}, {groupSubMonth, sub}} {
		if g.op != nil {
			o.Options = append(o.Options, tcoGroupOption{Group: g.group, Option: *g.op})
		}
	}
	// The burst: a committed base (1 year, else monthly) with spot (else
	// on-demand) for the hours above it, as `gpuatlas tco --billing C+spot`.
	base, burst := c1, spot
	if base == nil {
		base = sub
	}
	if burst == nil {
		burst = od
	}
	if base != nil {
		c := *base.Commitment
		p := *burst.PayAsYouGo
		plan := string(c.Billing) + "+" + string(p.Billing)
		b := compare.TCOOption{ID: f.InstanceKey + "/" + region + "/" + plan, Instance: base.Instance, Hardware: base.Hardware, Speed: base.Speed,
			Label: fmt.Sprintf("%s (%s), %s", base.Hardware, f.InstanceKey, strings.ReplaceAll(plan, "+", " + ")), Commitment: &c, PayAsYouGo: &p}
		o.Options = append(o.Options, tcoGroupOption{Group: groupBurst, Option: b})
	}
	return o, true
}

// perMonth is a commitment's average cost a month over its term.
func perMonth(c *compare.TCOCommitment) decimal.Decimal {
	term := decimal.NewFromInt(int64(c.TermMonths))
	return c.USDPerMonth.Mul(term).Add(c.UpfrontUSD).Div(term)
}

// tcoPageData is the model of tco.html.
type tcoPageData struct {
	Sections []tcoSection
	Config   tcoConfig
	Months   int
	Hours    string
	Util     string
}

// tcoSection is one scenario's preset comparison.
type tcoSection struct {
	ID, Anchor, Name, Href string
	T                      *tcoScenario
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
	O       tcoOffer
	Href    string // instance page
	GPUHref string
	Region  catalog.Region
	Groups  []string
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
}

type tcoDefaults struct {
	Hours        decimal.Decimal `json:"hours_per_month"`
	Months       int             `json:"months"`
	Utilisation  decimal.Decimal `json:"utilisation"`
	Idle         decimal.Decimal `json:"idle_hours_per_month"`
	SpotOverhead decimal.Decimal `json:"spot_overhead"`
}

type tcoCalcScenario struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	WorkUnit  string          `json:"work_unit"`
	Base      string          `json:"base"`
	BaseSpeed decimal.Decimal `json:"base_speed"`
	Source    string          `json:"source"`
	Offers    []tcoCalcOffer  `json:"offers"`
}

type tcoCalcOffer struct {
	Key      string           `json:"key"`
	Instance string           `json:"instance"`
	Type     string           `json:"type"`
	Region   string           `json:"region"`
	Provider string           `json:"provider"`
	Hardware string           `json:"hardware"`
	Href     string           `json:"href"`
	Preset   bool             `json:"preset"`
	Options  []tcoCalcOptions `json:"options"`
}

type tcoCalcOptions struct {
	Group  string            `json:"group"`
	Option compare.TCOOption `json:"option"`
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
	d := tcoPageData{Months: tcoDefaultMonths, Hours: tcoDefaultHours.String(), Util: tcoDefaultUtilisation.Mul(hundred).String()}
	d.Config = tcoConfig{Lang: l.Tag, Groups: tcoGroups, Preset: tcoPresetGroups, Labels: l.tcoLabels(),
		Defaults: tcoDefaults{Hours: tcoDefaultHours, Months: tcoDefaultMonths, Utilisation: tcoDefaultUtilisation, Idle: tcoDefaultIdle, SpotOverhead: tcoDefaultSpotOverhead}}
	for _, t := range s.tco {
		sec := tcoSection{ID: t.ID, Anchor: "tco-" + slugify(t.ID), Name: scenarioName(l, t.S), Href: scenarioHref(t.ID), T: t,
			UtilPct: t.Preset.Workload.Utilisation.Mul(hundred).String()}
		cs := tcoCalcScenario{ID: t.ID, Name: sec.Name, WorkUnit: t.WorkUnit, Base: t.Base, BaseSpeed: t.BaseSpeed, Source: t.Source}
		for _, o := range t.Offers {
			v := tcoOfferView{O: o, Region: m.region(o.Provider, o.Region)}
			if tv, ok := m.typeByKey[o.Instance]; ok {
				v.Href = tv.Href
			}
			if o.GPUModel != "" {
				v.GPUHref = gpuHref(o.GPUModel)
			}
			co := tcoCalcOffer{Key: o.key(), Instance: o.Instance, Type: o.Type, Region: o.Region, Provider: l.label("provider", o.Provider),
				Hardware: o.Hardware, Preset: o.Preset}
			if v.Href != "" {
				co.Href = base + l.Prefix + v.Href
			}
			for _, g := range o.Options {
				v.Groups = append(v.Groups, g.Group)
				co.Options = append(co.Options, tcoCalcOptions{Group: g.Group, Option: g.Option})
			}
			if o.Instance == t.Base {
				sec.BaseHardware, sec.BaseHref = o.Hardware, v.Href
			}
			if o.Preset {
				sec.Offers = append(sec.Offers, v)
			}
			cs.Offers = append(cs.Offers, co)
		}
		d.Config.Scenarios = append(d.Config.Scenarios, cs)

		cols := map[string]tcoColumn{}
		for i, o := range t.Preset.Options {
			c := tcoColumn{ID: o.ID, Label: instanceID(o.Instance) + " · " + groupLabel(l, o)}
			cols[o.ID] = c
			sec.Columns = append(sec.Columns, c)
			sec.Rows = append(sec.Rows, tcoResultRow{Col: c, Opt: o, R: t.Result.Options[i]})
		}
		for mth := 0; mth < t.Preset.Workload.HorizonMonths; mth++ {
			row := tcoMonth{Month: mth + 1}
			for _, r := range t.Result.Options {
				row.Cum = append(row.Cum, r.CumulativeUSD[mth])
			}
			sec.Months = append(sec.Months, row)
		}
		for _, b := range t.Result.BreakEvens {
			sec.BreakEvens = append(sec.BreakEvens, tcoBreakEvenView{Commitment: cols[b.Commitment], OnDemand: cols[b.OnDemand], B: b,
				Pct: b.Utilisation.Mul(hundred).StringFixed(2), Never: b.Utilisation.GreaterThanOrEqual(decimal.NewFromInt(1))})
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
		p.Files = append(p.Files, siteFile{name: sec.CumChart, data: cum}, siteFile{name: sec.UnitChart, data: unit})
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
func tcoCharts(l *language, sec tcoSection) ([]byte, []byte, error) {
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
	opt := charts.NewLineChartOptionWithData(values)
	opt.XAxis.Labels = months
	opt.Legend.SeriesNames = names
	opt.Legend.Offset = charts.OffsetStr{Left: charts.PositionLeft, Top: charts.PositionBottom}
	opt.Legend.FontStyle.FontSize = 11
	opt.Title.Text = l.msg("tco.chart_cumulative_title")
	opt.Title.FontStyle.FontSize = 13
	opt.Padding = charts.Box{Top: 16, Right: 24, Bottom: 16, Left: 16}
	opt.Symbol.Shape = charts.SymbolCircle
	opt.LineStrokeWidth = 1.5
	opt.ValueFormatter = func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	p := charts.NewPainter(charts.PainterOptions{OutputFormat: charts.ChartOutputSVG, Width: 640, Height: 360})
	if err := p.LineChart(opt); err != nil {
		return nil, nil, fmt.Errorf("chart: %w", err)
	}
	cum, err := p.Bytes()
	if err != nil {
		return nil, nil, err
	}
	var cats []string
	bars := barSeries{Name: l.msg("tco.col_cost_per_unit")}
	for _, r := range sec.Rows {
		cats = append(cats, r.Col.Label)
		bars.Values = append(bars.Values, r.R.CostPerUnitUSD.InexactFloat64())
	}
	unit, err := horizontalBarSVG(cats, []barSeries{bars})
	if err != nil {
		return nil, nil, err
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
