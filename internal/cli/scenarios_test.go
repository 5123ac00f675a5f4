package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// scenariosFile is the committed scenario table, read from disk so that these
// tests do not depend on the embed pattern of package data.
const scenariosFile = "../../data/scenarios.yaml"

// scenarioFixture writes a small snapshot: AWS p3.8xlarge (4x V100) and
// p4d.24xlarge (8x A100) with on-demand, spot and reserved offers, and an Alibaba
// A10 priced in CNY.
func scenarioFixture(t *testing.T) string {
	t.Helper()
	typ := func(p catalog.Provider, id, model string, n, vcpus int, mem, gpuMem, rdma string) catalog.InstanceType {
		return catalog.InstanceType{Provider: p, ID: id, VCPUs: vcpus, MemoryGiB: catalog.Dec(mem), RDMA: rdma,
			Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Model: model, Name: model, Count: n, Share: catalog.Dec("1"), MemoryGiB: catalog.Dec(gpuMem)}},
			Generation:   "current", Source: "test"}
	}
	at := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	offer := func(p catalog.Provider, typ, region string, b catalog.BillingKind, amount string, cur catalog.Currency) catalog.Offer {
		return catalog.Offer{Provider: p, InstanceType: typ, Region: region, Billing: b,
			Price: catalog.Price{Amount: catalog.Dec(amount), Currency: cur, Unit: catalog.PerHour}, Availability: catalog.Available,
			Source: "test", FetchedAt: at, ObservedAt: at}
	}
	reserved := offer(catalog.AWS, "p3.8xlarge", "us-east-1", catalog.Reserved1yAllUpfront, "0", catalog.USD)
	reserved.Price.Upfront = catalog.DecPtr("60000")
	snap := &catalog.Snapshot{
		Schema: catalog.SchemaVersion, TakenAt: at,
		FX:      catalog.FXTable{Base: catalog.USD, Date: "2026-11-28", Source: "test", Rates: map[catalog.Currency]decimal.Decimal{catalog.CNY: catalog.Dec("7.1")}},
		Regions: []catalog.Region{{Provider: catalog.AWS, ID: "us-east-1"}, {Provider: catalog.Alibaba, ID: "cn-hangzhou"}},
		Instances: []catalog.InstanceType{
			typ(catalog.AWS, "p3.8xlarge", "nvidia-v100-sxm2-16gb", 4, 32, "244", "16", ""),
			typ(catalog.AWS, "p4d.24xlarge", "nvidia-a100-sxm-40gb", 8, 96, "1152", "40", "efa"),
			typ(catalog.Alibaba, "ecs.gn7i-c8g1.2xlarge", "nvidia-a10-24gb", 1, 8, "30", "24", ""),
		},
		Offers: []catalog.Offer{
			offer(catalog.AWS, "p3.8xlarge", "us-east-1", catalog.OnDemand, "12.24", catalog.USD),
			offer(catalog.AWS, "p3.8xlarge", "us-east-1", catalog.Spot, "3.672", catalog.USD),
			reserved,
			offer(catalog.AWS, "p4d.24xlarge", "us-east-1", catalog.OnDemand, "32.7726", catalog.USD),
			offer(catalog.Alibaba, "ecs.gn7i-c8g1.2xlarge", "cn-hangzhou", catalog.OnDemand, "8.5", catalog.CNY),
		},
	}
	// The p4d price is a dataset's, a year old; Alibaba's source gives no date.
	snap.Offers[3].ObservedAt = time.Date(2025, 11, 30, 0, 0, 0, 0, time.UTC)
	snap.Offers[4].ObservedAt = time.Time{}
	path := filepath.Join(t.TempDir(), "catalog.json")
	if err := catalog.WriteSnapshot(path, snap); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestScenarios_TextAndJSON(t *testing.T) {
	cat := scenarioFixture(t)
	out := runExit(t, ExitOK, runScenarios, nil, "--catalog", cat, "--scenarios", scenariosFile, "--benchmarks", "none", "--scenario", "llm-training")
	reportHas(t, out,
		"== llm-training: LLM training (large, multi-GPU) ==",
		"Requires: accelerator: GPU or NPU; at least 8 GPUs; at least 40 GB per GPU;",
		"Prefers: 16 vCPU per GPU (data loading); 128 GiB host memory per GPU (staging data); local NVMe.",
		"Ranked: 1 fit, 0 may fit (unknown specs), 2 do not fit.",
		// A ranking may include stale prices, and says so on the row.
		"aws/p4d.24xlarge  us-east-1  32.77 USD/h [stale: observed 2025-11-30, 365 days before the catalog]  score 64.41",
		// The test catalog gives p4d no network figure: that part of the
		// interconnect mean is unknown and left out, not counted as 0.
		// 32.7726 USD/h / 2496 BF16 TFLOPS = 0.01313005: four significant digits.
		"fits: 8x NVIDIA A100 SXM4 40GB, 40 GB each, NVLink; strengths: strong interconnect; good price (0.01313 USD per TFLOPS-hour, 1.0× the best); "+
			"weaknesses: 12 vCPU per GPU is low for data loading (prefer 16); no local NVMe for datasets and checkpoints; low compute (2,496 TFLOPS of 7,900 TFLOPS)",
		"Alibaba Cloud  none of 1 instance types fits",
	)

	out = runExit(t, ExitOK, runScenarios, nil, "--catalog", cat, "--scenarios", scenariosFile, "--benchmarks", "none", "--format", "json", "--region", "cn-hangzhou")
	var m compare.Matrix
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Scenarios) != 10 || m.Region != "cn-hangzhou" || len(m.Providers) != 1 || m.Providers[0] != catalog.Alibaba {
		t.Fatalf("matrix: %d scenarios, region %q, providers %v", len(m.Scenarios), m.Region, m.Providers)
	}
	dev := m.Scenarios[9]
	if dev.Scenario.ID != "dev-test" || len(dev.Ranked) != 1 || dev.Ranked[0].USDPerHour.String() != "1.1971831" || dev.Ranked[0].NativePerHour.String() != "8.5" {
		t.Errorf("dev-test ranking = %+v", dev.Ranked)
	}
}

