package sitegen

// grammarField is one field of the filter expressions (README "Filter
// expressions"; static/filter.js parses them) as the explorer's help lists it:
// its name, the other names it answers to, its type (number, text, name,
// keyword) and what it describes (type, offer, price). The help's words are
// the message "field.<name>" in each language. TestBrowser_FilterGrammar checks
// this list against the script's.
type grammarField struct {
	Name    string
	Aliases []string
	Type    string
	Level   string
}

var grammarFields = []grammarField{
	{"provider", []string{"cloud"}, "name", "type"},
	{"type", []string{"instance", "instance_type"}, "text", "type"},
	{"family", nil, "text", "type"},
	{"gpu", []string{"gpu_model", "model", "accelerator"}, "name", "type"},
	{"kind", nil, "keyword", "type"},
	{"gpus", []string{"gpu_count", "count"}, "number", "type"},
	{"gpu_memory", []string{"gpu_mem", "vram"}, "number", "type"},
	{"gpu_memory_total", []string{"total_gpu_memory"}, "number", "type"},
	{"vcpus", []string{"vcpu", "cpu"}, "number", "type"},
	{"memory", []string{"mem", "ram"}, "number", "type"},
	{"cpu_per_gpu", nil, "number", "type"},
	{"disk", []string{"local_disk"}, "number", "type"},
	{"network", []string{"net"}, "number", "type"},
	{"rdma", []string{"efa"}, "name", "type"},
	{"interconnect", []string{"nvlink"}, "name", "type"},
	{"scenario", []string{"fits"}, "keyword", "type"},
	{"region", nil, "name", "offer"},
	{"country", nil, "keyword", "offer"},
	{"zone", []string{"zones"}, "text", "offer"},
	{"billing", nil, "keyword", "offer"},
	{"availability", []string{"avail", "stock"}, "keyword", "offer"},
	{"marks", []string{"mark"}, "keyword", "offer"},
	{"fetched", []string{"fetched_at", "last_seen"}, "text", "offer"},
	{"price", nil, "number", "price"},
	{"gpu_price", []string{"per_gpu", "price_per_gpu", "gpu_hour"}, "number", "price"},
	{"gib_price", []string{"price_per_gib"}, "number", "price"},
	{"saving", []string{"savings"}, "number", "price"},
	{"on_demand", nil, "number", "price"},
	{"spot", nil, "number", "price"},
	{"reserved_1y", nil, "number", "price"},
	{"reserved_3y", nil, "number", "price"},
	{"subscription_month", nil, "number", "price"},
	{"subscription_year", nil, "number", "price"},
	{"interruption", nil, "number", "offer"},
}
