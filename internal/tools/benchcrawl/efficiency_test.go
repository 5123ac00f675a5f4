package main

import "testing"

// The request targets: at most 1.05 requests per priced offer and no call
// answered "not found"; a crawl that priced nothing meets neither.
func TestResult_Efficient(t *testing.T) {
	for _, tt := range []struct {
		name                       string
		requests, offers, notFound int
		perOffer                   float64
		want                       bool
	}{
		{"alibaba before: every subscription quote asked", 3997, 2354, 1620, 3997.0 / 2354, false},
		{"alibaba after", 2417, 2354, 0, 2417.0 / 2354, true},
		{"at the target", 105, 100, 0, 1.05, true},
		{"just over", 106, 100, 0, 1.06, false},
		{"few requests, one not found", 10, 200, 1, 0.05, false},
		{"no offers", 3, 0, 0, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := result{requests: tt.requests, offers: tt.offers, notFound: tt.notFound}
			if got := r.perOffer(); got != tt.perOffer {
				t.Errorf("perOffer = %v, want %v", got, tt.perOffer)
			}
			if got := r.efficient(); got != tt.want {
				t.Errorf("efficient = %v, want %v", got, tt.want)
			}
			row := r.efficiencyRow()
			if row.Met == nil || *row.Met != tt.want || row.Measure != "requests per priced offer" {
				t.Errorf("row = %+v", row)
			}
		})
	}
}
