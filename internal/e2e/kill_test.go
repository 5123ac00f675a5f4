package e2e

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/replayset"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// workspace is a data folder and a built site, as the nightly job has them.
type workspace struct {
	dir, catalog, history, site string
}

func newWorkspace(t *testing.T) workspace {
	dir := t.TempDir()
	return workspace{dir: dir, catalog: filepath.Join(dir, "data", "catalog.json"),
		history: filepath.Join(dir, "data", "history.jsonl"), site: filepath.Join(dir, "public")}
}

func (w workspace) crawlArgs(set *replayset.Running) []string {
	args := append([]string{"crawl", "--fx-file", filepath.Join(root, replayset.FXFile), "--no-rate-limit",
		"--regions", mainRegions, "--max-attempts", "2", "--request-timeout", "5s",
		"--out", w.catalog, "--history", w.history}, set.Args...)
	return args
}

func (w workspace) buildArgs() []string {
	return []string{"build", "--catalog", w.catalog, "--out", w.site}
}

// run runs the binary to the end and fails the test unless it exits with one
// of the codes.
func run(t *testing.T, bin string, env []string, args []string, codes ...int) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	for _, c := range codes {
		if c == code {
			return o.String(), e.String()
		}
	}
	t.Fatalf("gpuatlas %s: exit %d, want %v\n%s", args[0], code, codes, e.String())
	return "", ""
}

// treeState fingerprints a folder: the hash of every file's path and bytes, and
// the sorted file list.
func treeState(t *testing.T, dir string) (sum string, files []string) {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, rel)
		h.Write([]byte(rel + "\x00"))
		h.Write(b)
		return nil
	})
	if err != nil {
		t.Fatalf("read site %s: %v", dir, err)
	}
	sort.Strings(files)
	return hex.EncodeToString(h.Sum(nil)), files
}

// A crawl or a build killed at any moment leaves the previous snapshot,
// history and site whole and readable: each is byte-equal to before, or a
// complete new one. Short: 6 kills; GPUATLAS_STRESS=1: 100.
func TestKill_CrawlAndBuildLeaveDataWhole(t *testing.T) {
	bin := gpuatlasBinary(t)
	set := startReplays(t)
	env := childEnv(t, set.Env)
	w := newWorkspace(t)
	start := time.Now()
	run(t, bin, env, w.crawlArgs(set), 0)
	crawlTime := time.Since(start)
	run(t, bin, env, w.crawlArgs(set), 0) // a history with two crawls
	start = time.Now()
	run(t, bin, env, w.buildArgs(), 0)
	buildTime := time.Since(start)
	t.Logf("a whole crawl takes %s, a build %s", crawlTime.Round(time.Millisecond), buildTime.Round(time.Millisecond))

	n := 6
	if stress() {
		n = 100
	}
	rng := rand.New(rand.NewPCG(42, uint64(n)))
	killedMidway := 0
	for i := range n {
		op := "crawl"
		args := w.crawlArgs(set)
		full := crawlTime
		if i%2 == 1 {
			op, args, full = "build", w.buildArgs(), buildTime
		}
		prevCat, _ := os.ReadFile(w.catalog)
		prevHist, _ := os.ReadFile(w.history)
		prevSite, prevFiles := treeState(t, w.site)
		prevSnap, err := catalog.ReadSnapshot(w.catalog)
		if err != nil {
			t.Fatal(err)
		}
		delay := time.Duration(rng.Int64N(int64(full + full/4)))
		cmd, _ := startChild(t, bin, args, env)
		time.Sleep(delay)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		err = cmd.Wait()
		if err != nil {
			killedMidway++
		}

		// The snapshot: readable, and the old bytes or a complete newer one.
		cat, err := os.ReadFile(w.catalog)
		if err != nil {
			t.Fatalf("%d (%s killed after %s): %v", i, op, delay, err)
		}
		snap, err := catalog.DecodeSnapshot(w.catalog, cat)
		if err != nil {
			t.Fatalf("%d (%s killed after %s): snapshot unreadable: %v", i, op, delay, err)
		}
		if !bytes.Equal(cat, prevCat) && (op != "crawl" || !snap.TakenAt.After(prevSnap.TakenAt) || len(snap.Offers) != len(prevSnap.Offers)) {
			t.Fatalf("%d (%s killed after %s): the snapshot changed but is not a complete new crawl", i, op, delay)
		}
		// The history: readable, and the old bytes or one crawl longer.
		hb, _ := os.ReadFile(w.history)
		h, err := catalog.DecodeHistory(w.history, hb)
		if err != nil {
			t.Fatalf("%d (%s killed after %s): history unreadable: %v", i, op, delay, err)
		}
		if !bytes.Equal(hb, prevHist) {
			prevH, _ := catalog.DecodeHistory("previous", prevHist)
			if op != "crawl" || len(h.Crawls()) != len(prevH.Crawls())+1 {
				t.Fatalf("%d (%s killed after %s): the history changed but is not one crawl longer", i, op, delay)
			}
		}
		// The site: index.html, and the old tree or a complete new one built
		// from the current snapshot.
		if _, err := os.Stat(filepath.Join(w.site, "index.html")); err != nil {
			t.Fatalf("%d (%s killed after %s): %v", i, op, delay, err)
		}
		sum, files := treeState(t, w.site)
		if sum != prevSite {
			// A complete new site is byte-identical to a build of the same
			// catalog and history that was not killed (builds are
			// deterministic); its page list may differ from the previous
			// site's, since a crawl adds a changes page.
			ref := filepath.Join(t.TempDir(), "reference")
			run(t, bin, env, []string{"build", "--catalog", w.catalog, "--history", w.history, "--out", ref}, 0)
			refSum, refFiles := treeState(t, ref)
			if op != "build" || sum != refSum {
				t.Fatalf("%d (%s killed after %s): the site is neither the previous one nor a complete new one (%d files; %d before; %d in a complete build)", i, op, delay, len(files), len(prevFiles), len(refFiles))
			}
		}
	}
	// Leftovers of killed runs (temporary files and folders beside the outputs)
	// must not stop the next crawl and build.
	leftovers := 0
	for _, d := range []string{filepath.Dir(w.catalog), w.dir} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp-") {
				leftovers++
			}
		}
	}
	run(t, bin, env, w.crawlArgs(set), 0)
	run(t, bin, env, w.buildArgs(), 0)
	if _, err := catalog.ReadSnapshot(w.catalog); err != nil {
		t.Fatal(err)
	}
	// The next crawl removed the temporary files of the killed runs beside
	// the snapshot and the history (their processes are gone).
	entries, _ := os.ReadDir(filepath.Dir(w.catalog))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") && e.Type().IsRegular() {
			t.Errorf("%s: a killed run's temporary file is still there after the next crawl", e.Name())
		}
	}
	t.Logf("%d kills (%d before the command finished); %d temporary files or folders left beside the outputs, which did not disturb the next crawl and build", n, killedMidway, leftovers)
}

