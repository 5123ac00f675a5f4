package huawei

import (
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// The standard fault cases (providers/faulttest.Suite) through the IAM, ECS and
// BSS clients: APIGW.0308 429, Ecs.0000 500, resets, stalls past the request
// timeout, cut and non-JSON bodies, a region that never answers, and a
// ListFlavors page that hands back the same marker.
func TestFaults(t *testing.T) {
	projects := projectIDs(t)
	s := harness.Faults(t, "cn-north-4", "ap-southeast-1")
	// ECS calls are scoped by project id; BSS inquiries name the region.
	s.InRegion = func(req replay.Request, region string) bool {
		return req.Region == region || req.Region == projects[region]
	}
	// A full page (the page size is 2 here) that is the same whatever the
	// marker: the next marker repeats.
	s.RepeatToken = func(t testing.TB, srv *replay.Server) func(replay.Request, int) *replay.Response {
		return func(req replay.Request, _ int) *replay.Response {
			if !strings.HasSuffix(req.Action, "/cloudservers/flavors") {
				return nil
			}
			return &replay.Response{Status: 200, ContentType: "application/json", Body: `{"flavors":[` +
				`{"id":"pi2.a","name":"pi2.a","vcpus":"8","ram":32768,"os_extra_specs":{"ecs:performancetype":"gpu","pci_passthrough:alias":"nvidia-t4:1"}},` +
				`{"id":"pi2.b","name":"pi2.b","vcpus":"8","ram":32768,"os_extra_specs":{"ecs:performancetype":"gpu","pci_passthrough:alias":"nvidia-t4:1"}}]}`}
		}
	}
	s.RepeatTarget = func(t testing.TB, srv *replay.Server) providers.Target {
		f := harness.Unlimited()
		f.New = func(cfg providers.Config) (providers.Provider, error) {
			p, err := New(cfg)
			if err == nil {
				p.(*Adapter).pageSize = 2
			}
			return p, err
		}
		return providers.Prepare(f, harness.Config(srv))
	}
	s.Run(t)
}
