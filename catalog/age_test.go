package catalog

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestOfferAgeAt(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name     string
		observed time.Time
		want     Age
		stale    bool
	}{
		{"AWS regional prices of the embedded catalog", time.Date(2025, 11, 30, 0, 0, 0, 0, time.UTC), Age{Known: true, Days: 366}, true},
		{"AWS China prices", time.Date(2026, 1, 21, 0, 0, 0, 0, time.UTC), Age{Known: true, Days: 314}, true},
		{"the Huawei report", time.Date(2026, 7, 13, 0, 0, 0, 0, time.UTC), Age{Known: true, Days: 141}, true},
		{"30 days is not stale", now.AddDate(0, 0, -30), Age{Known: true, Days: 30}, false},
		{"31 days is", now.AddDate(0, 0, -31), Age{Known: true, Days: 31}, true},
		{"a live crawl", now.Add(-2 * time.Hour), Age{Known: true, Days: 0}, false},
		{"after now", now.Add(time.Hour), Age{Known: true, Days: 0}, false},
		{"Alibaba: unknown", time.Time{}, Age{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Offer{ObservedAt: tc.observed}.AgeAt(now)
			if got != tc.want || got.Stale() != tc.stale {
				t.Errorf("AgeAt = %+v (stale %v), want %+v (stale %v)", got, got.Stale(), tc.want, tc.stale)
			}
		})
	}
}

func TestSnapshot_DataAges(t *testing.T) {
	s := testSnapshot()
	dataset := time.Date(2025, 11, 30, 0, 0, 0, 0, time.UTC)
	s.Offers[0].ObservedAt = dataset
	s.Offers[1].ObservedAt = dataset.AddDate(0, 1, 0)
	// offers[2] undated
	s.Coverage = append(s.Coverage, Coverage{Provider: Volcengine, Status: CoverageSkipped, Message: NoPublicData})
	got := s.DataAges(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	at := time.Date(2025, 11, 30, 0, 0, 0, 0, time.UTC)
	want := []DataAge{
		{Provider: AWS, Offers: 3, Oldest: dataset, Newest: dataset.AddDate(0, 1, 0), Days: 366, Unknown: 1, Retrieved: at, Coverage: CoveragePartial},
		{Provider: Alibaba, Coverage: CoverageOK},
		{Provider: Volcengine, Coverage: CoverageSkipped},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DataAges (-want +got):\n%s", diff)
	}
	if !got[0].Stale() || got[1].Stale() {
		t.Errorf("stale: aws %v alibaba %v", got[0].Stale(), got[1].Stale())
	}
}
