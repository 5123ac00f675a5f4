package catalog

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuatlas/gpuatlas/internal/golden"
)

// Every file under testdata/benchmarks/broken breaks a rule; the whole list of
// messages is a golden file. A bad file never stops the others from loading.
func TestLoadBenchmarks_BrokenGolden(t *testing.T) {
	runs, probs := LoadBenchmarks([]string{"testdata/benchmarks/broken"}, benchSnapshot(), testWorkloads(t), testNow)
	got := strings.Join(problemStrings(probs), "\n") + "\n"
	golden.Check(t, filepath.Join("testdata", "benchmarks", "broken.golden"), []byte(got))
	// The valid rows of the broken folder still load: the good row of
	// malformed.csv, the first of duplicate.csv, the four of outlier.csv.
	var refs []string
	for _, r := range runs {
		refs = append(refs, r.Ref())
	}
	wantRefs := []string{
		"testdata/benchmarks/broken/duplicate.csv:2",
		"testdata/benchmarks/broken/malformed.csv:2",
		"testdata/benchmarks/broken/outlier.csv:2",
		"testdata/benchmarks/broken/outlier.csv:3",
		"testdata/benchmarks/broken/outlier.csv:4",
		"testdata/benchmarks/broken/outlier.csv:5",
	}
	if diff := cmp.Diff(wantRefs, refs); diff != "" {
		t.Errorf("loaded runs (-want +got):\n%s", diff)
	}
	if !HasErrors(probs) {
		t.Error("HasErrors = false")
	}
}

