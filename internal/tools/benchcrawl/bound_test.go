package main

import (
	"testing"
	"time"
)

func TestLowerBound(t *testing.T) {
	const latency = 50 * time.Millisecond
	all := func(n int) bucket { return bucket{name: "all calls", requests: n, perSecond: 20, burst: 10} }
	for _, tt := range []struct {
		name     string
		buckets  []bucket
		n        int
		inFlight int
		want     bound
	}{
		{
			// (4000 − 10) / 20 = 199.5 s, answered 50 ms later; 4000 × 50 ms / 10
			// in flight is only 20 s.
			name: "transport rate", buckets: []bucket{all(4000)}, n: 4000, inFlight: 10,
			want: bound{wall: 199*time.Second + 550*time.Millisecond, by: "all calls"},
		},
		{
			// All calls: (500 − 10) / 20 = 24.5 s; GetProducts: (200 − 10) / 5 =
			// 38 s, which binds.
			name: "per-API limit binds",
			buckets: []bucket{all(500),
				{name: "GetProducts", requests: 200, perSecond: 5, burst: 10}},
			n: 500, inFlight: 12,
			want: bound{wall: 38*time.Second + latency, by: "GetProducts"},
		},
		{
			// The burst covers all 5 requests: 50 ms; 5 × 50 ms over 4 in flight
			// is 62.5 ms.
			name: "in flight binds", buckets: []bucket{all(5)}, n: 5, inFlight: 4,
			want: bound{wall: 62500 * time.Microsecond, by: "4 in flight × 50ms latency"},
		},
		{
			// Burst 1: (101 − 1) / 10 = 10 s.
			name: "burst of one", buckets: []bucket{{name: "InquiryPriceRunInstances", requests: 101, perSecond: 10, burst: 1}},
			n: 101, inFlight: 16,
			want: bound{wall: 10*time.Second + latency, by: "InquiryPriceRunInstances"},
		},
		{
			// An unlimited bucket holds nothing up; no cap on in flight given
			// counts as one: 3 × 50 ms.
			name: "unlimited", buckets: []bucket{{name: "all calls", requests: 3}}, n: 3, inFlight: 0,
			want: bound{wall: 150 * time.Millisecond, by: "1 in flight × 50ms latency"},
		},
		{name: "no requests", n: 0, inFlight: 4, want: bound{by: "no requests"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := lowerBound(tt.buckets, tt.n, latency, tt.inFlight); got != tt.want {
				t.Errorf("lowerBound = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestBucketDescribe(t *testing.T) {
	for _, tt := range []struct {
		b    bucket
		want string
	}{
		{bucket{name: "all calls", requests: 512, perSecond: 20, burst: 10}, "all calls 20/s burst 10: 512"},
		{bucket{name: "GetProducts", requests: 7, perSecond: 2.5, burst: 1}, "GetProducts 2.5/s burst 1: 7"},
		{bucket{name: "all calls", requests: 3}, "all calls unlimited: 3"},
	} {
		if got := tt.b.describe(); got != tt.want {
			t.Errorf("describe() = %q, want %q", got, tt.want)
		}
	}
}
