package main

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

var crawlTime = time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)

// crawled is what a crawl of the replays gives, in small: real rows of AWS (a
// China region among them), a Huawei flavor with made-up regions and prices,
// and a made-up Volcano Engine type.
func crawled() *catalog.Snapshot {
	gpu := func(name string, n int) []catalog.Accelerator {
		return []catalog.Accelerator{{Kind: catalog.KindGPU, Name: name, Count: n, Share: catalog.Dec("1"), MemoryGiB: catalog.Dec("16")}}
	}
	offer := func(p catalog.Provider, typ, region, zone string, b catalog.BillingKind, amount string, cur catalog.Currency) catalog.Offer {
		return catalog.Offer{Provider: p, InstanceType: typ, Region: region, Zone: zone, Billing: b,
			Price: catalog.Price{Amount: catalog.Dec(amount), Currency: cur, Unit: catalog.PerHour}, Availability: catalog.Available,
			Source: string(p) + ":api", FetchedAt: crawlTime, ObservedAt: crawlTime}
	}
	s := &catalog.Snapshot{Schema: catalog.SchemaVersion, TakenAt: crawlTime,
		Coverage: []catalog.Coverage{
			{Provider: catalog.AWS, Status: catalog.CoverageOK, Regions: 2, LastOK: crawlTime},
			{Provider: catalog.Huawei, Status: catalog.CoverageOK, Regions: 3, LastOK: crawlTime},
			{Provider: catalog.Volcengine, Status: catalog.CoverageOK, Regions: 3, LastOK: crawlTime},
		},
		Regions: []catalog.Region{{Provider: catalog.AWS, ID: "us-east-1"}, {Provider: catalog.AWS, ID: "cn-north-1"},
			{Provider: catalog.Huawei, ID: "ap-southeast-1"}, {Provider: catalog.Volcengine, ID: "cn-beijing"}},
		Instances: []catalog.InstanceType{
			{Provider: catalog.AWS, ID: "p5.48xlarge", Accelerators: gpu("H100", 8), Source: "aws:ec2:DescribeInstanceTypes"},
			{Provider: catalog.AWS, ID: "g3.4xlarge", Accelerators: gpu("M60", 1), Source: "aws:ec2:DescribeInstanceTypes"},
			{Provider: catalog.Huawei, ID: "p2v.16xlarge.8", Accelerators: gpu("V100", 8), Source: "huawei:ecs:ListFlavors"},
			{Provider: catalog.Volcengine, ID: "ecs.gni2.3xlarge", Accelerators: gpu("A10", 1), Source: "volcengine:ecs:DescribeInstanceTypes"},
		},
		Placements: []catalog.Placement{{Provider: catalog.Huawei, InstanceType: "p2v.16xlarge.8", Region: "ap-southeast-1", Zone: "ap-southeast-1a", Status: catalog.Available}},
		Offers: []catalog.Offer{
			offer(catalog.AWS, "p5.48xlarge", "us-east-1", "", catalog.OnDemand, "55.04", catalog.USD),
			offer(catalog.AWS, "p5.48xlarge", "us-east-1", "us-east-1a", catalog.Spot, "28.106467", catalog.USD),
			offer(catalog.AWS, "g3.4xlarge", "cn-north-1", "", catalog.OnDemand, "16.2045", catalog.CNY),
			offer(catalog.Huawei, "p2v.16xlarge.8", "ap-southeast-1", "", catalog.OnDemand, "120", catalog.CNY),
			offer(catalog.Volcengine, "ecs.gni2.3xlarge", "cn-beijing", "", catalog.OnDemand, "9.1", catalog.CNY),
		},
	}
	s.Sort()
	return s
}

func manifests(provenance string) map[catalog.Provider]fixture {
	return map[catalog.Provider]fixture{
		catalog.AWS: {manifest: replay.Manifest{Provider: "aws", Real: replay.RealAll, Retrieved: "2026-11-30",
			Observed:        &replay.ObservedDates{Default: "2025-11-30", Regions: map[string]string{"cn-north-1": "2026-01-21"}},
			OfferProvenance: "spot.json", Sources: []string{"aws source"}},
			dir: fstest.MapFS{"spot.json": {Data: []byte(provenance)}}},
		catalog.Huawei: {manifest: replay.Manifest{Provider: "huawei", Real: replay.RealInstanceTypes, Retrieved: "2026-11-30",
			InstanceSource: "Open Telekom Cloud's GPU flavor tables (opentelekomcloud-docs)", Sources: []string{"otc"},
			Reported: []replay.ReportedPrice{{InstanceType: "p2v.16xlarge.8", Region: "cn-north-4", Billing: "on_demand", Amount: "131.5",
				Currency: "CNY", Unit: "hour", Observed: "2026-07-13", Retrieved: "2026-12-01", Source: "reported, not from an API: ringochen06/deepjump"}}},
			dir: fstest.MapFS{}},
		catalog.Volcengine: {manifest: replay.Manifest{Provider: "volcengine", Real: replay.RealNone}, dir: fstest.MapFS{}},
	}
}

