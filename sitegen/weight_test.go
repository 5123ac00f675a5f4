package sitegen

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/benchrow"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/internal/synth"
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
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
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
	real := datatest.Snapshot(t)
	type named struct {
		name string
		snap *catalog.Snapshot
	}
	snaps := []named{{"embedded", real}, {"generated", synth.Snapshot(10_000, 1)}}
	if p := os.Getenv("GPUATLAS_CATALOG"); p != "" {
		s, err := catalog.ReadSnapshot(p)
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, named{p, s})
	}
	for _, n := range snaps {
		name, snap := n.name, n.snap
		t.Run(filepath.Base(name), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "site")
			opts := testOptions(t, out)
			opts.Snapshot = snap
			build(t, opts)
			total, sizes := firstLoad(t, out)
			t.Logf("%d offers, %d instance types: first load %d bytes gzip %v", len(snap.Offers), len(snap.Instances), total, sizes)
			if total < 10_000 {
				t.Errorf("the first load of %d bytes is too small to hold the explorer: %v", total, sizes)
			}
			// A size target: reported by make bench (bench/run.sh), enforced only with GPUATLAS_PERF_TARGETS=1.
			if total > firstLoadBudget && os.Getenv("GPUATLAS_PERF_TARGETS") == "1" {
				t.Errorf("the explorer's first load is %d bytes compressed, over the budget of %d: %v", total, firstLoadBudget, sizes)
			}
			if rows := os.Getenv("GPUATLAS_BENCH_ROWS"); rows != "" {
				row := benchrow.Row{Stage: "page", Name: fmt.Sprintf("%s catalog (%d offers)", filepath.Base(name), len(snap.Offers)),
					Measure: "explorer first load, gzip", Value: fmt.Sprintf("%.1f KB", float64(total)/1000),
					Target: fmt.Sprintf("< %d KB", firstLoadBudget/1000), Met: benchrow.Check(total < firstLoadBudget),
					Note: "offers.html with its scripts, styles and data, gzip (default level): " + sizeList(sizes)}
				if err := benchrow.Append(rows, row); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// sizeList lists file sizes by name, largest first: "data/offers.json 80.0 KB, ...".
func sizeList(sizes map[string]int) string {
	names := make([]string, 0, len(sizes))
	for n := range sizes {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if sizes[names[i]] != sizes[names[j]] {
			return sizes[names[i]] > sizes[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %.1f KB", n, float64(sizes[n])/1000)
	}
	return strings.Join(parts, ", ")
}
