package compare

// The filter expressions of the explorer's filter box and of `gpuatlas find`
// (README "Filter expressions"): one written grammar, parsed here in Go and in
// templates/static/filter.js in the browser, both checked against the same
// vectors (sitegen/testdata/filter_parse.json for parsing,
// compare/testdata/find_vectors.json for the rows an expression keeps).

// FilterField is one field of the grammar: its name, the other names it
// answers to, its type (number, text, name, keyword) and what it describes
// (type: the instance type; offer: where and how it is sold; price: a row's
// price). Values lists a keyword field's codes (nil: any country code, or the
// scenario ids of the data).
type FilterField struct {
	Name    string
	Aliases []string
	Type    string
	Level   string
	Values  []string
}

// FilterBilling are the values a billing term takes: the exact billing kinds
// and the groups (reserved, reserved_1y, reserved_3y, subscription).
var FilterBilling = []string{"on_demand", "spot", "reserved", "reserved_1y", "reserved_3y", "reserved_1y_no_upfront",
	"reserved_1y_all_upfront", "reserved_3y_no_upfront", "reserved_3y_all_upfront", "subscription",
	"subscription_month", "subscription_year"}

// FilterFields are the grammar's fields in the order the explorer's help lists
// them; static/filter.js has the same list (TestBrowser_FilterGrammar).
var FilterFields = []FilterField{
	{"provider", []string{"cloud"}, "name", "type", nil},
	{"type", []string{"instance", "instance_type"}, "text", "type", nil},
	{"family", nil, "text", "type", nil},
	{"gpu", []string{"gpu_model", "model", "accelerator"}, "name", "type", nil},
	{"kind", nil, "keyword", "type", []string{"gpu", "npu", "fpga", "inference", "media"}},
	{"gpus", []string{"gpu_count", "count"}, "number", "type", nil},
	{"gpu_memory", []string{"gpu_mem", "vram"}, "number", "type", nil},
	{"gpu_memory_total", []string{"total_gpu_memory"}, "number", "type", nil},
	{"vcpus", []string{"vcpu", "cpu"}, "number", "type", nil},
	{"memory", []string{"mem", "ram"}, "number", "type", nil},
	{"cpu_per_gpu", nil, "number", "type", nil},
	{"disk", []string{"local_disk"}, "number", "type", nil},
	{"network", []string{"net"}, "number", "type", nil},
	{"rdma", []string{"efa"}, "name", "type", nil},
	{"interconnect", []string{"nvlink"}, "name", "type", nil},
	{"scenario", []string{"fits"}, "keyword", "type", nil},
	{"region", nil, "name", "offer", nil},
	{"country", nil, "keyword", "offer", nil},
	{"zone", []string{"zones"}, "text", "offer", nil},
	{"billing", nil, "keyword", "offer", FilterBilling},
	{"availability", []string{"avail", "stock"}, "keyword", "offer", []string{"available", "sold_out", "unknown"}},
	{"marks", []string{"mark"}, "keyword", "offer", []string{"synthetic", "suspect", "reported", "estimated", "stale", "undated", "none"}},
	{"fetched", []string{"fetched_at", "last_seen"}, "text", "offer", nil},
	{"price", nil, "number", "price", nil},
	{"gpu_price", []string{"per_gpu", "price_per_gpu", "gpu_hour"}, "number", "price", nil},
	{"gib_price", []string{"price_per_gib"}, "number", "price", nil},
	{"saving", []string{"savings"}, "number", "price", nil},
	{"on_demand", nil, "number", "price", nil},
	{"spot", nil, "number", "price", nil},
	{"reserved_1y", nil, "number", "price", nil},
	{"reserved_3y", nil, "number", "price", nil},
	{"subscription_month", nil, "number", "price", nil},
	{"subscription_year", nil, "number", "price", nil},
	// A spot offer's Spot Instance Advisor band by its upper bound in percent
	// (interruption<=10% keeps <5% and 5-10%); no band, no figure.
	{"interruption", nil, "number", "offer", nil},
}

// filterAliases maps every name a field answers to (lower case) to its field.
var filterAliases = func() map[string]*FilterField {
	m := map[string]*FilterField{}
	for i := range FilterFields {
		f := &FilterFields[i]
		m[f.Name] = f
		for _, a := range f.Aliases {
			m[a] = f
		}
	}
	return m
}()

// FilterFieldOf is the field a name (or alias, any case) names.
func FilterFieldOf(name string) (FilterField, bool) {
	f, ok := filterAliases[lowerASCII(name)]
	if !ok {
		return FilterField{}, false
	}
	return *f, true
}

// exactBilling are the billing kinds a billing value can select, in order.
var exactBilling = []string{"on_demand", "spot", "reserved_1y_no_upfront", "reserved_1y_all_upfront", "reserved_3y_no_upfront",
	"reserved_3y_all_upfront", "subscription_month", "subscription_year"}

// BillingKindsOf is the exact billing kinds a billing value selects (a group
// selects several, an unknown value none).
func BillingKindsOf(v string) []string {
	switch v {
	case "reserved":
		return exactBilling[2:6]
	case "reserved_1y":
		return exactBilling[2:4]
	case "reserved_3y":
		return exactBilling[4:6]
	case "subscription":
		return exactBilling[6:8]
	}
	for _, k := range exactBilling {
		if k == v {
			return []string{k}
		}
	}
	return nil
}
