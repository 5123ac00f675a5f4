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
