package sitegen

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The Parquet exports are folders partitioned by provider, Hive style
// (data/parquet/offers/provider=aws/part-0.parquet), so that DuckDB, Spark or
// pandas read a whole folder and filter a provider without opening the others.
// As the convention wants, the partition column (provider) is in the path, not in
// the files. Columns are named as in the CSV exports (OfferColumns,
// InstanceColumns) and typed: exact amounts as published stay strings, the USD
// figure is DECIMAL(18,6), specs are numbers, fetched_at and observed_at UTC
// timestamps; an empty value is null.

// parquetDir is where the folders are published.
const parquetDir = "data/parquet"

// offerParquet is one row of the offers files, in OfferColumns order (provider
// omitted: it is the partition).
type offerParquet struct {
	InstanceType     string     `parquet:"instance_type,dict"`
	Region           string     `parquet:"region,dict"`
	Zone             string     `parquet:"zone,optional,dict"`
	Billing          string     `parquet:"billing,dict"`
	Price            string     `parquet:"price"`
	Currency         string     `parquet:"currency,dict"`
	Unit             string     `parquet:"unit,dict"`
	PriceUSDPerHour  *int64     `parquet:"price_usd_per_hour,optional,decimal(6:18)"`
	GPUModel         string     `parquet:"gpu_model,optional,dict"`
	GPUCount         float64    `parquet:"gpu_count"`
	GPUMemoryGiB     float64    `parquet:"gpu_memory_gib"`
	VCPUs            int32      `parquet:"vcpus"`
	MemoryGiB        float64    `parquet:"memory_gib"`
	Source           string     `parquet:"source,dict"`
	FetchedAt        time.Time  `parquet:"fetched_at,timestamp(millisecond)"`
	Upfront          string     `parquet:"upfront,optional"`
	Availability     string     `parquet:"availability,dict"`
	GPUName          string     `parquet:"gpu_name,optional,dict"`
	GPUMemoryGiBEach *float64   `parquet:"gpu_memory_gib_each,optional"`
	Family           string     `parquet:"family,optional,dict"`
	Synthetic        bool       `parquet:"synthetic"`
	Suspect          string     `parquet:"suspect,optional"`
	Includes         string     `parquet:"includes,optional,dict"`
	ObservedAt       *time.Time `parquet:"observed_at,optional,timestamp(millisecond)"`
	PriceMin         string     `parquet:"price_min,optional"`
	PriceMax         string     `parquet:"price_max,optional"`
	Reported         bool       `parquet:"reported"`
	// Added after reported, in OfferColumns order.
	InterruptionStatus     string     `parquet:"interruption_status,optional,dict"`
	InterruptionBand       string     `parquet:"interruption_band,optional,dict"`
	InterruptionSavingsPct *int32     `parquet:"interruption_savings_pct,optional"`
	InterruptionObservedAt *time.Time `parquet:"interruption_observed_at,optional,timestamp(millisecond)"`
	PriceEstimated         bool       `parquet:"price_estimated"`
	// The offer's facts (compare.OfferFacts), exact decimals as strings.
	PricePerGPUHour      string `parquet:"price_per_gpu_hour,optional"`
	PricePerGiBHour      string `parquet:"price_per_gib_hour,optional"`
	SavingVsOnDemandPct  string `parquet:"saving_vs_on_demand_pct,optional"`
	SpotRiskPricePerHour string `parquet:"spot_risk_price_per_hour,optional"`
	// A commitment's cost per month and hourly equivalent, in its currency.
	SubscriptionPerMonth         string `parquet:"subscription_per_month,optional"`
	SubscriptionHourlyEquivalent string `parquet:"subscription_hourly_equivalent,optional"`
	// The price's parts, where it comes in parts (Google Cloud).
	PriceMachine      string `parquet:"price_machine,optional"`
	PriceAccelerators string `parquet:"price_accelerators,optional"`
}

