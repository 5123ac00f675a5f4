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