// --lang zh (or a Chinese locale) writes the same answer in Chinese: every
// sentence from the message catalog, no English words around the figures.
func TestScenarios_Chinese(t *testing.T) {
	cat := scenarioFixture(t)
	args := []string{"--catalog", cat, "--scenarios", scenariosFile, "--benchmarks", "none", "--scenario", "llm-training"}
	out := runExit(t, ExitOK, runScenarios, nil, append(args, "--lang", "zh")...)
	reportHas(t, out,
		"== llm-training: 大模型训练（多卡） ==",
		"要求：加速器：GPU 或 NPU；至少 8 张 GPU；单卡显存至少 40 GB；",
		"排名：1 个满足，0 个可能满足（有未知规格），2 个不满足。",
		"满足：8 × NVIDIA A100 SXM4 40GB，每块 40 GB，NVLink 互联；优势：互联强；价格好（每 TFLOPS·小时 0.01313 美元，为最低价的 1.0 倍）；"+
			"不足：每卡 12 个 vCPU，用于数据加载偏少（建议 16 个）；没有本地 NVMe 盘存放数据集和检查点；算力弱（2,496 TFLOPS，目标 7,900 TFLOPS）",
		"阿里云",
		"1 个实例规格均不满足",
	)
	assertNoEnglishRuns(t, "scenarios --lang zh", out)
	// The locale decides when --lang is not given: LC_ALL before LANG.
	var buf, errb bytes.Buffer
	env := Env{Stdout: &buf, Stderr: &errb, Getenv: func(k string) string {
		return map[string]string{"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}[k]
	}}
	if code := runScenarios(env, args); code != ExitOK || buf.String() != out {
		t.Errorf("LC_ALL=zh_CN.UTF-8: exit %d, output differs from --lang zh:\n%s", code, buf.String())
	}
	if code, _, errs := runCmd(runScenarios, append(args, "--lang", "fr")...); code != ExitUsage || !strings.Contains(errs, `--lang "fr": want en or zh`) {
		t.Errorf("--lang fr: exit %d, %q", code, errs)
	}
}

// The JSON carries every reason as a code with its figures, never a sentence.
func TestScenarios_JSONCarriesCodes(t *testing.T) {
	cat := scenarioFixture(t)
	out := runExit(t, ExitOK, runScenarios, nil, "--catalog", cat, "--scenarios", scenariosFile, "--benchmarks", "none", "--scenario", "llm-training", "--format", "json")
	var m compare.Matrix
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	p4d := m.Scenarios[0].Ranked[0]
	if len(p4d.Weaknesses) == 0 || p4d.Weaknesses[0].Code != compare.ReasonVCPUsPerGPULow {
		t.Fatalf("p4d weaknesses %+v", p4d.Weaknesses)
	}
	if f, ok := p4d.Weaknesses[0].Figure("have"); !ok || f.Value.String() != "12" || f.Unit != compare.UnitVCPU {
		t.Errorf("vcpus_per_gpu_low have = %+v", f)
	}
	for _, c := range m.Scenarios[0].Rejected {
		for _, ch := range c.Checks {
			if ch.Reason.Code == "" {
				t.Errorf("%s: check %s has no reason code", c.InstanceKey, ch.Requirement)
			}
		}
	}
	for _, prose := range []string{"does not fit:", "strengths:", "\"summary\"", "\"detail\"", "\"sentence\"", "\"explanation\""} {
		if strings.Contains(out, prose) {
			t.Errorf("the JSON holds prose %q", prose)
		}
	}
}

func TestScenarios_ExitCodes(t *testing.T) {
	cat := scenarioFixture(t)
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("scenarios:\n  - id: x\n    wieghts: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"help", []string{"--help"}, ExitOK, ""},
		{"format", []string{"--format", "xml"}, ExitUsage, `--format "xml": want text or json`},
		{"argument", []string{"extra"}, ExitUsage, `unexpected argument "extra"`},
		{"billing", []string{"--billing", "weekly"}, ExitUsage, `unknown billing kind "weekly"`},
		{"scenario", []string{"--catalog", cat, "--scenarios", scenariosFile, "--scenario", "mining"}, ExitUsage, `--scenario "mining": not one of llm-training,`},
		{"bad scenarios file", []string{"--catalog", cat, "--scenarios", bad}, ExitError, "bad.yaml:3: field wieghts not found"},
		{"missing catalog", []string{"--catalog", filepath.Join(t.TempDir(), "none.json"), "--scenarios", scenariosFile}, ExitError, "none.json"},
		// An unknown region is named, with the catalog's, instead of an empty matrix.
		{"unknown region", []string{"--catalog", cat, "--scenarios", scenariosFile, "--region", "mars"}, ExitUsage,
			`--region "mars": no offer of the catalog is in that region; its regions are `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runCmd(runScenarios, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errs, tt.code, tt.want)
			}
		})
	}
}