// instanceParquet is one row of the instance type files, in InstanceColumns order
// (provider omitted).
type instanceParquet struct {
	InstanceType     string   `parquet:"instance_type"`
	Family           string   `parquet:"family,optional,dict"`
	VCPUs            int32    `parquet:"vcpus"`
	MemoryGiB        float64  `parquet:"memory_gib"`
	CPUArch          string   `parquet:"cpu_arch,optional,dict"`
	CPUVendor        string   `parquet:"cpu_vendor,optional,dict"`
	GPUModel         string   `parquet:"gpu_model,optional,dict"`
	GPUName          string   `parquet:"gpu_name,optional,dict"`
	AcceleratorKind  string   `parquet:"accelerator_kind,optional,dict"`
	GPUCount         float64  `parquet:"gpu_count"`
	GPUMemoryGiB     float64  `parquet:"gpu_memory_gib"`
	GPUMemoryGiBEach *float64 `parquet:"gpu_memory_gib_each,optional"`
	Interconnect     string   `parquet:"interconnect,optional,dict"`
	LocalStorageGB   *int64   `parquet:"local_storage_gb,optional"`
	LocalNVMe        bool     `parquet:"local_nvme"`
	Network          string   `parquet:"network,optional,dict"`
	NetworkGbps      *float64 `parquet:"network_gbps,optional"`
	RDMA             string   `parquet:"rdma,optional,dict"`
	Generation       string   `parquet:"generation,optional,dict"`
	BareMetal        bool     `parquet:"bare_metal"`
	Source           string   `parquet:"source,dict"`
	Synthetic        bool     `parquet:"synthetic"`
	// The columns added after the first 23, in InstanceColumns order.
	GPUMemoryClassGBEach   *float64 `parquet:"gpu_memory_class_gb_each,optional"`
	GPUMemoryFromReference bool     `parquet:"gpu_memory_from_reference"`
	NetworkCards           int32    `parquet:"network_cards"`
	EFAInterfaces          int32    `parquet:"efa_interfaces"`
	SpecConflicts          string   `parquet:"spec_conflicts,optional"`
	InterconnectBandwidth  *float64 `parquet:"interconnect_bandwidth,optional"`
	InterconnectUnit       string   `parquet:"interconnect_unit,optional,dict"`
	InterconnectSource     string   `parquet:"interconnect_source,optional,dict"`
}

// ParquetTypes describes the Parquet type of every column, for the downloads page.
var ParquetTypes = map[string]string{
	"price_usd_per_hour": "DECIMAL(18,6)", "gpu_count": "DOUBLE", "gpu_memory_gib": "DOUBLE", "memory_gib": "DOUBLE",
	"gpu_memory_gib_each": "DOUBLE", "network_gbps": "DOUBLE", "vcpus": "INT32", "local_storage_gb": "INT64",
	"fetched_at": "TIMESTAMP(ms, UTC)", "observed_at": "TIMESTAMP(ms, UTC)", "synthetic": "BOOLEAN", "reported": "BOOLEAN", "price_estimated": "BOOLEAN", "local_nvme": "BOOLEAN", "bare_metal": "BOOLEAN",
	"provider": "partition (folder name)", "gpu_memory_class_gb_each": "DOUBLE", "gpu_memory_from_reference": "BOOLEAN",
	"network_cards": "INT32", "efa_interfaces": "INT32", "interconnect_bandwidth": "DOUBLE",
	"interruption_savings_pct": "INT32", "interruption_observed_at": "TIMESTAMP(ms, UTC)",
}

func writerOptions() []parquet.WriterOption {
	// CreatedBy is fixed so that the bytes do not depend on how the binary was
	// built: the same catalog always gives the same files.
	return []parquet.WriterOption{parquet.CreatedBy("gpuatlas", "1", "none"), parquet.Compression(&snappy.Codec{})}
}

func float(d decimal.Decimal) float64 { return d.InexactFloat64() }

func floatPtr(d decimal.Decimal) *float64 {
	f := d.InexactFloat64()
	return &f
}

// WriteOffersParquet writes the offers of provider p as one Parquet file, in the
// snapshot's canonical order.
func WriteOffersParquet(w io.Writer, s *catalog.Snapshot, p catalog.Provider) error {
	rows, err := OfferRows(canonicalCopy(s))
	if err != nil {
		return err
	}
	pw := parquet.NewGenericWriter[offerParquet](w, writerOptions()...)
	batch := make([]offerParquet, 0, 1024)
	flush := func() error {
		if _, err := pw.Write(batch); err != nil {
			return fmt.Errorf("write offers parquet: %w", err)
		}
		batch = batch[:0]
		return nil
	}
	for _, r := range rows {
		if r.Offer.Provider != p {
			continue
		}
		batch = append(batch, offerParquetRow(r))
		if len(batch) == cap(batch) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("write offers parquet: %w", err)
	}
	return nil
}

func offerParquetRow(r OfferRow) offerParquet {
	o, t := r.Offer, r.Instance
	acc, _ := t.PrimaryAccelerator()
	row := offerParquet{
		InstanceType: o.InstanceType, Region: o.Region, Zone: o.Zone, Billing: string(o.Billing),
		Price: o.Price.Amount.String(), Currency: string(o.Price.Currency), Unit: string(o.Price.Unit),
		GPUModel: acc.Model, GPUCount: float(t.GPUUnits()), GPUMemoryGiB: float(t.GPUMemoryGiB()),
		VCPUs: int32(t.VCPUs), MemoryGiB: float(t.MemoryGiB), Source: o.Source, FetchedAt: o.FetchedAt.UTC(),
		Availability: string(o.Availability), GPUName: acc.Name, Family: t.Family, Synthetic: o.Synthetic,
		Suspect: o.Suspect, Includes: o.Includes, Reported: o.Reported,
		PriceEstimated:  o.Estimated,
		PricePerGPUHour: decimalCell(r.Facts.GPUHour), PricePerGiBHour: decimalCell(r.Facts.GiBHour),
		SavingVsOnDemandPct: decimalCell(r.Facts.SavingPct), SpotRiskPricePerHour: decimalCell(r.Facts.RiskHour),
	}
	row.SubscriptionPerMonth, row.SubscriptionHourlyEquivalent = subscriptionCells(o)
	row.PriceMachine, row.PriceAccelerators = partCells(o)
	if !o.ObservedAt.IsZero() {
		at := o.ObservedAt.UTC()
		row.ObservedAt = &at
	}
	if pr := o.PriceRange; pr != nil {
		row.PriceMin, row.PriceMax = pr.Min.String(), pr.Max.String()
	}
	row.InterruptionStatus = catalog.InterruptionStatus(&o)
	if in := o.Interruption; in != nil {
		s, at := int32(in.SavingsPct), in.ObservedAt.UTC()
		row.InterruptionBand, row.InterruptionSavingsPct, row.InterruptionObservedAt = string(in.Band), &s, &at
	}
	if r.USDPerHour != nil {
		// DECIMAL(18,6): the unscaled integer of the figure rounded to 6 places, as
		// the CSV writes it.
		v := r.USDPerHour.Round(6).Shift(6).IntPart()
		row.PriceUSDPerHour = &v
	}
	if o.Price.Upfront != nil {
		row.Upfront = o.Price.Upfront.String()
	}
	if len(t.Accelerators) > 0 {
		row.GPUMemoryGiBEach = floatPtr(acc.MemoryGiB)
	}
	return row
}

