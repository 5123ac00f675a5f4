package sitegen

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func TestSpotRiskOf(t *testing.T) {
	h, err := catalog.ParseBandHistory("b.csv", []byte("provider,region,instance_type,observed_at,band,savings_pct,source\n"+
		"aws,us-east-1,p4d.24xlarge,2021-02-10,<5%,70,s\n"+
		"aws,us-east-1,p4d.24xlarge,2025-06-28,10-15%,67,s\n"+
		"aws,eu-west-1,p4d.24xlarge,2025-06-28,>20%,34,s\n"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 6, 28, 0, 0, 0, 0, time.UTC)
	usd := catalog.Dec("8.59075")
	band := &offerView{Offer: catalog.Offer{Provider: catalog.AWS, InstanceType: "p4d.24xlarge", Region: "us-east-1", Billing: catalog.Spot,
		Interruption: &catalog.Interruption{Band: catalog.Band10To15, SavingsPct: 67, ObservedAt: at, Source: "s"}}, USDHour: &usd}
	noRow := &offerView{Offer: catalog.Offer{Provider: catalog.AWS, InstanceType: "p4d.24xlarge", Region: "eu-north-1", Billing: catalog.Spot}}
	od := &offerView{Offer: catalog.Offer{Provider: catalog.AWS, InstanceType: "p4d.24xlarge", Region: "us-east-1", Billing: catalog.OnDemand}}
	m := &siteModel{bands: h}
	v := m.spotRiskOf(catalog.InstanceType{Provider: catalog.AWS, ID: "p4d.24xlarge"}, []*offerView{od, band, noRow})
	type row struct {
		Region, Status string
		Band           catalog.InterruptionBand
		History        []catalog.InterruptionBand
	}
	var got []row
	for _, r := range v.Rows {
		got = append(got, row{r.Region.ID, r.Status, r.Band, r.History})
	}
	want := []row{
		{"eu-north-1", catalog.InterruptionNoData, "", []catalog.InterruptionBand{"", ""}},
		{"eu-west-1", "", "", []catalog.InterruptionBand{"", catalog.BandOver20}}, // in the copies, no spot offer in the catalog
		{"us-east-1", catalog.InterruptionHasBand, catalog.Band10To15, []catalog.InterruptionBand{catalog.BandUnder5, catalog.Band10To15}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if !v.Moved || len(v.Dates) != 2 || v.Dates[0] != "2021-02-10" {
		t.Errorf("moved %v, dates %v", v.Moved, v.Dates)
	}
	// Another cloud's spot offer: not published, and no history columns.
	ali := &offerView{Offer: catalog.Offer{Provider: catalog.Alibaba, InstanceType: "ecs.gn7i-c8g1.2xlarge", Region: "cn-hangzhou", Billing: catalog.Spot}}
	v = m.spotRiskOf(catalog.InstanceType{Provider: catalog.Alibaba, ID: "ecs.gn7i-c8g1.2xlarge"}, []*offerView{ali})
	if len(v.Rows) != 1 || v.Rows[0].Status != catalog.InterruptionNotPublished || len(v.Dates) != 0 {
		t.Errorf("alibaba: %+v", v)
	}
}
