package aws

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/pricing"

	"github.com/gpuatlas/gpuatlas/providers"
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

// The SDK's own retryer is off (one attempt per operation): its throttling
// and server errors share one attempt budget. retryingEC2 and retryingPricing
// retry each call (each page of a paginator) with providers.Retry instead,
// which gives throttling its own patience and counts faults and retries for
// the crawl's coverage, as for the other four clouds.

// retryingEC2 is the EC2 client with every call retried.
//
// It holds the SDK client's methods as func values, never the *ec2.Client
// itself: a struct converted to an interface makes its fields' types
// reachable by reflection, and once anything calls a method by name
// (html/template does), the linker keeps every exported method of every such
// type. *ec2.Client has about 700 (each with its serializers): holding it in
// a field cost the binary about 60 MB. TestBinary_NoUnusedSDKMethods in
// cmd/gpuatlas keeps it so.
type retryingEC2 struct {
	describeRegions               func(context.Context, *ec2.DescribeRegionsInput, ...func(*ec2.Options)) (*ec2.DescribeRegionsOutput, error)
	describeInstanceTypes         func(context.Context, *ec2.DescribeInstanceTypesInput, ...func(*ec2.Options)) (*ec2.DescribeInstanceTypesOutput, error)
	describeInstanceTypeOfferings func(context.Context, *ec2.DescribeInstanceTypeOfferingsInput, ...func(*ec2.Options)) (*ec2.DescribeInstanceTypeOfferingsOutput, error)
	describeSpotPriceHistory      func(context.Context, *ec2.DescribeSpotPriceHistoryInput, ...func(*ec2.Options)) (*ec2.DescribeSpotPriceHistoryOutput, error)
	retry                         providers.Retry
}

// newRetryingEC2 takes the calls the adapter makes from the SDK client.
func newRetryingEC2(c *ec2.Client, retry providers.Retry) retryingEC2 {
	return retryingEC2{
		describeRegions:               c.DescribeRegions,
		describeInstanceTypes:         c.DescribeInstanceTypes,
		describeInstanceTypeOfferings: c.DescribeInstanceTypeOfferings,
		describeSpotPriceHistory:      c.DescribeSpotPriceHistory,
		retry:                         retry,
	}
}

func (r retryingEC2) DescribeRegions(ctx context.Context, in *ec2.DescribeRegionsInput, opts ...func(*ec2.Options)) (*ec2.DescribeRegionsOutput, error) {
	return retried(ctx, r.retry, nil, "", r.describeRegions, in, opts)
}

func (r retryingEC2) DescribeInstanceTypes(ctx context.Context, in *ec2.DescribeInstanceTypesInput, opts ...func(*ec2.Options)) (*ec2.DescribeInstanceTypesOutput, error) {
	return retried(ctx, r.retry, nil, "", r.describeInstanceTypes, in, opts)
}

func (r retryingEC2) DescribeInstanceTypeOfferings(ctx context.Context, in *ec2.DescribeInstanceTypeOfferingsInput, opts ...func(*ec2.Options)) (*ec2.DescribeInstanceTypeOfferingsOutput, error) {
	return retried(ctx, r.retry, nil, "", r.describeInstanceTypeOfferings, in, opts)
}

func (r retryingEC2) DescribeSpotPriceHistory(ctx context.Context, in *ec2.DescribeSpotPriceHistoryInput, opts ...func(*ec2.Options)) (*ec2.DescribeSpotPriceHistoryOutput, error) {
	return retried(ctx, r.retry, nil, "", r.describeSpotPriceHistory, in, opts)
}

// retryingPricing is the Price List client with every call retried, each
// attempt waiting on GetProducts' own limit (Factory.APILimits) first. It
// holds the one call as a func value, as retryingEC2 does.
type retryingPricing struct {
	getProducts func(context.Context, *pricing.GetProductsInput, ...func(*pricing.Options)) (*pricing.GetProductsOutput, error)
	retry       providers.Retry
	limits      providers.APILimiters
}

func (r retryingPricing) GetProducts(ctx context.Context, in *pricing.GetProductsInput, opts ...func(*pricing.Options)) (*pricing.GetProductsOutput, error) {
	return retried(ctx, r.retry, r.limits, actionGetProducts, r.getProducts, in, opts)
}

// retried makes one SDK call with retries, waiting on the action's limit
// before each attempt.
func retried[In, Out, Opt any](ctx context.Context, r providers.Retry, limits providers.APILimiters, action string,
	call func(context.Context, In, ...func(Opt)) (Out, error), in In, opts []func(Opt)) (Out, error) {
	var out Out
	err := r.Do(ctx, func() error {
		if err := limits.Wait(ctx, action); err != nil {
			return err
		}
		var err error
		out, err = call(ctx, in, opts...)
		return err
	})
	return out, err
}