const spotProvenance = `[{"instance_type":"p5.48xlarge","region":"us-east-1","billing":"spot","source":"regional average of observed spot prices","price_min":"13.2182","price_max":"52.0766"}]`

func TestStamp_PublishesOnlyWhatIsReal(t *testing.T) {
	regions, err := catalog.LoadRegionTable(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	s := crawled()
	if err := stamp(s, manifests(spotProvenance), regions); err != nil {
		t.Fatal(err)
	}
	day := func(d string) time.Time { t, _ := time.Parse("2006-01-02", d); return t }
	if !s.TakenAt.Equal(day("2026-12-01")) {
		t.Errorf("taken_at %s, want the latest retrieval 2026-12-01", s.TakenAt)
	}
	byKey := map[string]catalog.Offer{}
	for _, o := range s.Offers {
		byKey[o.Key()] = o
	}
	spot := byKey["aws/p5.48xlarge/us-east-1/us-east-1a/spot"]
	if !spot.FetchedAt.Equal(day("2026-11-30")) || !spot.ObservedAt.Equal(day("2025-11-30")) || spot.Source != "regional average of observed spot prices" ||
		spot.PriceRange == nil || spot.PriceRange.Min.String() != "13.2182" || spot.PriceRange.Max.String() != "52.0766" {
		t.Errorf("aws spot = %+v", spot)
	}
	if china := byKey["aws/g3.4xlarge/cn-north-1//on_demand"]; !china.ObservedAt.Equal(day("2026-01-21")) {
		t.Errorf("AWS China observed %s, want 2026-01-21", china.ObservedAt)
	}
	reported, ok := byKey["huawei/p2v.16xlarge.8/cn-north-4//on_demand"]
	if !ok || !reported.Reported || !reported.ObservedAt.Equal(day("2026-07-13")) || !reported.FetchedAt.Equal(day("2026-12-01")) || reported.Availability != catalog.Unknown {
		t.Errorf("reported offer = %+v (found %v)", reported, ok)
	}
	if _, ok := byKey["huawei/p2v.16xlarge.8/ap-southeast-1//on_demand"]; ok {
		t.Error("the made-up Huawei price was published")
	}
	for _, o := range s.Offers {
		if o.Provider == catalog.Volcengine {
			t.Errorf("Volcano Engine offer published: %s", o.Key())
		}
	}
	for _, it := range s.Instances {
		switch it.Provider {
		case catalog.Volcengine:
			t.Errorf("Volcano Engine type published: %s", it.ID)
		case catalog.Huawei:
			if !strings.HasPrefix(it.Source, "Open Telekom Cloud") {
				t.Errorf("Huawei spec source %q", it.Source)
			}
		}
	}
	if len(s.Placements) != 0 {
		t.Errorf("made-up Huawei stock published: %v", s.Placements)
	}
	var huaweiRegions []string
	for _, r := range s.Regions {
		if r.Provider == catalog.Huawei {
			huaweiRegions = append(huaweiRegions, r.ID+" "+r.NameEN)
		}
	}
	if len(huaweiRegions) != 1 || huaweiRegions[0] != "cn-north-4 CN North-Beijing4" {
		t.Errorf("Huawei regions %v, want only the reported price's", huaweiRegions)
	}
	for _, c := range s.Coverage {
		switch c.Provider {
		case catalog.Volcengine:
			if c.Status != catalog.CoverageSkipped || c.Message != catalog.NoPublicData || c.Regions != 0 || !c.LastOK.IsZero() {
				t.Errorf("volcengine coverage %+v", c)
			}
		case catalog.Huawei:
			if c.Status != catalog.CoveragePartial || !strings.Contains(c.Message, "one reported price") {
				t.Errorf("huawei coverage %+v", c)
			}
		}
	}
}

func TestStamp_Errors(t *testing.T) {
	regions, err := catalog.LoadRegionTable(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		provenance string
		change     func(map[catalog.Provider]fixture)
		want       string
	}{
		"band misses the price": {provenance: strings.Replace(spotProvenance, "52.0766", "20", 1),
			want: `band "13.2182".."20" does not hold the price 28.106467`},
		"nothing to label": {provenance: strings.Replace(spotProvenance, "us-east-1", "eu-west-1", 1),
			want: "no spot offer of p5.48xlarge in eu-west-1 to label"},
		"reported type unknown": {provenance: spotProvenance, change: func(m map[catalog.Provider]fixture) {
			f := m[catalog.Huawei]
			f.manifest.Reported[0].InstanceType = "p9.huge"
			m[catalog.Huawei] = f
		}, want: "reported price of p9.huge in cn-north-4: no such instance type"},
		"bad real": {provenance: spotProvenance, change: func(m map[catalog.Provider]fixture) {
			f := m[catalog.AWS]
			f.manifest.Real = "some"
			m[catalog.AWS] = f
		}, want: `real "some" is not one of`},
	} {
		t.Run(name, func(t *testing.T) {
			m := manifests(tc.provenance)
			if tc.change != nil {
				tc.change(m)
			}
			err := stamp(crawled(), m, regions)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
