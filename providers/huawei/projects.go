package huawei

import (
	"context"

	iammodel "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/iam/v3/model"
)

// listProjects returns the account's projects by name (a region's default project
// is named after the region) with one IAM KeystoneListProjects call. This is what
// the SDK does itself, one region at a time, when a client is built with a region
// and no project id; doing it here keeps it to one call and behind the iam
// endpoint override.
func (a *Adapter) listProjects(ctx context.Context) (map[string]string, error) {
	var resp *iammodel.KeystoneListProjectsResponse
	err := a.retry.Do(ctx, func() error {
		var err error
		resp, err = a.iam.KeystoneListProjects(&iammodel.KeystoneListProjectsRequest{})
		return err
	})
	if err != nil {
		return nil, a.errs.Wrap(err, "list projects (iam KeystoneListProjects)", "")
	}
	out := map[string]string{}
	if resp == nil || resp.Projects == nil {
		return out, nil
	}
	for _, p := range *resp.Projects {
		if p.Id != "" && p.Name != "" && p.Enabled {
			out[p.Name] = p.Id
		}
	}
	return out, nil
}
