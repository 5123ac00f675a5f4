package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func diffDay(d int) time.Time { return time.Date(2025, 11, 30+d, 6, 0, 0, 0, time.UTC) }

// diffSnapshot is a one-offer catalog crawled on day d with the given price.
func diffSnapshot(d int, price string) *catalog.Snapshot {
	at := diffDay(d)
	s := &catalog.Snapshot{
		Schema: catalog.SchemaVersion, TakenAt: at,
		Coverage:  []catalog.Coverage{{Provider: catalog.AWS, Status: catalog.CoverageOK, Regions: 1, LastOK: at}},
		Regions:   []catalog.Region{{Provider: catalog.AWS, ID: "us-east-1", NameEN: "US East (N. Virginia)"}},
		Instances: []catalog.InstanceType{{Provider: catalog.AWS, ID: "p5.48xlarge", Family: "p5", VCPUs: 192, MemoryGiB: catalog.Dec("2048"), Generation: "current", Source: "test"}},
		Offers: []catalog.Offer{{Provider: catalog.AWS, InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: catalog.OnDemand,
			Price: catalog.Price{Amount: catalog.Dec(price), Currency: catalog.USD, Unit: catalog.PerHour}, Availability: catalog.Available, Source: "test", FetchedAt: at}},
	}
	return s
}

func saveSnapshot(t *testing.T, dir, name string, s *catalog.Snapshot) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := catalog.WriteSnapshot(path, s); err != nil {
		t.Fatal(err)
	}
	return path
}

func saveHistory(t *testing.T, dir string, snaps ...*catalog.Snapshot) string {
	t.Helper()
	h := catalog.NewHistory()
	for _, s := range snaps {
		if _, err := h.Append(s); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "history.jsonl")
	if err := catalog.WriteHistory(path, h); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDiff_ExitCodes(t *testing.T) {
	dir := t.TempDir()
	a := saveSnapshot(t, dir, "a.json", diffSnapshot(0, "55.04"))
	same := saveSnapshot(t, dir, "same.json", diffSnapshot(1, "55.04"))
	b := saveSnapshot(t, dir, "b.json", diffSnapshot(1, "60.544"))
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{\"schema\": 1,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(dir, "list.json")
	if err := os.WriteFile(list, []byte("[]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"no changes", []string{a, same}, ExitOK, "No changes.", ""},
		{"changes", []string{a, b}, ExitError, "~ price p5.48xlarge us-east-1 on_demand: 55.04 USD/hour -> 60.544 USD/hour (+10.00%)", ""},
		{"flags after the files", []string{a, b, "--format", "markdown"}, ExitError, "| `p5.48xlarge` | `us-east-1` |  | on_demand | 55.04 USD/hour | 60.544 USD/hour | +10.00% |", ""},
		{"flags between the files", []string{a, "--format=json", b}, ExitError, `"change_percent": "10.00"`, ""},
		{"bad file", []string{a, bad}, ExitUsage, "", "bad.json:2:1: malformed JSON"},
		{"missing file", []string{a, filepath.Join(dir, "nope.json")}, ExitUsage, "", "nope.json: no such snapshot file"},
		// What is wrong in words, not a Go type ("struct { Schema *int ... }").
		{"a JSON list", []string{a, list}, ExitUsage, "", "gpuatlas: diff: NEW: " + list + ": not a GPU Atlas snapshot: the file holds a JSON list, not a JSON object\n"},
		// An endless file is refused at once.
		{"endless file", []string{"/dev/zero", a}, ExitUsage, "", "gpuatlas: diff: OLD: read snapshot: /dev/zero: not a file (a character device)\n"},
		{"one argument", []string{a}, ExitUsage, "", "want two catalogs"},
		{"three arguments", []string{a, b, a}, ExitUsage, "", "want two catalogs"},
		{"bad format", []string{a, b, "--format", "html"}, ExitUsage, "", `--format "html": want text, markdown or json`},
		{"bad flag", []string{"--colour", a, b}, ExitUsage, "", "flag provided but not defined"},
		{"help", []string{"--help"}, ExitOK, "Exit codes (as diff(1)): 0 no changes, 1 changes, 2 trouble.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(runDiff, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if !strings.Contains(stdout, tt.stdout) {
				t.Errorf("stdout does not contain %q:\n%s", tt.stdout, stdout)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderr, stderr)
			}
		})
	}
}

