package sitegen

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/templates"
)

// TestOfferFacts_OutputsAgree computes compare's offer facts for every offer
// of the embedded catalog and checks that every output carries the table's
// figures, not figures of its own: the API's offer objects, the JSON export
// (the CSV's cells), the explorer's data (offers.json), the pages' offer
// model, and find's rows (per GPU- and GiB-hour of a row's first price).
func TestOfferFacts_OutputsAgree(t *testing.T) {
	m := embeddedModel(t)
	tb := compare.NewOfferFactTable(m.snap, nil)
	if len(tb.Facts) != len(m.snap.Offers) || len(m.offers) != len(tb.Facts) {
		t.Fatalf("%d facts, %d offers, %d offer views", len(tb.Facts), len(m.snap.Offers), len(m.offers))
	}
	str := func(d *decimal.Decimal) string {
		if d == nil {
			return ""
		}
		return d.String()
	}
	amount := func(v any) string { // an API money object's amount, "" when absent
		mo, _ := v.(map[string]any)
		s, _ := mo["amount"].(string)
		return s
	}
	num := func(v any) string { // an offers.json number, "" for null or absent
		if n, ok := v.(json.Number); ok {
			return n.String()
		}
		return ""
	}

	// The export, as gpuatlas export --format json writes it.
	var exp bytes.Buffer
	if err := WriteOffersJSON(&exp, m.snap); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(exp.Bytes(), &rows); err != nil {
		t.Fatal(err)
	}
	// The explorer's data.
	b, err := m.offersJSON()
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var od struct {
		Offers struct {
			GPUHour []any          `json:"gpu_hour"`
			GiBHour []any          `json:"gib_hour"`
			Saving  []any          `json:"saving"`
			Band    map[string]int `json:"interruption"`
		} `json:"offers"`
	}
	if err := dec.Decode(&od); err != nil {
		t.Fatal(err)
	}
	a := newAPISite(m, nil, nil)
	counts := map[string]int{}
	for i, f := range tb.Facts {
		o := m.offers[i]
		// The API's offer object.
		j, err := json.Marshal(a.offer(o))
		if err != nil {
			t.Fatal(err)
		}
		var api map[string]any
		if err := json.Unmarshal(j, &api); err != nil {
			t.Fatal(err)
		}
		saving, _ := api["saving_vs_on_demand_pct"].(string)
		status, _ := api["interruption"].(string)
		band, _ := api["band"].(string)
		usdRisk := ""
		if f.SpotRisk != nil {
			usdRisk = str(f.SpotRisk.USDPerHour)
		}
		for _, c := range []struct{ what, got, want string }{
			{"api per_gpu_hour", amount(api["per_gpu_hour"]), str(f.GPUHour)},
			{"api usd_per_gpu_hour", amount(api["usd_per_gpu_hour"]), str(f.USDGPUHour)},
			{"api per_gib_hour", amount(api["per_gib_hour"]), str(f.GiBHour)},
			{"api usd_per_gib_hour", amount(api["usd_per_gib_hour"]), str(f.USDGiBHour)},
			{"api saving", saving, str(f.SavingPct)},
			{"api interruption", status, f.SpotStatus},
			{"api band", band, string(f.SpotBand)},
			{"api risk_per_hour", amount(api["risk_per_hour"]), str(f.RiskHour)},
			{"api risk_usd_per_hour", amount(api["risk_usd_per_hour"]), usdRisk},
			{"export key", rows[i]["provider"].(string) + "/" + rows[i]["instance_type"].(string) + "/" + rows[i]["region"].(string) + "/" +
				rows[i]["zone"].(string) + "/" + rows[i]["billing"].(string), f.Key},
			{"export price_per_gpu_hour", rows[i]["price_per_gpu_hour"].(string), str(f.GPUHour)},
			{"export price_per_gib_hour", rows[i]["price_per_gib_hour"].(string), str(f.GiBHour)},
			{"export saving_vs_on_demand_pct", rows[i]["saving_vs_on_demand_pct"].(string), str(f.SavingPct)},
			{"export spot_risk_price_per_hour", rows[i]["spot_risk_price_per_hour"].(string), str(f.RiskHour)},
			{"offers.json gpu_hour", num(od.Offers.GPUHour[i]), str(f.GPUHour)},
			{"offers.json gib_hour", num(od.Offers.GiBHour[i]), str(f.GiBHour)},
			{"offers.json saving", num(od.Offers.Saving[i]), str(f.SavingPct)},
			{"page model key", o.Key, f.Key},
			{"page usd per GPU-hour", str(o.USDGPUHour), str(f.USDGPUHour)},
			{"page per GPU-hour", str(o.NativeGPUHour), str(f.GPUHour)},
		} {
			if c.got != c.want {
				t.Errorf("%s: %s = %q, the table's %q", f.Key, c.what, c.got, c.want)
			}
		}
		if bi, ok := od.Offers.Band[strconv.Itoa(i)]; ok != (f.SpotBand != "") || (ok && catalog.InterruptionBands[bi] != f.SpotBand) {
			t.Errorf("%s: offers.json band %d (%v), the table's %q", f.Key, bi, ok, f.SpotBand)
		}
		for what, has := range map[string]bool{"per GPU": f.GPUHour != nil, "per GiB": f.GiBHour != nil, "saving": f.SavingPct != nil, "risk": f.RiskHour != nil} {
			if has {
				counts[what]++
			}
		}
	}
	// find's rows: each row's per-GPU and per-GiB prices are its first price's
	// facts, in USD and in each offer's own currency.
	for _, cur := range []string{"USD", "native"} {
		res, err := compare.Find(m.snap, compare.FindInput{}, compare.FindQuery{Currency: cur})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Rows {
			f, _ := tb.Of(r.Cells[r.Primary].Offer.Key())
			gpu, gib := f.GPUHour, f.GiBHour
			if cur == "USD" {
				gpu, gib = f.USDGPUHour, f.USDGiBHour
			}
			if str(r.PerGPU) != str(gpu) || str(r.PerGiB) != str(gib) {
				t.Errorf("find %s %s: per GPU %s, per GiB %s; the table's %s, %s", cur, r.Type.Key(), str(r.PerGPU), str(r.PerGiB), str(gpu), str(gib))
			}
			for c, cell := range r.Cells {
				if cell == nil || c == 0 {
					continue
				}
				cf, _ := tb.Of(cell.Offer.Key())
				if (cell.Saving == nil) != (cf.SavingPct == nil) || (cell.Saving != nil && *cell.Saving != cf.SavingPct.InexactFloat64()) {
					t.Errorf("find %s: saving %v, the table's %s", cell.Offer.Key(), cell.Saving, str(cf.SavingPct))
				}
			}
		}
	}
	// The catalog has every kind of fact, so the checks above were not empty.
	for _, what := range []string{"per GPU", "per GiB", "saving", "risk"} {
		if counts[what] < 100 {
			t.Errorf("only %d offers have a %s fact", counts[what], what)
		}
	}
	t.Logf("%d offers: %v", len(tb.Facts), counts)
}

