package sitegen

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/sitegen/sitegentest"
)

// firstLoadBudget is what the explorer may weigh on a first visit, compressed:
// the page, its stylesheet and scripts, and the data the script fetches.
const firstLoadBudget = 250_000

func gzipSize(t testing.TB, b []byte) int {
	t.Helper()
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	w.Close()
	return buf.Len()
}

var assetRef = regexp.MustCompile(`(?:href|src)="/((?:static|data)/[^"?]+)`)

// firstLoad returns the gzip size of offers.html and of every file it loads
// (stylesheet, scripts) or its script fetches (data/offers.json), by file.
func firstLoad(t *testing.T, site string) (int, map[string]int) {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(site, "offers.html"))
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int{"offers.html": gzipSize(t, page)}
	files := []string{offersDataPath}
	for _, m := range assetRef.FindAllStringSubmatch(string(page), -1) {
		if strings.HasSuffix(m[1], ".css") || strings.HasSuffix(m[1], ".js") {
			files = append(files, m[1])
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(site, f))
		if err != nil {
			t.Fatal(err)
		}
		sizes[f] = gzipSize(t, b)
	}
	total := 0
	for _, n := range sizes {
		total += n
	}
	return total, sizes
}

// TestExplorer_FirstLoadWeight builds a realistic catalog of about 10,000 offers
// and checks the explorer's first load stays under budget, compressed. With
// GPUATLAS_CATALOG set to a snapshot file, that catalog is measured too.
func TestExplorer_FirstLoadWeight(t *testing.T) {
	snaps := map[string]*catalog.Snapshot{"generated": sitegentest.Snapshot(10_000, 1)}
	if p := os.Getenv("GPUATLAS_CATALOG"); p != "" {
		s, err := catalog.ReadSnapshot(p)
		if err != nil {
			t.Fatal(err)
		}
		snaps[p] = s
	}
	for name, snap := range snaps {
		t.Run(filepath.Base(name), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "site")
			opts := testOptions(t, out)
			opts.Snapshot = snap
			build(t, opts)
			total, sizes := firstLoad(t, out)
			t.Logf("%d offers, %d instance types: first load %d bytes gzip %v", len(snap.Offers), len(snap.Instances), total, sizes)
			// A size target: enforced by bench/site.sh (GPUATLAS_PERF_TARGETS=1).
			if total > firstLoadBudget && os.Getenv("GPUATLAS_PERF_TARGETS") == "1" {
				t.Errorf("the explorer's first load is %d bytes compressed, over the budget of %d: %v", total, firstLoadBudget, sizes)
			}
		})
	}
}
