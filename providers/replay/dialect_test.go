package replay

import (
	"encoding/json"
	"maps"
	"testing"
)

func TestFlatten_ListBase(t *testing.T) {
	var body any
	if err := json.Unmarshal([]byte(`{"Filters":[{"Name":"zone","Values":["a","b"]}],"Limit":100,"DryRun":false,"Marker":null,"Rate":0.000001}`), &body); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		first int
		want  map[string]string
	}{
		{0, map[string]string{"Filters.0.Name": "zone", "Filters.0.Values.0": "a", "Filters.0.Values.1": "b",
			"Limit": "100", "DryRun": "false", "Marker": "", "Rate": "0.000001"}},
		{1, map[string]string{"Filters.1.Name": "zone", "Filters.1.Values.1": "a", "Filters.1.Values.2": "b",
			"Limit": "100", "DryRun": "false", "Marker": "", "Rate": "0.000001"}},
	} {
		got := map[string]string{}
		flatten("", body, got, tt.first)
		if !maps.Equal(got, tt.want) {
			t.Errorf("flatten from %d = %v, want %v", tt.first, got, tt.want)
		}
	}
}
