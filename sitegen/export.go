package sitegen

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// OfferColumns are the columns of the offers CSV export, in order. The first
// sixteen are a public contract (scripts rely on them): never rename or reorder
// them; new columns go at the end.
var OfferColumns = []string{
	"provider", "instance_type", "region", "zone", "billing", "price", "currency", "unit",
	"price_usd_per_hour", "gpu_model", "gpu_count", "gpu_memory_gib", "vcpus", "memory_gib",
	"source", "fetched_at",
	"upfront", "availability", "gpu_name", "gpu_memory_gib_each", "family", "synthetic", "suspect", "includes",
	"observed_at", "price_min", "price_max", "reported",
	"interruption_status", "interruption_band", "interruption_savings_pct", "interruption_observed_at",
	"price_estimated",
	"price_per_gpu_hour", "price_per_gib_hour", "saving_vs_on_demand_pct", "spot_risk_price_per_hour",
	"subscription_per_month", "subscription_hourly_equivalent",
	"price_machine", "price_accelerators",
}

// OfferRow is one offer joined with its instance type, with the derived figures the
// exports and the site share.
type OfferRow struct {
	Offer    catalog.Offer
	Instance catalog.InstanceType
	// USDPerHour is the effective hourly price in USD (upfront spread over the
	// term, converted through the snapshot's FX table); nil when it cannot be
	// computed (no FX rate), which the row then shows as empty.
	USDPerHour *decimal.Decimal
	// Facts are the offer's derived figures (compare.OfferFacts): the last
	// columns of the export, the pages' and the API's per-GPU prices.
	Facts compare.OfferFacts
}

// OfferRows joins every offer of the snapshot with its instance type, in the
// snapshot's canonical order.
func OfferRows(s *catalog.Snapshot) ([]OfferRow, error) {
	return offerRows(s, compare.NewOfferFactTable(s, nil))
}

// offerRows is OfferRows with the snapshot's fact table.
func offerRows(s *catalog.Snapshot, facts *compare.OfferFactTable) ([]OfferRow, error) {
	types := make(map[string]catalog.InstanceType, len(s.Instances))
	for _, t := range s.Instances {
		types[t.Key()] = t
	}
	rows := make([]OfferRow, 0, len(s.Offers))
	for i, o := range s.Offers {
		t, ok := types[o.InstanceKey()]
		if !ok {
			return nil, fmt.Errorf("offer %s: instance type %s is not in the snapshot", o.Key(), o.InstanceKey())
		}
		f := facts.Facts[i]
		rows = append(rows, OfferRow{Offer: o, Instance: t, USDPerHour: f.USDHour, Facts: f})
	}
	return rows, nil
}

