// Package synth makes up large catalogs and histories for the size and speed
// tests and benchmarks (`make bench`): the shape of a full crawl of every
// provider (instance types, regions, zones, every billing kind, CNY and USD
// prices, suspect offers) and years of daily price changes, made up
// deterministically from a seed.
//
// None of it is real. Every instance type and offer is marked synthetic, its
// source names this package, and nothing here is ever written under data/: the
// real catalog comes only from the providers' recorded responses.
package synth

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// gpuKinds are the accelerators the made-up types carry, with memory per device
// and a rough on-demand USD price per GPU-hour to scale prices from.
var gpuKinds = []struct {
	model, name string
	mem         int64
	usd         float64
	nvlink      bool
}{
	{"nvidia-h100-sxm-80gb", "H100", 80, 6.9, true},
	{"nvidia-h200-sxm-141gb", "H200", 141, 7.9, true},
	{"nvidia-a100-sxm-80gb", "A100", 80, 3.9, true},
	{"nvidia-a100-sxm-40gb", "A100", 40, 2.9, true},
	{"nvidia-a10-24gb", "NVIDIA A10", 24, 1.1, false},
	{"nvidia-a10g-24gb", "A10G", 24, 1.0, false},
	{"nvidia-l4-24gb", "L4", 24, 0.8, false},
	{"nvidia-l40s-48gb", "L40S", 48, 1.9, false},
	{"nvidia-l20-48gb", "NVIDIA L20", 48, 1.4, false},
	{"nvidia-t4-16gb", "T4", 16, 0.5, false},
	{"nvidia-v100-sxm2-32gb", "V100", 32, 2.4, true},
	{"nvidia-h20-96gb", "NVIDIA H20", 96, 3.1, true},
	{"nvidia-b200-180gb", "B200", 180, 11.5, true},
}

type providerShape struct {
	p        catalog.Provider
	currency catalog.Currency
	regions  int
	zones    int
	billing  []catalog.BillingKind
	prefix   string
}

var shapes = []providerShape{
	{catalog.AWS, catalog.USD, 17, 3, []catalog.BillingKind{catalog.OnDemand, catalog.Spot, catalog.Reserved1yNoUpfront, catalog.Reserved1yAllUpfront, catalog.Reserved3yNoUpfront, catalog.Reserved3yAllUpfront}, "p"},
	{catalog.Alibaba, catalog.CNY, 14, 3, []catalog.BillingKind{catalog.OnDemand, catalog.Spot, catalog.SubscriptionMonth, catalog.SubscriptionYear}, "ecs.gn"},
	{catalog.Tencent, catalog.CNY, 10, 3, []catalog.BillingKind{catalog.OnDemand, catalog.Spot, catalog.SubscriptionMonth}, "GN"},
	{catalog.Huawei, catalog.CNY, 6, 2, []catalog.BillingKind{catalog.OnDemand, catalog.SubscriptionMonth, catalog.SubscriptionYear}, "p"},
	{catalog.Volcengine, catalog.CNY, 4, 2, []catalog.BillingKind{catalog.OnDemand, catalog.SubscriptionMonth}, "ecs.gni"},
	{catalog.Azure, catalog.USD, 12, 3, []catalog.BillingKind{catalog.OnDemand, catalog.Spot, catalog.Reserved1yNoUpfront, catalog.Reserved3yNoUpfront}, "Standard_NC"},
	{catalog.GCP, catalog.USD, 10, 3, []catalog.BillingKind{catalog.OnDemand, catalog.Spot}, "a3-highgpu-"},
}

var countries = []struct{ country, city, en, zh string }{
	{"US", "Ashburn", "US East (N. Virginia)", "美国东部（弗吉尼亚北部）"},
	{"US", "Portland", "US West (Oregon)", "美国西部（俄勒冈）"},
	{"CN", "Beijing", "China (Beijing)", "华北（北京）"},
	{"CN", "Shanghai", "China (Shanghai)", "华东（上海）"},
	{"CN", "Hangzhou", "China (Hangzhou)", "华东（杭州）"},
	{"CN", "Guangzhou", "China (Guangzhou)", "华南（广州）"},
	{"SG", "Singapore", "Singapore", "新加坡"},
	{"JP", "Tokyo", "Japan (Tokyo)", "日本（东京）"},
	{"DE", "Frankfurt", "Europe (Frankfurt)", "欧洲（法兰克福）"},
	{"HK", "Hong Kong", "China (Hong Kong)", "中国香港"},
	{"IN", "Mumbai", "India (Mumbai)", "印度（孟买）"},
	{"BR", "São Paulo", "South America (São Paulo)", "南美洲（圣保罗）"},
	{"GB", "London", "Europe (London)", "欧洲（伦敦）"},
	{"KR", "Seoul", "South Korea (Seoul)", "韩国（首尔）"},
	{"AU", "Sydney", "Australia (Sydney)", "澳大利亚（悉尼）"},
	{"ID", "Jakarta", "Indonesia (Jakarta)", "印度尼西亚（雅加达）"},
	{"AE", "Dubai", "Middle East (UAE)", "中东（阿联酋）"},
}

