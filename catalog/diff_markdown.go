package catalog

import (
	"fmt"
	"strings"
)

// DefaultMarkdownRows is how many rows each list of the Markdown diff shows before
// it ends with "… and N more": enough to review by eye, small enough that a diff of
// a big price change still fits a pull request body (65,536 characters).
const DefaultMarkdownRows = 20

// Markdown renders the report for a pull request body or a GitHub job summary: a
// totals table, then a section per provider with a table per kind of change. Each
// list shows at most maxRows rows (DefaultMarkdownRows when maxRows ≤ 0) and then
// says how many more there are.
func (r DiffReport) Markdown(maxRows int) string {
	if maxRows <= 0 {
		maxRows = DefaultMarkdownRows
	}
	var b strings.Builder
	b.WriteString("## Catalog changes\n\n")
	fmt.Fprintf(&b, "From **%s** to **%s**.\n\n", formatDiffTime(r.OldTakenAt), formatDiffTime(r.NewTakenAt))
	if r.Empty() {
		b.WriteString("No changes.\n")
		return b.String()
	}
	b.WriteString("| provider | types added | types removed | regions added | regions removed | offers added | offers removed | price changes | up | down | availability changes | interruption band changes |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	row := func(name string, c DiffCounts) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", name,
			c.InstanceTypesAdded, c.InstanceTypesRemoved, c.RegionsAdded, c.RegionsRemoved,
			c.OffersAdded, c.OffersRemoved, c.PriceChanges, c.PriceIncreases, c.PriceDecreases, c.AvailabilityChanges, c.InterruptionChanges)
	}
	for _, d := range r.Providers {
		row(string(d.Provider), d.Counts)
	}
	row("**total**", r.Total)

	table := func(title string, n int, header string, line func(i int) string) {
		if n == 0 {
			return
		}
		fmt.Fprintf(&b, "\n#### %s (%d)\n\n%s\n", title, n, header)
		cols := strings.Count(header, "|") - 1
		b.WriteString("|" + strings.Repeat("---|", cols) + "\n")
		for i := 0; i < n && i < maxRows; i++ {
			b.WriteString(line(i) + "\n")
		}
		if n > maxRows {
			fmt.Fprintf(&b, "\n_… and %d more._\n", n-maxRows)
		}
	}
	typeHeader := "| instance type | family | vCPUs | memory GiB | accelerators |"
	typeRow := func(t InstanceType) string {
		var acc []string
		for _, a := range t.Accelerators {
			name := a.Model
			if name == "" {
				name = a.Name
			}
			acc = append(acc, fmt.Sprintf("%d× %s", a.Count, name))
		}
		if IsObservedStub(t) {
			// Specs unknown, not zero: only imported prices name the type.
			return fmt.Sprintf("| %s | | | | %s |", diffMDCode(t.ID), diffMDCell("specs not recorded"))
		}
		return fmt.Sprintf("| %s | %s | %d | %s | %s |", diffMDCode(t.ID), diffMDCell(t.Family), t.VCPUs, t.MemoryGiB, diffMDCell(strings.Join(acc, ", ")))
	}
	regionHeader := "| region | name |"
	regionRow := func(g Region) string { return fmt.Sprintf("| %s | %s |", diffMDCode(g.ID), diffMDCell(g.NameEN)) }
	offerHeader := "| instance type | region | zone | billing | price | availability |"
	offerRow := func(o Offer) string {
		return fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", diffMDCode(o.InstanceType), diffMDCode(o.Region), diffMDCell(o.Zone), o.Billing, diffMDCell(o.Price.String()), o.Availability)
	}
	for _, d := range r.Providers {
		fmt.Fprintf(&b, "\n### %s\n\n%s.\n", d.Provider, diffCapitalize(d.Counts.summary()))
		table("Instance types added", len(d.InstanceTypesAdded), typeHeader, func(i int) string { return typeRow(d.InstanceTypesAdded[i]) })
		table("Instance types removed", len(d.InstanceTypesRemoved), typeHeader, func(i int) string { return typeRow(d.InstanceTypesRemoved[i]) })
		table("Regions added", len(d.RegionsAdded), regionHeader, func(i int) string { return regionRow(d.RegionsAdded[i]) })
		table("Regions removed", len(d.RegionsRemoved), regionHeader, func(i int) string { return regionRow(d.RegionsRemoved[i]) })
		table("Offers added", len(d.OffersAdded), offerHeader, func(i int) string { return offerRow(d.OffersAdded[i]) })
		table("Offers removed", len(d.OffersRemoved), offerHeader, func(i int) string { return offerRow(d.OffersRemoved[i]) })
		table("Price changes", len(d.PriceChanges), "| instance type | region | zone | billing | old | new | change |", func(i int) string {
			c := d.PriceChanges[i]
			return fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s |", diffMDCode(c.Offer.InstanceType), diffMDCode(c.Offer.Region), diffMDCell(c.Offer.Zone), c.Offer.Billing,
				diffMDCell(c.Old.String()), diffMDCell(c.New.String()), diffDescribePercent(c))
		})
		table("Availability changes", len(d.AvailabilityChanges), "| instance type | region | zone | billing | old | new |", func(i int) string {
			c := d.AvailabilityChanges[i]
			return fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", diffMDCode(c.Offer.InstanceType), diffMDCode(c.Offer.Region), diffMDCell(c.Offer.Zone), c.Offer.Billing, c.Old, c.New)
		})
		table("Interruption band changes", len(d.InterruptionChanges), "| instance type | region | zone | billing | old | new |", func(i int) string {
			c := d.InterruptionChanges[i]
			return fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", diffMDCode(c.Offer.InstanceType), diffMDCode(c.Offer.Region), diffMDCell(c.Offer.Zone), c.Offer.Billing,
				diffMDCell(bandWords(c.Old)), diffMDCell(bandWords(c.New)))
		})
	}
	return b.String()
}

func diffCapitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// diffMDCell escapes text for a GitHub table cell: a pipe would end the cell,
// and a line break (LF, CR, or any other control character a terminal or
// GitHub may treat as one) the row; Markdown's own syntax is backslash-escaped.
func diffMDCell(s string) string {
	s = diffMDOneLine(s)
	s = strings.ReplaceAll(s, "\\", "\\\\")
	s = strings.ReplaceAll(s, "|", "\\|")
	for _, c := range []string{"*", "_", "`", "<", "[", "#"} {
		s = strings.ReplaceAll(s, c, "\\"+c)
	}
	return s
}

// diffMDOneLine turns every control character (C0 with CR and LF, DEL, C1) and
// the Unicode line and paragraph separators into a space.
func diffMDOneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
}

// diffMDCode puts an id in a code span, so that underscores and asterisks in it are
// shown as they are. Pipes are still escaped: GitHub splits table cells before it
// reads code spans. The fence is one backtick longer than the longest run of
// backticks in the id, so no backtick in it can close the span.
func diffMDCode(s string) string {
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(diffMDOneLine(s), "|", "\\|")
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	if longest == 0 {
		return "`" + s + "`"
	}
	fence := strings.Repeat("`", longest+1)
	return fence + " " + s + " " + fence
}
