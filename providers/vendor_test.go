package providers

import "testing"

func TestVendor(t *testing.T) {
	for name, want := range map[string]string{
		"Intel Xeon Platinum 8255C": "Intel", "Intel(R) Xeon(R) Platinum 8336C": "Intel", "AMD EPYC Milan": "AMD",
		"NVIDIA A10": "NVIDIA", "Nvidia Tesla V100": "NVIDIA", "intel SG1": "Intel", "AMD S7150/4": "AMD",
		"Xilinx VU9p": "Xilinx", "RTX 5880 Ada": "", "A10*1/12": "", "": "",
	} {
		if got := Vendor(name); got != want {
			t.Errorf("Vendor(%q) = %q, want %q", name, got, want)
		}
	}
}
