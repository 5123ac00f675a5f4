package catalog

import "testing"

// The system disk's text is part of a series' identity (history keys): the
// form written from the facts is the text every recorded Alibaba price carries,
// and it reads back into the same facts.
func TestIncludesSystemDisk_KeepsTheSeriesText(t *testing.T) {
	const recorded = "40 GiB cloud_essd system disk" // data/catalog.json, data/history.jsonl
	if got := IncludesSystemDisk(40, "cloud_essd"); got != recorded {
		t.Fatalf("IncludesSystemDisk(40, cloud_essd) = %q, want the recorded %q", got, recorded)
	}
	d, ok := ParseIncludes(recorded)
	if !ok || d != (SystemDisk{GiB: 40, Category: "cloud_essd"}) {
		t.Fatalf("ParseIncludes(%q) = %+v, %v", recorded, d, ok)
	}
	for _, s := range []string{"", "instance only", "40 GiB ESSD system disk and a licence", "0 GiB cloud_essd system disk", "x GiB cloud system disk"} {
		if _, ok := ParseIncludes(s); ok {
			t.Errorf("ParseIncludes(%q) reads a system disk", s)
		}
	}
}
