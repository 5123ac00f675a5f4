package sitegen

import (
	"html"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
)

// scratchMarkers are phrases of the GPU reference's research notes: text for
// whoever maintains data/gpus.csv, not for a buyer.
var scratchMarkers = []string{"Not in Epoch", "No datasheet found", "not sourced", "inferred", "searched corpora",
	"hence alias share", "All figures empty", "TODO", "Epoch board-level"}

// Spec notes shown to buyers read as sentences in both languages or are not
// shown: a GPU page shows the reference's coded figures (GPUs per board,
// capability) in words, never the research notes of data/gpus.csv, nor a
// model name that reads as a note.
func TestGPUPages_NoScratchNotes(t *testing.T) {
	ref := datatest.Load(t, catalog.LoadGPUReference)
	opts := realRows(t, "aws/g4ad.xlarge", "aws/p2.xlarge", "aws/inf2.xlarge", "alibaba/ecs.gn9g-2x.16xlarge", "aws/g3s.xlarge")
	build(t, opts)
	pages := map[string]string{"amd-radeon-pro-v520": "", "nvidia-k80-24gb": "", "aws-inferentia2": "", "nvidia-l20n-48gb": "", "nvidia-m60-16gb": ""}
	for id := range pages {
		m, ok := ref.Model(id)
		if !ok {
			t.Fatalf("%s not in the reference", id)
		}
		if m.Notes == "" {
			t.Errorf("%s has no notes: this test checks nothing for it", id)
		}
		for _, lang := range []string{"", "zh/"} {
			page := readPage(t, opts.OutDir, lang+"gpus/"+id+".html")
			text := html.UnescapeString(page)
			if strings.Contains(text, m.Notes) {
				t.Errorf("%sgpus/%s.html shows the reference's research note", lang, id)
			}
			for _, mk := range scratchMarkers {
				if strings.Contains(text, mk) {
					t.Errorf("%sgpus/%s.html contains scratch text %q", lang, id, mk)
				}
			}
			if strings.Contains(m.Name, "'") {
				t.Errorf("%s: name %q reads as a note", id, m.Name)
			}
		}
	}
	wantContains(t, "K80 page", readPage(t, opts.OutDir, "gpus/nvidia-k80-24gb.html"), `<dt>GPUs per board</dt><dd>2 `, `<dt>Memory</dt><dd>12 GB`)
	// The maker's unit: the Neuron documentation states Inferentia2's memory
	// in GiB, shown so with its GB equivalent (the figure the rules use).
	wantContains(t, "Inferentia2 page", readPage(t, opts.OutDir, "gpus/aws-inferentia2.html"), `<dt>Memory</dt><dd>32 GiB (34.36 GB)`)
	wantContains(t, "zh K80 page", readPage(t, opts.OutDir, "zh/gpus/nvidia-k80-24gb.html"), `<dt>每块板卡的 GPU 数</dt><dd>2 `)
}

// An estimated price is never a GPU page's "spot from": the H200's AWS spot
// price was 1.42 USD per GPU-hour, an estimate; every AWS spot figure shown
// per provider is observed.
func TestEmbedded_EstimatedNeverLeads(t *testing.T) {
	m := embeddedModel(t)
	estimated := 0
	for _, o := range m.offers {
		if o.Offer.Estimated {
			estimated++
		}
	}
	if estimated == 0 {
		t.Fatal("the embedded catalog has no estimated offer: this test checks nothing")
	}
	for _, id := range m.gpuModels() {
		for _, p := range m.gpuPage(id).ByProvider {
			for _, o := range []*offerView{p.onDemand, p.spot, p.reserved} {
				if o != nil && o.Offer.Estimated {
					t.Errorf("%s: %s's lowest price is the estimate %s", id, p.Provider, o.Key)
				}
			}
		}
	}
	for _, p := range m.gpuPage("nvidia-h200-sxm-141gb").ByProvider {
		if p.Provider == catalog.AWS && (p.Spot == nil || p.Spot.LessThan(catalog.Dec("1.5"))) {
			t.Errorf("H200 AWS spot from %v USD per GPU-hour: the estimate", p.Spot)
		}
	}
}
