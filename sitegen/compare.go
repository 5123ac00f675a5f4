package sitegen

// compareData is the model of compare.html: the page is filled by
// static/compare.js from the offer keys in its URL; without JavaScript it explains
// how to choose offers.
type compareData struct {
	Example  string // an offer key for the instructions
	Currency string // the page's default currency: CNY in Chinese, USD otherwise
	Config   compareConfig
}

// compareConfig is the script's configuration: the explorer's, and the
// currency the page shows unless the URL chooses another (?cur=).
type compareConfig struct {
	explorerConfig
	Currency string `json:"currency"`
}

// maxCompare is how many offers the compare page shows side by side.
const maxCompare = 4

func (m *siteModel) comparePage(base string, l *language) compareData {
	cur := string(explorerCurrency(l, m.snap.FX))
	d := compareData{Currency: cur, Config: compareConfig{explorerConfig: explorerConfig{
		Data: base + offersDataPath, Prefix: base + l.Prefix, Compare: base + l.Prefix + "compare.html", Lang: l.Tag,
		PageSize: maxCompare, Labels: l.jsLabels(),
	}, Currency: cur}}
	for _, o := range m.offers {
		if o.USDHour != nil && d.Example == "" {
			d.Example = o.Key
		}
		// What a price includes, in the page's words (data_text.go), for the
		// script to show (label "inc"): "inc." and the text as the catalog has it.
		if t, ok := dataText(l, o.Offer.Includes); ok {
			d.Config.Labels["inc."+o.Offer.Includes] = t
		}
	}
	return d
}
