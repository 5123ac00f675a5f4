package tencent

import (
	"context"

	cvm "github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/cvm/v20170312"
)

// cvmAPI lists the CVM calls the adapter makes.
type cvmAPI interface {
	DescribeRegionsWithContext(context.Context, *cvm.DescribeRegionsRequest) (*cvm.DescribeRegionsResponse, error)
	DescribeZoneInstanceConfigInfosWithContext(context.Context, *cvm.DescribeZoneInstanceConfigInfosRequest) (*cvm.DescribeZoneInstanceConfigInfosResponse, error)
	InquiryPriceRunInstancesWithContext(context.Context, *cvm.InquiryPriceRunInstancesRequest) (*cvm.InquiryPriceRunInstancesResponse, error)
}

// cvmCalls is the SDK client's calls as func values, never the *cvm.Client
// itself: a client held in an interface keeps every exported method it has in
// the binary (see providers/aws's retryingEC2).
type cvmCalls struct {
	describeRegions                 func(context.Context, *cvm.DescribeRegionsRequest) (*cvm.DescribeRegionsResponse, error)
	describeZoneInstanceConfigInfos func(context.Context, *cvm.DescribeZoneInstanceConfigInfosRequest) (*cvm.DescribeZoneInstanceConfigInfosResponse, error)
	inquiryPriceRunInstances        func(context.Context, *cvm.InquiryPriceRunInstancesRequest) (*cvm.InquiryPriceRunInstancesResponse, error)
}

func newCVMCalls(c *cvm.Client) cvmCalls {
	return cvmCalls{
		describeRegions:                 c.DescribeRegionsWithContext,
		describeZoneInstanceConfigInfos: c.DescribeZoneInstanceConfigInfosWithContext,
		inquiryPriceRunInstances:        c.InquiryPriceRunInstancesWithContext,
	}
}

func (c cvmCalls) DescribeRegionsWithContext(ctx context.Context, r *cvm.DescribeRegionsRequest) (*cvm.DescribeRegionsResponse, error) {
	return c.describeRegions(ctx, r)
}

func (c cvmCalls) DescribeZoneInstanceConfigInfosWithContext(ctx context.Context, r *cvm.DescribeZoneInstanceConfigInfosRequest) (*cvm.DescribeZoneInstanceConfigInfosResponse, error) {
	return c.describeZoneInstanceConfigInfos(ctx, r)
}

func (c cvmCalls) InquiryPriceRunInstancesWithContext(ctx context.Context, r *cvm.InquiryPriceRunInstancesRequest) (*cvm.InquiryPriceRunInstancesResponse, error) {
	return c.inquiryPriceRunInstances(ctx, r)
}
