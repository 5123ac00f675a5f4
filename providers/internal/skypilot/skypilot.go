// Package skypilot reads the SkyPilot catalogs (vms.csv, one row per instance type
// and zone) that the Alibaba and Tencent fixtures are generated from, states their
// provenance, and undoes their currency conversion: the catalogs store the APIs'
// CNY prices as USD at a fixed rate, rounded to 8 decimals.
package skypilot

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// USDPerCNY is the fixed rate the catalogs multiplied the APIs' CNY prices by.
const USDPerCNY = "0.138"

// RecoverCNY finds the shortest decimal CNY amount that the catalogs'
// conversion (× 0.138, rounded to 8 decimals) turns into usd.
func RecoverCNY(usd string) (decimal.Decimal, error) {
	u, err := decimal.NewFromString(usd)
	if err != nil {
		return decimal.Zero, err
	}
	rate := decimal.RequireFromString(USDPerCNY)
	exact := u.DivRound(rate, 16)
	for places := int32(0); places <= 8; places++ {
		c := exact.Round(places)
		if c.Mul(rate).Round(8).Equal(u) {
			return c, nil
		}
	}
	return decimal.Zero, fmt.Errorf("no CNY amount with at most 8 decimals gives %s USD at %s", usd, USDPerCNY)
}
