package sitegen

import (
	"fmt"
	"strconv"

	"github.com/go-analyze/charts"
)

// Charts are SVG files rendered at build time with go-analyze/charts and shown
// with <img>: the pages' Content-Security-Policy forbids the inline styles the
// library writes, and an image keeps the page readable without JavaScript. Every
// chart has a data table with the same figures beside it.

// barSeries is one set of bars of a horizontal bar chart; NaN-free, one value per
// category (charts.GetNullValue() for none).
type barSeries struct {
	Name   string
	Values []float64
}

// horizontalBarSVG draws categories top to bottom with one bar per series. The
// page's caption names the unit.
func horizontalBarSVG(categories []string, series []barSeries) ([]byte, error) {
	if len(categories) == 0 || len(series) == 0 {
		return nil, fmt.Errorf("chart: no data")
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
	opt.CategoryAxis = charts.CategoryAxisOption{Labels: cats}
	opt.Legend.SeriesNames = names
	opt.Legend.Symbol = charts.SymbolSquare
	// Prices start at zero, so that bar lengths compare.
	opt.ValueAxis = []charts.ValueAxisOption{{Min: charts.Ptr(0.0)}}
	opt.ValueFormatter = func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	for i := range opt.SeriesList {
		opt.SeriesList[i].Label.Show = charts.Ptr(true)
		opt.SeriesList[i].Label.ValueFormatter = moneyFloat
	}
	height := 90 + n*len(series)*26 + n*10
	p := charts.NewPainter(charts.PainterOptions{OutputFormat: charts.ChartOutputSVG, Width: 640, Height: height})
	if err := p.BarChart(opt); err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	return p.Bytes()
}

// lineSeries is one line of a line chart over shared x labels.
type lineSeries struct {
	Name   string
	Values []float64
}

func lineSVG(x []string, series []lineSeries, valueLabel string) ([]byte, error) {
	if len(x) == 0 || len(series) == 0 {
		return nil, fmt.Errorf("chart: no data")
	}
	values := make([][]float64, len(series))
	names := make([]string, len(series))
	for i, s := range series {
		values[i], names[i] = s.Values, s.Name
	}
	opt := charts.NewLineChartOptionWithData(values)
	opt.XAxis.Labels = x
	// Dates are wide labels: about six fit under 640 pixels. Every point keeps
	// its tick; one in step is labelled, at even intervals from the first.
	switch n := len(x); {
	case n > 60:
		// Months or years of days: a tick per point would be a solid band, so
		// the library spaces four labelled ticks, the first and last days among
		// them (with points on the ticks, not between: no label is added twice).
		opt.XAxis.LabelCount = 4
		opt.XAxis.BoundaryGap = charts.Ptr(false)
	case n > 7:
		step := (n + 5) / 6
		labels := make([]string, n)
		for i := 0; i < n; i += step {
			labels[i] = x[i]
		}
		opt.XAxis.Labels = labels
		opt.XAxis.LabelCount = n
	}
	opt.Legend.SeriesNames = names
	// The legend goes under the title, from the left: long names (Chinese
	// provider names) are not cut off at the right edge.
	opt.Legend.Offset = charts.OffsetStr{Left: charts.PositionLeft, Top: "22"}
	opt.Title.Text = valueLabel
	opt.Title.FontStyle.FontSize = 13
	opt.Padding = charts.Box{Top: 16, Right: 24, Bottom: 16, Left: 16}
	opt.Symbol.Shape = charts.SymbolCircle
	opt.LineStrokeWidth = 1.5
	// A long series reads better without a dot per point.
	if len(x) > 45 {
		opt.Symbol.Shape = charts.SymbolNone
		opt.Legend.Symbol = charts.SymbolSquare
	}
	// Legend lines (about four names each) take room from the plot.
	height := 320 + 22*((len(series)-1)/4)
	p := charts.NewPainter(charts.PainterOptions{OutputFormat: charts.ChartOutputSVG, Width: 640, Height: height})
	if err := p.LineChart(opt); err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	return p.Bytes()
}

// moneyFloat formats a chart label as the pages format prices.
func moneyFloat(f float64) string {
	if f < 10 {
		return strconv.FormatFloat(f, 'f', 4, 64)
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}
