package cli

import (
	"strings"
	"testing"
)

// The example on the embedded catalog: p4d.24xlarge spot in us-east-1
// (8.59075 USD/h, advisor band 10-15% of 2025-06-28) with a 30-minute
// checkpoint and the default 10-minute restart, busy all month:
// 0.15 interruptions × (30/2 + 10)/60 = 0.416667 h = 0.0625 h lost;
// 730.0625 h × 8.59075 = 6271.784421875 → 6,271.78 USD.
func TestTCO_SpotRiskFromTheAdvisorBand(t *testing.T) {
	out := runExit(t, ExitOK, runTCO, nil, "--offer", "aws/p4d.24xlarge", "--region", "us-east-1", "--billing", "spot",
		"--checkpoint-minutes", "30", "--months", "1", "--benchmarks", "none", "--lang", "en")
	reportHas(t, out,
		"interruption band 10-15% (Spot Instance Advisor, fetched 2025-06-28): its upper bound 15% read as 0.15 interruptions a month of one instance; lost per interruption = (30 min checkpoint / 2 + 10 min restart) / 60 = 0.416667 h",
		"0.0625 h lost",
		"= 730.0625 h",
		"6,271.78 USD",
	)
}

func TestTCO_SpotWithoutBandAsksForARate(t *testing.T) {
	cat := scenarioFixture(t)
	code, _, errs := runCmd(runTCO, "--catalog", cat, "--offer", "aws/p3.8xlarge", "--region", "us-east-1", "--billing", "spot", "--benchmarks", "none")
	if code != ExitError || !strings.Contains(errs, "--interruptions-per-month") {
		t.Errorf("exit %d, stderr %q: want a failure asking for --interruptions-per-month", code, errs)
	}
	code, out, errs := runCmd(runTCO, "--catalog", cat, "--offer", "aws/p3.8xlarge", "--region", "us-east-1", "--benchmarks", "none", "--lang", "en")
	if code != ExitOK || !strings.Contains(out, "spot in region us-east-1 has no interruption band (the Spot Instance Advisor has no row for it): left out; give an interruption rate to include it") {
		t.Errorf("exit %d, stderr %s: default billing should leave spot out with a note:\n%s", code, errs, out)
	}
	code, zh, _ := runCmd(runTCO, "--catalog", cat, "--offer", "aws/p3.8xlarge", "--region", "us-east-1", "--benchmarks", "none", "--lang", "zh")
	if code != ExitOK || !strings.Contains(zh, "没有中断频率区间（AWS 竞价中断数据中没有这一行）：未计入") {
		t.Errorf("zh: exit %d: the note in Chinese is missing:\n%s", code, zh)
	}
	for _, bad := range [][]string{{"--checkpoint-minutes", "0"}, {"--restart-minutes", "99999"}, {"--interruptions-per-month", "101"}, {"--checkpoint-minutes", "1e3"}} {
		code, _, errs := runCmd(runTCO, append([]string{"--catalog", cat, "--offer", "aws/p3.8xlarge", "--region", "us-east-1"}, bad...)...)
		if code != ExitUsage || !strings.Contains(errs, bad[0]) {
			t.Errorf("%v: exit %d, stderr %q: want a usage error naming the flag", bad, code, errs)
		}
	}
}
