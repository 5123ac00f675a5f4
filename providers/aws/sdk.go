package aws

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/pricing"
)

// ec2API lists the EC2 calls the adapter makes.
type ec2API interface {
	DescribeRegions(ctx context.Context, in *ec2.DescribeRegionsInput, optFns ...func(*ec2.Options)) (*ec2.DescribeRegionsOutput, error)
	ec2.DescribeInstanceTypesAPIClient
	ec2.DescribeInstanceTypeOfferingsAPIClient
	ec2.DescribeSpotPriceHistoryAPIClient
}

// pricingAPI lists the Price List calls the adapter makes.
type pricingAPI interface {
	pricing.GetProductsAPIClient
}
