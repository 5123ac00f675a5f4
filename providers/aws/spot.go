package aws

import (
	"context"
	"fmt"
	"sort"
	"time"

	awsv2 "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// spotProduct is the spot price series of Linux instances in a VPC.
const spotProduct = "Linux/UNIX"

// spotPrices reads the current spot price of each described type in each zone.
// With StartTime set to now, DescribeSpotPriceHistory returns only the price in
// effect at that moment per type and zone, not the history.
func (p *Adapter) spotPrices(ctx context.Context, region string, names []string, now time.Time) ([]catalog.Offer, error) {
	in := &ec2.DescribeSpotPriceHistoryInput{
		ProductDescriptions: []string{spotProduct},
		StartTime:           awsv2.Time(now),
		MaxResults:          awsv2.Int32(1000),
	}
	for _, n := range names {
		in.InstanceTypes = append(in.InstanceTypes, types.InstanceType(n))
	}
	type key struct{ typ, zone string }
	type latest struct {
		at    time.Time
		price decimal.Decimal
	}
	prices := map[key]latest{}
	pages := ec2.NewDescribeSpotPriceHistoryPaginator(p.ec2, in)
	err := eachPage(ctx, pages, inRegion(region), func(page *ec2.DescribeSpotPriceHistoryOutput) (*string, error) {
		for _, sp := range page.SpotPriceHistory {
			k := key{string(sp.InstanceType), awsv2.ToString(sp.AvailabilityZone)}
			if k.typ == "" || k.zone == "" || sp.SpotPrice == nil {
				continue
			}
			price, err := decimal.NewFromString(*sp.SpotPrice)
			if err != nil || price.IsNegative() {
				return nil, fmt.Errorf("%s in %s: %q is not a price", k.typ, k.zone, *sp.SpotPrice)
			}
			at := awsv2.ToTime(sp.Timestamp)
			if prev, ok := prices[k]; ok && !at.After(prev.at) {
				continue
			}
			prices[k] = latest{at: at, price: price}
		}
		return page.NextToken, nil
	})
	if err != nil {
		return nil, p.errs.Wrap(err, "describe spot price history", region)
	}
	out := make([]catalog.Offer, 0, len(prices))
	for k, v := range prices {
		out = append(out, catalog.Offer{
			Provider: catalog.AWS, InstanceType: k.typ, Region: region, Zone: k.zone, Billing: catalog.Spot,
			Price:        catalog.Price{Amount: v.price, Currency: currencyOf(region), Unit: catalog.PerHour},
			Availability: catalog.Available, Source: sourceSpot, FetchedAt: now,
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out, nil
}
