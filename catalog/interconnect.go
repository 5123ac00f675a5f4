package catalog

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// How the accelerators of one instance talk to each other (InstanceType.Interconnect).
const (
	LinkNVSwitch   = "nvswitch"   // NVLink through NVSwitch chips: every GPU to every other
	LinkNVLink     = "nvlink"     // NVLink, point to point or bridged
	LinkNeuronLink = "neuronlink" // AWS Trainium and Inferentia chip-to-chip links
	LinkPCIe       = "pcie"       // PCIe only (peer to peer through the PCIe fabric)
	LinkOther      = "other"      // the provider names a link that is none of these
)

// LinkKinds lists the interconnect kinds, fastest class first.
var LinkKinds = []string{LinkNVSwitch, LinkNVLink, LinkNeuronLink, LinkPCIe, LinkOther}

// IsFastLink says whether a link kind is a dedicated accelerator-to-accelerator
// fabric (NVLink, NVSwitch, NeuronLink), not the PCIe bus.
func IsFastLink(kind string) bool {
	return kind == LinkNVSwitch || kind == LinkNVLink || kind == LinkNeuronLink
}

// LinkNames are the names a filter matches a link kind by: NVSwitch is NVLink
// through switches, so `interconnect:nvlink` (and the bare word nvlink) finds
// it too. The explorer's script (explorer-view.js) applies the same rule,
// pinned by compare/testdata/find_vectors.json.
func LinkNames(kind string) []string {
	if kind == LinkNVSwitch {
		return []string{LinkNVSwitch, LinkNVLink}
	}
	return []string{kind}
}

// InterconnectFact is one row of data/interconnect.csv: what a provider's own
// documentation says about the link between the accelerators of a family or of
// some of its sizes. Bandwidth is as the provider states it, in its own unit
// (GB/s or GiB/s: AWS's Neuron documentation gives GiB/s), per accelerator; nil
// where the documentation names the link without a figure.
type InterconnectFact struct {
	Provider   Provider
	Family     string
	Types      []string // empty: every type of the family
	Kind       string
	Bandwidth  *decimal.Decimal
	Unit       string
	Source     string
	Locator    string
	SourceDate string
	Note       string
	Line       int
}

// Interconnects is the table of documented accelerator links, by instance type
// and by family. A type absent from it has an unknown link: nothing is inferred
// here from the GPU model.
type Interconnects struct {
	Facts    []InterconnectFact
	byType   map[string]int // provider \x00 type id
	byFamily map[string]int // provider \x00 family
}

// Limits of data/interconnect.csv's fields.
const (
	maxInterconnectRows  = 10_000
	maxInterconnectField = 2_000
)

