package fx

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

const fixture = "testdata/ecb-2025-11-28.xml"

func TestParseECB_RealFile(t *testing.T) {
	b, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	table, err := ParseECB(fixture, ECBDailyURL, b)
	if err != nil {
		t.Fatal(err)
	}
	if table.Date != "2025-11-28" || table.Base != catalog.EUR || table.Source != ECBDailyURL {
		t.Errorf("table header = %s %s %s", table.Base, table.Date, table.Source)
	}
	if !table.Rates[catalog.USD].Equal(catalog.Dec("1.1566")) || !table.Rates[catalog.CNY].Equal(catalog.Dec("8.1836")) {
		t.Errorf("USD %s CNY %s, want 1.1566 and 8.1836", table.Rates[catalog.USD], table.Rates[catalog.CNY])
	}
	if len(table.Rates) != 30 {
		t.Errorf("%d rates, want 30", len(table.Rates))
	}
}

func TestParseECB_Errors(t *testing.T) {
	good, _ := os.ReadFile(fixture)
	tests := []struct{ name, data, want string }{
		{"malformed", "<gesmes:Envelope><Cube>", "f.xml:1:"},
		{"no USD", strings.Replace(string(good), "currency='USD'", "currency='XXX'", 1), "no USD rate"},
		{"bad rate", strings.Replace(string(good), "rate='8.1836'", "rate='-1'", 1), "rate \"-1\" for CNY"},
		{"bad date", strings.Replace(string(good), "time='2025-11-28'", "time='28.11.2025'", 1), "rate date"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseECB("f.xml", "src", []byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func TestFetch_Replay(t *testing.T) {
	good, _ := os.ReadFile(fixture)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/down" {
			http.Error(w, "maintenance", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write(good)
	}))
	defer srv.Close()
	table, err := Fetch(context.Background(), srv.Client(), srv.URL+"/eurofxref-daily.xml")
	if err != nil {
		t.Fatal(err)
	}
	if table.Source != srv.URL+"/eurofxref-daily.xml" || table.Date != "2025-11-28" {
		t.Errorf("got %+v", table)
	}
	if _, err := Fetch(context.Background(), srv.Client(), srv.URL+"/down"); err == nil || !strings.Contains(err.Error(), "HTTP 503") {
		t.Errorf("got %v, want HTTP 503", err)
	}
}

func FuzzParseECB(f *testing.F) {
	good, _ := os.ReadFile(fixture)
	f.Add(good)
	f.Add([]byte("<Cube><Cube time='2025-01-01'><Cube currency='USD' rate='1e9999999'/></Cube></Cube>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		table, err := ParseECB("fuzz.xml", "src", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.xml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if _, err := table.Convert(catalog.Dec("1"), catalog.CNY, catalog.USD); err != nil {
			t.Fatalf("a parsed table cannot convert CNY to USD: %v", err)
		}
	})
}
