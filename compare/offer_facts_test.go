package compare

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestPerUnitHourly(t *testing.T) {
	d := decimal.RequireFromString
	for _, c := range []struct {
		price, units, want string
		ok                 bool
	}{
		{"98.32", "8", "12.29", true},   // p4d.24xlarge-like: 8 GPUs
		{"1.006", "0.5", "2.012", true}, // fractional GPU
		{"10", "3", "3.33333333", true}, // rounded to 8 places
		{"10", "0", "", false},          // no GPUs
		{"10", "-1", "", false},         // nonsense units
	} {
		got, ok := PerUnitHourly(d(c.price), d(c.units))
		if ok != c.ok || (ok && !got.Equal(d(c.want))) {
			t.Errorf("PerUnitHourly(%s, %s) = %s, %v; want %s, %v", c.price, c.units, got, ok, c.want, c.ok)
		}
	}
}

func TestSavingPercent(t *testing.T) {
	d := decimal.RequireFromString
	for _, c := range []struct {
		price, od, want string
		ok              bool
	}{
		{"4", "10", "60", true},
		{"12", "10", "-20", true}, // dearer than on-demand
		{"10", "10", "0", true},
		{"1", "0", "", false}, // no reference
	} {
		got, ok := SavingPercent(d(c.price), d(c.od))
		if ok != c.ok || (ok && !got.Equal(d(c.want))) {
			t.Errorf("SavingPercent(%s, %s) = %s, %v; want %s, %v", c.price, c.od, got, ok, c.want, c.ok)
		}
	}
}
