package providers

import (
	"context"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

func TestNewAPILimiters_ActionsOfOneLimitShareABucket(t *testing.T) {
	l := NewAPILimiters([]APILimit{
		{Actions: []string{"QueryPriceForPayAsYouGo", "QueryPriceForSubscription"}, PerSecond: 10, Burst: 2},
		{Actions: []string{"GetProducts"}, PerSecond: 5},
	})
	a, b := l["QueryPriceForPayAsYouGo"], l["QueryPriceForSubscription"]
	if a == nil || a != b {
		t.Fatalf("the two inquiry actions have limiters %p and %p, want one shared", a, b)
	}
	if a.Limit() != 10 || a.Burst() != 2 {
		t.Errorf("inquiry limiter = %v/s burst %d, want 10/s burst 2", a.Limit(), a.Burst())
	}
	if g := l["GetProducts"]; g == nil || g.Limit() != 5 || g.Burst() != 1 {
		t.Errorf("GetProducts limiter = %v, want 5/s with the burst raised to 1", g)
	}
}

func TestAPILimiters_Wait(t *testing.T) {
	l := APILimiters{"InquiryPriceRunInstances": rate.NewLimiter(rate.Every(time.Hour), 1)}
	ctx := t.Context()
	if err := l.Wait(ctx, "InquiryPriceRunInstances"); err != nil {
		t.Fatalf("first call waited: %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := l.Wait(short, "InquiryPriceRunInstances"); err == nil {
		t.Error("second call within the hour was let through")
	}
	if err := l.Wait(ctx, "DescribeRegions"); err != nil {
		t.Errorf("an action without a limit waited: %v", err)
	}
	var none APILimiters
	if err := none.Wait(ctx, "InquiryPriceRunInstances"); err != nil {
		t.Errorf("the zero value limited a call: %v", err)
	}
}

func TestPrepare_BuildsTheDeclaredAPILimits(t *testing.T) {
	var got Config
	f := Factory{ID: "tencent", RatePerSecond: 20, Burst: 10,
		APILimits: []APILimit{{Actions: []string{"InquiryPriceRunInstances"}, PerSecond: 10, Burst: 1}},
		New:       func(cfg Config) (Provider, error) { got = cfg; return &fakeProvider{}, nil }}

	target := Prepare(f, Config{})
	if l := got.APILimiters["InquiryPriceRunInstances"]; l == nil || l.Limit() != 10 || l.Burst() != 1 {
		t.Errorf("adapter got inquiry limiter %v, want 10/s burst 1", l)
	}
	if l := target.Transport.Limiter; l.Limit() != 20 || l.Burst() != 10 {
		t.Errorf("transport limiter = %v/s burst %d, want 20/s burst 10", l.Limit(), l.Burst())
	}

	Prepare(f, Config{Unlimited: true})
	if len(got.APILimiters) != 0 {
		t.Errorf("an unlimited crawl got API limiters %v", got.APILimiters)
	}
}
