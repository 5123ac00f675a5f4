package alibaba

import "github.com/aliyun/alibaba-cloud-sdk-go/services/ecs"

// ecsAPI lists the ECS calls the adapter makes.
type ecsAPI interface {
	DescribeRegions(*ecs.DescribeRegionsRequest) (*ecs.DescribeRegionsResponse, error)
	DescribeInstanceTypes(*ecs.DescribeInstanceTypesRequest) (*ecs.DescribeInstanceTypesResponse, error)
	DescribeAvailableResource(*ecs.DescribeAvailableResourceRequest) (*ecs.DescribeAvailableResourceResponse, error)
	DescribePrice(*ecs.DescribePriceRequest) (*ecs.DescribePriceResponse, error)
}