// WriteOffersCSV writes one row per offer with OfferColumns. Cells are protected
// against spreadsheet formula injection.
func WriteOffersCSV(w io.Writer, s *catalog.Snapshot) error {
	rows, err := OfferRows(s)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(OfferColumns); err != nil {
		return err
	}
	for _, r := range rows {
		if err := cw.Write(csvRecord(r)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvRecord(r OfferRow) []string {
	rec := csvRecordRaw(r)
	for i := range rec {
		rec[i] = SafeCSVCell(rec[i])
	}
	return rec
}

// csvRecordRaw is a row's cells in OfferColumns order, before CSV protection.
func csvRecordRaw(r OfferRow) []string {
	o, t := r.Offer, r.Instance
	acc, _ := t.PrimaryAccelerator()
	usd := ""
	if r.USDPerHour != nil {
		usd = r.USDPerHour.Round(6).String()
	}
	upfront := ""
	if o.Price.Upfront != nil {
		upfront = o.Price.Upfront.String()
	}
	each := ""
	if len(t.Accelerators) > 0 {
		each = acc.MemoryGiB.String()
	}
	observed := "" // the source gives no date
	if !o.ObservedAt.IsZero() {
		observed = o.ObservedAt.UTC().Format("2006-01-02T15:04:05Z")
	}
	priceMin, priceMax := "", ""
	if r := o.PriceRange; r != nil {
		priceMin, priceMax = r.Min.String(), r.Max.String()
	}
	rec := []string{
		string(o.Provider), o.InstanceType, o.Region, o.Zone, string(o.Billing),
		o.Price.Amount.String(), string(o.Price.Currency), string(o.Price.Unit), usd,
		acc.Model, t.GPUUnits().String(), t.GPUMemoryGiB().String(), fmt.Sprint(t.VCPUs), t.MemoryGiB.String(),
		o.Source, o.FetchedAt.UTC().Format("2006-01-02T15:04:05Z"),
		upfront, string(o.Availability), acc.Name, each, t.Family, fmt.Sprint(o.Synthetic), o.Suspect, o.Includes,
		observed, priceMin, priceMax, fmt.Sprint(o.Reported),
	}
	status, band, saving, at := interruptionCells(&o)
	f := r.Facts
	perMonth, hourly := subscriptionCells(o)
	machine, accel := partCells(o)
	return append(rec, status, band, saving, at, fmt.Sprint(o.Estimated),
		decimalCell(f.GPUHour), decimalCell(f.GiBHour), decimalCell(f.SavingPct), decimalCell(f.RiskHour),
		perMonth, hourly, machine, accel)
}

// partCells are the parts of an offer's price where the provider prices in
// parts (catalog.Offer.Parts: Google Cloud's machine and accelerators), in
// the price's currency and unit; empty otherwise.
func partCells(o catalog.Offer) (machine, accelerators string) {
	for _, p := range o.Parts {
		switch p.Part {
		case catalog.PartMachine:
			machine = p.Amount.String()
		case catalog.PartAccelerators:
			accelerators = p.Amount.String()
		}
	}
	return machine, accelerators
}

// decimalCell is an exact figure as a cell, "" without one.
func decimalCell(d *decimal.Decimal) string {
	if d == nil {
		return ""
	}
	return d.String()
}

// subscriptionCells are a commitment offer's cost per month and its hourly
// equivalent in the price's currency (catalog.Offer.Subscription); empty for
// pay-as-you-go offers.
func subscriptionCells(o catalog.Offer) (perMonth, hourly string) {
	c, ok := o.Subscription()
	if !ok {
		return "", ""
	}
	return c.PerMonth.String(), c.Hourly.String()
}

// interruptionCells are a spot offer's interruption columns: its status
// (band, no_data, not_published; empty for other billing), and where the
// advisor has a row, the band, the saving in percent and when the feed was
// fetched.
func interruptionCells(o *catalog.Offer) (status, band, saving, observed string) {
	status = catalog.InterruptionStatus(o)
	if in := o.Interruption; in != nil {
		band, saving, observed = string(in.Band), fmt.Sprint(in.SavingsPct), in.ObservedAt.UTC().Format("2006-01-02T15:04:05Z")
	}
	return status, band, saving, observed
}

// SafeCSVCell defuses a cell that a spreadsheet would run as a formula (one that
// starts with =, +, -, @, tab or carriage return) by prefixing a single quote, as
// OWASP recommends. A plain negative number of up to four whole digits and
// eight decimals (the advisor's saving, a saving against on-demand can be
// negative) is a number, not a formula, and is left as it is.
func SafeCSVCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) && !negativeNumber.MatchString(s) {
		return "'" + s
	}
	return s
}

// negativeNumber is a minus, up to four digits and up to eight decimals.
var negativeNumber = regexp.MustCompile(`^-[0-9]{1,4}(\.[0-9]{1,8})?$`)

// WriteOffersJSON writes the same rows as WriteOffersCSV as a JSON array of
// objects keyed by OfferColumns. Amounts stay strings so that exact decimals
// survive tools that read JSON numbers as floats; synthetic and reported are
// booleans; observed_at is "" where the source gives no date.
func WriteOffersJSON(w io.Writer, s *catalog.Snapshot) error {
	rows, err := OfferRows(s)
	if err != nil {
		return err
	}
	recs := make([][]string, len(rows))
	for i, r := range rows {
		recs[i] = csvRecordRaw(r)
	}
	return writeRecordsJSON(w, OfferColumns, recs, func(col string) bool { return col == "synthetic" || col == "reported" || col == "price_estimated" })
}

// writeRecordsJSON writes records as a JSON array of objects keyed by cols, one
// object a line: a column for which literal is true is written as it is (a
// number or a boolean), every other as a JSON string.
func writeRecordsJSON(w io.Writer, cols []string, recs [][]string, literal func(col string) bool) error {
	var b strings.Builder
	b.WriteString("[")
	for i, rec := range recs {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n{")
		for j, col := range cols {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString(jsonString(col))
			b.WriteString(":")
			if literal(col) {
				b.WriteString(rec[j])
				continue
			}
			b.WriteString(jsonString(rec[j]))
		}
		b.WriteString("}")
	}
	b.WriteString("\n]\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func jsonString(s string) string {
	enc, _ := json.Marshal(s) // a string always encodes
	return string(enc)
}