// Ctrl-C (SIGINT) ends a crawl whose requests all hang within seconds, exit 1,
// and the previous snapshot and history are untouched.
func TestInterrupt_CrawlStopsPromptlyAndKeepsSnapshot(t *testing.T) {
	bin := gpuatlasBinary(t)
	set := startReplays(t)
	env := childEnv(t, set.Env)
	w := newWorkspace(t)
	run(t, bin, env, w.crawlArgs(set), 0)
	before, _ := os.ReadFile(w.catalog)
	hBefore, _ := os.ReadFile(w.history)
	for _, srv := range set.Servers {
		srv.Fault = faulttest.Never(func(replay.Request) bool { return true }, 5*time.Second)
	}
	args := w.crawlArgs(set)
	args = append(args, "--request-timeout", "60s")
	cmd, stderr := startChild(t, bin, args, env)
	time.Sleep(700 * time.Millisecond)
	sent := time.Now()
	_ = cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("crawl still running 10s after SIGINT:\n%s", stderr.String())
	}
	took := time.Since(sent)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("exit %v, want 1:\n%s", err, stderr.String())
	}
	if took > 3*time.Second {
		t.Errorf("crawl took %s to stop after SIGINT, want under 3s", took)
	}
	if !strings.Contains(stderr.String(), "cancelled") || !strings.Contains(stderr.String(), "untouched") {
		t.Errorf("stderr does not say the crawl was cancelled and the snapshot untouched:\n%s", stderr.String())
	}
	after, _ := os.ReadFile(w.catalog)
	hAfter, _ := os.ReadFile(w.history)
	if !bytes.Equal(before, after) || !bytes.Equal(hBefore, hAfter) {
		t.Error("the interrupted crawl changed the snapshot or the history")
	}
	t.Logf("stopped %s after SIGINT", took.Round(time.Millisecond))
}

// startChild starts bin with args in env, its stderr kept in the buffer it
// returns.
func startChild(t *testing.T, bin string, args, env []string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stderr
}
