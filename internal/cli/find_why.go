package cli

import (
	"strconv"
	"strings"

	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/termtext"
)

// whyFieldLabels are the words naming a field in find's answer to "why
// nothing": the explorer's column labels (static/explorer-view.js COLS lbl,
// TestFind_WhyLabelsAreTheExplorers), for the fields whose values it names.
var whyFieldLabels = map[string]string{
	"type": "col.instance_type", "provider": "col.provider", "family": "col.family", "gpu": "col.gpu_model",
	"kind": "col.kind", "gpus": "col.gpus", "gpu_memory": "ex.head.gpu_memory", "gpu_memory_total": "col.gpu_mem",
	"vcpus": "col.vcpus", "memory": "col.memory", "cpu_per_gpu": "col.cpu_per_gpu", "disk": "col.disk",
	"network": "col.network", "rdma": "col.rdma", "interconnect": "col.interconnect", "region": "col.region",
	"country": "ex.head.country", "zone": "col.zone", "billing": "col.billing", "availability": "col.availability",
	"fetched": "col.fetched_at", "marks": "col.marks", "interruption": "ex.head.interruption",
}

// whyValueLabels are the word families that name a field's codes, as the
// explorer's column options label them.
var whyValueLabels = map[string]string{
	"provider": "provider.", "country": "country.", "billing": "billing.", "availability": "avail.", "kind": "kind.", "marks": "badge.",
}

// whyText is the sentence saying why nothing matches, in the explorer's words
// (ex.empty_*).
func whyText(msgs map[string]string, w compare.FindWhy) string {
	if w.Code == compare.WhyAll {
		return msgs["ex.empty_all"]
	}
	field := w.Field
	if k, ok := whyFieldLabels[w.Field]; ok && msgs[k] != "" {
		field = msgs[k]
	}
	vals := make([]string, len(w.Values))
	for i, v := range w.Values {
		vals[i] = v
		if p, ok := whyValueLabels[w.Field]; ok && msgs[p+v] != "" {
			vals[i] = msgs[p+v]
		}
	}
	values := strings.Join(vals, msgs["ex.values_sep"])
	if w.More {
		values += " …"
	}
	return fill(msgs["ex.empty_"+w.Code], "term", termtext.Clip(w.Term), "n", strconv.Itoa(w.N), "field", field, "values", values)
}
