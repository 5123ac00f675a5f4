package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// crawlClock is the stopped clock of the progress tests.
var crawlClock = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// crawlOn runs `gpuatlas crawl` of AWS against the replay (us-east-1, and
// eu-west-1 failing on every EC2 call but the region list) into a temporary
// folder, with stderr judged a terminal by terminal, and vars beside awsEnv;
// it returns the exit status and stderr.
func crawlOn(t *testing.T, terminal func(io.Writer) bool, vars map[string]string, extra ...string) (int, string) {
	t.Helper()
	srv := startAWS(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Region == "eu-west-1" && req.Service == "ec2" && req.Action != "DescribeRegions" {
			return &replay.Response{Status: 500, ContentType: "text/xml", Body: `<Response><Errors><Error><Code>InternalError</Code><Message>boom</Message></Error></Errors><RequestID>x</RequestID></Response>`}
		}
		return nil
	}
	environ := maps.Clone(awsEnv)
	maps.Copy(environ, vars)
	var errb bytes.Buffer
	env := Env{Stdout: io.Discard, Stderr: &errb, Getenv: func(k string) string { return environ[k] }, Now: stoppedAt(crawlClock), Terminal: terminal}
	args := append(crawlArgs(srv, filepath.Join(t.TempDir(), "catalog.json")), "--regions", "us-east-1,eu-west-1")
	code := Main(env, append(args, extra...))
	return code, errb.String()
}

func terminal(io.Writer) bool    { return true }
func notTerminal(io.Writer) bool { return false }

// --log-format json: every line on stderr is one JSON object, stamped with
// the command's clock; a crawl tells each region, each provider with its
// counts, each failed region and its end, with the keys a workflow reads.
// Under Actions too: no annotation, no plain line.
func TestCrawl_LogFormatJSON(t *testing.T) {
	code, stderr := crawlOn(t, terminal, map[string]string{"GITHUB_ACTIONS": "true"}, "--log-format", "json")
	if code != ExitPartial {
		t.Fatalf("exit %d, want %d:\n%s", code, ExitPartial, stderr)
	}
	var events []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("a line that is not JSON: %v\n%q", err, line)
		}
		if e["time"] != "2026-03-04T05:06:07Z" {
			t.Errorf("time %v, want the command's clock: %s", e["time"], line)
		}
		events = append(events, e)
	}
	byMsg := map[string][]map[string]any{}
	for _, e := range events {
		byMsg[e["msg"].(string)] = append(byMsg[e["msg"].(string)], e)
	}
	keys := func(e map[string]any) []string { return slices.Sorted(maps.Keys(e)) }
	want := map[string][]string{
		"regions":       {"elapsed_ms", "level", "msg", "provider", "regions", "time"},
		"provider":      {"duration_ms", "failed_regions", "failed_types", "faults", "instance_types", "level", "msg", "offers", "outcome", "provider", "regions", "requests", "retries", "swept", "throttled", "time"},
		"failed_region": {"level", "msg", "provider", "reason", "region", "time"},
		"finished":      {"duration_ms", "exit_code", "history", "level", "msg", "out", "time"},
	}
	for msg, k := range want {
		if len(byMsg[msg]) != 1 {
			t.Errorf("%d %q events, want 1:\n%s", len(byMsg[msg]), msg, stderr)
			continue
		}
		if diff := cmp.Diff(k, keys(byMsg[msg][0])); diff != "" {
			t.Errorf("keys of %q (-want +got):\n%s", msg, diff)
		}
	}
	regions := map[string]map[string]any{}
	for _, e := range byMsg["region"] {
		regions[e["region"].(string)] = e
	}
	if e := regions["us-east-1"]; e == nil || e["outcome"] != "ok" || e["level"] != "INFO" || e["provider"] != "aws" {
		t.Errorf("us-east-1: %v", e)
	}
	if e := regions["eu-west-1"]; e == nil || e["outcome"] != "failed" || e["level"] != "WARN" || !strings.Contains(e["error"].(string), "InternalError") {
		t.Errorf("eu-west-1: %v", e)
	}
	if p := byMsg["provider"]; len(p) == 1 && (p[0]["outcome"] != "partial" || p[0]["regions"] != 1.0 || p[0]["offers"].(float64) == 0 || p[0]["failed_regions"] != 1.0 || p[0]["level"] != "WARN") {
		t.Errorf("provider: %v", p[0])
	}
	if f := byMsg["finished"]; len(f) == 1 && (f[0]["exit_code"] != float64(ExitPartial) || !strings.HasSuffix(f[0]["out"].(string), "catalog.json")) {
		t.Errorf("finished: %v", f[0])
	}
	if r := byMsg["regions"]; len(r) == 1 && r[0]["regions"] != 2.0 {
		t.Errorf("regions: %v, want 2", r[0])
	}
	if strings.Contains(stderr, testSecret) {
		t.Error("the secret key was printed")
	}
}

