package sitegen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-analyze/charts"
)

// Charts are SVG files rendered at build time with go-analyze/charts and shown
// with <img>: the pages' Content-Security-Policy forbids the inline styles the
// library writes, and an image keeps the page readable without JavaScript. Every
// chart has a data table with the same figures beside it.

// A chart is drawn twice: a wide layout for screens that show it at 640
// pixels and a narrow one of its own (not a scaled-down wide one) for phones,
// where a 640-pixel drawing shrinks its labels to 5 or 6 pixels. The pages
// show the narrow file below 700 pixels (<picture>, the "chart" template).
const chartWide, chartNarrow = 640, 360

// chartSVG is a chart's two drawings; both nil for no chart.
type chartSVG struct{ Wide, Narrow []byte }

// files are the chart's files: the wide drawing at name, the narrow one at
// narrowChart(name).
func (c chartSVG) files(name string) []siteFile {
	return []siteFile{{name: name, data: c.Wide}, {name: narrowChart(name), data: c.Narrow}}
}

// narrowChart is the path of a chart's narrow drawing.
func narrowChart(name string) string { return strings.TrimSuffix(name, ".svg") + ".narrow.svg" }

// bothWidths draws a chart at each width.
func bothWidths(draw func(width int) ([]byte, error)) (chartSVG, error) {
	wide, err := draw(chartWide)
	if err != nil {
		return chartSVG{}, err
	}
	narrow, err := draw(chartNarrow)
	if err != nil {
		return chartSVG{}, err
	}
	return chartSVG{wide, narrow}, nil
}

// barSeries is one set of bars of a horizontal bar chart; NaN-free, one value per
// category (charts.GetNullValue() for none).
type barSeries struct {
	Name   string
	Values []float64
}

// horizontalBarSVG draws categories top to bottom with one bar per series; a
// value of charts.GetNullValue() draws no bar and no label. unit titles the
// value axis ("USD per GPU-hour").
func horizontalBarSVG(categories []string, series []barSeries, unit string) (chartSVG, error) {
	if len(categories) == 0 || len(series) == 0 {
		return chartSVG{}, fmt.Errorf("chart: no data")
	}
	return bothWidths(func(width int) ([]byte, error) { return horizontalBarAt(width, categories, series, unit) })
}

func horizontalBarAt(width int, categories []string, series []barSeries, unit string) ([]byte, error) {
	if width < chartWide {
		return narrowBars(width, categories, series, unit)
	}
	// The library draws the first category at the bottom; reverse so the page's
	// table order (top to bottom) is the chart's.
	n := len(categories)
	cats := make([]string, n)
	values := make([][]float64, len(series))
	names := make([]string, len(series))
	for s := range series {
		values[s] = make([]float64, n)
		names[s] = series[s].Name
	}
	for i := range categories {
		cats[n-1-i] = categories[i]
		for s := range series {
			values[s][n-1-i] = series[s].Values[i]
		}
	}
	opt := charts.NewBarChartOptionWithData(values)
	opt.Horizontal = true
	opt.Padding = charts.Box{Top: 16, Right: 48, Bottom: 16, Left: 16}
	opt.CategoryAxis = charts.CategoryAxisOption{Labels: chartTexts(cats)}
	// The legend is drawn under the plot, one entry a line (withLegend); a
	// single series needs none (the axis says it).
	opt.Legend.Show = charts.Ptr(false)
	// Prices start at zero, so that bar lengths compare; ticks read as rounded
	// figures and the axis names the unit.
	opt.ValueAxis = []charts.ValueAxisOption{{Min: charts.Ptr(0.0), Title: chartText(unit), ValueFormatter: tickLabel,
		TitleFontStyle: charts.FontStyle{FontSize: 12}}}
	// Category names leave the value axis half the width: four figures fit.
	opt.ValueAxis[0].LabelCount = 4
	opt.ValueFormatter = tickLabel
	for i := range opt.SeriesList {
		opt.SeriesList[i].Label.Show = charts.Ptr(true)
		opt.SeriesList[i].Label.ValueFormatter = moneyFloat
	}
	height := 132 + n*len(series)*26 + n*10
	p := charts.NewPainter(charts.PainterOptions{OutputFormat: charts.ChartOutputSVG, Width: width, Height: height})
	if err := p.BarChart(opt); err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	svg, err := p.Bytes()
	if err != nil || len(series) == 1 {
		return svg, err
	}
	return withLegend(svg, names)
}

// lineSeries is one line of a line chart over shared x labels.
type lineSeries struct {
	Name   string
	Values []float64
}

