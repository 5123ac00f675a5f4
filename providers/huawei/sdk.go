package huawei

import (
	bss "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/bss/v2"
	bssmodel "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/bss/v2/model"
	ecs "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/ecs/v2"
	ecsmodel "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/ecs/v2/model"
	iam "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/iam/v3"
	iammodel "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/iam/v3/model"
)

// The SDK methods the adapter calls, one small interface per service client.
type (
	ecsAPI interface {
		ListFlavors(*ecsmodel.ListFlavorsRequest) (*ecsmodel.ListFlavorsResponse, error)
	}
	iamAPI interface {
		KeystoneListProjects(*iammodel.KeystoneListProjectsRequest) (*iammodel.KeystoneListProjectsResponse, error)
	}
	bssAPI interface {
		ListOnDemandResourceRatings(*bssmodel.ListOnDemandResourceRatingsRequest) (*bssmodel.ListOnDemandResourceRatingsResponse, error)
		ListRateOnPeriodDetail(*bssmodel.ListRateOnPeriodDetailRequest) (*bssmodel.ListRateOnPeriodDetailResponse, error)
	}
)

type flavor = ecsmodel.Flavor

func newListFlavorsRequest(limit int32, marker string) *ecsmodel.ListFlavorsRequest {
	req := &ecsmodel.ListFlavorsRequest{Limit: &limit}
	if marker != "" {
		req.Marker = &marker
	}
	return req
}

func flavorsOf(resp *ecsmodel.ListFlavorsResponse) []flavor {
	if resp == nil || resp.Flavors == nil {
		return nil
	}
	return *resp.Flavors
}

// The SDK clients' calls as func values, never the clients themselves: a
// client held in an interface keeps every exported method it has in the
// binary (see providers/aws's retryingEC2).
type (
	ecsCalls struct {
		listFlavors func(*ecsmodel.ListFlavorsRequest) (*ecsmodel.ListFlavorsResponse, error)
	}
	iamCalls struct {
		keystoneListProjects func(*iammodel.KeystoneListProjectsRequest) (*iammodel.KeystoneListProjectsResponse, error)
	}
	bssCalls struct {
		listOnDemandResourceRatings func(*bssmodel.ListOnDemandResourceRatingsRequest) (*bssmodel.ListOnDemandResourceRatingsResponse, error)
		listRateOnPeriodDetail      func(*bssmodel.ListRateOnPeriodDetailRequest) (*bssmodel.ListRateOnPeriodDetailResponse, error)
	}
)

func newECSCalls(c *ecs.EcsClient) ecsCalls { return ecsCalls{listFlavors: c.ListFlavors} }

func newIAMCalls(c *iam.IamClient) iamCalls {
	return iamCalls{keystoneListProjects: c.KeystoneListProjects}
}

func newBSSCalls(c *bss.BssClient) bssCalls {
	return bssCalls{
		listOnDemandResourceRatings: c.ListOnDemandResourceRatings,
		listRateOnPeriodDetail:      c.ListRateOnPeriodDetail,
	}
}

func (c ecsCalls) ListFlavors(r *ecsmodel.ListFlavorsRequest) (*ecsmodel.ListFlavorsResponse, error) {
	return c.listFlavors(r)
}

func (c iamCalls) KeystoneListProjects(r *iammodel.KeystoneListProjectsRequest) (*iammodel.KeystoneListProjectsResponse, error) {
	return c.keystoneListProjects(r)
}

func (c bssCalls) ListOnDemandResourceRatings(r *bssmodel.ListOnDemandResourceRatingsRequest) (*bssmodel.ListOnDemandResourceRatingsResponse, error) {
	return c.listOnDemandResourceRatings(r)
}

func (c bssCalls) ListRateOnPeriodDetail(r *bssmodel.ListRateOnPeriodDetailRequest) (*bssmodel.ListRateOnPeriodDetailResponse, error) {
	return c.listRateOnPeriodDetail(r)
}
