package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBinary_SDKClientsOutOfReflection: the binary holds none of the SDK
// operations the adapters never call. html/template calls methods by name, so
// the linker keeps every exported method of every type that may reach an
// interface; an adapter that held its SDK client in an interface (or in a field
// of a struct that does) linked all of the client's operations (EC2 alone has
// about 700, with their serializers): the binary was 130 MB. Each symbol below
// is an operation of a client the adapters use but never call.
func TestBinary_SDKClientsOutOfReflection(t *testing.T) {
	bin := gpuatlasBinary(t) // a long-lane test: gpuatlasBinary skips in -short mode
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	syms := string(out)
	// The operations the adapters do call must be there, or the check below
	// proves nothing (a stripped binary has no symbols at all).
	for _, used := range []string{
		"github.com/aws/aws-sdk-go-v2/service/ec2.(*Client).DescribeInstanceTypes",
		"github.com/aliyun/alibaba-cloud-sdk-go/services/ecs.(*Client).DescribePrice",
		"google.golang.org/api/compute/v1.(*MachineTypesAggregatedListCall).Do",
	} {
		// A method value may be all that is left of a small method ("-fm").
		if !strings.Contains(syms, " "+used+"\n") && !strings.Contains(syms, " "+used+"-fm\n") {
			t.Fatalf("symbol %s missing: the binary's symbols cannot be read", used)
		}
	}
	for _, unused := range []string{
		"github.com/aws/aws-sdk-go-v2/service/ec2.(*Client).RunInstances",
		"github.com/aws/aws-sdk-go-v2/service/pricing.(*Client).DescribeServices",
		"github.com/aliyun/alibaba-cloud-sdk-go/services/ecs.(*Client).RunInstances",
		"github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/cvm/v20170312.(*Client).RunInstances",
		"github.com/huaweicloud/huaweicloud-sdk-go-v3/services/ecs/v2.(*EcsClient).CreateServers",
		"github.com/huaweicloud/huaweicloud-sdk-go-v3/services/bss/v2.(*BssClient).ListCustomerselfResourceRecords",
		"github.com/volcengine/volcengine-go-sdk/service/ecs.(*ECS).RunInstances",
		// Google Cloud's *compute.Service holds every service of the API:
		// held in a field of the adapter, it linked all 12,628 of their
		// symbols (providers/gcp's calls).
		"google.golang.org/api/compute/v1.(*InstancesService).Insert",
		"google.golang.org/api/compute/v1.(*MachineTypesService).Get",
		"google.golang.org/api/cloudbilling/v1.(*BillingAccountsService).Create",
	} {
		if strings.Contains(syms, " "+unused+"\n") {
			t.Errorf("the binary links %s, which no adapter calls: an SDK client is held where reflection can reach it", unused)
		}
	}
}