// lineSVG draws lines over shared x labels; a value of charts.GetNullValue()
// leaves a gap. valueLabel titles the value axis with its unit.
func lineSVG(x []string, series []lineSeries, valueLabel string) (chartSVG, error) {
	if len(x) == 0 || len(series) == 0 {
		return chartSVG{}, fmt.Errorf("chart: no data")
	}
	return bothWidths(func(width int) ([]byte, error) { return lineAt(width, x, series, valueLabel) })
}

func lineAt(width int, x []string, series []lineSeries, valueLabel string) ([]byte, error) {
	values := make([][]float64, len(series))
	names := make([]string, len(series))
	for i, s := range series {
		values[i], names[i] = s.Values, s.Name
	}
	opt := charts.NewLineChartOptionWithData(values)
	opt.XAxis.Labels = x
	// Dates are wide labels: about six fit under 640 pixels, three under 360.
	// Every point keeps its tick; one in step is labelled, at even intervals
	// from the first.
	fit := width * 6 / chartWide
	switch n := len(x); {
	case n > 60:
		// Months or years of days: a tick per point would be a solid band, so
		// the library spaces four labelled ticks, the first and last days among
		// them (with points on the ticks, not between: no label is added twice).
		opt.XAxis.LabelCount = min(4, fit)
		opt.XAxis.BoundaryGap = charts.Ptr(false)
	case n > fit+1:
		opt.XAxis.Labels = sparseLabels(x, fit)
		opt.XAxis.LabelCount = n
	}
	// The legend is drawn under the plot, one entry a line (withLegend): long
	// names (Chinese provider names) are neither cut off at the right edge nor
	// drawn over each other.
	opt.Legend.Show = charts.Ptr(false)
	opt.YAxis = []charts.YAxisOption{{Title: chartText(valueLabel), ValueFormatter: tickLabel, TitleFontStyle: charts.FontStyle{FontSize: 12}}}
	opt.ValueFormatter = tickLabel
	opt.Padding = charts.Box{Top: 16, Right: 24, Bottom: 16, Left: 16}
	opt.Symbol.Shape = charts.SymbolCircle
	opt.LineStrokeWidth = 1.5
	// A long series reads better without a dot per point.
	if len(x) > 45 {
		opt.Symbol.Shape = charts.SymbolNone
		opt.Legend.Symbol = charts.SymbolSquare
	}
	p := charts.NewPainter(charts.PainterOptions{OutputFormat: charts.ChartOutputSVG, Width: width, Height: 300})
	if err := p.LineChart(opt); err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	svg, err := p.Bytes()
	if err != nil {
		return nil, err
	}
	return withLegend(svg, names)
}

// chartText makes a label the library lays out as wide as a browser draws
// it. The library measures text with its Latin font, which has no CJK
// glyphs: it counts a Chinese character about half as wide as it is drawn,
// so Chinese legends collide and category labels run under the plot. Three
// trailing spaces a CJK character make up the difference in its measure (two
// left a legend's last Chinese character under the next entry's symbol in
// Noto Sans CJK); a browser drops trailing spaces when it draws SVG text.
func chartText(s string) string {
	n := 0
	for _, r := range s {
		if r >= 0x2E80 {
			n++
		}
	}
	if n == 0 {
		return s
	}
	return s + strings.Repeat(" ", 3*n)
}

// chartTexts is chartText of each.
func chartTexts(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = chartText(s)
	}
	return out
}

// sparseLabels labels one point in step of x, at even intervals from the
// first, so that at most about fit labels are drawn; the others are empty.
func sparseLabels(x []string, fit int) []string {
	n := len(x)
	if fit < 1 || n <= fit+1 {
		return x
	}
	step := (n + fit - 1) / fit
	labels := make([]string, n)
	for i := 0; i < n; i += step {
		labels[i] = x[i]
	}
	return labels
}

// tickLabel formats an axis tick: rounded to three significant digits (the
// library's steps are binary fractions: 0.1 + 0.1 + 0.1 is not 0.3), with
// thousands separators.
func tickLabel(f float64) string {
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return "0"
	}
	places := 2 - int(math.Floor(math.Log10(math.Abs(f))))
	if places < 0 {
		places = 0
	}
	p := math.Pow(10, float64(places))
	s := strconv.FormatFloat(math.Round(f*p)/p, 'f', -1, 64)
	return groupThousands(s)
}

// groupThousands puts a comma between each three digits of a number's
// integer part: 12345.6 is 12,345.6.
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return sign + b.String()
}

// moneyFloat formats a chart label as the pages format prices, with
// thousands separators.
func moneyFloat(f float64) string {
	if math.Abs(f) < 10 {
		return strconv.FormatFloat(f, 'f', 4, 64)
	}
	return groupThousands(strconv.FormatFloat(f, 'f', 2, 64))
}
