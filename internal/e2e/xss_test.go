package e2e

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/sitegen"
	"github.com/gpuatlas/gpuatlas/templates"
)

// payloads are hostile strings a provider API or an upload could carry. Each
// has a character HTML escaping changes (<, >, ", ' or &), so none may appear
// verbatim in a page, a script or an SVG.
var payloads = []string{
	`<script>alert("xss-a")</script>`,
	`"><img src=x onerror=alert('xss-b')>`,
	`javascript:alert('xss-c')`,
	`'-alert('xss-d')-'`,
	`</script><script>alert('xss-e')</script>`,
	`=HYPERLINK("http://evil.example/xss-f","x")`,
	`+cmd|' /C calc'!A0 xss-g`,
	`-2+3+cmd|' /C calc'!A0 xss-h`,
	`@SUM(1+9)*cmd|' /C calc'!A0 xss-i`,
	`<svg onload=alert('xss-j')>`,
	`{{define "x"}}<b>xss-k</b>{{end}}`,
	`&lt;script&gt;alert('xss-l')&lt;/script&gt;`,
}

// hostileIDs are instance type names that would escape the output folder if
// used as paths.
var hostileIDs = []string{"../../x", "/etc/passwd", "a/b", "..", "nul\x00byte", strings.Repeat("long", 50), `..\..\win`, "./.hidden"}

// smallSnapshot is a slice of the embedded catalog: a few instance types of each
// provider with their offers, placements and regions.
func smallSnapshot(t testing.TB, perProvider int) *catalog.Snapshot {
	t.Helper()
	full := datatest.Snapshot(t)
	out := &catalog.Snapshot{Schema: full.Schema, TakenAt: full.TakenAt, FX: full.FX, Coverage: full.Coverage}
	keep := map[string]bool{}
	n := map[catalog.Provider]int{}
	for _, it := range full.Instances {
		if n[it.Provider] < perProvider && len(it.Accelerators) > 0 {
			n[it.Provider]++
			keep[it.Key()] = true
			out.Instances = append(out.Instances, it)
		}
	}
	regions := map[string]bool{}
	for _, o := range full.Offers {
		if keep[o.InstanceKey()] {
			out.Offers = append(out.Offers, o)
			regions[string(o.Provider)+"/"+o.Region] = true
		}
	}
	for _, p := range full.Placements {
		if keep[string(p.Provider)+"/"+p.InstanceType] {
			out.Placements = append(out.Placements, p)
		}
	}
	for _, r := range full.Regions {
		if regions[r.Key()] {
			out.Regions = append(out.Regions, r)
		}
	}
	return out
}

// poison writes a payload into every string field a provider fills, keeping
// the snapshot consistent (offers and placements follow renamed types and
// regions). ids, when set, are used as instance type ids first.
func poison(s *catalog.Snapshot, ids []string) {
	pick := func(i int) string { return payloads[i%len(payloads)] }
	rename := map[string]string{}
	for i := range s.Instances {
		it := &s.Instances[i]
		newID := pick(i) + fmt.Sprintf(" #%d", i)
		if i < len(ids) {
			newID = ids[i]
		}
		rename[it.Key()] = newID
		it.ID = newID
		it.Family = pick(i + 1)
		it.CPUArch = pick(i + 2)
		it.CPUVendor = pick(i + 3)
		it.Interconnect = pick(i + 4)
		it.Network = pick(i + 5)
		it.RDMA = pick(i + 6)
		it.Source = pick(i + 7)
		for j := range it.Accelerators {
			a := &it.Accelerators[j]
			a.Name = pick(i + j + 8)
			a.Manufacturer = pick(i + j + 9)
			a.MappingConfidence = pick(i + j + 10)
		}
	}
	regionRename := map[string]string{}
	for i := range s.Regions {
		r := &s.Regions[i]
		newID := fmt.Sprintf("%s-r%d", pick(i+3), i)
		regionRename[r.Key()] = newID
		r.ID, r.NameEN, r.NameZH, r.Country, r.City, r.Geo = newID, pick(i), pick(i+1), pick(i+2), pick(i+4), pick(i+5)
	}
	for i := range s.Offers {
		o := &s.Offers[i]
		o.InstanceType = rename[o.InstanceKey()]
		o.Region = regionRename[string(o.Provider)+"/"+o.Region]
		if o.Zone != "" {
			o.Zone = o.Region + pick(i) + "-z"
		}
		for j := range o.Zones {
			o.Zones[j] = pick(i + j)
		}
		o.Includes, o.Source, o.Suspect = pick(i+1), pick(i+2), pick(i+3)
	}
	for i := range s.Placements {
		p := &s.Placements[i]
		p.InstanceType = rename[string(p.Provider)+"/"+p.InstanceType]
		p.Region = regionRename[string(p.Provider)+"/"+p.Region]
		p.Zone = p.Region + pick(i) + "-z"
	}
	for i := range s.Coverage {
		c := &s.Coverage[i]
		c.Message = pick(i)
		c.Sources = []string{pick(i + 1), pick(i + 2)}
		c.FailedRegions = []catalog.RegionFailure{{Region: pick(i + 3), Reason: pick(i + 4)}}
		if c.Status == catalog.CoverageOK {
			c.Status = catalog.CoveragePartial
		}
	}
	s.Unmapped = []catalog.UnmappedAccelerator{{Provider: catalog.AWS, Name: pick(0), InstanceTypes: []string{pick(1), pick(2)}}}
	s.FX.Source = pick(5)
	s.Sort()
}