// ParseInterconnects reads the interconnect table (data/interconnect.csv).
// Errors name the file and line.
func ParseInterconnects(name string, r io.Reader) (*Interconnects, error) {
	ix := &Interconnects{byType: map[string]int{}, byFamily: map[string]int{}}
	cols := []string{"provider", "family", "types", "interconnect", "bandwidth", "bandwidth_unit", "source", "locator", "source_date", "note"}
	err := readCSV(name, r, cols, func(line int, get func(string) string) error {
		if len(ix.Facts) >= maxInterconnectRows {
			return fmt.Errorf("more than %d rows", maxInterconnectRows)
		}
		for _, c := range cols {
			if len(get(c)) > maxInterconnectField {
				return fmt.Errorf("%s is longer than %d bytes", c, maxInterconnectField)
			}
		}
		p, err := ParseProvider(get("provider"))
		if err != nil {
			return err
		}
		f := InterconnectFact{Provider: p, Family: get("family"), Kind: get("interconnect"), Unit: get("bandwidth_unit"),
			Source: get("source"), Locator: get("locator"), SourceDate: get("source_date"), Note: get("note"), Line: line}
		if f.Family == "" {
			return errors.New("family is empty")
		}
		if !containsString(LinkKinds, f.Kind) {
			return fmt.Errorf("interconnect %q is not one of %s", f.Kind, strings.Join(LinkKinds, ", "))
		}
		if f.Types = strings.Fields(get("types")); len(f.Types) == 0 {
			f.Types = nil
		}
		for _, t := range f.Types {
			if !strings.HasPrefix(t, f.Family) {
				return fmt.Errorf("type %q is not of family %q", t, f.Family)
			}
		}
		switch v := get("bandwidth"); {
		case v == "" && f.Unit != "":
			return errors.New("bandwidth_unit without a bandwidth")
		case v != "":
			x, err := decimal.NewFromString(v)
			if err != nil || !x.IsPositive() {
				return fmt.Errorf("bandwidth %q is not a positive number", v)
			}
			if f.Unit != "GB/s" && f.Unit != "GiB/s" {
				return fmt.Errorf("bandwidth_unit %q is not GB/s or GiB/s (the unit the source states)", f.Unit)
			}
			f.Bandwidth = &x
		}
		if !strings.HasPrefix(f.Source, "https://") {
			return errors.New("source must be the https address of the provider's documentation")
		}
		if _, err := time.Parse(time.DateOnly, f.SourceDate); err != nil {
			return fmt.Errorf("source_date %q is not a date (YYYY-MM-DD)", f.SourceDate)
		}
		i := len(ix.Facts)
		if f.Types == nil {
			k := string(p) + "\x00" + f.Family
			if _, dup := ix.byFamily[k]; dup {
				return fmt.Errorf("family %s/%s is listed twice", p, f.Family)
			}
			ix.byFamily[k] = i
		}
		for _, t := range f.Types {
			k := string(p) + "\x00" + t
			if _, dup := ix.byType[k]; dup {
				return fmt.Errorf("type %s/%s is listed twice", p, t)
			}
			ix.byType[k] = i
		}
		ix.Facts = append(ix.Facts, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ix, nil
}

// LoadInterconnects reads interconnect.csv from fsys (the data folder).
func LoadInterconnects(fsys fs.FS) (*Interconnects, error) {
	f, err := fsys.Open("interconnect.csv")
	if err != nil {
		return nil, fmt.Errorf("load interconnects: %w", err)
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	return ParseInterconnects("data/interconnect.csv", io.LimitReader(f, 1<<20))
}

// Lookup returns the documented link of an instance type: a row naming the
// type wins over its family's row.
func (ix *Interconnects) Lookup(provider Provider, family, id string) (InterconnectFact, bool) {
	if ix == nil {
		return InterconnectFact{}, false
	}
	if i, ok := ix.byType[string(provider)+"\x00"+id]; ok {
		return ix.Facts[i], true
	}
	if i, ok := ix.byFamily[string(provider)+"\x00"+family]; ok {
		return ix.Facts[i], true
	}
	return InterconnectFact{}, false
}

// Apply sets a type's link from the table, for types with more than one
// accelerator device (one device has no link to another). A link the provider's
// API gave (Interconnect set without InterconnectSource) is kept; one the table
// gave before is derived again, so that Apply is idempotent.
func (ix *Interconnects) Apply(t InstanceType) InstanceType {
	if t.InterconnectSource != "" {
		t.Interconnect, t.InterconnectBandwidth, t.InterconnectUnit, t.InterconnectSource = "", nil, "", ""
	}
	if t.Interconnect != "" || deviceCount(t) <= 1 {
		return t
	}
	f, ok := ix.Lookup(t.Provider, t.Family, t.ID)
	if !ok {
		return t
	}
	t.Interconnect = f.Kind
	if f.Bandwidth != nil {
		b := *f.Bandwidth
		t.InterconnectBandwidth = &b
		t.InterconnectUnit = f.Unit
	}
	t.InterconnectSource = f.Source + " (" + f.SourceDate + ")"
	return t
}

// deviceCount is the number of whole accelerator devices of a type (slices of
// one device count as one).
func deviceCount(t InstanceType) int {
	n := 0
	for _, a := range t.Accelerators {
		n += a.Count
	}
	return n
}
