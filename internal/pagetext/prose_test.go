package pagetext

import (
	"os"
	"path/filepath"
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

// CheckSite reads every page under the folder and ChineseProse the zh/ ones,
// naming each by its slashed path from the folder; other files are passed over.
func TestCheckSiteAndChineseProse(t *testing.T) {
	out := t.TempDir()
	for name, text := range map[string]string{
		"index.html":       `<p>GPU prices 价格</p>`,
		"zh/index.html":    `<p>价格 estimate, not an observed price</p>`,
		"zh/gpu/h100.html": `<p>价格</p>`,
		"zh/notes.txt":     `estimate, not an observed price`,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(out, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	zh, en, problems, err := CheckSite(out)
	if err != nil || zh != 2 || en != 1 {
		t.Fatalf("CheckSite: %d zh, %d en pages, %v; want 2, 1", zh, en, err)
	}
	want := []string{`index.html: Chinese on an English page: "PU prices 价格"`,
		`zh/index.html: English on a Chinese page: "estimate not an observed price"`}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("CheckSite (-want +got):\n%s", diff)
	}
	pages, found, err := ChineseProse(out)
	if err != nil || pages != 2 {
		t.Fatalf("ChineseProse: %d pages, %v; want 2", pages, err)
	}
	if diff := cmp.Diff([]Prose{{"zh/index.html", "estimate not an observed price"}}, found); diff != "" {
		t.Errorf("ChineseProse (-want +got):\n%s", diff)
	}
}
