package alibaba

import (
	"github.com/aliyun/alibaba-cloud-sdk-go/sdk"
	"github.com/aliyun/alibaba-cloud-sdk-go/sdk/auth"
	"github.com/aliyun/alibaba-cloud-sdk-go/services/ecs"
)

// ecsAPI lists the ECS calls the adapter makes.
type ecsAPI interface {
	DescribeRegions(*ecs.DescribeRegionsRequest) (*ecs.DescribeRegionsResponse, error)
	DescribeInstanceTypes(*ecs.DescribeInstanceTypesRequest) (*ecs.DescribeInstanceTypesResponse, error)
	DescribeAvailableResource(*ecs.DescribeAvailableResourceRequest) (*ecs.DescribeAvailableResourceResponse, error)
	DescribePrice(*ecs.DescribePriceRequest) (*ecs.DescribePriceResponse, error)
}

// ecsCalls is the SDK client's calls as func values, never the *ecs.Client
// itself: a client held in an interface keeps every exported method it has in
// the binary (see providers/aws's retryingEC2).
type ecsCalls struct {
	describeRegions           func(*ecs.DescribeRegionsRequest) (*ecs.DescribeRegionsResponse, error)
	describeInstanceTypes     func(*ecs.DescribeInstanceTypesRequest) (*ecs.DescribeInstanceTypesResponse, error)
	describeAvailableResource func(*ecs.DescribeAvailableResourceRequest) (*ecs.DescribeAvailableResourceResponse, error)
	describePrice             func(*ecs.DescribePriceRequest) (*ecs.DescribePriceResponse, error)
}

func newECSCalls(c *ecs.Client) ecsCalls {
	return ecsCalls{
		describeRegions:           c.DescribeRegions,
		describeInstanceTypes:     c.DescribeInstanceTypes,
		describeAvailableResource: c.DescribeAvailableResource,
		describePrice:             c.DescribePrice,
	}
}

func (c ecsCalls) DescribeRegions(r *ecs.DescribeRegionsRequest) (*ecs.DescribeRegionsResponse, error) {
	return c.describeRegions(r)
}

func (c ecsCalls) DescribeInstanceTypes(r *ecs.DescribeInstanceTypesRequest) (*ecs.DescribeInstanceTypesResponse, error) {
	return c.describeInstanceTypes(r)
}

func (c ecsCalls) DescribeAvailableResource(r *ecs.DescribeAvailableResourceRequest) (*ecs.DescribeAvailableResourceResponse, error) {
	return c.describeAvailableResource(r)
}

func (c ecsCalls) DescribePrice(r *ecs.DescribePriceRequest) (*ecs.DescribePriceResponse, error) {
	return c.describePrice(r)
}

// newECSClient is ecs.NewClientWithOptions without its reflection: the SDK
// sets the client's endpoint data through reflect on an interface holding the
// *ecs.Client, which keeps every one of its hundreds of operations in the
// binary. The two fields are set here directly, to the same values.
func newECSClient(region string, conf *sdk.Config, cred auth.Credential) (*ecs.Client, error) {
	c := &ecs.Client{}
	if err := c.InitWithOptions(region, conf, cred); err != nil {
		return nil, err
	}
	c.EndpointMap = ecs.GetEndpointMap()
	c.EndpointType = ecs.GetEndpointType()
	return c, nil
}
