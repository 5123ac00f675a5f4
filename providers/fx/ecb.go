// Package fx fetches and parses the European Central Bank's daily euro reference
// rates, the FX table every currency conversion in a snapshot goes through.
package fx

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// ECBDailyURL is where the ECB publishes the latest reference rates (about 16:00
// CET on TARGET working days).
const ECBDailyURL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"

// maxBody bounds what is read from the FX source; the real file is about 1.5 KB.
const maxBody = 1 << 20

type envelope struct {
	Outer struct {
		Day []struct {
			Time  string `xml:"time,attr"`
			Rates []struct {
				Currency string `xml:"currency,attr"`
				Rate     string `xml:"rate,attr"`
			} `xml:"Cube"`
		} `xml:"Cube"`
	} `xml:"Cube"`
}

// ParseECB reads the ECB daily XML (rates in units of currency per 1 EUR). The
// table's source is source (the URL it came from). Errors name the file.
func ParseECB(name, source string, data []byte) (catalog.FXTable, error) {
	var env envelope
	dec := xml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&env); err != nil {
		line, col := catalog.LineCol(data, dec.InputOffset())
		return catalog.FXTable{}, fmt.Errorf("%s:%d:%d: malformed ECB rates XML: %w", name, line, col, err)
	}
	if len(env.Outer.Day) != 1 {
		return catalog.FXTable{}, fmt.Errorf("%s: expected the rates of one day, found %d", name, len(env.Outer.Day))
	}
	day := env.Outer.Day[0]
	if _, err := time.Parse("2006-01-02", day.Time); err != nil {
		return catalog.FXTable{}, fmt.Errorf("%s: rate date %q is not YYYY-MM-DD", name, day.Time)
	}
	t := catalog.FXTable{Base: catalog.EUR, Date: day.Time, Source: source, Rates: map[catalog.Currency]decimal.Decimal{}}
	for _, r := range day.Rates {
		if len(r.Currency) != 3 {
			return catalog.FXTable{}, fmt.Errorf("%s: currency %q is not an ISO 4217 code", name, r.Currency)
		}
		v, err := decimal.NewFromString(r.Rate)
		if err != nil || !v.IsPositive() {
			return catalog.FXTable{}, fmt.Errorf("%s: rate %q for %s is not a positive number", name, r.Rate, r.Currency)
		}
		t.Rates[catalog.Currency(r.Currency)] = v
	}
	for _, need := range []catalog.Currency{catalog.USD, catalog.CNY} {
		if _, ok := t.Rates[need]; !ok {
			return catalog.FXTable{}, fmt.Errorf("%s: no %s rate", name, need)
		}
	}
	return t, nil
}

// Fetch downloads and parses the rates at url.
func Fetch(ctx context.Context, client *http.Client, url string) (catalog.FXTable, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return catalog.FXTable{}, fmt.Errorf("fx: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return catalog.FXTable{}, fmt.Errorf("fx: fetch ECB rates: %w", err)
	}
	defer func() { _ = resp.Body.Close() }() // read-only: a close error loses nothing
	if resp.StatusCode != http.StatusOK {
		return catalog.FXTable{}, fmt.Errorf("fx: fetch ECB rates from %s: HTTP %d", url, resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return catalog.FXTable{}, fmt.Errorf("fx: read ECB rates: %w", err)
	}
	if len(data) > maxBody {
		return catalog.FXTable{}, errors.New("fx: ECB rates response is larger than 1 MiB")
	}
	return ParseECB(url, url, data)
}
