package sitegen

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The static pages' prices are in the reader's currency: CNY on the Chinese
// pages (converted with the snapshot's FX table, the rate and its date shown),
// USD on the English ones. A price published in the page's currency is shown
// as published, not converted there and back; the other currency follows it,
// smaller. The script-driven pages (explorer, compare, TCO calculator) default
// the same way and let the reader choose, in the URL.

// pageFX is the snapshot's rate from USD to CNY, for the Chinese pages; zero
// Rate when the FX table has none (the pages stay in USD then).
type pageFX struct {
	Rate decimal.Decimal
	Date string
}

// setPageFX gives every language the snapshot's USD to CNY rate.
func setPageFX(langs []*language, fx catalog.FXTable) {
	r, err := fx.CrossRate(catalog.USD, catalog.CNY)
	if err != nil {
		return
	}
	for _, l := range langs {
		l.fx = pageFX{Rate: r, Date: fx.Date}
	}
}

// currency is the language's page currency.
func (l *language) currency() catalog.Currency {
	if l.Tag == "zh" && !l.fx.Rate.IsZero() {
		return catalog.CNY
	}
	return catalog.USD
}

// pageMoney is a USD amount in the page's currency, without its code ("" for
// none): converted at the snapshot's rate on a CNY page.
func (l *language) pageMoney(usd *decimal.Decimal) string {
	if usd == nil {
		return ""
	}
	return moneyText(l.inPageCurrency(*usd))
}

// inPageCurrency is a USD amount in the page's currency, unrounded.
func (l *language) inPageCurrency(usd decimal.Decimal) decimal.Decimal {
	if l.currency() == catalog.CNY {
		return usd.Mul(l.fx.Rate)
	}
	return usd
}

// msgCur is the message for key with {cur} the page currency in words.
func (l *language) msgCur(key string) string {
	return strings.ReplaceAll(l.msg(key), "{cur}", l.curName())
}

// curName is the page currency in the page's words (美元, 人民币; USD, CNY).
func (l *language) curName() string { return l.label("curname", l.currency()) }

// hourlyPrice is an hourly price in the page's currency and, smaller, in the
// other one it is known in (USD on a CNY page; the published currency on a
// USD page when it is another).
type hourlyPrice struct {
	Main, Sub string
}

// hourly puts an offer's effective hourly price (USD, and its native figure)
// in the page's currency; Main is empty when there is no USD figure.
func (l *language) hourly(usd, native *decimal.Decimal, nativeCur catalog.Currency) hourlyPrice {
	if usd == nil {
		return hourlyPrice{}
	}
	usdText := moneyText(*usd) + " USD"
	nativeText := ""
	if native != nil && nativeCur != catalog.USD && nativeCur != "" {
		nativeText = moneyText(*native) + " " + string(nativeCur)
	}
	if l.currency() == catalog.CNY {
		main := moneyText(usd.Mul(l.fx.Rate)) + " CNY"
		if nativeCur == catalog.CNY && native != nil {
			main = nativeText
		}
		return hourlyPrice{Main: main, Sub: usdText}
	}
	return hourlyPrice{Main: usdText, Sub: nativeText}
}

// costUnit is the unit of a cost per unit of work of a workload in the page's
// currency: its "workload_cost" label on a USD page ("USD per 1M tokens"), the
// currency and its "costunit" on a CNY page ("人民币 / 百万 token"). fallback is
// compare's label of the figure (WorkCost.UnitLabel, "USD per " and the
// registry's cost unit), for a workload the catalogs do not name.
func (l *language) costUnit(workload, fallback string) string {
	if l.currency() == catalog.USD {
		if s, ok := l.messages["workload_cost."+workload]; ok {
			return s
		}
		return fallback
	}
	unit, ok := l.messages["costunit."+workload]
	if !ok {
		unit = strings.TrimPrefix(fallback, "USD per ")
	}
	return strings.NewReplacer("{cur}", l.curName(), "{unit}", unit).Replace(l.msg("bench.cost_unit"))
}
