package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// An import refuses, with file:line, a currency that the history's FX
// tables cannot convert (`snapshot --at` would fail on it later with a
// message about the snapshot) and dates after the import's clock.
func TestHistoryImport_RefusesUnconvertibleCurrencyAndFutureDates(t *testing.T) {
	now := stoppedAt(time.Date(2025, 7, 1, 12, 0, 0, 0, time.UTC))
	const header = "provider,instance_type,region,billing,price,currency,unit,includes,observed_at,observed_until,retrieved_at,source\n"
	const row = "aws,p5.48xlarge,us-east-1,on_demand,98.32,USD,hour,instance only,2025-06-01,,,https://example.org/x\n"
	for _, tc := range []struct{ name, row, want string }{
		{"currency", strings.Replace(row, "USD", "XYZ", 1), "obs.csv:3: currency XYZ: the history's FX table cannot convert it"},
		{"observed_at", strings.Replace(row, "2025-06-01", "2025-07-02", 1), "obs.csv:3: observed_at 2025-07-02T00:00:00Z: in the future"},
		{"observed_until", strings.Replace(row, "2025-06-01,,", "2025-06-01,2025-08-01,", 1), "obs.csv:3: observed_until 2025-08-01T00:00:00Z: in the future"},
		{"retrieved_at", strings.Replace(row, "2025-06-01,,", "2025-06-01,,2026-01-01", 1), "obs.csv:3: retrieved_at 2026-01-01T00:00:00Z: in the future"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			hist := filepath.Join(dir, "history.jsonl")
			obs := obsFile(t, dir, "obs.csv", header+row+tc.row)
			code, _, stderr := runAt(runHistory, now, nil, "import", obs, "--history", hist)
			if code != ExitError || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want 1 and %q:\n%s", code, tc.want, stderr)
			}
		})
	}
	// The same rows in the past and in USD are imported.
	dir := t.TempDir()
	obs := obsFile(t, dir, "obs.csv", header+row)
	if code, _, stderr := runAt(runHistory, now, nil, "import", obs, "--history", filepath.Join(dir, "h.jsonl")); code != ExitOK {
		t.Errorf("a good row: exit %d\n%s", code, stderr)
	}
}

// Two (here eight) imports into one history at the same time each land
// their records: the second reads the history after the first wrote it.
func TestHistoryImport_ConcurrentImportsLoseNothing(t *testing.T) {
	dir := t.TempDir()
	hist := filepath.Join(dir, "history.jsonl")
	const header = "provider,instance_type,region,billing,price,currency,unit,includes,observed_at,source\n"
	const n = 8
	files := make([]string, n)
	for i := range n {
		files[i] = obsFile(t, dir, fmt.Sprintf("obs%d.csv", i),
			header+fmt.Sprintf("aws,p5.48xlarge,us-east-%d,on_demand,98.32,USD,hour,instance only,2025-06-01,https://example.org/%d\n", i+1, i))
	}
	var wg sync.WaitGroup
	codes := make([]int, n)
	errs := make([]string, n)
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			codes[i], _, errs[i] = runCmd(runHistory, "import", files[i], "--history", hist)
		}()
	}
	close(start)
	wg.Wait()
	for i := range n {
		if codes[i] != ExitOK {
			t.Errorf("import %d: exit %d\n%s", i, codes[i], errs[i])
		}
	}
	h, err := catalog.ReadHistory(hist)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.ObservationCount(); got != n {
		t.Errorf("the history holds %d observations, want %d: concurrent imports lost records", got, n)
	}
}

// An import waits while another run (here a crawl's write, simulated) holds
// the history's lock, says so naming the lock and the holder's pid, and then
// reads what that run wrote; past the wait it fails clearly and writes
// nothing.
func TestHistoryImport_WaitsForTheLockAndRereads(t *testing.T) {
	dir := t.TempDir()
	hist := filepath.Join(dir, "history.jsonl")
	obs := obsFile(t, dir, "p5.csv", p5Observations)
	lock, err := catalog.Lock(hist, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var code int
	var stderr string
	go func() {
		defer close(done)
		code, _, stderr = runCmd(runHistory, "import", obs, "--history", hist)
	}()
	time.Sleep(300 * time.Millisecond)
	select {
	case <-done:
		t.Fatalf("the import did not wait for the lock: exit %d\n%s", code, stderr)
	default:
	}
	// The crawl writes its history while it holds the lock.
	h := catalog.NewHistory()
	if _, err := h.Append(diffSnapshot(0, "55.04")); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteHistory(hist, h); err != nil {
		t.Fatal(err)
	}
	if err := lock.Unlock(); err != nil {
		t.Fatal(err)
	}
	<-done
	wantWait := fmt.Sprintf("history import: waiting for %s.lock, held by process %d", hist, os.Getpid())
	if code != ExitOK || !strings.Contains(stderr, wantWait) {
		t.Fatalf("exit %d, want 0 and %q:\n%s", code, wantWait, stderr)
	}
	got, err := catalog.ReadHistory(hist)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Crawls()) != 1 || got.ObservationCount() != 4 {
		t.Errorf("the history holds %d crawls and %d observations, want the crawl's 1 and the import's 4", len(got.Crawls()), got.ObservationCount())
	}

	// Held past the wait: a clear failure, nothing written.
	defer func(d time.Duration) { lockWait = d }(lockWait)
	lockWait = 200 * time.Millisecond
	lock, err = catalog.Lock(hist, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = lock.Unlock() }()
	before, _ := os.ReadFile(hist)
	other := obsFile(t, dir, "other.csv", strings.ReplaceAll(p5Observations, "us-east-1", "us-west-2"))
	code, _, stderr = runCmd(runHistory, "import", other, "--history", hist)
	want := fmt.Sprintf("%s.lock is held by process %d (another gpuatlas run writing the same file) and was not released within 200ms", hist, os.Getpid())
	if code != ExitError || !strings.Contains(stderr, want) || !strings.Contains(stderr, "nothing was written") {
		t.Errorf("exit %d, want 1 and %q:\n%s", code, want, stderr)
	}
	if after, _ := os.ReadFile(hist); !bytes.Equal(before, after) {
		t.Error("the import that did not get the lock changed the history")
	}
}

