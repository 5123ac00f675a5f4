package pagetext

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// English prose is three Latin tokens in a row with a lower-case common word
// among them, whatever its markup; names, identifiers and figures are not.
func TestProseRuns(t *testing.T) {
	page := `<p>价格含 <span lang="en">40 GiB cloud_essd system disk</span></p><p>NVIDIA Tesla V100 SXM2 · Blackwell Server Edition</p>
<p>gpu:h100 region:cn-beijing p4d.24xlarge</p><p><span translate="no">MxNet, pytorch, dgl and PyTorch NVIDIA Release</span> 框架</p>
<p>估算价： estimate, not an observed price</p><p>精度 fp8，可用性：已上市</p>`
	got := ProseRuns(Readable(page))
	want := []string{"GiB cloud_essd system disk", "estimate not an observed price"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ProseRuns (-want +got):\n%s", diff)
	}
}
