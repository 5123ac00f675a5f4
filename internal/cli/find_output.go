package cli

import (
	"encoding/csv"
	"io"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// findOutput writes find's answer as a table, CSV, JSON or Markdown.
type findOutput struct {
	snap  *catalog.Snapshot
	res   compare.FindResult
	expr  string
	query compare.FindQuery
	total int
	msgs  map[string]string
	lang  string
	width int // the table's limit in columns; 0: none
}

// FindSchema names the JSON answer's shape; fields are only ever added.
const FindSchema = "gpuatlas.find/1"

type findJSON struct {
	Schema         string        `json:"schema"`
	Expression     string        `json:"expression"`
	CatalogTakenAt string        `json:"catalog_taken_at"`
	Currency       string        `json:"currency"`
	FX             findFXJSON    `json:"fx"`
	Billing        []string      `json:"billing"`
	Sort           string        `json:"sort"`
	Descending     bool          `json:"descending"`
	Columns        []string      `json:"columns"`
	Total          int           `json:"total"`
	Rows           []findRowJSON `json:"rows"`
}

type findFXJSON struct {
	Base   string `json:"base"`
	Date   string `json:"date"`
	Source string `json:"source"`
}

// findRowJSON is one instance type in its cheapest region: codes and figures.
type findRowJSON struct {
	Provider         string           `json:"provider"`
	InstanceType     string           `json:"instance_type"`
	GPUModel         string           `json:"gpu_model"`
	GPU              string           `json:"gpu"`
	GPUMapping       string           `json:"gpu_mapping,omitempty"` // likely or uncertain: the model is not certain
	GPUs             decimal.Decimal  `json:"gpus"`
	GPUMemoryGB      decimal.Decimal  `json:"gpu_memory_gb"`
	GPUMemoryTotalGB decimal.Decimal  `json:"gpu_memory_total_gb"`
	VCPUs            int              `json:"vcpus"`
	MemoryGiB        decimal.Decimal  `json:"memory_gib"`
	Region           string           `json:"region"`
	Country          string           `json:"country"`
	Regions          int              `json:"regions"`
	Billing          string           `json:"billing"`
	Currency         string           `json:"currency"`
	PricePerHour     *decimal.Decimal `json:"price_per_hour"`
	PricePerGPUHour  *decimal.Decimal `json:"price_per_gpu_hour"`
	SavingPct        *decimal.Decimal `json:"saving_pct"`
	Prices           []findPriceJSON  `json:"prices"`
}

// findPriceJSON is one price column's offer: where, how, its effective hourly
// price in the answer's currency and the price as published.
type findPriceJSON struct {
	Column         string           `json:"column"`
	Billing        string           `json:"billing"`
	Region         string           `json:"region"`
	Zone           string           `json:"zone,omitempty"`
	Currency       string           `json:"currency"`
	PricePerHour   *decimal.Decimal `json:"price_per_hour"`
	USDPerHour     *decimal.Decimal `json:"usd_per_hour"`
	SavingPct      *decimal.Decimal `json:"saving_pct"`
	Marks          []string         `json:"marks"`
	Amount         decimal.Decimal  `json:"amount"`
	AmountCurrency string           `json:"amount_currency"`
	Unit           string           `json:"unit"`
	Upfront        *decimal.Decimal `json:"upfront,omitempty"`
	Source         string           `json:"source"`
	FetchedAt      string           `json:"fetched_at"`
	ObservedAt     string           `json:"observed_at,omitempty"`
}

func pct(f *float64) *decimal.Decimal {
	if f == nil {
		return nil
	}
	d := decimal.NewFromFloat(*f).Round(2)
	return &d
}

func (o findOutput) writeJSON(w io.Writer) error {
	cur := o.query.Currency
	if cur == "" {
		cur = string(catalog.USD)
	}
	a := findJSON{Schema: FindSchema, Expression: o.expr, CatalogTakenAt: o.snap.TakenAt.UTC().Format("2006-01-02T15:04:05Z"),
		Currency: cur, FX: findFXJSON{string(o.snap.FX.Base), o.snap.FX.Date, o.snap.FX.Source},
		Billing: o.query.Billing, Sort: o.query.Sort, Descending: o.query.Desc, Columns: o.res.Columns, Total: o.total, Rows: []findRowJSON{}}
	if a.Billing == nil {
		a.Billing = []string{}
	}
	if a.Columns == nil {
		a.Columns = []string{}
	}
	for _, r := range o.res.Rows {
		j := findRowJSON{Provider: string(r.Type.Provider), InstanceType: r.Type.ID, GPUModel: r.GPUModel, GPU: r.GPU, GPUMapping: r.GPUMapping, GPUs: r.GPUs,
			GPUMemoryGB: r.GPUMemory, GPUMemoryTotalGB: r.GPUMemoryTotal, VCPUs: r.Type.VCPUs, MemoryGiB: r.Type.MemoryGiB,
			Region: r.Region.ID, Country: r.Region.Country, Regions: r.Regions, Currency: r.Currency, PricePerHour: r.Price,
			PricePerGPUHour: r.PerGPU, SavingPct: pct(r.Saving), Prices: []findPriceJSON{}}
		for c, cell := range r.Cells {
			if cell == nil {
				continue
			}
			if c == r.Primary {
				j.Billing = string(cell.Offer.Billing)
			}
			of := cell.Offer
			p := findPriceJSON{Column: compare.FindColumns[c], Billing: string(of.Billing), Region: of.Region, Zone: of.Zone,
				Currency: cell.Currency, PricePerHour: cell.Hourly, USDPerHour: cell.USDHour, SavingPct: pct(cell.Saving),
				Marks: cell.Marks, Amount: of.Price.Amount, AmountCurrency: string(of.Price.Currency), Unit: string(of.Price.Unit),
				Upfront: of.Price.Upfront, Source: of.Source, FetchedAt: of.FetchedAt.UTC().Format("2006-01-02T15:04:05Z")}
			if p.Marks == nil {
				p.Marks = []string{}
			}
			if !of.ObservedAt.IsZero() {
				p.ObservedAt = of.ObservedAt.UTC().Format("2006-01-02T15:04:05Z")
			}
			j.Prices = append(j.Prices, p)
		}
		a.Rows = append(a.Rows, j)
	}
	return writeJSON(w, a)
}

// findCSVHeader are the CSV's columns: codes and figures, one row per type;
// the six price columns are always there (empty where hidden or unsold).
var findCSVHeader = []string{"provider", "instance_type", "gpu_model", "gpu", "gpus", "gpu_memory_gb", "gpu_memory_total_gb", "vcpus",
	"memory_gib", "region", "country", "regions", "billing", "currency", "price_per_hour", "price_per_gpu_hour", "on_demand", "spot",
	"reserved_1y", "reserved_3y", "subscription_month", "subscription_year", "saving_pct", "marks"}

func (o findOutput) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(findCSVHeader); err != nil {
		return err
	}
	for _, r := range o.res.Rows {
		rec := []string{string(r.Type.Provider), r.Type.ID, r.GPUModel, r.GPU, r.GPUs.String(), r.GPUMemory.String(), r.GPUMemoryTotal.String(),
			itoa(r.Type.VCPUs), r.Type.MemoryGiB.String(), r.Region.ID, r.Region.Country, itoa(r.Regions), "", r.Currency,
			decText(r.Price, 8), decText(r.PerGPU, 8)}
		var marks []string
		for c, cell := range r.Cells {
			if cell == nil {
				rec = append(rec, "")
				continue
			}
			if c == r.Primary {
				rec[12] = string(cell.Offer.Billing)
			}
			v := decText(cell.Hourly, 8)
			if cell.Currency != r.Currency && v != "" {
				v += " " + cell.Currency
			}
			rec = append(rec, v)
			marks = appendNew(marks, cell.Marks...)
		}
		rec = append(rec, decText(pct(r.Saving), 2), strings.Join(marks, " "))
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func itoa(n int) string { return decimal.NewFromInt(int64(n)).String() }

// decText is a figure rounded to places without trailing zeros, "" for none.
func decText(d *decimal.Decimal, places int32) string {
	if d == nil {
		return ""
	}
	return d.Round(places).String()
}

func appendNew(xs []string, ys ...string) []string {
	for _, y := range ys {
		if !contains(xs, y) {
			xs = append(xs, y)
		}
	}
	return xs
}
