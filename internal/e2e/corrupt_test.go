package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/internal/cli"
)

func mainIn(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(cli.Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}, args)
	return code, errb.String()
}

// A corrupt or truncated catalog or history gives a clear error that names the
// file and the position, from every command that reads it, and no command
// replaces it.
func TestCorruptData_ClearErrorsAndFilesUntouched(t *testing.T) {
	set := startReplays(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if code, _, stderr := crawlMain(t, set, nil, "--out", good, "--no-history", "--regions", mainRegions); code != cli.ExitOK {
		t.Fatalf("crawl exit %d:\n%s", code, stderr)
	}
	gb, _ := os.ReadFile(good)
	cut := len(gb) * 2 / 3
	corruptions := map[string][]byte{
		"truncated":  gb[:cut],
		"malformed":  append(append([]byte(nil), gb[:cut]...), []byte("}garbage{\n")...),
		"wrong type": bytes.Replace(gb, []byte(`"vcpus":`), []byte(`"vcpus":"many",`+"\n"+`"x":`), 1),
		"empty":      {},
	}
	pos := regexp.MustCompile(`catalog\.json:\d+:\d+: `)
	for name, b := range corruptions {
		t.Run(name, func(t *testing.T) {
			d := t.TempDir()
			cat := filepath.Join(d, "catalog.json")
			writeFile(t, cat, b)
			checks := []struct {
				args []string
				code int
			}{
				{[]string{"build", "--catalog", cat, "--out", filepath.Join(d, "site")}, cli.ExitError},
				{[]string{"export", "--catalog", cat}, cli.ExitError},
				{[]string{"diff", cat, good}, 2},
			}
			for _, c := range checks {
				code, stderr := mainIn(t, c.args...)
				if code != c.code || !strings.Contains(stderr, cat) || (name != "empty" && !pos.MatchString(stderr)) {
					t.Errorf("%s: exit %d (want %d), stderr does not name %s with line:column:\n%s", c.args[0], code, c.code, cat, stderr)
				}
			}
			code, _, stderr := crawlMain(t, set, nil, "--out", cat, "--regions", mainRegions)
			if code != cli.ExitError || !strings.Contains(stderr, cat) || !strings.Contains(stderr, "nothing was crawled or written") {
				t.Errorf("crawl over a %s snapshot: exit %d, want 1 naming the file:\n%s", name, code, stderr)
			}
			if after, _ := os.ReadFile(cat); !bytes.Equal(after, b) {
				t.Errorf("crawl changed the %s snapshot", name)
			}
			if _, err := os.Stat(filepath.Join(d, "site")); err == nil {
				t.Error("build wrote a site from a corrupt snapshot")
			}
		})
	}

	// A corrupt history stops the crawl before anything is written.
	d := t.TempDir()
	cat, hist := filepath.Join(d, "catalog.json"), filepath.Join(d, "history.jsonl")
	if code, _, stderr := crawlMain(t, set, nil, "--out", cat, "--history", hist, "--regions", mainRegions); code != cli.ExitOK {
		t.Fatalf("crawl exit %d:\n%s", code, stderr)
	}
	hb, _ := os.ReadFile(hist)
	bad := append(append([]byte(nil), hb[:len(hb)-40]...), []byte("\n{\"offer\":oops}\n")...)
	writeFile(t, hist, bad)
	cb, _ := os.ReadFile(cat)
	code, _, stderr := crawlMain(t, set, nil, "--out", cat, "--history", hist, "--regions", mainRegions)
	if code != cli.ExitError || !regexp.MustCompile(regexp.QuoteMeta(hist)+`:\d+`).MatchString(stderr) {
		t.Errorf("crawl with a corrupt history: exit %d, want 1 naming %s:LINE:\n%s", code, hist, stderr)
	}
	if after, _ := os.ReadFile(cat); !bytes.Equal(after, cb) {
		t.Error("crawl with a corrupt history changed the snapshot")
	}
	if after, _ := os.ReadFile(hist); !bytes.Equal(after, bad) {
		t.Error("crawl rewrote the corrupt history")
	}
	code, stderr = mainIn(t, "snapshot", "--list", "--history", hist)
	if code != cli.ExitError || !strings.Contains(stderr, hist) {
		t.Errorf("snapshot --list: exit %d:\n%s", code, stderr)
	}
}
