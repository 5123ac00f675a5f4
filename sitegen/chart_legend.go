package sitegen

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strconv"

	"github.com/go-analyze/charts"
)

// chartViewBox is the size a drawing of the library declares.
var chartViewBox = regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`)

// legendLine is the height of one legend entry, in the drawing's pixels.
const legendLine = 22

// withLegend draws a chart's legend under its plot, one entry a line, in
// place of the library's (the chart is drawn with Legend.Show false): the
// library lays its legend out with text widths measured in its own Latin
// font, and where a browser draws a name wider (Chinese, mixed text) the
// entries run into each other or into the plot. One entry a line never
// collides, at any width. The colours are the library's series colours, in
// order.
func withLegend(svg []byte, names []string) ([]byte, error) {
	if len(names) == 0 {
		return svg, nil
	}
	m := chartViewBox.FindSubmatchIndex(svg)
	if m == nil {
		return nil, fmt.Errorf("chart: no viewBox to add a legend to")
	}
	w, _ := strconv.Atoi(string(svg[m[2]:m[3]]))
	h, _ := strconv.Atoi(string(svg[m[4]:m[5]]))
	end := bytes.LastIndex(svg, []byte("</svg>"))
	if end < 0 {
		return nil, fmt.Errorf("chart: no end of drawing")
	}
	extra := 8 + legendLine*len(names)
	var b bytes.Buffer
	b.Write(svg[:m[0]])
	fmt.Fprintf(&b, `viewBox="0 0 %d %d"`, w, h+extra)
	b.Write(svg[m[1]:end])
	fmt.Fprintf(&b, `<path d="M 0 %d L %d %d L %d %d L 0 %d Z" style="stroke:none;fill:white"/>`, h, w, h, w, h+extra, h+extra)
	theme := charts.GetDefaultTheme()
	for i, n := range names {
		c := theme.GetSeriesColor(i)
		y := h + 4 + legendLine*i
		fmt.Fprintf(&b, `<path d="M 16 %d L 30 %d L 30 %d L 16 %d Z" style="stroke:none;fill:rgb(%d,%d,%d)"/>`, y+6, y+6, y+16, y+16, c.R, c.G, c.B)
		fmt.Fprintf(&b, `<text x="36" y="%d" style="stroke:none;fill:rgb(70,70,70);font-size:14px;font-family:'Roboto Medium',sans-serif">%s</text>`, y+16, html.EscapeString(n))
	}
	b.Write(svg[end:])
	return b.Bytes(), nil
}
