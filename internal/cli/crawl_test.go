package cli

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/ghactions"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	testKeyID  = "AKIDCLITEST0000000001"
	testSecret = "cli-test-secret-do-not-print"
)

// awsEnv is the environment of a crawl against a local AWS replay: test
// credentials, and the SDK kept away from the machine's own AWS configuration.
var awsEnv = map[string]string{
	"AWS_ACCESS_KEY_ID": testKeyID, "AWS_SECRET_ACCESS_KEY": testSecret, "AWS_REGION": "us-east-1",
	"AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull,
}

// runAWS runs gpuatlas in awsEnv and returns its exit status, stdout and stderr.
func runAWS(args ...string) (int, string, string) { return runEnv(Main, awsEnv, args...) }

func startAWS(t *testing.T) *replay.Server {
	t.Helper()
	srv, err := replay.Start(os.DirFS("../../providers/aws/testdata/replay"), replay.AWS)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// crawl runs `gpuatlas crawl` of AWS against the replay into out, with the
// extra flags; it fails the test unless the crawl exits with want, and returns
// what the crawl printed on stderr.
// crawledAWS is the AWS replay and the snapshot file a first crawl of
// regions (comma-separated) wrote.
func crawledAWS(t *testing.T, regions string) (*replay.Server, string) {
	t.Helper()
	srv := startAWS(t)
	out := filepath.Join(t.TempDir(), "catalog.json")
	crawl(t, srv, out, ExitOK, "--regions", regions)
	return srv, out
}

func crawl(t *testing.T, srv *replay.Server, out string, want int, extra ...string) string {
	t.Helper()
	code, _, stderr := runAWS(append(crawlArgs(srv, out), extra...)...)
	if code != want {
		t.Fatalf("crawl %s: exit %d, want %d:\n%s", strings.Join(extra, " "), code, want, stderr)
	}
	return stderr
}

// crawlArgs is `gpuatlas crawl` of AWS against the replay into out.
func crawlArgs(srv *replay.Server, out string) []string {
	return []string{"crawl", "--providers", "aws", "--endpoint", "aws.ec2=" + srv.URL, "--endpoint", "aws.pricing=" + srv.URL, "--endpoint", "aws.spotadvisor=" + srv.URL,
		"--out", out, "--fx-file", "../../providers/fx/testdata/ecb-2025-11-28.xml", "--no-rate-limit", "--max-attempts", "2"}
}

// The crawl's times are env.Now's: the snapshot's taken_at and every offer's
// fetched_at.
func TestCrawl_TakenAtIsEnvNow(t *testing.T) {
	srv := startAWS(t)
	out := filepath.Join(t.TempDir(), "catalog.json")
	now := time.Date(2031, 2, 3, 4, 5, 6, 0, time.UTC)
	if code, _, stderr := runAt(Main, stoppedAt(now), awsEnv, append(crawlArgs(srv, out), "--regions", "us-east-1", "--no-history")...); code != ExitOK {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	snap, err := catalog.ReadSnapshot(out)
	if err != nil {
		t.Fatal(err)
	}
	if !snap.TakenAt.Equal(now) || len(snap.Offers) == 0 {
		t.Errorf("taken_at %s with %d offers, want %s", snap.TakenAt, len(snap.Offers), now)
	}
	for _, o := range snap.Offers {
		if !o.FetchedAt.Equal(now) {
			t.Fatalf("%s fetched_at %s, want %s", o.Key(), o.FetchedAt, now)
		}
	}
}

// The crawl writes exactly what the server says: every offer in the catalog is
// one the replay answered, and us-east-1 on-demand prices equal the recorded
// Price List documents.
func TestCrawl_AWSReplayToCatalogAndExport(t *testing.T) {
	srv := startAWS(t)
	out := filepath.Join(t.TempDir(), "catalog.json")
	crawlErr := crawl(t, srv, out, ExitOK, "--regions", "us-east-1,cn-north-1")
	snap, err := catalog.ReadSnapshot(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Coverage) != 1 || snap.Coverage[0].Status != catalog.CoverageOK || snap.Coverage[0].Regions != 2 || snap.Coverage[0].Requests == 0 {
		t.Errorf("coverage = %+v", snap.Coverage)
	}
	if snap.FX.Date != "2025-11-28" {
		t.Errorf("fx date %q", snap.FX.Date)
	}
	// The export of the crawled catalog hands it to the site's writer
	// (sitegen's rows are tested through the real wiring in cmd/gpuatlas).
	f := &fakeSite{}
	code, exported, exportErr := runSite(f.site(), awsEnv, Main, "export", "--format", "csv", "--catalog", out)
	if code != ExitOK {
		t.Fatalf("export exit %d: %s", code, exportErr)
	}
	if len(f.snapshots) != 1 || !cmp.Equal(offerKeys(f.snapshots[0]), offerKeys(snap)) {
		t.Fatal("export did not hand the crawled catalog's offers to the writer")
	}
	want := map[string]string{ // us-east-1 Linux on-demand, as the source data publishes them
		"p5.48xlarge": "55.04", "p4d.24xlarge": "21.957642", "g5.xlarge": "1.006", "g4dn.xlarge": "0.526",
	}
	got := map[string]string{}
	cny := 0
	for _, o := range snap.Offers {
		if o.Region == "us-east-1" && o.Billing == catalog.OnDemand {
			got[o.InstanceType] = o.Price.Amount.String()
		}
		if o.Price.Currency == catalog.CNY {
			cny++
			if _, err := snap.FX.Convert(o.Price.Amount, catalog.CNY, catalog.USD); err != nil {
				t.Errorf("CNY offer without a USD equivalent: %v: %v", o.Key(), err)
			}
		}
	}
	for typ, price := range want {
		if got[typ] != price {
			t.Errorf("%s us-east-1 on-demand = %q, want %q", typ, got[typ], price)
		}
	}
	if cny == 0 {
		t.Error("no CNY rows from cn-north-1")
	}
	if strings.Contains(crawlErr+exportErr, testSecret) || strings.Contains(exported, testSecret) {
		t.Error("the secret key was printed")
	}
	if b, _ := os.ReadFile(out); bytes.Contains(b, []byte(testSecret)) || bytes.Contains(b, []byte(testKeyID)) {
		t.Error("credentials written to the snapshot")
	}
}

// A region that keeps failing makes the crawl partial (exit 3); the snapshot is
// still written, with the region and its reason in coverage.
func TestCrawl_FailingRegionExitsPartial(t *testing.T) {
	srv := startAWS(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Region == "eu-west-1" && req.Service == "ec2" && req.Action != "DescribeRegions" {
			return &replay.Response{Status: 500, ContentType: "text/xml", Body: `<Response><Errors><Error><Code>InternalError</Code><Message>boom</Message></Error></Errors><RequestID>x</RequestID></Response>`}
		}
		return nil
	}
	out := filepath.Join(t.TempDir(), "catalog.json")
	stderr := crawl(t, srv, out, ExitPartial, "--regions", "us-east-1,eu-west-1")
	snap, err := catalog.ReadSnapshot(out)
	if err != nil {
		t.Fatal(err)
	}
	c := snap.Coverage[0]
	if c.Status != catalog.CoveragePartial || len(c.FailedRegions) != 1 || c.FailedRegions[0].Region != "eu-west-1" {
		t.Errorf("coverage = %+v", c)
	}
	if !strings.Contains(stderr, "failed region eu-west-1") {
		t.Errorf("stderr does not name the failed region:\n%s", stderr)
	}
}

// A provider whose credentials are refused keeps its previous data, marked
// stale; the exit status says partial.
func TestCrawl_FailedProviderKeepsPreviousDataStale(t *testing.T) {
	srv, out := crawledAWS(t, "us-east-1")
	before, _ := catalog.ReadSnapshot(out)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		return &replay.Response{Status: 401, ContentType: "text/xml", Body: `<Response><Errors><Error><Code>AuthFailure</Code><Message>AWS was not able to validate the provided access credentials</Message></Error></Errors><RequestID>x</RequestID></Response>`}
	}
	crawl(t, srv, out, ExitPartial, "--regions", "us-east-1")
	after, err := catalog.ReadSnapshot(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Offers) != len(before.Offers) || len(after.Instances) != len(before.Instances) {
		t.Fatalf("data lost: %d offers now, %d before", len(after.Offers), len(before.Offers))
	}
	if c := after.Coverage[0]; c.Status != catalog.CoverageStale || !c.LastOK.Equal(before.Coverage[0].LastOK) {
		t.Errorf("coverage = %+v, want stale with the first crawl's time", c)
	}
}

// The guard stops an update that lost most of a provider's offers, and leaves
// the previous snapshot untouched; --accept-drop lets it through.
func TestCrawl_GuardBlocksLargeDrop(t *testing.T) {
	srv, out := crawledAWS(t, "us-east-1,us-west-2")
	before, _ := os.ReadFile(out)
	// The server now answers the price list with nothing for us-west-2 and
	// us-east-1: most offers disappear.
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Service == "pricing" {
			return &replay.Response{Status: 200, ContentType: "application/x-amz-json-1.1", Body: `{"FormatVersion":"aws_v1","PriceList":[]}`}
		}
		return nil
	}
	rejected := filepath.Join(t.TempDir(), "rejected.json")
	stderr := crawl(t, srv, out, ExitError, "--regions", "us-east-1,us-west-2", "--rejected", rejected)
	if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
		t.Error("the guard let the snapshot be overwritten")
	}
	// The snapshot it stopped is kept for review (the nightly's artifact).
	if s, err := catalog.ReadSnapshot(rejected); err != nil || len(s.Offers) == 0 {
		t.Errorf("--rejected: %v", err)
	}
	if !strings.Contains(stderr, "aws") {
		t.Errorf("guard report does not name the provider:\n%s", stderr)
	}
	crawl(t, srv, out, ExitOK, "--regions", "us-east-1,us-west-2", "--accept-drop")
}

func TestMain_UsageAndHelp(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{nil, ExitUsage, "Usage: gpuatlas <command>"},
		{[]string{"--help"}, ExitOK, "Commands:"},
		{[]string{"frobnicate"}, ExitUsage, `unknown command "frobnicate"`},
		{[]string{"crawl", "--help"}, ExitOK, "--endpoint"},
		{[]string{"crawl", "--providers", "oracle"}, ExitUsage, `unknown provider "oracle"`},
		{[]string{"crawl", "--endpoint", "aws.s3=http://x"}, ExitUsage, `aws has no service "s3"`},
		{[]string{"crawl", "--endpoint", "nonsense"}, ExitUsage, "want PROVIDER.SERVICE=URL"},
		{[]string{"build"}, ExitUsage, "--out DIR is required"},
		{[]string{"export", "--format", "xml"}, ExitUsage, "want csv or json"},
		{[]string{"export", "--catalog", "/nonexistent/catalog.json"}, ExitError, "read snapshot"},
		{[]string{"serve", "--dir", "/nonexistent"}, ExitError, "build the site first"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCmd(Main, tt.args...)
			if code != tt.code || !strings.Contains(stdout+stderr, tt.want) {
				t.Errorf("exit %d, output:\n%s%s\nwant exit %d and %q", code, stdout, stderr, tt.code, tt.want)
			}
		})
	}
}

// A build refuses to publish with invalid benchmark uploads unless told to skip
// them, and names each problem either way.
func TestBuild_RefusesInvalidBenchmarks(t *testing.T) {
	dir := t.TempDir()
	bench := filepath.Join(dir, "bench")
	if err := os.MkdirAll(bench, 0o755); err != nil {
		t.Fatal(err)
	}
	bad := "submitter,run_date,provider,instance_type,workload,metric,unit,value\nme,2025-01-01,aws,p9.mega,llm-inference-8b,throughput,tokens/s,100\n"
	if err := os.WriteFile(filepath.Join(bench, "bad.csv"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(dir, "site")
	f := &fakeSite{}
	code, _, stderr := runSite(f.site(), nil, Main, "build", "--out", site, "--benchmarks", bench)
	if code != ExitError {
		t.Fatalf("exit %d, want %d:\n%s", code, ExitError, stderr)
	}
	if !strings.Contains(stderr, "bad.csv:2:") || !strings.Contains(stderr, "p9.mega") {
		t.Errorf("the problem is not named as file:line:\n%s", stderr)
	}
	if len(f.builds) != 0 {
		t.Error("a site was built despite invalid benchmarks")
	}
	code, _, stderr = runSite(f.site(), nil, Main, "build", "--out", site, "--benchmarks", bench, "--skip-invalid-benchmarks")
	if code != ExitOK {
		t.Fatalf("with --skip-invalid-benchmarks: exit %d:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "bad.csv:2:") {
		t.Errorf("skipped run not named:\n%s", stderr)
	}
	if len(f.builds) != 1 || f.builds[0].OutDir != site || len(f.builds[0].Benchmarks) != 0 || f.builds[0].Snapshot == nil || f.builds[0].Scenarios == nil || f.builds[0].Models == nil {
		t.Errorf("the build was handed %+v; want the site folder, no benchmark run, the snapshot, scenarios and models", f.builds)
	}
	if !strings.Contains(stderr, "built "+site+": 2 pages, 3 files, 4.0 MiB in ") {
		t.Errorf("the build's stats are not reported:\n%s", stderr)
	}
}

// Two crawls of a replay whose answers differ in known ways (one price up 10%)
// yield exactly that change in `gpuatlas diff`, in every format, with exit 1;
// the same crawl twice yields no change and exit 0.
func TestDiff_TwoCrawlsOfTheReplay(t *testing.T) {
	srv := startAWS(t)
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first.json"), filepath.Join(dir, "second.json")
	crawl(t, srv, first, ExitOK, "--regions", "us-east-1", "--no-history")
	fixtures := os.DirFS("../../providers/aws/testdata/replay")
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Service != "pricing" {
			return nil
		}
		for _, e := range srv.Manifest.Exchanges {
			if e.Action != req.Action || e.Params["filter.regionCode"] != req.Params["filter.regionCode"] || e.Params["NextToken"] != req.Params["NextToken"] {
				continue
			}
			b, err := fs.ReadFile(fixtures, e.Body)
			if err != nil {
				t.Error(err)
				return nil
			}
			// p5.48xlarge on demand in us-east-1: 55.04 -> 60.544 USD/hour (+10%).
			body := strings.Replace(string(b), `\"USD\":\"55.0400000000\"`, `\"USD\":\"60.5440000000\"`, 1)
			return &replay.Response{Status: 200, ContentType: e.ContentType, Body: body}
		}
		return nil
	}
	crawl(t, srv, second, ExitOK, "--regions", "us-east-1", "--no-history", "--previous", first)
	code, stdout, stderr := runAWS("diff", "--format", "json", first, second)
	if code != 1 {
		t.Fatalf("diff exit %d, want 1 (changes):\n%s", code, stderr)
	}
	var report struct {
		Changed   bool `json:"changed"`
		Totals    map[string]int
		Providers []struct {
			PriceChanges []struct {
				Key           string `json:"key"`
				ChangePercent string `json:"change_percent"`
			} `json:"price_changes"`
		} `json:"providers"`
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("diff JSON: %v\n%s", err, stdout)
	}
	want := map[string]int{"price_changes": 1, "price_increases": 1, "offers_added": 0, "offers_removed": 0, "instance_types_added": 0, "instance_types_removed": 0, "availability_changes": 0}
	for k, v := range want {
		if report.Totals[k] != v {
			t.Errorf("totals[%s] = %d, want %d (all: %v)", k, report.Totals[k], v, report.Totals)
		}
	}
	if len(report.Providers) != 1 || len(report.Providers[0].PriceChanges) != 1 ||
		report.Providers[0].PriceChanges[0].Key != "aws/p5.48xlarge/us-east-1//on_demand" || report.Providers[0].PriceChanges[0].ChangePercent != "10.00" {
		t.Errorf("price changes = %+v, want p5.48xlarge on demand +10.00%%", report.Providers)
	}
	for _, format := range []string{"text", "markdown"} {
		code, stdout, _ := runAWS("diff", "--format", format, first, second)
		if code != 1 {
			t.Fatalf("diff --format %s exit %d", format, code)
		}
		if !strings.Contains(stdout, "p5.48xlarge") || !strings.Contains(stdout, "10.00%") {
			t.Errorf("diff --format %s does not show the change:\n%s", format, stdout)
		}
	}
	if code, stdout, _ := runAWS("diff", "--format", "text", first, first); code != 0 {
		t.Errorf("diff of a catalog with itself: exit %d, want 0:\n%s", code, stdout)
	}
}

// gpuatlas crawl's progress in Actions: a provider's strings (a region, an
// error text) cannot start a command of their own, and a message with % reads
// back as it was.
func TestReporter_HostileProviderStrings(t *testing.T) {
	var errb bytes.Buffer
	env := Env{Stderr: &errb, Getenv: func(k string) string {
		if k == "GITHUB_ACTIONS" {
			return "true"
		}
		return ""
	}}
	log := newReporter(env)
	region := "cn-x\n::error::forged region\r\n::add-mask::x"
	log.info("alibaba " + region + ": ok")
	log.warn("alibaba " + region + ": throttled at 100% (\x1b[2J)")
	log.summary("alibaba: ok, 1 regions\n::error::forged summary")
	cmds := ghactions.ReadCommands(errb.String())
	want := []ghactions.Command{{Command: "warning", Props: map[string]string{"title": "gpuatlas crawl"},
		Message: "alibaba cn-x\n::error::forged region\r\n::add-mask::x: throttled at 100% (\\x1b[2J)"}}
	if diff := cmp.Diff(want, cmds); diff != "" {
		t.Errorf("workflow commands (-want +got):\n%s\noutput %q", diff, errb.String())
	}
	if n := strings.Count(errb.String(), "\n"); n != 3 {
		t.Errorf("output has %d lines, want 3: %q", n, errb.String())
	}
}
