package words

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Numbers for people, one set of rules for the site's renderers and the command
// line (static/tco.js formats the calculator's tables by the same rules, and a
// browser test holds it to them). English and Simplified Chinese write numbers
// alike: digits grouped by thousands with ",", "." before the decimals, so the
// rules take no language; the words around a number (units, "per", 美元) come
// from the message catalogs. Exact figures stay in the JSON and in the TCO steps
// (FormatExact).

var (
	decOne   = decimal.NewFromInt(1)
	decTen   = decimal.NewFromInt(10)
	decTenth = decimal.New(1, -1)
	hundred  = decimal.NewFromInt(100)
)

// FormatQuantity is a measured figure (GiB, TFLOPS, hours, GPUs): whole numbers
// as they are, one decimal where not whole (1432.4921875 → 1,432.5; 22.3515625 →
// 22.4), and below 1 four significant digits without trailing zeros (0.25,
// 0.2544).
func FormatQuantity(d decimal.Decimal) string {
	switch {
	case d.IsInteger():
		return GroupDigits(d.String())
	case d.Abs().LessThan(decOne):
		return trimZeros(d.StringFixed(significantPlaces(d, 4)))
	}
	return GroupDigits(d.StringFixed(1))
}

// FormatMoney is an amount of money to the cent, grouped: 29376 → 29,376.00.
func FormatMoney(d decimal.Decimal) string { return GroupDigits(d.StringFixed(2)) }

// FormatRate is a price per hour or per unit of work: to the cent from 1 up
// (32.7726 → 32.77), four significant digits below (0.01313005 → 0.01313, 0.2 →
// 0.2000), so that a per-GPU-hour figure of a few cents still tells offers apart.
func FormatRate(d decimal.Decimal) string {
	if d.IsZero() || d.Abs().GreaterThanOrEqual(decOne) {
		return FormatMoney(d)
	}
	return d.StringFixed(significantPlaces(d, 4))
}

// FormatPercent is a percentage (55.96 means 55.96 %) as a whole number: 56.
func FormatPercent(d decimal.Decimal) string { return GroupDigits(d.Round(0).String()) }

// FormatShare is a share in [0, 1] as a whole percentage: 0.9 → 90.
func FormatShare(d decimal.Decimal) string { return FormatPercent(d.Mul(hundred)) }

// FormatExact is a figure as computed, every decimal kept, grouped: for formulas
// whose arithmetic a reader checks (the TCO steps, speeds from specs).
func FormatExact(d decimal.Decimal) string { return GroupDigits(d.String()) }

// significantPlaces is how many decimal places show n significant digits of d,
// |d| < 1: 0.01313 needs 5 places for 4 digits.
func significantPlaces(d decimal.Decimal, n int32) int32 {
	y := d.Abs()
	if y.IsZero() {
		return n
	}
	places := n
	for y.LessThan(decTenth) {
		y = y.Mul(decTen)
		places++
	}
	return places
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
