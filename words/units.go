package words

// Memory units, one per context, as the vendors state them (issue 30): a
// GPU's memory in GB by its datasheet class (an H100 is 80 GB, an A10G 24 GB:
// NVIDIA's and the clouds' GPU tables), the figure every filter, scenario rule
// and price per GPU-memory unit reads; an instance's memory (RAM) in GiB, as
// the clouds' instance tables give it. A provider's own GPU memory figure
// where it differs from the class ("22.35 GiB usable") or where no class is
// known is shown as the provider gives it, in GiB, and labelled so (where no
// class is known that figure stands in for the class in the rules, filters and
// tables, which read it as GB: providers state such figures loosely). Every
// label of a memory figure says its unit; TestMemoryUnits holds the message
// catalogs' labels to this rule, and compare's reasons say GB (UnitGB) for
// GPU memory and GiB (UnitGiB) for an instance's.
const (
	GPUMemoryUnit = "GB"
	RAMUnit       = "GiB"
)

// GPUMemoryLabels are the message keys that label a GPU memory figure (or a
// price per unit of it) by its class: each says GPUMemoryUnit and never
// RAMUnit, in every language.
var GPUMemoryLabels = []string{
	"col.gpu_mem", "col.gpu_mem_each", "col.gib_price", "col.gib_price_x", "cmp.cur_gib_hour",
	"ex.head.gpu_memory", "field.gpu_memory", "field.gpu_memory_total", "field.gib_price",
	"find.col.gpu_memory", "fit.col.have", "fit.col.per_gpu", "pricebasis.gpu_memory",
	"tier.under-20gb", "tier.20-39gb", "tier.40-79gb", "tier.80gb-plus",
	"unitfmt.USD/GB-h", "unitfmt.CNY/GB-h",
}

// RAMLabels are the message keys that label an instance's memory: each says
// RAMUnit.
var RAMLabels = []string{"col.memory", "field.memory"}