func TestTCO_JSONAndInputAgree(t *testing.T) {
	cat := scenarioFixture(t)
	out := runExit(t, ExitOK, runTCO, nil, "--catalog", cat, "--offer", "aws/p3.8xlarge", "--offer", "aws/p4d.24xlarge", "--region", "us-east-1",
		"--billing", "on_demand", "--hours-per-month", "100", "--months", "12", "--utilisation", "100%", "--benchmarks", "none", "--format", "json")
	var r compare.TCOResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// p3.8xlarge: 100 h × 12.24 = 1224.00 a month, 14688.00 in 12 months.
	// p4d: 8 × 312 / (4 × 125) = 4.992 times as fast: 100 / 4.992 = 20.032051 h
	// × 32.7726 = 656.5022… → 656.50 a month, 7878.00 in 12 months.
	if len(r.Options) != 2 || r.Options[0].TotalUSD.StringFixed(2) != "14688.00" || r.Options[1].TotalUSD.StringFixed(2) != "7878.00" {
		t.Fatalf("totals: %+v", r.Options)
	}
	if len(r.Comparisons) != 1 || r.Comparisons[0].Reason.Code != compare.ReasonTCOComparison {
		t.Fatalf("comparisons = %+v", r.Comparisons)
	}
	if f, ok := r.Comparisons[0].Reason.Figure("b_total"); !ok || f.Value.String() != "14688" || f.Unit != compare.UnitUSD {
		t.Errorf("comparison b_total = %+v", f)
	}

	// The input half of the JSON alone reproduces the result byte for byte: the
	// contract the site's calculator is tested against.
	inPath := filepath.Join(t.TempDir(), "input.json")
	raw, err := json.Marshal(r.Input)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(inPath, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	code, again, errs := runCmd(runTCO, "--input", inPath, "--format", "json")
	if code != ExitOK || again != out {
		t.Errorf("--input: exit %d, stderr %s; output differs from the first run", code, errs)
	}
}

func TestTCO_TextShowsBreakEven(t *testing.T) {
	cat := scenarioFixture(t)
	out := runExit(t, ExitOK, runTCO, nil, "--catalog", cat, "--offer", "aws/p3.8xlarge", "--region", "us-east-1", "--hours-per-month", "500", "--months", "3", "--benchmarks", "none",
		"--interruptions-per-month", "0.2")
	reportHas(t, out,
		"TCO over 3 months: 1 jobs a month of 500 hour on aws/p3.8xlarge each",
		"aws/p3.8xlarge/us-east-1/on_demand",
		"aws/p3.8xlarge/us-east-1/spot",
		"aws/p3.8xlarge/us-east-1/reserved_1y_all_upfront",
		// 60000 / (12 × 12.24) = 408.4967… h → 408.50, shown 408.5; / 730 → 0.5596, 56 %.
		"Reserved 1y, all upfront: costs less than on-demand at 12.24 USD/h above 408.5 h a month (56% utilisation)",
		// The steps keep every figure: 500 h × 12.24 = 6120 a month.
		"month 1 = 500 h × 12.24 USD/h = 6,120 USD",
		"Cumulative cost (USD):",
	)
	zh := runExit(t, ExitOK, runTCO, nil, "--catalog", cat, "--offer", "aws/p3.8xlarge", "--offer", "aws/p4d.24xlarge", "--region", "us-east-1",
		"--billing", "on_demand", "--hours-per-month", "100", "--months", "12", "--benchmarks", "none", "--lang", "zh")
	reportHas(t, zh,
		"12 个月的总拥有成本：每月 1 个作业，每个 100 aws/p3.8xlarge 实例·小时；利用率 100%，每月空闲 0 小时。",
		"速度：按规格估算：8 × 312 FP16 TFLOPS（nvidia-a100-sxm-40gb） / 4 × 125 FP16 TFLOPS（nvidia-v100-sxm2-16gb） = 4.992（aws/p3.8xlarge 的 BF16 TFLOPS 未知）",
		"8x NVIDIA A100 SXM4 40GB 每小时比 4x NVIDIA Tesla V100 SXM2 16GB 贵 168%，但完成一个作业快 80%（每个作业 20.0 小时 对 100 小时）；"+
			"12 个月总成本低 46%（7,878.00 美元 对 14,688.00 美元）",
		"累计成本（美元）：",
	)
	assertNoEnglishRuns(t, "tco --lang zh", zh)
}

func TestTCO_ExitCodes(t *testing.T) {
	cat := scenarioFixture(t)
	dir := t.TempDir()
	empty, list, mistyped := filepath.Join(dir, "empty.json"), filepath.Join(dir, "list.json"), filepath.Join(dir, "mistyped.json")
	for f, body := range map[string]string{empty: "", list: "[]", mistyped: `{"schema":"1"}`} {
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := []string{"--catalog", cat, "--region", "us-east-1", "--benchmarks", "none"}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"help", []string{"-h"}, ExitOK, ""},
		{"no offer", []string{"--region", "us-east-1"}, ExitUsage, "--offer PROVIDER/TYPE and --region R are required"},
		{"offer form", append([]string{"--offer", "p3.8xlarge"}, base...), ExitUsage, `--offer "p3.8xlarge": want PROVIDER/TYPE`},
		{"provider", append([]string{"--offer", "oracle/a2"}, base...), ExitUsage, `unknown provider "oracle"`},
		{"utilisation", append([]string{"--offer", "aws/p3.8xlarge", "--utilisation", "most"}, base...), ExitUsage,
			`--utilisation "most": not a plain decimal number (at most 9 digits after the point): want more than 0 % and at most 100 % (as a share: more than 0 and at most 1)`},
		{"months", append([]string{"--offer", "aws/p3.8xlarge", "--months", "0"}, base...), ExitUsage, "--months 0: out of range: want 1 to 600"},
		{"job hours alone", append([]string{"--offer", "aws/p3.8xlarge", "--job-gpu-hours", "5"}, base...), ExitUsage, "--job-gpu-hours needs --reference-gpu"},
		// Out of range is a usage error naming the flag and the range.
		{"utilisation above 1", append([]string{"--offer", "aws/p3.8xlarge", "--utilisation", "120%"}, base...), ExitUsage,
			`--utilisation "120%": out of range: want more than 0 % and at most 100 % (as a share: more than 0 and at most 1)`},
		{"utilisation 0", append([]string{"--offer", "aws/p3.8xlarge", "--utilisation", "0"}, base...), ExitUsage, `--utilisation "0": out of range`},
		{"hours above 10,000 instances' month", append([]string{"--offer", "aws/p3.8xlarge", "--hours-per-month", "7440001"}, base...), ExitUsage,
			`--hours-per-month "7440001": out of range: want more than 0 and at most 7,440,000`},
		{"hours 1e999", append([]string{"--offer", "aws/p3.8xlarge", "--hours-per-month", "1e999"}, base...), ExitUsage, `--hours-per-month "1e999": not a plain decimal number`},
		{"hours 1e-999", append([]string{"--offer", "aws/p3.8xlarge", "--hours-per-month", "0.0000000001"}, base...), ExitUsage, `--hours-per-month "0.0000000001": not a plain decimal number (at most 9 digits after the point)`},
		{"months 601", append([]string{"--offer", "aws/p3.8xlarge", "--months", "601"}, base...), ExitUsage, "--months 601: out of range: want 1 to 600"},
		{"idle hours", append([]string{"--offer", "aws/p3.8xlarge", "--idle-hours", "800"}, base...), ExitUsage, `--idle-hours "800": out of range: want 0 to 744`},
		{"spot overhead", append([]string{"--offer", "aws/p3.8xlarge", "--spot-overhead", "150%"}, base...), ExitUsage, `--spot-overhead "150%": out of range: want 0 % to 100 % (as a share: 0 to 1)`},
		{"storage", append([]string{"--offer", "aws/p3.8xlarge", "--storage-gb", "-5"}, base...), ExitUsage, `--storage-gb "-5": not a plain decimal number`},
		{"egress price", append([]string{"--offer", "aws/p3.8xlarge", "--egress-usd-per-gb", "5000"}, base...), ExitUsage, `--egress-usd-per-gb "5000": out of range: want 0 to 1,000`},
		{"reserved", append([]string{"--offer", "aws/p3.8xlarge", "--reserved-instances", "10001"}, base...), ExitUsage, "--reserved-instances 10001: out of range: want 0 to 10,000"},
		{"jobs", append([]string{"--offer", "aws/p3.8xlarge", "--reference-gpu", "nvidia-v100-sxm2-16gb", "--job-gpu-hours", "0"}, base...), ExitUsage,
			`--job-gpu-hours "0": out of range: want more than 0 and at most 1,000,000`},
		{"not in catalog", append([]string{"--offer", "aws/p5.48xlarge"}, base...), ExitError, "instance type aws/p5.48xlarge is not in the catalog"},
		{"no such billing", append([]string{"--offer", "aws/p4d.24xlarge", "--billing", "spot"}, base...), ExitError, "aws/p4d.24xlarge has no spot offer in region us-east-1"},
		{"bad input", []string{"--input", filepath.Join(t.TempDir(), "none.json")}, ExitError, "none.json"},
		{"empty input", []string{"--input", empty}, ExitError, "tco: --input: " + empty + ": the file is empty: want a JSON object"},
		{"list input", []string{"--input", list}, ExitError, "tco: --input: " + list + ": the file holds a JSON list, want a JSON object"},
		{"mistyped input", []string{"--input", mistyped}, ExitError, "tco: --input: " + mistyped + ":1:14: schema: want a whole number, found JSON string"},
		{"endless input", []string{"--input", "/dev/zero"}, ExitError, "tco: --input: /dev/zero: not a file (a character device)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runCmd(runTCO, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errs, tt.code, tt.want)
			}
		})
	}
}

// assertNoEnglishRuns fails on a run of four or more English words in text that
// should be Chinese: words of letters only (ids such as aws/p4d.24xlarge, product
// names with digits, and units between figures do not count).
func assertNoEnglishRuns(t *testing.T, what, text string) {
	t.Helper()
	word := regexp.MustCompile(`^[A-Za-z][A-Za-z'-]*[A-Za-z]$`)
	run := []string{}
	check := func() {
		if len(run) >= 4 {
			t.Errorf("%s: English words %q", what, strings.Join(run, " "))
		}
		run = run[:0]
	}
	for _, tok := range strings.Fields(text) {
		tok = strings.Trim(tok, ",.;:()[]!?\"'")
		if word.MatchString(tok) {
			run = append(run, tok)
			continue
		}
		check()
	}
	check()
}
