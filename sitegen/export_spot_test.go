package sitegen

import (
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func TestInterruptionCells(t *testing.T) {
	at := time.Date(2025, 6, 28, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		o    catalog.Offer
		want [4]string
	}{
		{"band", catalog.Offer{Provider: catalog.AWS, Billing: catalog.Spot,
			Interruption: &catalog.Interruption{Band: catalog.BandOver20, SavingsPct: -62, ObservedAt: at, Source: "s"}},
			[4]string{"band", ">20%", "-62", "2025-06-28T00:00:00Z"}},
		{"aws without a row", catalog.Offer{Provider: catalog.AWS, Billing: catalog.Spot}, [4]string{"no_data", "", "", ""}},
		{"other cloud", catalog.Offer{Provider: catalog.Alibaba, Billing: catalog.Spot}, [4]string{"not_published", "", "", ""}},
		{"on-demand", catalog.Offer{Provider: catalog.AWS, Billing: catalog.OnDemand}, [4]string{"", "", "", ""}},
	} {
		a, b, c, d := interruptionCells(&tc.o)
		if got := [4]string{a, b, c, d}; got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	for in, want := range map[string]string{"-62": "-62", "-6+2": "'-6+2", "-": "'-", "-12345": "'-12345", "=1": "'=1", "-12.35": "-12.35", "-1.2.3": "'-1.2.3", "-1.": "'-1."} {
		if got := SafeCSVCell(in); got != want {
			t.Errorf("SafeCSVCell(%q) = %q, want %q", in, got, want)
		}
	}
}
