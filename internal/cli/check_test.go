package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
)

// TestCheck_Embedded checks the embedded catalog: no errors, and the warnings
// a buyer must see, with real rows.
func TestCheck_Embedded(t *testing.T) {
	testlane.Long(t, "checks the whole embedded catalog")
	stdout := runExit(t, ExitOK, runCheck, nil)
	reportHas(t, stdout,
		"0 errors,",
		"aws/p5.48xlarge/ap-southeast-3/ap-southeast-3a/spot 7.59552 USD/hour: spot price 7.59552 is at or below 10% of the on-demand price 75.9552 USD/hour",
		"alibaba/ecs.gn5i-c12g1.6xlarge/cn-beijing/cn-beijing-k/on_demand 0.084 CNY/hour: price per GPU 0.042 CNY/hour is below 10% of the median",
		"aws: prices observed 2025-11-30 to 2026-01-21, 369 days before 2026-12-04 (more than 30)",
		"alibaba: 2354 of 2354 prices have no observation date",
		"huawei: prices observed 2026-07-13, 144 days before 2026-12-04",
		"azure: prices observed 2026-06-18, 169 days before 2026-12-04 (more than 30)",
		`alibaba "G49"`,
		// a GPU figure a second source contradicts (data/gpu_sources.csv)
		"GPU figures a second source contradicts (data/gpu_sources.csv) (4)",
		"nvidia-b200-180gb memory: 180 GB (https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-gpus.html",
	)
	if strings.Contains(stdout, "volcengine:") {
		t.Error("Volcano Engine, which has no prices, is listed as stale")
	}
}

func TestCheck_Formats(t *testing.T) {
	code, stdout, _ := runEnv(runCheck, nil, "--format", "json", "--as-of", "2026-12-31")
	if code != ExitOK {
		t.Fatalf("json: exit %d", code)
	}
	var r catalog.QualityReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("json: %v", err)
	}
	if r.Schema != catalog.QualitySchema || len(r.Suspect) < 60 || !r.AsOf.Equal(time.Date(2026, 12, 31, 23, 59, 59, 999999999, time.UTC)) {
		t.Errorf("json: schema %d, %d suspect offers, as of %s", r.Schema, len(r.Suspect), r.AsOf)
	}
	code, stdout, _ = runEnv(runCheck, nil, "--format", "markdown", "--max-rows", "3")
	if code != ExitOK || !strings.HasPrefix(stdout, "## Data quality\n") || !strings.Contains(stdout, "### Suspect offers (") || !strings.Contains(stdout, "more (`gpuatlas check --format json` lists every one)") {
		t.Errorf("markdown: exit %d:\n%s", code, stdout)
	}
	for _, args := range [][]string{{"--format", "html"}, {"--as-of", "yesterday"}, {"extra"}} {
		if code, _, _ := runEnv(runCheck, nil, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, ExitUsage)
		}
	}
}

// checkFixture is a catalog whose p5.48xlarge spot offer in ap-southeast-3 is
// not marked suspect (as a catalog crawled before the rule existed), with a
// made-up price beside it.
func checkFixture(t *testing.T, synthetic bool) string {
	t.Helper()
	at := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	offer := func(region, zone string, b catalog.BillingKind, amount string) catalog.Offer {
		return catalog.Offer{Provider: catalog.AWS, InstanceType: "p5.48xlarge", Region: region, Zone: zone, Billing: b,
			Price: catalog.Price{Amount: catalog.Dec(amount), Currency: catalog.USD, Unit: catalog.PerHour}, Availability: catalog.Available,
			Source: "aws:pricing:GetProducts", FetchedAt: at, ObservedAt: at}
	}
	snap := &catalog.Snapshot{Schema: catalog.SchemaVersion, TakenAt: at,
		FX:       catalog.FXTable{Base: catalog.USD, Date: "2026-11-28", Source: "test"},
		Coverage: []catalog.Coverage{{Provider: catalog.AWS, Status: catalog.CoverageOK, Regions: 1, LastOK: at}},
		Regions:  []catalog.Region{{Provider: catalog.AWS, ID: "ap-southeast-3"}},
		Instances: []catalog.InstanceType{{Provider: catalog.AWS, ID: "p5.48xlarge", Family: "p5", VCPUs: 192, MemoryGiB: catalog.Dec("2048"),
			RDMA: "efa", NetworkGbps: catalog.DecPtr("3200"), Generation: "current", Source: "aws:ec2:DescribeInstanceTypes",
			Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Model: "nvidia-h100-sxm-80gb", Name: "H100", Count: 8, Share: catalog.Dec("1"), MemoryGiB: catalog.Dec("80")}}}},
		Offers: []catalog.Offer{
			offer("ap-southeast-3", "", catalog.OnDemand, "75.9552"),
			offer("ap-southeast-3", "ap-southeast-3a", catalog.Spot, "7.59552"),
		},
	}
	if synthetic {
		snap.Offers[0].Synthetic = true
	}
	path := filepath.Join(t.TempDir(), "catalog.json")
	if err := catalog.WriteSnapshot(path, snap); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCheck_Errors(t *testing.T) {
	path := checkFixture(t, true)
	code, stdout, stderr := runEnv(runCheck, map[string]string{"GITHUB_ACTIONS": "true"}, "--catalog", path)
	if code != ExitError {
		t.Fatalf("exit %d, want %d:\n%s", code, ExitError, stdout)
	}
	reportHas(t, stdout,
		"error: aws/p5.48xlarge/ap-southeast-3//on_demand: made-up price 75.9552 USD/hour: synthetic data belongs in test fixtures only [synthetic_offer]",
		"error: aws/p5.48xlarge/ap-southeast-3/ap-southeast-3a/spot: 7.59552 USD/hour breaks a plausibility rule but is not marked suspect",
		"error: scenario llm-training ranking (spot): aws/p5.48xlarge/ap-southeast-3/ap-southeast-3a/spot leads it, and its price breaks a plausibility rule: spot price 7.59552 is at or below 10%",
		"(NOT MARKED in the catalog)",
	)
	if !strings.Contains(stderr, "::error title=gpuatlas check::scenario llm-training ranking (spot): ") {
		t.Errorf("no annotation for the suspect ranking entry: %q", stderr)
	}
	// validate --catalog runs the same check.
	code, stdout, stderr = runValidateTest(t, nil, "--catalog", path, t.TempDir())
	if code != ExitError || !strings.Contains(stdout, "[suspect_leads]") || !strings.Contains(stderr, "validate: catalog data quality: ") {
		t.Errorf("validate --catalog: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
