package volcengine

import (
	"github.com/volcengine/volcengine-go-sdk/service/billing"
	"github.com/volcengine/volcengine-go-sdk/service/ecs"
	"github.com/volcengine/volcengine-go-sdk/volcengine"
	"github.com/volcengine/volcengine-go-sdk/volcengine/request"
)

// The SDK methods the adapter calls.
type (
	ecsAPI interface {
		DescribeRegionsWithContext(volcengine.Context, *ecs.DescribeRegionsInput, ...request.Option) (*ecs.DescribeRegionsOutput, error)
		DescribeInstanceTypesWithContext(volcengine.Context, *ecs.DescribeInstanceTypesInput, ...request.Option) (*ecs.DescribeInstanceTypesOutput, error)
		DescribeAvailableResourceWithContext(volcengine.Context, *ecs.DescribeAvailableResourceInput, ...request.Option) (*ecs.DescribeAvailableResourceOutput, error)
		DescribeSpotPriceHistoryWithContext(volcengine.Context, *ecs.DescribeSpotPriceHistoryInput, ...request.Option) (*ecs.DescribeSpotPriceHistoryOutput, error)
	}
	billingAPI interface {
		QueryPriceForPayAsYouGoWithContext(volcengine.Context, *billing.QueryPriceForPayAsYouGoInput, ...request.Option) (*billing.QueryPriceForPayAsYouGoOutput, error)
		QueryPriceForSubscriptionWithContext(volcengine.Context, *billing.QueryPriceForSubscriptionInput, ...request.Option) (*billing.QueryPriceForSubscriptionOutput, error)
	}
)

// The SDK clients' calls as func values, never the clients themselves: a
// client held in an interface keeps every exported method it has in the
// binary (see providers/aws's retryingEC2).
type (
	ecsCalls struct {
		describeRegions           func(volcengine.Context, *ecs.DescribeRegionsInput, ...request.Option) (*ecs.DescribeRegionsOutput, error)
		describeInstanceTypes     func(volcengine.Context, *ecs.DescribeInstanceTypesInput, ...request.Option) (*ecs.DescribeInstanceTypesOutput, error)
		describeAvailableResource func(volcengine.Context, *ecs.DescribeAvailableResourceInput, ...request.Option) (*ecs.DescribeAvailableResourceOutput, error)
		describeSpotPriceHistory  func(volcengine.Context, *ecs.DescribeSpotPriceHistoryInput, ...request.Option) (*ecs.DescribeSpotPriceHistoryOutput, error)
	}
	billingCalls struct {
		queryPriceForPayAsYouGo   func(volcengine.Context, *billing.QueryPriceForPayAsYouGoInput, ...request.Option) (*billing.QueryPriceForPayAsYouGoOutput, error)
		queryPriceForSubscription func(volcengine.Context, *billing.QueryPriceForSubscriptionInput, ...request.Option) (*billing.QueryPriceForSubscriptionOutput, error)
	}
)

func newECSCalls(c *ecs.ECS) ecsCalls {
	return ecsCalls{
		describeRegions:           c.DescribeRegionsWithContext,
		describeInstanceTypes:     c.DescribeInstanceTypesWithContext,
		describeAvailableResource: c.DescribeAvailableResourceWithContext,
		describeSpotPriceHistory:  c.DescribeSpotPriceHistoryWithContext,
	}
}

func newBillingCalls(c *billing.BILLING) billingCalls {
	return billingCalls{
		queryPriceForPayAsYouGo:   c.QueryPriceForPayAsYouGoWithContext,
		queryPriceForSubscription: c.QueryPriceForSubscriptionWithContext,
	}
}

func (c ecsCalls) DescribeRegionsWithContext(ctx volcengine.Context, in *ecs.DescribeRegionsInput, o ...request.Option) (*ecs.DescribeRegionsOutput, error) {
	return c.describeRegions(ctx, in, o...)
}

func (c ecsCalls) DescribeInstanceTypesWithContext(ctx volcengine.Context, in *ecs.DescribeInstanceTypesInput, o ...request.Option) (*ecs.DescribeInstanceTypesOutput, error) {
	return c.describeInstanceTypes(ctx, in, o...)
}

func (c ecsCalls) DescribeAvailableResourceWithContext(ctx volcengine.Context, in *ecs.DescribeAvailableResourceInput, o ...request.Option) (*ecs.DescribeAvailableResourceOutput, error) {
	return c.describeAvailableResource(ctx, in, o...)
}

func (c ecsCalls) DescribeSpotPriceHistoryWithContext(ctx volcengine.Context, in *ecs.DescribeSpotPriceHistoryInput, o ...request.Option) (*ecs.DescribeSpotPriceHistoryOutput, error) {
	return c.describeSpotPriceHistory(ctx, in, o...)
}

func (c billingCalls) QueryPriceForPayAsYouGoWithContext(ctx volcengine.Context, in *billing.QueryPriceForPayAsYouGoInput, o ...request.Option) (*billing.QueryPriceForPayAsYouGoOutput, error) {
	return c.queryPriceForPayAsYouGo(ctx, in, o...)
}

func (c billingCalls) QueryPriceForSubscriptionWithContext(ctx volcengine.Context, in *billing.QueryPriceForSubscriptionInput, o ...request.Option) (*billing.QueryPriceForSubscriptionOutput, error) {
	return c.queryPriceForSubscription(ctx, in, o...)
}
