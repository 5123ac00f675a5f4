package catalog

import (
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// testSnapshot is a small valid catalog: two AWS instance types with three
// offers, one placement, two providers' coverage. Tests change copies of it.
func testSnapshot() *Snapshot {
	at := time.Date(2025, 11, 30, 0, 0, 0, 0, time.UTC)
	return &Snapshot{
		Schema:  SchemaVersion,
		TakenAt: at,
		FX:      FXTable{Base: EUR, Date: "2025-11-28", Source: "ecb", Rates: map[Currency]decimal.Decimal{USD: Dec("1.1566"), CNY: Dec("8.1836")}},
		Coverage: []Coverage{
			{Provider: Alibaba, Status: CoverageOK, Regions: 1, LastOK: at},
			{Provider: AWS, Status: CoveragePartial, Regions: 1, LastOK: at, FailedRegions: []RegionFailure{{Region: "eu-west-1", Reason: "aws: throttled"}}},
		},
		Regions: []Region{{Provider: AWS, ID: "us-east-1", NameEN: "US East (N. Virginia)", Country: "US", Geo: "us-virginia"}},
		Instances: []InstanceType{
			{Provider: AWS, ID: "p5.48xlarge", Family: "p5", VCPUs: 192, MemoryGiB: Dec("2048"), Generation: "current", Source: "aws:ec2:DescribeInstanceTypes",
				Accelerators: []Accelerator{{Kind: KindGPU, Model: "nvidia-h100-sxm-80gb", Name: "H100", Count: 8, Share: Dec("1"), MemoryGiB: Dec("80")}}},
			{Provider: AWS, ID: "g6f.large", Family: "g6f", VCPUs: 2, MemoryGiB: Dec("8"), Generation: "current", Source: "aws:ec2:DescribeInstanceTypes",
				Accelerators: []Accelerator{{Kind: KindGPU, Model: "nvidia-l4-24gb", Name: "L4", Count: 1, Share: Dec("0.125"), MemoryGiB: Dec("2.7939453125")}}},
		},
		Placements: []Placement{{Provider: AWS, InstanceType: "p5.48xlarge", Region: "us-east-1", Zone: "us-east-1a", Status: Available}},
		Offers: []Offer{
			{Provider: AWS, InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: Reserved1yAllUpfront, Price: Price{Amount: Dec("0"), Currency: USD, Unit: PerHour, Upfront: DecPtr("59724.99672")}, Availability: Available, Source: "aws:pricing:GetProducts", FetchedAt: at},
			{Provider: AWS, InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: OnDemand, Price: Price{Amount: Dec("55.04"), Currency: USD, Unit: PerHour}, Availability: Available, Source: "aws:pricing:GetProducts", FetchedAt: at},
			{Provider: AWS, InstanceType: "g6f.large", Region: "us-east-1", Zone: "us-east-1b", Billing: Spot, Price: Price{Amount: Dec("0.1"), Currency: USD, Unit: PerHour}, Availability: Available, Source: "aws:ec2:DescribeSpotPriceHistory", FetchedAt: at},
		},
	}
}

// itoa formats a line number for the error messages the tests expect.
func itoa(n int) string { return decimal.NewFromInt(int64(n)).String() }

// decimalEqual compares decimals by value (1.5 equals 1.50), for cmp.Diff.
var decimalEqual = cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })
