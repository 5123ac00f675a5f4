package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// p5Observations is the p5.48xlarge cut of 2025-06-05 as CSV, from the daily
// tracker's readings.
const p5Observations = `provider,instance_type,region,zone,billing,price,currency,unit,includes,observed_at,source
aws,p5.48xlarge,us-east-1,,on_demand,98.32,USD,hour,instance only,2025-06-01T07:21:50Z,https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d/gpu_prices.csv
aws,p5.48xlarge,us-east-1,,on_demand,98.32,USD,hour,instance only,2025-06-04T07:23:25Z,https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d/gpu_prices.csv
aws,p5.48xlarge,us-east-1,,on_demand,55.04,USD,hour,instance only,2025-06-05T07:22:36Z,https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d/gpu_prices.csv
aws,p5.48xlarge,us-east-1,,on_demand,55.04,USD,hour,instance only,2025-06-10T07:22:00Z,https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d/gpu_prices.csv
`

// obsFile writes an observation file into dir and returns its path.
func obsFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	writeFile(t, p, data)
	return p
}

func TestHistoryImport_IdempotentAndQueried(t *testing.T) {
	dir := t.TempDir()
	// A history with one crawl, months after the archive's readings.
	hist := saveHistory(t, dir, diffSnapshot(0, "55.04"))
	before, _ := os.ReadFile(hist)
	obs := obsFile(t, dir, "p5.csv", p5Observations)

	code, _, stderr := runCmd(runHistory, "import", obs, "--history", hist)
	if code != ExitOK || !strings.Contains(stderr, "4 observations added, 0 already in") || !strings.Contains(stderr, "1 price changes") {
		t.Fatalf("first import: exit %d\n%s", code, stderr)
	}
	first, _ := os.ReadFile(hist)
	if bytes.Equal(before, first) || !bytes.HasPrefix(first, []byte(`{"format":"gpuatlas-history","schema_version":2,`)) {
		t.Fatalf("the history was not written as version 2:\n%.200s", first)
	}
	code, _, stderr = runCmd(runHistory, "import", "--history", hist, obs)
	if code != ExitOK || !strings.Contains(stderr, "0 observations added, 4 already in") {
		t.Fatalf("second import: exit %d\n%s", code, stderr)
	}
	if second, _ := os.ReadFile(hist); !bytes.Equal(first, second) {
		t.Error("importing the same file twice changed the history")
	}

	// diff across the cut reports exactly that change.
	code, stdout, stderr := runCmd(runDiff, "2025-06-01", "2025-06-10", "--history", hist)
	want := "Catalog diff: 2025-06-01 07:21 UTC -> 2025-06-10 07:22 UTC\nTotal: 1 price change (1 down)\n\naws: 1 price change (1 down)\n  ~ price p5.48xlarge us-east-1 on_demand: 98.32 USD/hour -> 55.04 USD/hour (-44.02%)\n"
	if code != ExitError || stdout != want {
		t.Errorf("diff across the cut: exit %d\n%s\nwant\n%s%s", code, stdout, want, stderr)
	}
	// The crawl's day shows the crawl alone; a day after the readings, nothing.
	code, stdout, _ = runCmd(runSnapshot, "--at", "2025-11-30", "--history", hist)
	if code != ExitOK || strings.Count(stdout, `"instance_type":"p5.48xlarge"`) != 1 || strings.Contains(stdout, "aws-gpu-price-tracker") {
		t.Errorf("snapshot of the crawl's day: exit %d\n%s", code, stdout)
	}
	if code, _, stderr = runCmd(runSnapshot, "--at", "2025-06-11", "--history", hist); code != ExitError || !strings.Contains(stderr, "no imported price holds then") {
		t.Errorf("snapshot after the readings: exit %d: %s", code, stderr)
	}
	code, stdout, _ = runCmd(runSnapshot, "--at", "2025-06-07", "--history", hist)
	if code != ExitOK || !strings.Contains(stdout, `"price":{"amount":"55.04","currency":"USD","unit":"hour"},"availability":"unknown","source":"https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d/gpu_prices.csv"`) {
		t.Errorf("snapshot during the readings: exit %d\n%s", code, stdout)
	}
}

func TestHistoryImport_ErrorsWriteNothing(t *testing.T) {
	dir := t.TempDir()
	hist := filepath.Join(dir, "history.jsonl")
	good := obsFile(t, dir, "good.csv", p5Observations)
	bad := obsFile(t, dir, "bad.jsonl", `{"provider":"aws","instance_type":"p5.48xlarge","region":"us-east-1","billing":"on_demand","price":"98.32","currency":"USD","unit":"hour","includes":"instance only","observed_at":"2025-06-01","source":"x"}
{"provider":"aws","instance_type":"p5.48xlarge","region":"us-east-1","billing":"on_demand","price":"98.32","currency":"USD","unit":"hour","observed_at":"2025-06-02","source":"x"}
`)
	code, _, stderr := runCmd(runHistory, "import", good, bad, "--history", hist)
	if code != ExitError || !strings.Contains(stderr, "bad.jsonl:2: includes: required") || !strings.Contains(stderr, "nothing was written") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(hist); !os.IsNotExist(err) {
		t.Errorf("a failed import wrote the history: %v", err)
	}
	// A record that disagrees with the history at the same instant.
	if code, _, stderr = runCmd(runHistory, "import", good, "--history", hist); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before, _ := os.ReadFile(hist)
	other := obsFile(t, dir, "other.csv", strings.Replace(p5Observations, "55.04,USD,hour,instance only,2025-06-05", "60,USD,hour,instance only,2025-06-05", 1))
	code, _, stderr = runCmd(runHistory, "import", other, "--history", hist)
	if code != ExitError || !strings.Contains(stderr, "other.csv:4: aws/p5.48xlarge/us-east-1//on_demand/instance only at 2025-06-05T07:22:36Z: the history has 55.04 USD/hour") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	if after, _ := os.ReadFile(hist); !bytes.Equal(before, after) {
		t.Error("a disagreeing import changed the history")
	}
	for _, args := range [][]string{{"import"}, {"frobnicate"}, {}} {
		if code, _, _ := runCmd(runHistory, args...); code != ExitUsage {
			t.Errorf("history %v: exit %d, want %d", args, code, ExitUsage)
		}
	}
}

func TestHistoryImport_HelpDescribesTheFormat(t *testing.T) {
	code, stdout, _ := runCmd(runHistory, "import", "--help")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, f := range catalog.ObservationFields {
		if !strings.Contains(stdout, "  "+f.Name+" ") {
			t.Errorf("--help does not describe %s", f.Name)
		}
	}
	for _, w := range []string{"file:line: message", "importing a file twice changes nothing", "never carries into a crawl's snapshot", "a change of basis is not a price change", "--history"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("--help lacks %q", w)
		}
	}
}

func TestHistoryExport_Parquet(t *testing.T) {
	dir := t.TempDir()
	hist := saveHistory(t, dir, diffSnapshot(0, "55.04"))
	if code, _, stderr := runCmd(runHistory, "import", obsFile(t, dir, "p5.csv", p5Observations), "--history", hist); code != ExitOK {
		t.Fatal(stderr)
	}
	out := filepath.Join(dir, "export")
	// The site's HistoryParquet makes the files (sitegen's, through the real
	// wiring in cmd/gpuatlas); the command writes them under --out.
	f := &fakeSite{files: []HistoryFile{{Name: "provider=aws/part-0.parquet", Data: []byte("PAR1 aws")}}}
	code, _, stderr := runSite(f.site(), nil, runHistory, "export", "--history", hist, "--out", out)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if len(f.histories) != 1 || len(f.histories[0].Crawls()) != 1 || f.histories[0].ObservationCount() == 0 {
		t.Errorf("the site was not handed the history with its crawl and imported observations: %v", f.histories)
	}
	b, err := os.ReadFile(filepath.Join(out, "provider=aws", "part-0.parquet"))
	if err != nil || string(b) != "PAR1 aws" {
		t.Errorf("the Parquet file was not written: %q, %v", b, err)
	}
	if code, _, _ := runSite(f.site(), nil, runHistory, "export", "--history", hist); code != ExitUsage {
		t.Errorf("export without --out: exit %d", code)
	}
}

// TestHistoryImport_READMEDocumentsTheFormat keeps the README's table of the
// observation format and of the history Parquet columns true to the code.
func TestHistoryImport_READMEDocumentsTheFormat(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "history.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, f := range catalog.ObservationFields {
		req := "no"
		if f.Required {
			req = "yes"
		}
		if !strings.Contains(readme, "| `"+f.Name+"` | "+req+" |") {
			t.Errorf("README.md does not document the observation field %s (required: %s)", f.Name, req)
		}
	}
}