// hostileRuns are benchmark uploads with a payload in every free-text field, on
// the snapshot's first offer.
func hostileRuns(s *catalog.Snapshot, workload string) []catalog.BenchmarkRun {
	o := s.Offers[0]
	var runs []catalog.BenchmarkRun
	for i := range 3 {
		p := func(k int) string { return payloads[(i+k)%len(payloads)] }
		runs = append(runs, catalog.BenchmarkRun{
			File: "data/benchmarks/" + p(0) + ".csv", Line: i + 2, Submitter: p(1), RunDate: "2025-11-01",
			Provider: o.Provider, InstanceType: o.InstanceType, Region: o.Region, GPUCountUsed: 1,
			Workload: workload, Metric: p(2), Unit: p(3), Value: decimal.NewFromInt(1000), HigherIsBetter: true,
			Driver: p(4), CUDA: p(5), Framework: p(6), Image: p(7), SourceURL: "javascript:alert('xss-src')", Notes: p(8),
		})
	}
	// A published result on another system with the offer's GPU model and
	// count: its round, benchmark, scenario, system and submitter reach the
	// instance, GPU and workload pages, and the scenario names a page.
	for _, it := range s.Instances {
		a, ok := it.PrimaryAccelerator()
		if it.Key() != o.InstanceKey() || !ok {
			continue
		}
		p := func(k int) string { return payloads[k%len(payloads)] }
		runs = append(runs, catalog.BenchmarkRun{
			File: "data/benchmarks/published/" + p(0) + ".csv", Line: 9, Submitter: p(1), RunDate: "2025-11-01",
			GPUCountUsed: it.DeviceCount(), Workload: workload, Metric: p(2), Unit: p(3), Value: decimal.NewFromInt(1000), HigherIsBetter: true,
			Framework: p(6), SourceURL: "javascript:alert('xss-src')", Notes: p(8),
			Round: p(4), Benchmark: p(5), Scenario: p(6), System: p(7), AcceleratorModel: a.Model, AcceleratorCount: it.DeviceCount(), VendorTuned: true,
		})
	}
	return runs
}

func buildSite(t *testing.T, s *catalog.Snapshot, runs []catalog.BenchmarkRun, work []compare.WorkCost) string {
	t.Helper()
	testlane.Long(t, "builds a whole site")
	ref := datatest.Load(t, catalog.LoadGPUReference)
	out := filepath.Join(t.TempDir(), "site")
	testlane.Count("site-build", t.Name())
	if _, err := sitegen.Build(sitegen.Options{Snapshot: s, Reference: ref, Templates: templates.FS, OutDir: out,
		BaseURL: "/", SiteURL: "https://example.org", Benchmarks: runs, BenchmarkCosts: work}); err != nil {
		t.Fatal(err)
	}
	return out
}

