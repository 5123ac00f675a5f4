package sitegen

import (
	"bytes"
	"fmt"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The price history as Parquet: one row per price interval
// (catalog.History.PriceIntervals), crawled and imported, partitioned by provider
// like the other exports (provider=aws/part-0.parquet), so that DuckDB or Spark
// read years of prices without GPU Atlas:
//
//	SELECT * FROM read_parquet('history/*/*.parquet', hive_partitioning = true)

// historyParquet is one row of the history files (provider omitted: it is the
// partition). HistoryColumns lists the columns in this order.
type historyParquet struct {
	InstanceType string     `parquet:"instance_type,dict"`
	Region       string     `parquet:"region,dict"`
	Zone         string     `parquet:"zone,optional,dict"`
	Billing      string     `parquet:"billing,dict"`
	Includes     string     `parquet:"includes,optional,dict"`
	Price        string     `parquet:"price"`
	PriceHigh    string     `parquet:"price_high,optional"`
	Currency     string     `parquet:"currency,dict"`
	Unit         string     `parquet:"unit,dict"`
	Upfront      string     `parquet:"upfront,optional"`
	ValidFrom    time.Time  `parquet:"valid_from,timestamp(millisecond)"`
	ValidUntil   *time.Time `parquet:"valid_until,optional,timestamp(millisecond)"`
	LastSeen     time.Time  `parquet:"last_seen,timestamp(millisecond)"`
	Source       string     `parquet:"source,dict"`
	Origin       string     `parquet:"origin,dict"`
	Note         string     `parquet:"note,optional"`
	ObservedAt   *time.Time `parquet:"observed_at,optional,timestamp(millisecond)"`
	FetchedAt    time.Time  `parquet:"fetched_at,timestamp(millisecond)"`
}

// HistoryColumn describes a column of the history Parquet files, for the README
// and the downloads page.
type HistoryColumn struct {
	Name, Type, Meaning string
}

// HistoryColumns are the columns of the history files, in order (the provider is
// the partition folder).
var HistoryColumns = []HistoryColumn{
	{"provider", "partition (folder name)", "aws, alibaba, tencent, huawei, volcengine, azure, gcp"},
	{"instance_type", "STRING", "the provider's instance type id"},
	{"region", "STRING", "region id, or an area id (mainland-china) for a list price not tied to one region"},
	{"zone", "STRING, null", "zone where the price is per zone; null: the whole region"},
	{"billing", "STRING", "billing kind, as in the offers export"},
	{"includes", "STRING, null", "what the price covers besides the instance (\"40 GiB ESSD system disk\"); null: the instance only"},
	{"price", "STRING", "exact decimal as published, in currency per unit; for a range, its low end"},
	{"price_high", "STRING, null", "the high end of a published range; null when the price is one figure"},
	{"currency", "STRING", "USD, CNY"},
	{"unit", "STRING", "hour, month, year"},
	{"upfront", "STRING, null", "one-time payment of a reservation, exact decimal"},
	{"valid_from", "TIMESTAMP(ms, UTC)", "when the price was first seen: the first crawl that listed it, or the archive's first observation of it (its observed_at)"},
	{"valid_until", "TIMESTAMP(ms, UTC), null", "the first time it no longer held (exclusive): the crawl that saw another price or none, or the series' next observation, the observation's observed_until, or the end of the last observation's day; null: a crawled price that still holds at the last crawl"},
	{"last_seen", "TIMESTAMP(ms, UTC)", "its last sighting (crawl or observation)"},
	{"source", "STRING", "the crawl's API source, or the archive(s) that observed it (URLs at commits, space-separated)"},
	{"origin", "STRING", "crawl or import"},
	{"note", "STRING, null", "imported only: what the archive said about the figure (a range's cell, a starting price)"},
	{"observed_at", "TIMESTAMP(ms, UTC), null", "when the source says the price held, where first seen: an imported price's first observation (valid_from), a crawled one's observed_at at its first crawl (a dataset's date may be before valid_from); null where the source gives no date"},
	{"fetched_at", "TIMESTAMP(ms, UTC)", "when GPU Atlas retrieved it, where first seen: a crawled price's fetch time at its first crawl; an imported one's retrieved_at, when the archive was retrieved (years after a 2018 list price)"},
}

// HistoryFile is one file of the history export, named relative to its folder.
type HistoryFile struct {
	Name string
	Data []byte
}

// HistoryParquet writes the history as Parquet files, one per provider that has
// prices (provider=<id>/part-0.parquet), deterministically.
func HistoryParquet(h *catalog.History) ([]HistoryFile, error) {
	intervals, err := h.PriceIntervals()
	if err != nil {
		return nil, err
	}
	var out []HistoryFile
	for lo := 0; lo < len(intervals); {
		p := intervals[lo].Provider
		hi := lo
		rows := []historyParquet{}
		for ; hi < len(intervals) && intervals[hi].Provider == p; hi++ {
			rows = append(rows, historyParquetRow(&intervals[hi]))
		}
		var b bytes.Buffer
		pw := parquet.NewGenericWriter[historyParquet](&b, writerOptions()...)
		if _, err := pw.Write(rows); err != nil {
			return nil, fmt.Errorf("write history parquet %s: %w", p, err)
		}
		if err := pw.Close(); err != nil {
			return nil, fmt.Errorf("write history parquet %s: %w", p, err)
		}
		out = append(out, HistoryFile{Name: "provider=" + slugify(string(p)) + "/part-0.parquet", Data: b.Bytes()})
		lo = hi
	}
	return out, nil
}

func historyParquetRow(iv *catalog.PriceInterval) historyParquet {
	r := historyParquet{
		InstanceType: iv.InstanceType, Region: iv.Region, Zone: iv.Zone, Billing: string(iv.Billing), Includes: iv.Includes,
		Price: iv.Price.Amount.String(), Currency: string(iv.Price.Currency), Unit: string(iv.Price.Unit),
		ValidFrom: iv.ValidFrom.UTC(), LastSeen: iv.LastSeen.UTC(), Source: iv.Source, Origin: iv.Origin, Note: iv.Note,
		FetchedAt: iv.FetchedAt.UTC(),
	}
	if !iv.ObservedAt.IsZero() {
		o := iv.ObservedAt.UTC()
		r.ObservedAt = &o
	}
	if iv.PriceHigh != nil {
		r.PriceHigh = iv.PriceHigh.String()
	}
	if iv.Price.Upfront != nil {
		r.Upfront = iv.Price.Upfront.String()
	}
	if !iv.ValidUntil.IsZero() {
		u := iv.ValidUntil.UTC()
		r.ValidUntil = &u
	}
	return r
}
