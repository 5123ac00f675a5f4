package catalog

import "testing"

func TestOffer_Subscription(t *testing.T) {
	for _, tc := range []struct {
		name              string
		o                 Offer
		month, hour, curr string
		ok                bool
	}{
		{"monthly as published", Offer{Billing: SubscriptionMonth, Price: Price{Amount: Dec("637.6811594"), Currency: USD, Unit: PerMonth}}, "637.6811594", "0.873536", "USD", true},
		{"yearly", Offer{Billing: SubscriptionYear, Price: Price{Amount: Dec("43800"), Currency: CNY, Unit: PerYear}}, "3650", "5", "CNY", true},
		{"reserved, no upfront", Offer{Billing: Reserved1yNoUpfront, Price: Price{Amount: Dec("7.305"), Currency: USD, Unit: PerHour}}, "5332.65", "7.305", "USD", true},
		{"reserved, all upfront", Offer{Billing: Reserved1yAllUpfront, Price: Price{Amount: Dec("0"), Currency: USD, Unit: PerHour, Upfront: DecPtr("59724.99672")}}, "4977.08", "6.817922", "USD", true},
		{"on demand", Offer{Billing: OnDemand, Price: Price{Amount: Dec("1"), Currency: USD, Unit: PerHour}}, "", "", "", false},
		{"spot", Offer{Billing: Spot, Price: Price{Amount: Dec("1"), Currency: USD, Unit: PerHour}}, "", "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := tc.o.Subscription()
			if ok != tc.ok {
				t.Fatalf("ok = %v", ok)
			}
			if !ok {
				return
			}
			if c.PerMonth.String() != tc.month || c.Hourly.String() != tc.hour || string(c.Currency) != tc.curr {
				t.Errorf("= %s/month, %s/hour %s; want %s, %s %s", c.PerMonth, c.Hourly, c.Currency, tc.month, tc.hour, tc.curr)
			}
		})
	}
}