// Every provider string and benchmark upload field reaches the built site
// escaped: no payload appears verbatim in any page, script, stylesheet, SVG or
// XML file; every JSON file parses; every CSV cell that a spreadsheet would
// run as a formula is defused.
func TestSite_HostileStringsAreEscapedEverywhere(t *testing.T) {
	s := smallSnapshot(t, 4)
	poison(s, nil)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	wl := datatest.Load(t, catalog.LoadWorkloads)
	ids := wl.IDs()
	// Uploads reach the site as runs (the benchmarks page, instance and GPU
	// pages) and as cost per unit of work (compare.CostPerWork).
	runs := hostileRuns(s, ids[0])
	work := compare.CostPerWork(s, runs, wl)
	site := buildSite(t, s, runs, work)
	checked := map[string]int{}
	err := filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(site, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		ext := filepath.Ext(p)
		checked[ext]++
		if bytes.Contains(b, []byte(`<section class="published"`)) {
			checked["published sections"]++
		}
		switch ext {
		case ".html", ".js", ".css", ".svg", ".xml", ".txt":
			for _, pl := range payloads {
				if bytes.Contains(b, []byte(pl)) {
					t.Errorf("%s holds the payload %q unescaped", rel, pl)
				}
			}
			for _, bad := range []string{"<script>alert", "<img src=x", "<svg onload", `href="javascript:`, `src="javascript:`, "href=javascript:"} {
				if bytes.Contains(b, []byte(bad)) {
					t.Errorf("%s holds %q", rel, bad)
				}
			}
		case ".json":
			if !json.Valid(b) {
				t.Errorf("%s is not valid JSON", rel)
			}
		case ".csv":
			rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
			if err != nil {
				t.Errorf("%s: %v", rel, err)
			}
			for i, row := range rows {
				for j, cell := range row {
					if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
						if _, err := decimal.NewFromString(cell); err != nil {
							t.Errorf("%s row %d column %d: formula cell %q", rel, i+1, j+1, cell)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked[".html"] == 0 || checked[".csv"] == 0 || checked["published sections"] == 0 {
		t.Fatalf("checked %v: no pages, no CSV or no published results", checked)
	}
	exts := make([]string, 0, len(checked))
	for e, n := range checked {
		exts = append(exts, fmt.Sprintf("%s %d", e, n))
	}
	sort.Strings(exts)
	t.Logf("files checked: %s; %d work costs from hostile uploads", strings.Join(exts, ", "), len(work))
}

// Hostile instance type names cannot write outside the output folder: every
// file lands under it, with a name of safe characters, and the same input
// gives the same paths.
func TestSite_HostileInstanceNamesStayInsideTheFolder(t *testing.T) {
	build := func() (string, []string) {
		s := smallSnapshot(t, 2*len(hostileIDs))
		poison(s, hostileIDs)
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		site := buildSite(t, s, nil, nil)
		var files []string
		_ = filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(site, p)
				files = append(files, filepath.ToSlash(rel))
			}
			return err
		})
		return site, files
	}
	site, files := build()
	parent := filepath.Dir(site)
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if e.Name() != "site" {
			t.Errorf("the build wrote %s beside the site folder", e.Name())
		}
	}
	for _, bad := range []string{"/etc/passwd", "x"} {
		if _, err := os.Stat(filepath.Join(parent, bad)); err == nil && bad != "x" {
			t.Errorf("wrote %s", bad)
		}
	}
	instancePages := 0
	for _, f := range files {
		for _, seg := range strings.Split(f, "/") {
			if seg == ".." || seg == "." || seg == "" || len(seg) > 200 || strings.ContainsAny(seg, "\x00\\:") || strings.HasPrefix(seg, ".") {
				t.Errorf("unsafe path %q", f)
			}
		}
		if strings.Contains(f, "instances/") {
			instancePages++
		}
	}
	if instancePages < len(hostileIDs) {
		t.Errorf("%d instance pages, want at least %d", instancePages, len(hostileIDs))
	}
	_, again := build()
	if strings.Join(files, "\n") != strings.Join(again, "\n") {
		t.Error("the same snapshot gave different paths (slugs are not stable)")
	}
}