func TestDiff_FormatsMatchTheCatalogRenderers(t *testing.T) {
	dir := t.TempDir()
	old, cur := diffSnapshot(0, "55.04"), diffSnapshot(1, "49.536")
	a, b := saveSnapshot(t, dir, "a.json", old), saveSnapshot(t, dir, "b.json", cur)
	report := catalog.Diff(old, cur)
	js, err := report.JSON()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"text": report.Text(), "markdown": report.Markdown(catalog.DefaultMarkdownRows), "json": string(js)}
	for format, w := range want {
		code, stdout, stderr := runCmd(runDiff, "--format", format, a, b)
		if code != ExitError || stderr != "" {
			t.Errorf("%s: exit %d, stderr %q", format, code, stderr)
		}
		if diff := cmp.Diff(w, stdout); diff != "" {
			t.Errorf("%s output (-want +got):\n%s", format, diff)
		}
	}
	var doc struct {
		SchemaVersion int  `json:"schema_version"`
		Changed       bool `json:"changed"`
	}
	if err := json.Unmarshal(js, &doc); err != nil || doc.SchemaVersion != 1 || !doc.Changed {
		t.Errorf("json: %+v, %v", doc, err)
	}
}

func TestDiff_DatesFromHistory(t *testing.T) {
	dir := t.TempDir()
	hist := saveHistory(t, dir, diffSnapshot(0, "55.04"), diffSnapshot(1, "60.544"), diffSnapshot(2, "60.544"))
	file := saveSnapshot(t, dir, "now.json", diffSnapshot(3, "60.544"))
	tests := []struct {
		name   string
		args   []string
		code   int
		output string
	}{
		{"two dates", []string{"2025-11-30", "2025-12-01", "--history", hist}, ExitError, "Catalog diff: 2025-11-30 06:00 UTC -> 2025-12-01 06:00 UTC"},
		{"a date and a file", []string{"--history", hist, "2025-12-02", file}, ExitOK, "No changes."},
		{"an RFC 3339 time takes the crawl before", []string{"--history", hist, "2025-12-01T05:59:59Z", "2025-12-01T06:00:00Z"}, ExitError, "+10.00%"},
		{"before the history", []string{"--history", hist, "2025-11-01", "2025-12-01"}, ExitUsage, "history has no crawl at or before"},
		{"no history", []string{"--history", filepath.Join(dir, "none.jsonl"), "2025-11-30", file}, ExitUsage, "no history file"},
		{"not a date", []string{"--history", hist, "2025-13-45", file}, ExitUsage, `date "2025-13-45"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(runDiff, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if !strings.Contains(stdout+stderr, tt.output) {
				t.Errorf("output does not contain %q:\n%s%s", tt.output, stdout, stderr)
			}
		})
	}
}

func TestSnapshot_At(t *testing.T) {
	dir := t.TempDir()
	snaps := []*catalog.Snapshot{diffSnapshot(0, "55.04"), diffSnapshot(1, "60.544")}
	hist := saveHistory(t, dir, snaps...)
	want, err := snaps[0].MarshalCanonical()
	if err != nil {
		t.Fatal(err)
	}

	code, stdout, stderr := runCmd(runSnapshot, "--at", "2025-11-30", "--history", hist)
	if code != ExitOK || stdout != string(want) {
		t.Errorf("--at 2025-11-30: exit %d, stderr %q\n%s", code, stderr, cmp.Diff(string(want), stdout))
	}

	out := filepath.Join(dir, "out", "catalog.json")
	code, _, stderr = runCmd(runSnapshot, "--at", "2025-11-30T23:00:00+08:00", "--history", hist, "--out", out)
	got, _ := os.ReadFile(out)
	if code != ExitOK || !bytes.Equal(got, want) {
		t.Errorf("--out: exit %d, stderr %q\n%s", code, stderr, cmp.Diff(string(want), string(got)))
	}

	code, stdout, _ = runCmd(runSnapshot, "--list", "--history", hist)
	if code != ExitOK || stdout != "2025-11-30T06:00:00Z\n2025-12-01T06:00:00Z\n" {
		t.Errorf("--list: exit %d, output %q", code, stdout)
	}
}

func TestSnapshot_Errors(t *testing.T) {
	dir := t.TempDir()
	hist := saveHistory(t, dir, diffSnapshot(0, "55.04"))
	corrupt := filepath.Join(dir, "corrupt.jsonl")
	data, _ := os.ReadFile(hist)
	if err := os.WriteFile(corrupt, data[:len(data)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no --at", []string{"--history", hist}, ExitUsage, "give either --at DATE or --list"},
		{"both", []string{"--history", hist, "--list", "--at", "2025-11-30"}, ExitUsage, "give either --at DATE or --list"},
		{"bad date", []string{"--history", hist, "--at", "yesterday"}, ExitUsage, `--at "yesterday"`},
		{"argument", []string{"--history", hist, "--at", "2025-11-30", "extra"}, ExitUsage, `unexpected argument "extra"`},
		{"before the history", []string{"--history", hist, "--at", "2025-11-29"}, ExitError, "no crawl at or before 2025-11-29T23:59:59.999999999Z"},
		{"no history", []string{"--history", filepath.Join(dir, "none.jsonl"), "--at", "2025-11-30"}, ExitError, "no history file"},
		{"corrupt history", []string{"--history", corrupt, "--at", "2025-11-30"}, ExitError, "corrupt.jsonl:"},
		{"out is a folder", []string{"--history", hist, "--at", "2025-11-30", "--out", dir}, ExitUsage,
			"snapshot: --out " + dir + " is a folder: give the file to write, e.g. --out " + filepath.Join(dir, "catalog.json")},
		{"endless history", []string{"--history", "/dev/zero", "--at", "2025-11-30"}, ExitError, "read history: /dev/zero: not a file (a character device)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(runSnapshot, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d (want %d), stderr %q (want it to contain %q)", code, tt.code, stderr, tt.stderr)
			}
		})
	}
}

func TestGuardFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    catalog.GuardOptions
		wantErr string
	}{
		{nil, catalog.GuardOptions{MaxDrop: catalog.Dec("30"), MaxPriceChange: catalog.Dec("50")}, ""},
		{[]string{"--accept-drop", "--accept-price-change", "--max-drop", "10%", "--max-price-change", "200"},
			catalog.GuardOptions{MaxDrop: catalog.Dec("10"), MaxPriceChange: catalog.Dec("200"), AcceptDrop: true, AcceptPriceChange: true}, ""},
		{[]string{"--max-drop", "0"}, catalog.GuardOptions{}, `--max-drop "0": want a percentage above 0`},
		{[]string{"--max-drop", "150"}, catalog.GuardOptions{}, "not between 0 and 100"},
		{[]string{"--max-price-change", "lots"}, catalog.GuardOptions{}, `--max-price-change "lots"`},
	}
	for _, tt := range tests {
		fset := flag.NewFlagSet("crawl", flag.ContinueOnError)
		fset.SetOutput(io.Discard)
		g := addGuardFlags(fset)
		if err := fset.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		got, err := g.options()
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%v: err = %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tt.args, err)
			continue
		}
		if !got.MaxDrop.Equal(tt.want.MaxDrop) || !got.MaxPriceChange.Equal(tt.want.MaxPriceChange) ||
			got.AcceptDrop != tt.want.AcceptDrop || got.AcceptPriceChange != tt.want.AcceptPriceChange {
			t.Errorf("%v: options = %+v, want %+v", tt.args, got, tt.want)
		}
	}
}

func TestCheckGuard(t *testing.T) {
	prev, next := diffSnapshot(0, "10"), diffSnapshot(1, "30")
	opts := catalog.GuardOptions{}
	code := 0
	var errb bytes.Buffer
	env := Env{Stdout: io.Discard, Stderr: &errb, Getenv: func(k string) string {
		if k == "GITHUB_ACTIONS" {
			return "true"
		}
		return ""
	}}
	if checkGuard(env, prev, next, opts) {
		code = 1
	}
	want := "::warning title=gpuatlas crawl::guard: blocked: aws/p5.48xlarge/us-east-1//on_demand: price 10 USD/hour → 30 USD/hour (+200.00%25), beyond ±50%25\n" +
		"gpuatlas: the guard stopped the update: nothing was written. Check the problems above; if the changes are real, run again with --accept-price-change.\n"
	if code != 0 || errb.String() != want {
		t.Errorf("blocked update: proceed = %v\n%s", code != 0, cmp.Diff(want, errb.String()))
	}
	errb.Reset()
	if !checkGuard(env, prev, next, catalog.GuardOptions{AcceptPriceChange: true}) || !strings.Contains(errb.String(), "guard: accepted: aws/p5.48xlarge") {
		t.Errorf("accepted update: %s", errb.String())
	}
}

func TestAppendHistory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "data", "history.jsonl")
	prev, next := diffSnapshot(0, "55.04"), diffSnapshot(1, "60.544")
	h, changed, err := appendHistory(path, prev, next)
	if err != nil || !changed {
		t.Fatalf("new history: changed %v, err %v", changed, err)
	}
	if got := h.Crawls(); len(got) != 2 || !got[0].Equal(diffDay(0)) {
		t.Errorf("a new history was not started with the previous snapshot: %v", got)
	}
	if err := catalog.WriteHistory(path, h); err != nil {
		t.Fatal(err)
	}
	h, changed, err = appendHistory(path, next, diffSnapshot(2, "60.544"))
	if err != nil || changed || len(h.Crawls()) != 3 {
		t.Errorf("unchanged crawl: changed %v, err %v, %d crawls", changed, err, len(h.Crawls()))
	}
	if err := os.WriteFile(path, []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := appendHistory(path, next, diffSnapshot(3, "60.544")); err == nil || !strings.Contains(err.Error(), "history.jsonl:1") {
		t.Errorf("corrupt history: err = %v", err)
	}
	// No previous data worth keeping (the placeholder catalog): the history starts
	// with the new snapshot.
	fresh := filepath.Join(dir, "fresh.jsonl")
	h, _, err = appendHistory(fresh, &catalog.Snapshot{Schema: catalog.SchemaVersion}, next)
	if err != nil || len(h.Crawls()) != 1 {
		t.Errorf("placeholder previous: %v, %d crawls", err, len(h.Crawls()))
	}
}

func TestDiff_InterruptionBandsBetweenAdvisorCopies(t *testing.T) {
	var out, errs bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errs, Getenv: func(string) string { return "" }}
	if code := Main(env, []string{"diff", "--interruptions", "2019-07-17", "2025-06-28"}); code != ExitError {
		t.Fatalf("exit %d, stderr %s", code, errs.String())
	}
	// From the committed copies: p3.16xlarge in ap-northeast-2 was <5% in 2019 and >20% in 2025.
	if !strings.Contains(out.String(), "~ interruption band p3.16xlarge ap-northeast-2: <5% -> >20%") {
		t.Errorf("output lacks p3.16xlarge's move:\n%.2000s", out.String())
	}
	out.Reset()
	if code := Main(env, []string{"diff", "--interruptions", "2025-06-28", "2025-06-28"}); code != ExitOK || !strings.Contains(out.String(), ": 0 changes") {
		t.Errorf("same copy: exit %d, %q", code, out.String())
	}
	if code := Main(env, []string{"diff", "--interruptions", "2020-01-01", "2025-06-28"}); code != ExitUsage || !strings.Contains(errs.String(), "2019-07-17, 2021-02-10, 2024-02-28, 2025-06-28") {
		t.Errorf("a day without a copy: exit %d, %q", code, errs.String())
	}
}