// In JSON, every string from outside is one safe line, as in the text form:
// a region, an error text or an SDK's log line that holds line breaks, an
// escape sequence or a bidirectional override reads back as its Go escapes.
// A line written to stderr around the reporter (an error of fail) is an
// event too.
func TestReporter_JSONValuesAreSafeLines(t *testing.T) {
	var errb bytes.Buffer
	env := Env{Stderr: newJSONLog(&errb, stoppedAt(crawlClock)), Getenv: func(string) string { return "" }}
	log := newReporter(env)
	hostile := "cn-x\n::error::forged\r\n\x1b[2J\u202eevil"
	log.region(catalog.Alibaba, hostile, errors.New(hostile))
	log.sdk(catalog.Alibaba, hostile)
	log.unmapped(catalog.UnmappedAccelerator{Provider: catalog.Alibaba, Name: hostile, InstanceTypes: []string{hostile}})
	fail(env, "crawl: %s", hostile)
	lines := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4:\n%s", len(lines), errb.String())
	}
	safe := catalog.SafeLine(hostile)
	for i, want := range []map[string]any{
		{"msg": "region", "level": "WARN", "region": safe, "error": safe, "outcome": "failed"},
		{"msg": "sdk", "level": "INFO", "text": safe},
		{"msg": "unmapped_accelerator", "level": "WARN", "name": safe, "instance_types": []any{safe}},
		{"msg": "message", "level": "ERROR", "text": "gpuatlas: crawl: " + safe},
	} {
		var got map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
			t.Fatalf("line %d: %v: %q", i, err, lines[i])
		}
		for k, v := range want {
			if diff := cmp.Diff(v, got[k]); diff != "" {
				t.Errorf("line %d, %s (-want +got):\n%s", i, k, diff)
			}
		}
	}
}

// Off a terminal, in Actions and on a dumb terminal, the crawl's progress is
// the plain lines it always was: no control characters, one line per region.
func TestCrawl_NoBarsOffATerminal(t *testing.T) {
	for _, tc := range []struct {
		name     string
		terminal func(io.Writer) bool
		vars     map[string]string
		region   string // how a region that failed is told
	}{
		{"pipe", notTerminal, nil, "warning: aws eu-west-1: "},
		{"no terminal check", nil, nil, "warning: aws eu-west-1: "},
		{"actions", terminal, map[string]string{"GITHUB_ACTIONS": "true"}, "::warning title=gpuatlas crawl::aws eu-west-1: "},
		{"dumb terminal", terminal, map[string]string{"TERM": "dumb"}, "warning: aws eu-west-1: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stderr := crawlOn(t, tc.terminal, tc.vars)
			if code != ExitPartial {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			if strings.ContainsAny(stderr, "\x1b\r") {
				t.Errorf("control characters on stderr: %q", stderr)
			}
			if !strings.Contains(stderr, "\naws us-east-1: ok\n") && !strings.HasPrefix(stderr, "aws us-east-1: ok\n") || !strings.Contains(stderr, tc.region) {
				t.Errorf("the regions are not told as lines:\n%s", stderr)
			}
			if !strings.Contains(stderr, "aws: partial, 1 regions, ") || !strings.Contains(stderr, "crawl finished in 0s; wrote ") {
				t.Errorf("no summary lines:\n%s", stderr)
			}
		})
	}
}

// On a terminal, outside Actions, each provider gets a bar, regions done of
// regions listed: the regions are no lines of their own, a failed one is
// still warned about, and the summary follows the bars as lines.
func TestCrawl_BarsOnATerminal(t *testing.T) {
	code, stderr := crawlOn(t, terminal, map[string]string{"TERM": "xterm-256color"})
	if code != ExitPartial {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "\x1b[") {
		t.Errorf("no cursor movement, no bar: %q", stderr)
	}
	// The last drawing of the bar: the provider, both regions done, one failed.
	frames := strings.Split(stderr, "\x1b[J")
	var bar string
	for _, f := range frames {
		for _, l := range strings.Split(f, "\n") {
			if strings.HasPrefix(l, "aws ") && strings.Contains(l, " regions") {
				bar = l
			}
		}
	}
	if !strings.Contains(bar, "2/2 regions") || !strings.Contains(bar, "1 failed") {
		t.Errorf("last bar %q, want 2/2 regions and 1 failed:\n%q", bar, stderr)
	}
	if strings.Contains(stderr, "aws us-east-1: ok") {
		t.Errorf("a region told as a line beside the bar:\n%q", stderr)
	}
	if !strings.Contains(stderr, "warning: aws eu-west-1: ") {
		t.Errorf("the failed region is not warned about:\n%q", stderr)
	}
	after := stderr[strings.LastIndex(stderr, "\x1b[J")+len("\x1b[J"):]
	if !strings.Contains(after, "aws: partial, 1 regions, ") || !strings.Contains(after, "crawl finished in 0s; wrote ") {
		t.Errorf("the summary does not follow the bars:\n%q", after)
	}
}

// A line told after the last region (an SDK's late log line) is still drawn
// above the bars, and a provider that listed no regions ends its bar saying
// so: the bars end only when the crawl does.
func TestReporter_BarsEndWithTheCrawl(t *testing.T) {
	draw := func(provs []catalog.Provider, tell func(*reporter)) string {
		var errb bytes.Buffer
		env := Env{Stderr: &errb, Getenv: func(string) string { return "" }, Now: stoppedAt(crawlClock), Terminal: terminal}
		log := newReporter(env)
		log.begin(t.Context(), provs)
		tell(log)
		log.end()
		log.summary("after the bars")
		out := errb.String()
		if i := strings.LastIndex(out, "\x1b[J"); i >= 0 { // the last drawing
			out = out[i+len("\x1b[J"):]
		}
		return out
	}
	last := draw([]catalog.Provider{catalog.AWS}, func(log *reporter) {
		log.listed(catalog.AWS, 1)
		log.region(catalog.AWS, "us-east-1", nil)
		log.sdk(catalog.AWS, "late line")
	})
	for _, want := range []string{"late line\naws", "1/1 regions", "after the bars\n"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last drawing lacks %q: %q", want, last)
		}
	}
	last = draw([]catalog.Provider{catalog.AWS, catalog.Alibaba}, func(log *reporter) {
		log.listed(catalog.AWS, 0)
	})
	for _, want := range []string{"aws", "0/0 regions", "alibaba", "no regions listed", "after the bars\n"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last drawing lacks %q: %q", want, last)
		}
	}
}
