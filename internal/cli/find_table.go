package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/termtext"
)

// findCol is one column of the table or Markdown answer.
type findCol struct {
	id    string
	head  string
	right bool // figures align right
	cells []string
}

// columns are the answer's columns in the language: provider, type, GPU,
// GPUs, GB per GPU, region, a price per shown billing column (a price from
// another region than the row's names it), per GPU, marks. Each cell is a
// termtext.Field: a provider's string prints as one field of one line.
func (o findOutput) columns() []findCol {
	m := o.msgs
	word := func(k string) string {
		if s, ok := m[k]; ok {
			return s
		}
		return k
	}
	cur := o.query.Currency
	if cur == "native" {
		cur = ""
	}
	cols := []findCol{
		{id: "provider", head: word("find.col.provider")},
		{id: "type", head: word("find.col.type")},
		{id: "gpu", head: word("find.col.gpu")},
		{id: "gpus", head: word("find.col.gpus"), right: true},
		{id: "gpu_memory", head: word("find.col.gpu_memory"), right: true},
		{id: "region", head: word("find.col.region")},
	}
	// The price columns shown, less those no row has a price in (the JSON
	// answer lists the view's columns as the explorer has them).
	var shown []string
	for _, c := range o.res.Columns {
		i := indexOf(compare.FindColumns, c)
		for _, r := range o.res.Rows {
			if r.Cells[i] != nil {
				shown = append(shown, c)
				break
			}
		}
	}
	for _, c := range shown {
		head := fill(word("find.col.price"), "billing", word("find.short."+c), "cur", cur)
		cols = append(cols, findCol{id: c, head: strings.Join(strings.Fields(head), " "), right: true})
	}
	cols = append(cols, findCol{id: "per_gpu", head: strings.Join(strings.Fields(fill(word("find.col.per_gpu"), "cur", cur)), " "), right: true},
		findCol{id: "marks", head: word("find.col.marks")})
	for _, r := range o.res.Rows {
		gpu := r.GPU
		if gpu == "" {
			gpu = "—"
		} else if r.GPUMapping != "" {
			gpu = fill(word("find.gpu_uncertain"), "gpu", gpu)
		}
		mem := r.GPUMemory.String()
		if a, ok := r.Type.PrimaryAccelerator(); ok && a.NominalMemoryGB == nil && r.GPUMemory.IsPositive() {
			mem += " GiB" // the provider's figure in its unit, not a GB class
		}
		vals := []string{m["provider."+string(r.Type.Provider)], r.Type.ID, gpu, r.GPUs.String(), mem, r.Region.ID}
		if vals[0] == "" {
			vals[0] = string(r.Type.Provider)
		}
		var marks []string
		for _, c := range shown {
			cell := r.Cells[indexOf(compare.FindColumns, c)]
			v := ""
			if cell != nil {
				v = decText(cell.Hourly, 4)
				if o.query.Currency == "native" && v != "" {
					v += " " + cell.Currency
				}
				if cell.Region.ID != r.Region.ID {
					v += " (" + cell.Region.ID + ")"
				}
				for _, mk := range cell.Marks {
					marks = appendNew(marks, word("find.mark."+mk))
				}
			}
			vals = append(vals, v)
		}
		per := decText(r.PerGPU, 4)
		if per != "" && o.query.Currency == "native" {
			per += " " + r.Currency
		}
		sep := ", "
		if o.lang == "zh" {
			sep = "、"
		}
		vals = append(vals, per, strings.Join(marks, sep))
		for i := range cols {
			cols[i].cells = append(cols[i].cells, tf(vals[i]))
		}
	}
	return cols
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

// dropOrder is which columns go first when the table is too wide for the
// terminal: marks, the price columns from the right, then the type's figures;
// the provider, the type, the first price column and the column sorted by
// always stay.
func (o findOutput) dropOrder() []string {
	order := []string{"marks"}
	for i := len(compare.FindColumns) - 1; i >= 1; i-- {
		if c := compare.FindColumns[i]; len(o.res.Columns) > 0 && c != o.res.Columns[0] {
			order = append(order, c)
		}
	}
	order = append(order, "gpu_memory", "region", "gpus", "gpu", "per_gpu")
	keep := map[string]string{"gpu_price": "per_gpu", "gpus": "gpus", "gpu_memory": "gpu_memory"}
	sorted := keep[o.query.Sort]
	if sorted == "" {
		sorted = o.query.Sort
	}
	var out []string
	for _, id := range order {
		if id != sorted {
			out = append(out, id)
		}
	}
	return out
}

// dispWidth is the columns a text takes in a terminal: East Asian wide
// characters take two.
func dispWidth(s string) int {
	n := 0
	for _, r := range s {
		n++
		if wide(r) {
			n++
		}
	}
	return n
}

func wide(r rune) bool {
	return r >= 0x1100 && r <= 0x115f || r >= 0x2e80 && r <= 0xa4cf || r >= 0xac00 && r <= 0xd7a3 ||
		r >= 0xf900 && r <= 0xfaff || r >= 0xfe30 && r <= 0xfe4f || r >= 0xff00 && r <= 0xff60 || r >= 0xffe0 && r <= 0xffe6
}

// truncate cuts s to at most w columns, ending in "…" when cut.
func truncate(s string, w int) string {
	if dispWidth(s) <= w {
		return s
	}
	out, n := "", 0
	for _, r := range s {
		rw := 1
		if wide(r) {
			rw = 2
		}
		if n+rw > w-1 {
			break
		}
		out += string(r)
		n += rw
	}
	return out + "…"
}

func colWidth(c findCol) int {
	w := dispWidth(c.head)
	for _, s := range c.cells {
		w = max(w, dispWidth(s))
	}
	return w
}

func tableWidth(cols []findCol) int {
	n := 0
	for i, c := range cols {
		if i > 0 {
			n += 2
		}
		n += colWidth(c)
	}
	return n
}

// fit leaves out columns, then shortens texts, until the table fits width;
// it returns the columns and the headers of those left out.
func (o findOutput) fit(cols []findCol, width int) ([]findCol, []string) {
	var dropped []string
	if width <= 0 {
		return cols, nil
	}
	for _, id := range o.dropOrder() {
		if tableWidth(cols) <= width {
			break
		}
		for i, c := range cols {
			if c.id == id {
				dropped = append(dropped, c.head)
				cols = append(cols[:i:i], cols[i+1:]...)
				break
			}
		}
	}
	// Still too wide: shorten the widest text column, no shorter than 8.
	for tableWidth(cols) > width {
		best, bw := -1, 8
		for i, c := range cols {
			if !c.right && colWidth(c) > bw {
				best, bw = i, colWidth(c)
			}
		}
		if best < 0 {
			break
		}
		target := max(8, bw-(tableWidth(cols)-width))
		c := cols[best]
		c.head = truncate(c.head, target)
		cells := make([]string, len(c.cells))
		for i, s := range c.cells {
			cells[i] = truncate(s, target)
		}
		c.cells = cells
		cols[best] = c
	}
	return cols, dropped
}

func pad(s string, w int, right bool) string {
	gap := strings.Repeat(" ", max(0, w-dispWidth(s)))
	if right {
		return gap + s
	}
	return s + gap
}

// writeTable writes the aligned table, fitted to the terminal, and a line
// saying what it shows.
func (o findOutput) writeTable(w io.Writer) error {
	if len(o.res.Rows) == 0 {
		return nil
	}
	cols, dropped := o.fit(o.columns(), o.width)
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = colWidth(c)
	}
	line := func(cell func(c findCol) string) string {
		parts := make([]string, len(cols))
		for i, c := range cols {
			parts[i] = pad(cell(c), widths[i], c.right)
		}
		return strings.TrimRight(strings.Join(parts, "  "), " ")
	}
	var b strings.Builder
	b.WriteString(line(func(c findCol) string { return c.head }) + "\n")
	for r := range o.res.Rows {
		b.WriteString(line(func(c findCol) string { return c.cells[r] }) + "\n")
	}
	b.WriteString("\n" + o.summary() + "\n")
	if len(dropped) > 0 {
		sep := ", "
		if o.lang == "zh" {
			sep = "、"
		}
		b.WriteString(fill(o.msgs["find.dropped"], "width", fmt.Sprint(o.width), "list", strings.Join(dropped, sep)) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// summary says how many rows of how many types, and in what currency.
func (o findOutput) summary() string {
	n, total := fmt.Sprint(len(o.res.Rows)), fmt.Sprint(o.total)
	if o.query.Currency == "native" {
		return fill(o.msgs["find.count_native"], "n", n, "total", total)
	}
	fx := tf(o.snap.FX.Source + ", " + o.snap.FX.Date)
	return fill(o.msgs["find.count"], "n", n, "total", total, "cur", o.query.Currency, "fx", fx)
}

// writeMarkdown writes a GitHub-flavoured Markdown table (every column) and
// the summary line.
func (o findOutput) writeMarkdown(w io.Writer) error {
	if len(o.res.Rows) == 0 {
		return nil
	}
	cols := o.columns()
	esc := termtext.Markdown
	var b strings.Builder
	row := func(cell func(c findCol) string) {
		b.WriteString("|")
		for _, c := range cols {
			b.WriteString(" " + esc(cell(c)) + " |")
		}
		b.WriteString("\n")
	}
	row(func(c findCol) string { return c.head })
	row(func(c findCol) string {
		if c.right {
			return "---:"
		}
		return "---"
	})
	for r := range o.res.Rows {
		row(func(c findCol) string { return c.cells[r] })
	}
	b.WriteString("\n" + termtext.Markdown(o.summary()) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}
