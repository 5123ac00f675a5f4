package sitegen

import (
	"bytes"
	"fmt"
	"html"

	"github.com/go-analyze/charts"
)

// narrowBars is a horizontal bar chart's phone layout: the unit on top, then
// each category's name on a line of its own over its bars, each bar labelled
// with its figure at its end (no value axis: the figures are written), the
// legend under them (withLegend). A desktop chart scaled down to a phone
// shrinks its labels to 5 pixels and its category names leave the bars no
// room; here nothing shares a line with anything else.
func narrowBars(width int, categories []string, series []barSeries, unit string) ([]byte, error) {
	const (
		top, nameH, barH, gap, right = 30, 20, 18, 8, 72
	)
	maxV := 0.0
	for _, s := range series {
		for _, v := range s.Values {
			if v != charts.GetNullValue() && v > maxV {
				maxV = v
			}
		}
	}
	if maxV <= 0 {
		maxV = 1
	}
	rowH := nameH + barH*len(series) + gap
	height := top + rowH*len(categories) + 8
	theme := charts.GetDefaultTheme()
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d">`, width, height)
	fmt.Fprintf(&b, `<path d="M 0 0 L %d 0 L %d %d L 0 %d Z" style="stroke:none;fill:white"/>`, width, width, height, height)
	text := func(x, y int, size float64, s string) {
		fmt.Fprintf(&b, `<text x="%d" y="%d" style="stroke:none;fill:rgb(70,70,70);font-size:%gpx;font-family:'Roboto Medium',sans-serif">%s</text>`, x, y, size, html.EscapeString(s))
	}
	text(8, 18, 13, unit)
	span := float64(width - 8 - right)
	for i, c := range categories {
		y := top + rowH*i
		text(8, y+15, 13, c)
		for s, ser := range series {
			v := ser.Values[i]
			if v == charts.GetNullValue() {
				continue
			}
			by := y + nameH + barH*s
			w := max(1, int(span*v/maxV))
			col := theme.GetSeriesColor(s)
			fmt.Fprintf(&b, `<path d="M 8 %d L %d %d L %d %d L 8 %d Z" style="stroke:none;fill:rgb(%d,%d,%d)"/>`, by+2, 8+w, by+2, 8+w, by+barH-4, by+barH-4, col.R, col.G, col.B)
			text(8+w+4, by+barH-5, 12, moneyFloat(v))
		}
	}
	b.WriteString(`</svg>`)
	if len(series) == 1 {
		return b.Bytes(), nil
	}
	names := make([]string, len(series))
	for i, s := range series {
		names[i] = s.Name
	}
	return withLegend(b.Bytes(), names)
}
