package sitegen

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/apischema"
	"github.com/gpuatlas/gpuatlas/internal/pagetext"
)

// withSpotBands gives the test catalog's spot offers their interruption risk:
// p5.48xlarge's spot offer in us-east-1 (39.33 USD) the advisor's band >20%,
// and an Alibaba spot offer (no rate published) for the A10 type. It runs
// before withScenarios, which ranks the catalog.
func withSpotBands(_ testing.TB, o *Options) {
	at := time.Date(2025, 6, 28, 0, 0, 0, 0, time.UTC)
	for i := range o.Snapshot.Offers {
		f := &o.Snapshot.Offers[i]
		if f.Provider == catalog.AWS && f.InstanceType == "p5.48xlarge" && f.Billing == catalog.Spot {
			f.Interruption = &catalog.Interruption{Band: catalog.BandOver20, SavingsPct: 60, ObservedAt: at, Source: "AWS Spot Instance Advisor (test)"}
		}
	}
	for _, f := range o.Snapshot.Offers {
		if f.Provider == catalog.Alibaba && f.InstanceType == "ecs.gn7i-c8g1.2xlarge" && f.Billing == catalog.OnDemand {
			f.Billing, f.Price.Amount = catalog.Spot, catalog.Dec("2.13")
			o.Snapshot.Offers = append(o.Snapshot.Offers, f)
			break
		}
	}
}