// WriteInstancesParquet writes the instance types of provider p as one Parquet
// file, in the snapshot's canonical order.
func WriteInstancesParquet(w io.Writer, s *catalog.Snapshot, p catalog.Provider) error {
	pw := parquet.NewGenericWriter[instanceParquet](w, writerOptions()...)
	var rows []instanceParquet
	for _, t := range canonicalCopy(s).Instances {
		if t.Provider != p {
			continue
		}
		acc, _ := t.PrimaryAccelerator()
		row := instanceParquet{
			InstanceType: t.ID, Family: t.Family, VCPUs: int32(t.VCPUs), MemoryGiB: float(t.MemoryGiB),
			CPUArch: t.CPUArch, CPUVendor: t.CPUVendor, GPUModel: acc.Model, GPUName: acc.Name,
			AcceleratorKind: string(acc.Kind), GPUCount: float(t.GPUUnits()), GPUMemoryGiB: float(t.GPUMemoryGiB()),
			Interconnect: t.Interconnect, LocalNVMe: t.LocalNVMe, Network: t.Network, RDMA: t.RDMA,
			Generation: t.Generation, BareMetal: t.BareMetal, Source: t.Source, Synthetic: t.Synthetic,
			GPUMemoryFromReference: acc.MemoryFromReference, NetworkCards: int32(len(t.NetworkCards)),
			EFAInterfaces: int32(t.EFAInterfaces), SpecConflicts: conflictsText(t.Conflicts),
			InterconnectUnit: t.InterconnectUnit, InterconnectSource: t.InterconnectSource,
		}
		if t.InterconnectBandwidth != nil {
			row.InterconnectBandwidth = floatPtr(*t.InterconnectBandwidth)
		}
		if len(t.Accelerators) > 0 {
			row.GPUMemoryGiBEach = floatPtr(acc.MemoryGiB)
		}
		if acc.NominalMemoryGB != nil {
			row.GPUMemoryClassGBEach = floatPtr(*acc.NominalMemoryGB)
		}
		if t.LocalStorageGB > 0 {
			v := int64(t.LocalStorageGB)
			row.LocalStorageGB = &v
		}
		if t.NetworkGbps != nil {
			row.NetworkGbps = floatPtr(*t.NetworkGbps)
		}
		rows = append(rows, row)
	}
	if _, err := pw.Write(rows); err != nil {
		return fmt.Errorf("write instance types parquet: %w", err)
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("write instance types parquet: %w", err)
	}
	return nil
}

// parquetFiles are the partitioned folders of offers and instance types: one file
// per provider that has any.
func parquetFiles(s *catalog.Snapshot) ([]siteFile, error) {
	offers := map[catalog.Provider]bool{}
	types := map[catalog.Provider]bool{}
	for _, o := range s.Offers {
		offers[o.Provider] = true
	}
	for _, t := range s.Instances {
		types[t.Provider] = true
	}
	var out []siteFile
	for _, part := range []struct {
		name  string
		have  map[catalog.Provider]bool
		write func(io.Writer, *catalog.Snapshot, catalog.Provider) error
	}{{"offers", offers, WriteOffersParquet}, {"instances", types, WriteInstancesParquet}} {
		ps := make([]string, 0, len(part.have))
		for p := range part.have {
			ps = append(ps, string(p))
		}
		sort.Strings(ps)
		for _, p := range ps {
			var b bytes.Buffer
			if err := part.write(&b, s, catalog.Provider(p)); err != nil {
				return nil, fmt.Errorf("%s/%s: %w", part.name, p, err)
			}
			out = append(out, siteFile{name: parquetDir + "/" + part.name + "/provider=" + slugify(p) + "/part-0.parquet", data: b.Bytes()})
		}
	}
	return out, nil
}
