package catalog

import (
	"fmt"
	"strings"
)

// DefaultQualityRows is how many rows each list of the text and Markdown
// reports shows before "… and N more" (the JSON form lists every one): every
// suspect offer of the embedded catalog, and a job summary that stays readable.
const DefaultQualityRows = 200

// Text renders the report for a terminal or a log: a summary line, then each
// section. Lists show at most maxRows rows (DefaultQualityRows when ≤ 0).
func (r QualityReport) Text(maxRows int) string {
	if maxRows <= 0 {
		maxRows = DefaultQualityRows
	}
	var b strings.Builder
	fmt.Fprintf(&b, "GPU Atlas data-quality check of the catalog taken %s (ages as of %s)\n", formatDiffTime(r.TakenAt), r.AsOf.UTC().Format("2006-01-02"))
	fmt.Fprintf(&b, "%s, %s\n", diffPlural(len(r.Errors), "error", "errors"), diffPlural(r.Warnings(), "warning", "warnings"))
	section := func(title string, n int, line func(i int) string) {
		fmt.Fprintf(&b, "\n%s (%d)\n", title, n)
		if n == 0 {
			b.WriteString("  none\n")
		}
		for i := 0; i < n && i < maxRows; i++ {
			b.WriteString("  " + line(i) + "\n")
		}
		if n > maxRows {
			fmt.Fprintf(&b, "  … and %d more (--format json lists every one)\n", n-maxRows)
		}
	}
	section("Errors", len(r.Errors), func(i int) string {
		e := r.Errors[i]
		return fmt.Sprintf("error: %s: %s [%s]", e.Subject, e.Message, e.Code)
	})
	section("Suspect offers (shown marked; never a cheapest answer)", len(r.Suspect), func(i int) string {
		o := r.Suspect[i]
		mark := ""
		if !o.Marked {
			mark = " (NOT MARKED in the catalog)"
		}
		return fmt.Sprintf("%s %s%s: %s", o.Key, o.Price, mark, strings.Join(o.Reasons, "; "))
	})
	section("Unmapped accelerators (no GPU model in data/gpu_aliases.csv)", len(r.Unmapped), func(i int) string {
		u := r.Unmapped[i]
		return fmt.Sprintf("%s %q: %s", u.Provider, u.Name, strings.Join(u.InstanceTypes, ", "))
	})
	section(fmt.Sprintf("Stale or undated providers (observed more than %d days before, or no date)", StaleDays), len(r.Stale), func(i int) string {
		d := r.Stale[i]
		return fmt.Sprintf("%s: %s", d.Provider, d.staleReason(r.AsOf))
	})
	if !r.ConflictsChecked {
		b.WriteString("\nSpec conflicts\n  not checked: this catalog records no spec conflicts to list\n")
	} else {
		section("Spec conflicts (provider and GPU reference disagree)", len(r.Conflicts), func(i int) string {
			c := r.Conflicts[i]
			return fmt.Sprintf("%s/%s %s: %s", c.Provider, c.InstanceType, c.Field, c.Message())
		})
	}
	section("GPU figures a second source contradicts (data/gpu_sources.csv)", len(r.FigureConflicts), func(i int) string {
		f := r.FigureConflicts[i]
		return fmt.Sprintf("data/gpu_sources.csv:%d: %s", f.Line, f.Message())
	})
	return b.String()
}

// Markdown renders the report for a GitHub job summary or a pull request: a
// summary, then a table per section.
func (r QualityReport) Markdown(maxRows int) string {
	if maxRows <= 0 {
		maxRows = DefaultQualityRows
	}
	var b strings.Builder
	b.WriteString("## Data quality\n\n")
	fmt.Fprintf(&b, "Catalog taken **%s**; ages as of **%s**. ", formatDiffTime(r.TakenAt), r.AsOf.UTC().Format("2006-01-02"))
	if r.OK() {
		fmt.Fprintf(&b, "No errors, %s.\n", diffPlural(r.Warnings(), "warning", "warnings"))
	} else {
		fmt.Fprintf(&b, "**%s**, %s.\n", diffPlural(len(r.Errors), "error", "errors"), diffPlural(r.Warnings(), "warning", "warnings"))
	}
	table := func(title string, n int, header string, line func(i int) string) {
		fmt.Fprintf(&b, "\n### %s (%d)\n\n", title, n)
		if n == 0 {
			b.WriteString("None.\n")
			return
		}
		b.WriteString(header + "\n")
		b.WriteString("|" + strings.Repeat("---|", strings.Count(header, "|")-1) + "\n")
		for i := 0; i < n && i < maxRows; i++ {
			b.WriteString(line(i) + "\n")
		}
		if n > maxRows {
			fmt.Fprintf(&b, "\n_… and %d more (`gpuatlas check --format json` lists every one)._\n", n-maxRows)
		}
	}
	table("Errors", len(r.Errors), "| code | subject | problem |", func(i int) string {
		e := r.Errors[i]
		return fmt.Sprintf("| %s | %s | %s |", diffMDCode(e.Code), diffMDCode(e.Subject), diffMDCell(e.Message))
	})
	table("Suspect offers", len(r.Suspect), "| offer | price | marked | reasons |", func(i int) string {
		o := r.Suspect[i]
		marked := "yes"
		if !o.Marked {
			marked = "**no**"
		}
		return fmt.Sprintf("| %s | %s | %s | %s |", diffMDCode(o.Key), diffMDCell(o.Price.String()), marked, diffMDCell(strings.Join(o.Reasons, "; ")))
	})
	table("Unmapped accelerators", len(r.Unmapped), "| provider | accelerator name | instance types |", func(i int) string {
		u := r.Unmapped[i]
		return fmt.Sprintf("| %s | %s | %s |", u.Provider, diffMDCode(u.Name), diffMDCell(strings.Join(u.InstanceTypes, ", ")))
	})
	table("Stale or undated providers", len(r.Stale), "| provider | why |", func(i int) string {
		d := r.Stale[i]
		return fmt.Sprintf("| %s | %s |", d.Provider, diffMDCell(d.staleReason(r.AsOf)))
	})
	if !r.ConflictsChecked {
		b.WriteString("\n### Spec conflicts\n\nNot checked: this catalog records no spec conflicts to list.\n")
	} else {
		table("Spec conflicts", len(r.Conflicts), "| instance type | field | conflict |", func(i int) string {
			c := r.Conflicts[i]
			return fmt.Sprintf("| %s | %s | %s |", diffMDCode(string(c.Provider)+"/"+c.InstanceType), diffMDCell(c.Field), diffMDCell(c.Message()))
		})
	}
	table("GPU figures a second source contradicts", len(r.FigureConflicts), "| GPU | field | conflict |", func(i int) string {
		f := r.FigureConflicts[i]
		return fmt.Sprintf("| %s | %s | %s |", diffMDCode(f.GPU), diffMDCell(f.Field), diffMDCell(f.Message()))
	})
	return b.String()
}