// Source is the source every made-up record names.
const Source = "synthetic: made up by internal/synth for tests and benchmarks"

// Taken is when the snapshots of Snapshot are taken.
var Taken = time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)

// Snapshot returns a valid snapshot with about the given number of offers spread
// over every provider in the proportions of a real crawl (AWS about half), taken
// at Taken. The same arguments always give the same snapshot.
func Snapshot(offers int, seed uint64) *catalog.Snapshot {
	return SnapshotAt(offers, seed, Taken)
}

// SnapshotAt is Snapshot taken at the given time.
func SnapshotAt(offers int, seed uint64, taken time.Time) *catalog.Snapshot {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s := &catalog.Snapshot{
		Schema: catalog.SchemaVersion, TakenAt: taken,
		FX: catalog.FXTable{Base: catalog.USD, Date: "2026-11-28", Source: Source,
			Rates: map[catalog.Currency]decimal.Decimal{catalog.USD: decimal.NewFromInt(1), catalog.CNY: catalog.Dec("7.1")}},
	}
	share := []float64{0.46, 0.23, 0.12, 0.06, 0.05, 0.04, 0.04} // AWS about half, as a real crawl
	for pi, sh := range shapes {
		want := int(float64(offers) * share[pi])
		s.Coverage = append(s.Coverage, catalog.Coverage{Provider: sh.p, Status: catalog.CoverageOK, Regions: sh.regions,
			LastOK: taken.Add(-20 * time.Minute), Synthetic: true})
		var regions []catalog.Region
		for r := 0; r < sh.regions; r++ {
			c := countries[(r+pi*3)%len(countries)]
			id := fmt.Sprintf("%s-%s-%d", lower2(c.country), lower(c.city), r/len(countries)+1)
			reg := catalog.Region{Provider: sh.p, ID: id, NameEN: c.en, NameZH: c.zh, Country: c.country, City: c.city, Geo: lower2(c.country) + "-" + lower(c.city)}
			regions = append(regions, reg)
			s.Regions = append(s.Regions, reg)
		}
		// Offers per type: every region × billing kind, spot per zone.
		perType := 0
		for range regions {
			perType += len(sh.billing) - 1
			for _, b := range sh.billing {
				if b == catalog.Spot {
					perType += sh.zones
				}
			}
			if !contains(sh.billing, catalog.Spot) {
				perType++
			}
		}
		types := max(1, want*10/(perType*7)) // about 70% of the region × billing grid is offered
		made := 0
		for ti := 0; made < want; ti++ {
			if ti > types*4 {
				break
			}
			g := gpuKinds[(ti*7+pi)%len(gpuKinds)]
			count := []int{1, 1, 2, 4, 8}[ti%5]
			share := decimal.NewFromInt(1)
			if ti%23 == 5 {
				share = catalog.Dec("0.25")
			}
			id := fmt.Sprintf("%s%d%s.%dxlarge%d", sh.prefix, ti%9+3, string(rune('a'+ti%7)), count*4, ti)
			t := catalog.InstanceType{
				Provider: sh.p, ID: id, Family: fmt.Sprintf("%s%d%s", sh.prefix, ti%9+3, string(rune('a'+ti%7))),
				VCPUs: count * []int{8, 12, 16, 24}[ti%4], MemoryGiB: decimal.NewFromInt(int64(count * []int{32, 64, 96, 128}[ti%4])),
				CPUArch: "x86_64", CPUVendor: []string{"Intel", "AMD"}[ti%2],
				Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Model: g.model, Name: g.name, Count: count,
					Share: share, MemoryGiB: decimal.NewFromInt(g.mem).Mul(share), MappingConfidence: "certain"}},
				Generation: "current", Source: Source, Synthetic: true,
			}
			if g.nvlink && count >= 4 {
				t.Interconnect = "nvlink"
			} else {
				t.Interconnect = "pcie"
			}
			if count >= 8 {
				gbps := decimal.NewFromInt(int64(count) * 400)
				t.NetworkGbps = &gbps
				t.Network = gbps.String() + " Gigabit"
				t.RDMA = map[catalog.Provider]string{catalog.AWS: "efa", catalog.Alibaba: "eRDMA"}[sh.p]
				if t.RDMA == "" {
					t.RDMA = "rdma"
				}
				t.LocalStorageGB = 30400
				t.LocalNVMe = true
			} else {
				t.Network = fmt.Sprintf("Up to %d Gigabit", 10*count)
			}
			s.Instances = append(s.Instances, t)
			base := g.usd * float64(count) * share.InexactFloat64()
			if sh.currency == catalog.CNY {
				base *= 7.1 * 0.85
			}
			for ri, reg := range regions {
				if rng.IntN(10) >= 7 {
					continue
				}
				regional := base * (0.9 + 0.05*float64(ri%5))
				for _, b := range sh.billing {
					o := catalog.Offer{Provider: sh.p, InstanceType: id, Region: reg.ID, Billing: b,
						Availability: catalog.Available, Source: Source,
						FetchedAt: taken.Add(-time.Duration(30+ri) * time.Minute), Synthetic: true}
					price := func(f float64, unit catalog.PriceUnit) catalog.Price {
						return catalog.Price{Amount: decimal.NewFromFloat(f).Round(4), Currency: sh.currency, Unit: unit}
					}
					switch b {
					case catalog.OnDemand:
						o.Price = price(regional, catalog.PerHour)
						for z := 0; z < sh.zones; z++ {
							o.Zones = append(o.Zones, fmt.Sprintf("%s%c", reg.ID, 'a'+z))
						}
						if sh.p == catalog.Alibaba {
							o.Includes = "40 GiB ESSD system disk"
						}
					case catalog.Spot:
						for z := 0; z < sh.zones; z++ {
							zo := o
							zo.Zone = fmt.Sprintf("%s%c", reg.ID, 'a'+z)
							zo.Price = price(regional*(0.3+0.1*rng.Float64()), catalog.PerHour)
							if rng.IntN(8) == 0 {
								zo.Availability = catalog.SoldOut
							}
							s.Offers = append(s.Offers, zo)
							made++
						}
						continue
					case catalog.Reserved1yNoUpfront:
						o.Price = price(regional*0.62, catalog.PerHour)
					case catalog.Reserved3yNoUpfront:
						o.Price = price(regional*0.42, catalog.PerHour)
					case catalog.Reserved1yAllUpfront:
						o.Price = price(0, catalog.PerHour)
						up := decimal.NewFromFloat(regional * 0.58 * 8760).Round(0)
						o.Price.Upfront = &up
					case catalog.Reserved3yAllUpfront:
						o.Price = price(0, catalog.PerHour)
						up := decimal.NewFromFloat(regional * 0.38 * 8760 * 3).Round(0)
						o.Price.Upfront = &up
					case catalog.SubscriptionMonth:
						o.Price = price(regional*730*0.7, catalog.PerMonth)
						o.Price.Amount = o.Price.Amount.Round(2)
					case catalog.SubscriptionYear:
						o.Price = price(regional*8760*0.58, catalog.PerYear)
						o.Price.Amount = o.Price.Amount.Round(2)
					}
					if rng.IntN(400) == 0 {
						o.Suspect = "price is 90% below the median of its family"
					}
					s.Offers = append(s.Offers, o)
					made++
				}
			}
		}
	}
	sort.Slice(s.Regions, func(i, j int) bool { return s.Regions[i].Key() < s.Regions[j].Key() })
	s.Sort()
	return s
}

func contains(bs []catalog.BillingKind, b catalog.BillingKind) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

func lower(s string) string {
	out := []rune{}
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			out = append(out, r+'a'-'A')
		case r >= 'a' && r <= 'z':
			out = append(out, r)
		case r == 'ã':
			out = append(out, 'a')
		}
	}
	return string(out)
}

func lower2(s string) string { return lower(s) }
