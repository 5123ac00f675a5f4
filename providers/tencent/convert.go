package tencent

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strings"

	"github.com/shopspring/decimal"
	cvm "github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/cvm/v20170312"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// family is a row of data/tencent_gpu_families.csv: the GPU model an instance
// family carries. The CVM API names no GPU, only the family.
type family struct {
	name, model, confidence, source string
}

// Families is the GPU family table by family (familyKey): the only way the
// adapter learns which GPU a CVM instance type carries.
type Families map[string]family

// familiesFile is the table's name in the data folder.
const familiesFile = "tencent_gpu_families.csv"

// LoadFamilies reads the family table from tables (the data folder: data.FS
// in the registry). A missing file is an empty table, which leaves every
// family unmapped (reported by the runner), not a failed crawl.
func LoadFamilies(tables fs.FS) (Families, error) {
	f, err := tables.Open(familiesFile)
	if errors.Is(err, fs.ErrNotExist) {
		return Families{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tencent: read data/%s: %w", familiesFile, err)
	}
	defer f.Close()
	return parseFamilies(f)
}

func parseFamilies(r io.Reader) (Families, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("tencent: data/%s:1: %w", familiesFile, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(h)] = i
	}
	for _, c := range []string{"family", "model", "confidence"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("tencent: data/%s:1: no %s column", familiesFile, c)
		}
	}
	out := Families{}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("tencent: data/%s:%d: %w", familiesFile, line, err)
		}
		get := func(c string) string {
			if i, ok := col[c]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		fam := family{name: get("family"), model: get("model"), confidence: get("confidence"), source: get("source")}
		if fam.name == "" {
			return nil, fmt.Errorf("tencent: data/%s:%d: empty family", familiesFile, line)
		}
		out[familyKey(fam.name)] = fam
	}
}

// familyKey compares families as the API and the table may spell them:
// GN7vi, GN7VI and GN7-VI are one family.
func familyKey(s string) string { return strings.ToUpper(strings.ReplaceAll(s, "-", "")) }

// convertInstanceType turns a DescribeZoneInstanceConfigInfos item into a
// catalog instance type.
//
// The accelerator name is the family's model id from the family table (an id
// the GPU reference resolves exactly), or the family itself when the table has
// no row, so that the runner reports it as unmapped. GpuCount is fractional
// for vGPU types (0.25 for a quarter T4): such a type sees one device with
// that share.
func (p *Adapter) convertInstanceType(it *cvm.InstanceTypeQuotaItem) catalog.InstanceType {
	fam := str(it.InstanceFamily)
	if fam == "" {
		fam, _, _ = strings.Cut(str(it.InstanceType), ".")
	}
	source := sourceConfigInfos
	acc := catalog.Accelerator{Kind: catalog.KindGPU, Name: fam, Count: 1, Share: decimal.NewFromInt(1)}
	if f, ok := p.families[familyKey(fam)]; ok && f.model != "" {
		acc.Name = f.model
		acc.Model = f.model
		acc.MappingConfidence = f.confidence
		source += fmt.Sprintf("; GPU model from family %s (data/%s, %s)", fam, familiesFile, f.confidence)
	} else {
		source += fmt.Sprintf("; the API names no GPU and family %s is not in data/%s", fam, familiesFile)
	}
	switch n := gpuCount(it); {
	case n > 0 && n < 1:
		acc.Share = decimal.NewFromFloat(n)
	case n >= 1:
		acc.Count = int(math.Round(n))
	}
	out := catalog.InstanceType{
		Provider:     catalog.Tencent,
		ID:           str(it.InstanceType),
		Family:       fam,
		Accelerators: []catalog.Accelerator{acc},
		Generation:   "current",
		CPUArch:      "x86_64",
		CPUVendor:    providers.Vendor(str(it.CpuType)),
		Source:       source,
	}
	if it.Cpu != nil {
		out.VCPUs = int(*it.Cpu)
	}
	if it.Memory != nil {
		out.MemoryGiB = decimal.NewFromInt(*it.Memory)
	}
	if it.InstanceBandwidth != nil && *it.InstanceBandwidth > 0 {
		g := decimal.NewFromFloat(*it.InstanceBandwidth) // Gbit/s
		out.NetworkGbps = &g
		out.Network = g.String() + " Gbit/s"
	}
	if strings.HasPrefix(fam, "HCC") {
		out.BareMetal = true
		out.RDMA = "rdma"
	}
	return out
}

func gpuCount(it *cvm.InstanceTypeQuotaItem) float64 {
	if it.GpuCount != nil && *it.GpuCount > 0 {
		return *it.GpuCount
	}
	if it.Gpu != nil {
		return float64(*it.Gpu)
	}
	return 0
}

// quotedPrice is the price DescribeZoneInstanceConfigInfos gave with the item,
// if it gave one.
func (p *Adapter) quotedPrice(q quota) (catalog.Price, bool) {
	return p.itemPrice(q.item.Price, q.billing)
}

// itemPrice reads an ItemPrice (both DescribeZoneInstanceConfigInfos and
// InquiryPriceRunInstances use it). Hourly kinds: UnitPriceDiscount is payable
// (UnitPrice when no discount price is given), UnitPrice the list price.
// Monthly: DiscountPrice payable, OriginalPrice list. No positive amount means
// no price.
func (p *Adapter) itemPrice(ip *cvm.ItemPrice, billing catalog.BillingKind) (catalog.Price, bool) {
	if ip == nil {
		return catalog.Price{}, false
	}
	pos := func(f *float64) (decimal.Decimal, bool) {
		if f == nil || *f <= 0 || math.IsNaN(*f) || math.IsInf(*f, 0) {
			return decimal.Zero, false
		}
		return decimal.NewFromFloat(*f), true
	}
	var amount, list decimal.Decimal
	var okA, okL bool
	unit := catalog.PerHour
	if billing == catalog.SubscriptionMonth {
		unit = catalog.PerMonth
		amount, okA = pos(ip.DiscountPrice)
		list, okL = pos(ip.OriginalPrice)
	} else {
		amount, okA = pos(ip.UnitPriceDiscount)
		list, okL = pos(ip.UnitPrice)
	}
	if !okA {
		if !okL {
			return catalog.Price{}, false
		}
		amount = list
	}
	pr := catalog.Price{Amount: amount, Currency: p.currency, Unit: unit}
	if okL {
		pr.List = &list
	}
	return pr, true
}
