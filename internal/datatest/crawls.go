package datatest

import (
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// WeekOfCrawls is a history of four crawls ending with a copy of base: ten,
// seven and three days before it the offer key cost 90, 100 and 105 in its
// currency, now 110; an AWS spot offer (g5.xlarge in us-east-1b) was
// withdrawn eight days before. The last seven days hold one change of key,
// 100 → 110 (+10 %), made of two crawl-to-crawl changes (100 → 105 → 110).
// base is not modified; the test fails when it has no offer key.
func WeekOfCrawls(t testing.TB, base *catalog.Snapshot, key string) (*catalog.Snapshot, *catalog.History) {
	t.Helper()
	at := func(days int, price string, withdrawn bool) *catalog.Snapshot {
		s := *base
		s.TakenAt = base.TakenAt.Add(-time.Duration(days) * 24 * time.Hour)
		s.Offers = append([]catalog.Offer(nil), base.Offers...)
		found := false
		for i, o := range s.Offers {
			if days > 0 {
				s.Offers[i].FetchedAt = s.TakenAt
			}
			if o.Key() == key {
				s.Offers[i].Price.Amount, found = catalog.Dec(price), true
			}
		}
		if !found {
			t.Fatalf("the snapshot has no offer %s", key)
		}
		if withdrawn {
			s.Offers = append(s.Offers, catalog.Offer{
				Provider: catalog.AWS, InstanceType: "g5.xlarge", Region: "us-east-1", Zone: "us-east-1b", Billing: catalog.Spot,
				Price:        catalog.Price{Amount: catalog.Dec("0.35"), Currency: catalog.USD, Unit: catalog.PerHour},
				Availability: catalog.Available, Source: "aws:ec2:DescribeSpotPriceHistory", FetchedAt: s.TakenAt,
			})
		}
		return &s
	}
	cur := at(0, "110", false)
	h := catalog.NewHistory()
	for _, s := range []*catalog.Snapshot{at(10, "90", true), at(7, "100", false), at(3, "105", false), cur} {
		if _, err := h.Append(s); err != nil {
			t.Fatal(err)
		}
	}
	return cur, h
}
