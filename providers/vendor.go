package providers

import "strings"

// vendors are the makers Vendor recognises, in the order it looks for them.
var vendors = []struct{ key, name string }{{"nvidia", "NVIDIA"}, {"amd", "AMD"}, {"intel", "Intel"}, {"xilinx", "Xilinx"}}

// Vendor is the maker a processor or accelerator name mentions, in any case
// ("Intel Xeon Platinum 8255C": Intel; "Nvidia Tesla V100": NVIDIA), or ""
// when it names none of NVIDIA, AMD, Intel and Xilinx. The adapters'
// conversions use it where the API gives a model name but no maker.
func Vendor(name string) string {
	n := strings.ToLower(name)
	for _, v := range vendors {
		if strings.Contains(n, v.key) {
			return v.name
		}
	}
	return ""
}
