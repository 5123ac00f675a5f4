package sitegen

import (
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/templates"
)

// embeddedModel is the site model of the embedded catalog (data/catalog.json).
func embeddedModel(t testing.TB) *siteModel {
	t.Helper()
	snap := datatest.Snapshot(t)
	ref := datatest.Load(t, catalog.LoadGPUReference)
	m, err := newSiteModel(canonicalCopy(snap), ref, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestEmbedded_SuspectNeverLeads checks, on the embedded catalog, the answers
// suspect offers used to lead: the GPU index's "from" price of the Tesla P4
// (0.0059 USD a GPU-hour: Alibaba's ecs.gn5i-c12g1.6xlarge at 0.084 CNY an
// hour), the H100's lowest spot price per provider (p5.48xlarge in
// ap-southeast-3 at 7.59552 USD, a tenth of on-demand), every type's cheapest
// on-demand offer and the GPU price trend's minima.
func TestEmbedded_SuspectNeverLeads(t *testing.T) {
	m := embeddedModel(t)
	suspect := 0
	for _, o := range m.offers {
		if !o.Offer.Plausible() {
			suspect++
		}
	}
	if suspect == 0 {
		t.Fatal("the embedded catalog has no suspect offer: this test checks nothing")
	}
	var p4 *gpuSummary
	idx := m.gpuIndex()
	for i, s := range idx.Models {
		if s.CheapestOffer != nil && !s.CheapestOffer.Offer.Plausible() {
			t.Errorf("GPU index: %s is from a suspect offer %s", s.ID, s.CheapestOffer.Key)
		}
		if s.ID == "nvidia-p4-8gb" {
			p4 = &idx.Models[i]
		}
	}
	if p4 == nil || p4.Cheapest == nil {
		t.Fatal("no P4 in the GPU index")
	}
	if p4.Cheapest.LessThan(catalog.Dec("0.1")) {
		t.Errorf("P4 is from %s USD a GPU-hour (%s): the suspect gn5i price", p4.Cheapest, p4.CheapestOffer.Key)
	}
	if !p4.CheapestOffer.Undated {
		t.Errorf("P4's from price %s (Alibaba, capture date unknown) is not marked undated", p4.CheapestOffer.Key)
	}

	h100 := m.gpuPage("nvidia-h100-sxm-80gb")
	for _, p := range h100.ByProvider {
		if p.Provider != catalog.AWS {
			continue
		}
		if p.Spot == nil || p.spot == nil {
			t.Fatal("no AWS spot price for the H100")
		}
		if !p.spot.Offer.Plausible() || p.spot.Offer.Region == "ap-southeast-3" {
			t.Errorf("AWS H100 spot from %s (%s)", p.spot.Key, p.Spot)
		}
		if !p.Old {
			t.Error("AWS's H100 prices (observed 2025-11-30) are not marked stale")
		}
	}
	for _, r := range h100.Rows {
		for _, p := range r.Prices {
			if p.Offer != nil && !p.Offer.Offer.Plausible() {
				t.Errorf("the H100 page gives the suspect %s as %s's cheapest %s", p.Offer.Key, r.Type.T.ID, p.Group)
			}
		}
	}
	for _, tv := range m.types {
		d := m.instancePage(tv)
		for _, p := range d.Summary {
			if p.Offer != nil && !p.Offer.Offer.Plausible() {
				t.Errorf("%s: the summary gives the suspect %s as the cheapest %s", tv.T.Key(), p.Offer.Key, p.Group)
			}
		}
	}

	m.indexSimilar()
	for key, o := range m.cheapestOnDemand {
		if o != nil && !o.Offer.Plausible() {
			t.Errorf("%s: cheapest on-demand offer %s is suspect", key, o.Key)
		}
	}
	for model, byProvider := range gpuMinima(m.snap) {
		if model == "nvidia-p4-8gb" {
			if v, ok := byProvider[catalog.Alibaba]; ok && v.LessThan(catalog.Dec("0.1")) {
				t.Errorf("P4 trend minimum for Alibaba is %s: the suspect price", v)
			}
		}
	}
}

// TestEmbedded_DataAge states every provider's data age on the embedded
// catalog (taken 2026-12-01): AWS observed 2025-11-30 (China regions
// 2026-01-21), stale; Alibaba and Tencent undated; Huawei's one reported price;
// Volcano Engine without data; Azure observed 2026-06-18 (the catalog is of
// 2026-12-04, the newest retrieval).
func TestEmbedded_DataAge(t *testing.T) {
	m := embeddedModel(t)
	langs := newLanguages()
	if err := loadMessages(templates.FS, langs); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[catalog.Provider]string{
		"en": {
			catalog.AWS:        "AWS prices observed 2025-11-30 to 2026-01-21; the oldest 369 days ago",
			catalog.Alibaba:    "Alibaba Cloud prices: observation date unknown (retrieved 2026-11-30)",
			catalog.Tencent:    "Tencent Cloud prices: observation date unknown (retrieved 2026-11-30)",
			catalog.Huawei:     "Huawei Cloud price reported 2026-07-13, 144 days ago",
			catalog.Volcengine: "Volcano Engine: adapter ready; no public catalog data; add credentials to crawl it",
			catalog.Azure:      "Microsoft Azure prices observed 2026-06-18, 169 days ago",
		},
		"zh": {
			catalog.AWS:        "AWS（亚马逊云科技） 价格观测于 2025-11-30 至 2026-01-21；最早的为 369 天前",
			catalog.Azure:      "微软 Azure 价格观测于 2026-06-18，169 天前",
			catalog.Volcengine: "火山引擎：适配器已就绪；没有公开的目录数据；添加凭证即可抓取",
		},
	}
	for _, l := range langs {
		lines, err := m.ageLines(l)
		if err != nil {
			t.Fatal(err)
		}
		got := map[catalog.Provider]ageLine{}
		for _, a := range lines {
			got[a.Provider] = a
		}
		for p, text := range want[l.Tag] {
			if got[p].Text != text {
				t.Errorf("%s %s: %q, want %q", l.Tag, p, got[p].Text, text)
			}
		}
		if l.Tag == "en" {
			if !got[catalog.AWS].Stale || !got[catalog.Huawei].Stale || got[catalog.Alibaba].Stale || !got[catalog.Alibaba].Undated {
				t.Errorf("marks: aws stale %v, huawei stale %v, alibaba stale %v undated %v",
					got[catalog.AWS].Stale, got[catalog.Huawei].Stale, got[catalog.Alibaba].Stale, got[catalog.Alibaba].Undated)
			}
		}
	}
}
