package huawei

import (
	bssmodel "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/bss/v2/model"
	ecsmodel "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/ecs/v2/model"
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
