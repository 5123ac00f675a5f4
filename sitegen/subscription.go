package sitegen

import "github.com/gpuatlas/gpuatlas/catalog"

// perMonthText is a commitment offer (subscription, reservation) per month
// with its hourly equivalent, in the offer's own currency and the page's
// language (catalog.Offer.Subscription); "" for pay-as-you-go offers. The
// instance pages show it under the published price.
func (l *language) perMonthText(o catalog.Offer) string {
	c, ok := o.Subscription()
	if !ok {
		return ""
	}
	s, _ := l.t("js.per_month", "month", moneyText(c.PerMonth), "hour", moneyText(c.Hourly), "cur", string(c.Currency)) // in both catalogs (TestMessages)
	return s
}
