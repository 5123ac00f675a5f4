package catalog

import (
	"fmt"
	"regexp"
	"strconv"
)

// What an offer's price covers besides the instance (Offer.Includes) is part of
// the series' identity, so its text never changes; its one known form is a
// system disk of a size and a disk category, written by IncludesSystemDisk and
// read back by ParseIncludes, so that a page can say it in its own language
// from the facts.

// SystemDisk is a system disk a price includes: its size in GiB and the
// provider's code for its category (Alibaba's cloud_essd, cloud_efficiency…).
type SystemDisk struct {
	GiB      int
	Category string
}

// IncludesSystemDisk is the Includes text of a price that covers a system disk
// of gib GiB of category ("40 GiB cloud_essd system disk").
func IncludesSystemDisk(gib int, category string) string {
	return fmt.Sprintf("%d GiB %s system disk", gib, category)
}

var systemDiskForm = regexp.MustCompile(`^([1-9][0-9]*) GiB ([A-Za-z0-9_]+) system disk$`)

// ParseIncludes reads an Includes text of IncludesSystemDisk's form back into
// its facts; ok is false for any other text.
func ParseIncludes(s string) (d SystemDisk, ok bool) {
	m := systemDiskForm.FindStringSubmatch(s)
	if m == nil {
		return SystemDisk{}, false
	}
	gib, err := strconv.Atoi(m[1])
	if err != nil {
		return SystemDisk{}, false
	}
	return SystemDisk{GiB: gib, Category: m[2]}, true
}