// An interruptible scenario's page ranks the types on spot at the
// risk-adjusted price, after the on-demand ranking; other scenarios have no
// such section. By hand, for p5.48xlarge's spot offer (39.33 USD, band >20%:
// 1 interruption a month) with the default 60-minute checkpoint and
// 10-minute restart: loss = (60 / 2 + 10) / 60 = 0.666667 h; 39.33 × 1 ×
// 0.666667 / 730 = 0.0359178… → 0.03591783; 39.33 + 0.03591783 =
// 39.36591783 USD an hour: 39.37 USD on the English page, and at 7.1 CNY a
// USD 279.498… → 279.50 CNY on the Chinese one (the list price 39.33 × 7.1 =
// 279.243 → 279.24 CNY; the risk adds 0.03591783 × 7.1 = 0.2550 CNY). The
// Alibaba offer: 2.13 CNY / 7.1 = 0.3 USD, ranked at that, no rate assumed.
func TestScenarioPages_SpotRanking(t *testing.T) {
	out := buildSite(t, withSpotBands, withScenarios)
	page := readPage(t, out, "scenarios/llm-training.html")
	spot := pagePart(t, page, `<h2 id="spot">`, `<h2 id="by-provider">`)
	if strings.Index(page, `<h2 id="ranking">`) > strings.Index(page, `<h2 id="spot">`) {
		t.Error("the spot section comes before the on-demand ranking")
	}
	wantContains(t, "llm-training's spot section", spot,
		`<h2 id="spot">Spot, risk-adjusted</h2>`,
		`<tr data-key="aws/p5.48xlarge" data-interruption="band" data-band="&gt;20%">`,
		`<a href="/instances/aws/p5.48xlarge.html">aws/p5.48xlarge</a>`,
		`<a href="/gpus/nvidia-h100-sxm-80gb.html">8x NVIDIA H100 SXM5 80GB`,
		`<td class="num">39.33 USD`,
		`<strong>&gt;20%</strong> <small>advisor, fetched 2025-06-28</small>`,
		`<strong>39.37 USD</strong><small class="sub">&#43;0.0359 USD for the risk</small>`,
		`a checkpoint every 60 minutes, plus a 10-minute restart`,
		`<a href="/tco.html#calculator">`,
	)
	zh := pagePart(t, readPage(t, out, "zh/scenarios/llm-training.html"), `<h2 id="spot">`, `<h2 id="by-provider">`)
	wantContains(t, "zh llm-training's spot section", zh,
		`<h2 id="spot">竞价（按中断风险调整）</h2>`,
		`<td class="num">279.24 CNY<small class="id" translate="no">39.33 USD</small>`,
		`<strong>&gt;20%</strong> <small>获取于 2025-06-28</small>`,
		`<strong>279.50 CNY</strong><small class="id" translate="no">39.37 USD</small><small class="sub">风险加价 &#43;0.2550 人民币</small>`,
		`每 60 分钟一个检查点`,
		`<a href="/zh/tco.html#calculator">`,
	)
	if text := pagetext.Visible(zh, "en"); len(pagetext.EnglishRuns(text)) > 0 {
		t.Errorf("English in the Chinese spot section: %q", pagetext.EnglishRuns(text))
	}
	// Without a band: the list price, said so; Alibaba's "not published".
	found := false
	for _, id := range []string{"llm-finetune", "cv-training", "batch-inference", "rendering-3d"} {
		p := readPage(t, out, "scenarios/"+id+".html")
		if !strings.Contains(p, `<h2 id="spot">`) {
			t.Errorf("%s (interruptible) has no spot section", id)
		}
		if part := pagePart(t, p, `<h2 id="spot">`, `<h2 id="by-provider">`); strings.Contains(part, `data-key="alibaba/ecs.gn7i-c8g1.2xlarge" data-interruption="not_published"`) {
			found = true
			wantContains(t, id+"'s spot section", part, "interruption rate not published",
				`<td class="num">0.3000 USD<small class="id" translate="no">2.1300 CNY</small><small class="sub">as published: no rate assumed</small></td>`)
		}
	}
	if !found {
		t.Error("the Alibaba spot offer (not published) is in no spot ranking")
	}
	for _, id := range []string{"online-inference", "llm-inference-large", "video-transcoding", "hpc-fp64", "dev-test"} {
		for _, name := range []string{"scenarios/" + id + ".html", "zh/scenarios/" + id + ".html"} {
			if p := readPage(t, out, name); strings.Contains(p, `id="spot"`) || strings.Contains(p, "spot-ranking") {
				t.Errorf("%s has a spot section", name)
			}
		}
	}
	idx := readPage(t, out, "scenarios/index.html")
	wantContains(t, "the scenario index", idx, `<a href="/scenarios/llm-training.html#spot">Risk-adjusted ranking</a>`)
	if strings.Contains(idx, `/scenarios/online-inference.html#spot`) {
		t.Error("the index links a spot ranking of online-inference")
	}

	// The API documents: the same ranking, and none for the others; every
	// document valid.
	type money struct{ Amount, Currency string }
	type ranked struct {
		InstanceType          string `json:"instance_type"`
		USDPerHour            *money `json:"usd_per_hour"`
		Interruption, Band    string
		InterruptionsPerMonth string `json:"interruptions_per_month"`
		LossHours             string `json:"loss_hours"`
		RiskUSDPerHour        *money `json:"risk_usd_per_hour"`
	}
	type doc struct {
		Spot *struct {
			Billing           string
			CheckpointMinutes string `json:"checkpoint_minutes"`
			RestartMinutes    string `json:"restart_minutes"`
			Ranked            []ranked
		}
	}
	d := apiDoc[doc](t, out, "scenarios/llm-training.json")
	if d.Spot == nil || d.Spot.Billing != "spot" || d.Spot.CheckpointMinutes != "60" || d.Spot.RestartMinutes != "10" || len(d.Spot.Ranked) != 1 {
		t.Fatalf("llm-training's spot ranking %+v", d.Spot)
	}
	if r := d.Spot.Ranked[0]; r.InstanceType != "p5.48xlarge" || r.USDPerHour == nil || r.USDPerHour.Amount != "39.33" || r.Interruption != "band" ||
		r.Band != ">20%" || r.InterruptionsPerMonth != "1" || r.LossHours != "0.666667" || r.RiskUSDPerHour == nil || r.RiskUSDPerHour.Amount != "39.36591783" {
		t.Errorf("p5.48xlarge on spot %+v", r)
	}
	if d := apiDoc[doc](t, out, "scenarios/online-inference.json"); d.Spot != nil {
		t.Errorf("online-inference has a spot ranking: %+v", d.Spot)
	}
	_, problems, err := apischema.Validate(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}