// snapshot --out refuses a device, a FIFO or a link before any work, and
// build --out a symbolic link: neither replaces nor follows it.
func TestOutputPaths_RefuseWhatIsNotAFileOrFolder(t *testing.T) {
	dir := t.TempDir()
	hist := saveHistory(t, dir, diffSnapshot(0, "55.04"))
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ out, want string }{
		{"/dev/null", "snapshot: --out /dev/null: it is a character device, not a regular file: refusing to replace it"},
		{fifo, "snapshot: --out " + fifo + ": it is a named pipe, not a regular file"},
	} {
		code, _, stderr := runCmd(runSnapshot, "--at", "2025-11-30", "--history", hist, "--out", tc.out)
		if code != ExitError || !strings.Contains(stderr, tc.want) {
			t.Errorf("snapshot --out %s: exit %d, want 1 and %q:\n%s", tc.out, code, tc.want, stderr)
		}
	}
	target := filepath.Join(dir, "elsewhere")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "site")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(runBuild, "--out", link)
	if want := "build: --out " + link + ": it is a symbolic link: refusing to follow it"; code != ExitError || !strings.Contains(stderr, want) {
		t.Errorf("build --out LINK: exit %d, want 1 and %q:\n%s", code, want, stderr)
	}
	if entries, _ := os.ReadDir(target); len(entries) > 0 {
		t.Errorf("the build wrote where the link points: %v", entries)
	}
}

// A crawl and an import into one history: the crawl takes the history's lock
// around its read and write, so an import holding it makes the crawl wait,
// and the crawl then appends to what the import wrote.
func TestCrawl_TakesTheHistoryLock(t *testing.T) {
	srv := startAWS(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "catalog.json")
	hist := filepath.Join(dir, "history.jsonl")
	lock, err := catalog.Lock(hist, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The import, under the lock.
	h := catalog.NewHistory()
	obs, err := catalog.ParseObservations("p5.csv", []byte(p5Observations))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Import(obs, time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if err := catalog.WriteHistory(hist, h); err != nil {
		t.Fatal(err)
	}
	// Release the lock once the crawl has reached its writes: it takes the
	// snapshot's lock (out.lock appears) just before the history's. A fixed
	// sleep instead raced the crawl on a loaded machine.
	go func() {
		deadline := time.Now().Add(time.Minute)
		for time.Now().Before(deadline) {
			if _, err := os.Stat(out + ".lock"); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond)
		_ = lock.Unlock()
	}()
	stderr := crawl(t, srv, out, ExitOK, "--regions", "us-east-1")
	if want := "crawl: waiting for " + hist + ".lock"; !strings.Contains(stderr, want) {
		t.Errorf("the crawl did not wait for the history's lock (%q):\n%s", want, stderr)
	}
	got, err := catalog.ReadHistory(hist)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Crawls()) != 1 || got.ObservationCount() != 4 {
		t.Errorf("the history holds %d crawls and %d observations, want the crawl and the import's 4", len(got.Crawls()), got.ObservationCount())
	}
}

// history import, fit --models and tco --input refuse what is not a regular
// file before they open it (a FIFO nobody writes would block the open), and
// a sparse multi-GB file without reading it; each ends at once.
func TestReaders_RefuseEndlessInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse.csv")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(8 << 30); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	hist := filepath.Join(dir, "history.jsonl")
	for _, tc := range []struct {
		run  func(Env, []string) int
		args []string
		want string
	}{
		{runHistory, []string{"import", "/dev/zero", "--history", hist}, "/dev/zero: not a file (a character device)"},
		{runHistory, []string{"import", fifo, "--history", hist}, fifo + ": not a file (a named pipe)"},
		{runHistory, []string{"import", dir, "--history", hist}, dir + ": not a file (a folder)"},
		{runHistory, []string{"import", sparse, "--history", hist}, sparse + ": larger than 64 MiB"},
		{runHistory, []string{"import", "/proc/self/environ", "--history", hist}, "/proc/self/environ: refused"},
		{runFit, []string{"--model", "llama-3.1-8b", "--models", fifo}, fifo + ": not a file (a named pipe)"},
		{runFit, []string{"--model", "llama-3.1-8b", "--models", sparse}, sparse + ": larger than 10 MB"},
		{runTCO, []string{"--input", fifo}, fifo + ": not a file (a named pipe)"},
	} {
		done := make(chan struct{})
		var code int
		var stderr string
		go func() {
			defer close(done)
			code, _, stderr = runCmd(tc.run, tc.args...)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: still running after 10 s (blocked on the input)", tc.args)
		}
		if code != ExitError || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, want 1 and %q:\n%s", tc.args, code, tc.want, stderr)
		}
	}
	if _, err := os.Stat(hist); err == nil {
		t.Error("a refused import wrote the history")
	}
}
