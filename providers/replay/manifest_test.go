package replay

import "testing"

func TestManifest_Find(t *testing.T) {
	m := Manifest{Exchanges: []Exchange{
		{Service: "ecs", Action: "DescribePrice", Region: "cn-hangzhou", Params: map[string]string{"SpotStrategy": "SpotAsPriceGo"}, Body: "spot.json"},
		{Service: "ecs", Action: "DescribePrice", Region: "cn-hangzhou", Params: map[string]string{"SpotStrategy": ""}, Body: "on-demand.json"},
		{Action: "DescribePrice", Body: "any.json"},
	}}
	for _, tt := range []struct {
		name string
		req  Request
		want string
	}{
		{"listed parameter", Request{Service: "ecs", Action: "DescribePrice", Region: "cn-hangzhou", Params: map[string]string{"SpotStrategy": "SpotAsPriceGo"}}, "spot.json"},
		{"empty value matches an absent parameter", Request{Service: "ecs", Action: "DescribePrice", Region: "cn-hangzhou", Params: map[string]string{}}, "on-demand.json"},
		{"unset service and region match any", Request{Service: "ecs", Action: "DescribePrice", Region: "cn-beijing"}, "any.json"},
		{"other action", Request{Service: "ecs", Action: "DescribeRegions"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, ok := m.Find(tt.req)
			if ok != (tt.want != "") || e.Body != tt.want {
				t.Errorf("Find = %q, %v; want %q", e.Body, ok, tt.want)
			}
		})
	}
}
