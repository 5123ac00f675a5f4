// Package registry lists every provider adapter GPU Atlas has, in one explicit
// slice (no registration from init), and wires in the data tables an adapter
// is given rather than reading a global (Tencent's GPU family table).
package registry

import (
	"fmt"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/alibaba"
	"github.com/gpuatlas/gpuatlas/providers/aws"
	"github.com/gpuatlas/gpuatlas/providers/azure"
	"github.com/gpuatlas/gpuatlas/providers/gcp"
	"github.com/gpuatlas/gpuatlas/providers/huawei"
	"github.com/gpuatlas/gpuatlas/providers/tencent"
	"github.com/gpuatlas/gpuatlas/providers/volcengine"
)

// All is every provider adapter, in display order.
var All = []providers.Factory{
	aws.Factory,
	alibaba.Factory,
	tencent.WithFamilies(data.FS),
	huawei.Factory,
	volcengine.Factory,
	azure.Factory,
	gcp.Factory,
}

// Select returns the factories named in a comma-separated list ("aws,alibaba");
// an empty list selects all.
func Select(list string) ([]providers.Factory, error) {
	if strings.TrimSpace(list) == "" {
		return All, nil
	}
	var out []providers.Factory
	seen := map[catalog.Provider]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		p, err := catalog.ParseProvider(name)
		if err != nil {
			return nil, err
		}
		f, ok := Lookup(p)
		if !ok {
			return nil, fmt.Errorf("provider %s has no adapter in this build", p)
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, f)
		}
	}
	return out, nil
}

// Lookup returns the factory of a provider.
func Lookup(p catalog.Provider) (providers.Factory, bool) {
	for _, f := range All {
		if f.ID == p {
			return f, true
		}
	}
	return providers.Factory{}, false
}
