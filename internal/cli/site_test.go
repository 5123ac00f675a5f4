package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// fakeSite is a Site that records what the commands hand it. The command
// line's own part of build, export and history export (flags, what it reads,
// what it writes where) is tested here with it; sitegen's output through the
// real wiring in cmd/gpuatlas (site_test.go).
type fakeSite struct {
	builds    []SiteInput
	exports   []string // "csv" or "json", one per call
	snapshots []*catalog.Snapshot
	histories []*catalog.History
	files     []HistoryFile // what HistoryParquet returns
}

func (f *fakeSite) site() Site {
	write := func(format string) func(io.Writer, *catalog.Snapshot) error {
		return func(w io.Writer, s *catalog.Snapshot) error {
			f.exports, f.snapshots = append(f.exports, format), append(f.snapshots, s)
			_, err := fmt.Fprintf(w, "%s of %d offers\n", format, len(s.Offers))
			return err
		}
	}
	return Site{
		Build: func(in SiteInput) (SiteStats, error) {
			f.builds = append(f.builds, in)
			return SiteStats{Pages: 2, Files: 3, Bytes: 4 << 20}, nil
		},
		WriteOffersCSV: write("csv"), WriteOffersJSON: write("json"),
		HistoryParquet: func(h *catalog.History) ([]HistoryFile, error) {
			f.histories = append(f.histories, h)
			return f.files, nil
		},
	}
}

// runSite runs a command with the environment variables env and site as its
// site generator.
func runSite(site Site, env map[string]string, run func(Env, []string) int, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }, Site: site}, args)
	return code, out.String(), errb.String()
}

// offerKeys are a snapshot's offers by key, in order.
func offerKeys(s *catalog.Snapshot) []string {
	out := make([]string, len(s.Offers))
	for i, o := range s.Offers {
		out[i] = o.Key()
	}
	return out
}

// Without a site generator wired in, build, export and history export fail
// with exit 1 and say so; nothing else needs one.
func TestSite_NoneWired(t *testing.T) {
	hist := saveHistory(t, t.TempDir(), diffSnapshot(0, "55.04"))
	for _, tt := range []struct {
		cmd  string
		args []string
	}{
		{"build", []string{"build", "--out", t.TempDir()}},
		{"export", []string{"export", "--format", "csv"}},
		{"export", []string{"export", "--format", "json"}},
		{"history export", []string{"history", "export", "--history", hist, "--out", t.TempDir()}},
	} {
		code, stdout, stderr := runCmd(Main, tt.args...)
		if code != ExitError || !strings.Contains(stderr, tt.cmd+": this program has no site generator") || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 naming the missing site generator", tt.args, code, stdout, stderr)
		}
	}
}

// export hands the snapshot to the writer of its format and flushes what it
// writes to stdout.
func TestExport_WritesThroughTheSite(t *testing.T) {
	for _, format := range []string{"csv", "json"} {
		f := &fakeSite{}
		code, stdout, stderr := runSite(f.site(), nil, Main, "export", "--format", format)
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		if len(f.exports) != 1 || f.exports[0] != format || len(f.snapshots[0].Offers) == 0 {
			t.Fatalf("%s: the site was asked for %v", format, f.exports)
		}
		if want := fmt.Sprintf("%s of %d offers\n", format, len(f.snapshots[0].Offers)); stdout != want {
			t.Errorf("%s: stdout %q, want %q", format, stdout, want)
		}
	}
}
