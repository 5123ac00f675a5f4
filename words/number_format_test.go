package words

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func TestFormat_NumbersForPeople(t *testing.T) {
	tests := []struct {
		in                         string
		quantity, money, rate, pct string
	}{
		{"1432.4921875", "1,432.5", "1,432.49", "1,432.49", "1,432"},
		{"22.3515625", "22.4", "22.35", "22.35", "22"},
		{"640", "640", "640.00", "640.00", "640"},
		{"2.000", "2", "2.00", "2.00", "2"},
		{"0.20000000000000004", "0.2", "0.20", "0.2000", "0"},
		{"0.01313005", "0.01313", "0.01", "0.01313", "0"},
		{"0.099996", "0.1", "0.10", "0.10000", "0"},
		{"0.25", "0.25", "0.25", "0.2500", "0"},
		{"0", "0", "0.00", "0.00", "0"},
		{"55.96", "56.0", "55.96", "55.96", "56"},
		{"-46.5", "-46.5", "-46.50", "-46.50", "-47"},
		{"12345678.905", "12,345,678.9", "12,345,678.91", "12,345,678.91", "12,345,679"},
	}
	for _, tt := range tests {
		d := catalog.Dec(tt.in)
		for _, c := range []struct{ name, got, want string }{
			{"quantity", FormatQuantity(d), tt.quantity}, {"money", FormatMoney(d), tt.money},
			{"rate", FormatRate(d), tt.rate}, {"percent", FormatPercent(d), tt.pct},
		} {
			if c.got != c.want {
				t.Errorf("%s(%s) = %q, want %q", c.name, tt.in, c.got, c.want)
			}
		}
	}
	if got := FormatShare(catalog.Dec("0.5596")); got != "56" {
		t.Errorf("share 0.5596 = %q, want 56", got)
	}
	if got := FormatExact(catalog.Dec("1234.56789")); got != "1,234.56789" {
		t.Errorf("exact = %q", got)
	}
}
