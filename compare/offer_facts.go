package compare

import "github.com/shopspring/decimal"

// Derived offer facts: the one place a price per GPU-hour, per GPU-memory
// GB-hour (by the datasheet class) and a saving against an on-demand reference are computed. Outputs
// (find, the pages) call these rather than dividing for themselves.

// perUnitPlaces is how many decimal places a per-unit hourly price keeps.
const perUnitPlaces = 8

// PerUnitHourly is an hourly price divided by units (GPUs, whole-device
// equivalents, or GiB of GPU memory), rounded to 8 places; ok is false when
// units is not positive (no GPUs, memory unknown). The currency is the price's.
func PerUnitHourly(hourly, units decimal.Decimal) (decimal.Decimal, bool) {
	if !units.IsPositive() {
		return decimal.Decimal{}, false
	}
	return hourly.DivRound(units, perUnitPlaces), true
}

// SavingPercent is how much cheaper price is than the on-demand reference od,
// in percent (negative when dearer), unrounded to 16 places; ok is false when
// the reference is not positive. Both figures must be in one currency.
func SavingPercent(price, od decimal.Decimal) (decimal.Decimal, bool) {
	if !od.IsPositive() {
		return decimal.Decimal{}, false
	}
	return decimal.NewFromInt(1).Sub(price.Div(od)).Mul(decimal.NewFromInt(100)), true
}