func TestLoadBenchmarks_MissingPath(t *testing.T) {
	_, probs := LoadBenchmarks([]string{"testdata/benchmarks/nope"}, benchSnapshot(), testWorkloads(t), testNow)
	want := []string{"testdata/benchmarks/nope: cannot read: no such file or directory"}
	if diff := cmp.Diff(want, problemStrings(probs)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// The committed seed uploads are valid against a catalog holding their instance
// types, and each cites its source. The clock is the day the published results
// were added (data/benchmarks/published); the small catalog lacks some of their
// GPU models, which only warns.
func TestSeedBenchmarks_Valid(t *testing.T) {
	added := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	runs, probs := LoadBenchmarks([]string{"../data/benchmarks"}, benchSnapshot(), testWorkloads(t), added)
	for _, p := range probs {
		if p.Severity == SeverityWarning && strings.Contains(p.Message, "no instance type in the catalog has GPU model") {
			continue
		}
		t.Error(p)
	}
	if len(runs) < 5 {
		t.Errorf("only %d seed runs", len(runs))
	}
	for _, r := range runs {
		if r.SourceURL == "" && !strings.Contains(r.Notes, "illustrative") {
			t.Errorf("%s: no source_url and not marked illustrative", r.Ref())
		}
	}
}

// uploadRow is one valid record under benchHeader.
const uploadRow = "Alice,2025-06-01,aws,g5.xlarge,us-east-1,1,llm-inference-8b,throughput,tokens/s,1200,true\n"

// An upload folder is read only inside itself, and only its regular files: a
// link out of it (to the environment of the process, to /dev/zero), a named
// pipe or a device is named and not read, nothing of what it would read is
// repeated, and the good upload beside them still loads.
func TestLoadBenchmarks_FolderSafety(t *testing.T) {
	t.Setenv("GPUATLAS_TEST_SECRET", "s3cr3t-value-never-shown")
	dir := t.TempDir()
	uploads := filepath.Join(dir, "uploads")
	if err := os.MkdirAll(filepath.Join(uploads, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(uploads, "good.csv"), benchHeader+uploadRow)
	write(t, filepath.Join(dir, "outside.csv"), benchHeader+strings.Replace(uploadRow, "06-01", "06-02", 1))
	links := map[string]string{
		"env.csv":            "/proc/self/environ",
		"zero.csv":           "/dev/zero",
		"outside.csv":        "../outside.csv",
		"sub/up.yaml":        "../../outside.csv",
		"inside.csv":         "good.csv",         // stays inside: read (a duplicate of good.csv:2)
		"dangling.csv":       "nothing-here.csv", // leads nowhere
		"linked-folder.yaml": "/proc/self",       // a link to a folder is not walked
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(uploads, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(uploads, "pipe.csv"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var runs []BenchmarkRun
	var probs []Problem
	go func() {
		defer close(done)
		runs, probs = LoadBenchmarks([]string{uploads}, benchSnapshot(), testWorkloads(t), testNow)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("LoadBenchmarks did not return: it waits on a pipe or reads an endless file")
	}
	got := strings.Join(problemStrings(probs), "\n")
	got = strings.ReplaceAll(got, filepath.ToSlash(uploads), "U")
	want := []string{
		"U/dangling.csv: cannot read: no such file or directory",
		"U/env.csv: not read: a symbolic link that leads out of its folder (uploads are read only inside the folder given)",
		"U/inside.csv:2: duplicate of the run at U/good.csv:2",
		"U/linked-folder.yaml: not read: a symbolic link that leads out of its folder (uploads are read only inside the folder given)",
		"U/outside.csv: not read: a symbolic link that leads out of its folder (uploads are read only inside the folder given)",
		"U/pipe.csv: not read: not a regular file (a named pipe)",
		"U/sub/up.yaml: not read: a symbolic link that leads out of its folder (uploads are read only inside the folder given)",
		"U/zero.csv: not read: a symbolic link that leads out of its folder (uploads are read only inside the folder given)",
	}
	if diff := cmp.Diff(want, strings.Split(got, "\n")); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if len(runs) != 1 || runs[0].Ref() != filepath.ToSlash(uploads)+"/good.csv:2" {
		t.Errorf("runs = %v, want the one of good.csv", runs)
	}
	if strings.Contains(got, "s3cr3t") || strings.Contains(got, "PATH=") {
		t.Errorf("a message repeats what a link out of the folder leads to:\n%s", got)
	}
}

// A file named on the command line is read the same way: a link out of its
// folder is not followed, and a file of /proc (which says it holds nothing
// and holds the environment) is refused without a word of what it holds.
func TestLoadBenchmarks_NamedFileSafety(t *testing.T) {
	t.Setenv("GPUATLAS_TEST_SECRET", "s3cr3t-value-never-shown")
	dir := t.TempDir()
	link := filepath.Join(dir, "env.csv")
	if err := os.Symlink("/proc/self/environ", link); err != nil {
		t.Fatal(err)
	}
	_, probs := LoadBenchmarks([]string{link, "/proc/self/environ", "/dev/zero"}, benchSnapshot(), testWorkloads(t), testNow)
	got := problemStrings(probs)
	for i := range got {
		got[i] = strings.ReplaceAll(got[i], filepath.ToSlash(dir), "D")
		got[i] = regexp.MustCompile(`holds [0-9]+ bytes`).ReplaceAllString(got[i], "holds N bytes")
	}
	sort.Strings(got)
	want := []string{
		"/dev/zero: not read: not a regular file (a character device)",
		"/proc/self/environ: not read: the file holds N bytes but reported 0 (a /proc or /sys file, or one being written)",
		"D/env.csv: not read: a symbolic link that leads out of its folder (uploads are read only inside the folder given)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if s := strings.Join(got, "\n"); strings.Contains(s, "s3cr3t") {
		t.Errorf("a message repeats the environment:\n%s", s)
	}
}

// Each upload is read to at most 10 MB and 20,000 records; what is over is
// named, and memory stays with what was read.
func TestLoadBenchmarks_Limits(t *testing.T) {
	dir := t.TempDir()
	big := make([]byte, MaxUploadBytes+1)
	copy(big, benchHeader)
	for i := len(benchHeader); i < len(big); i++ {
		big[i] = '\n'
	}
	write(t, filepath.Join(dir, "big.csv"), string(big))
	var many strings.Builder
	many.WriteString(benchHeader)
	for i := 0; i <= MaxUploadRecords; i++ {
		many.WriteString(uploadRow)
	}
	write(t, filepath.Join(dir, "many.csv"), many.String())
	_, probs := LoadBenchmarks([]string{dir}, nil, testWorkloads(t), testNow)
	var got []string
	for _, p := range probs {
		if !strings.Contains(p.Message, "duplicate") {
			got = append(got, strings.ReplaceAll(p.String(), filepath.ToSlash(dir), "D"))
		}
	}
	want := []string{
		"D/big.csv: larger than 10 MB",
		"D/many.csv:20002: more than 20000 records: the rest of the file is not read (split it into several files)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