// TestOfferFacts_ScriptsOnlyConvert pins the rule that the explorer's and
// the compare page's scripts derive no offer fact: no price divided by a GPU
// count or a GPU memory size, no saving worked out of two prices. They read
// offers.json's facts (gpu_hour, gib_hour, saving) and convert
// them with GPUAtlas.inCur. (vCPUs per GPU is a spec of the type, not a
// price, and stays.)
func TestOfferFacts_ScriptsOnlyConvert(t *testing.T) {
	perUnit := regexp.MustCompile(`([\w.\]\)]+)\s*/\s*[\w.]*\b(units|gmem|gmemEach)\b`)
	saving := regexp.MustCompile(`1\s*-\s*[^;]*/[^;]*\)\s*\*\s*100`)
	for _, name := range []string{"atlas.js", "compare.js", "explorer.js", "explorer-view.js", "explorer-controls.js", "sort.js"} {
		b, err := fs.ReadFile(templates.FS, "static/"+name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range perUnit.FindAllStringSubmatch(line, -1) {
				if !strings.HasSuffix(m[1], "vcpus") {
					t.Errorf("static/%s:%d divides by a GPU count or memory (%q): read the offer's facts instead", name, i+1, m[0])
				}
			}
			if saving.MatchString(line) {
				t.Errorf("static/%s:%d works out a saving: read the offer's saving fact instead", name, i+1)
			}
		}
	}
	// The check sees what it is for.
	for _, bad := range []string{"x / r.units", "v.price / t.gmem", "return (1 - r._sp / od._sp) * 100;"} {
		if !perUnit.MatchString(bad) && !saving.MatchString(bad) {
			t.Errorf("the check misses %q", bad)
		}
	}
}
