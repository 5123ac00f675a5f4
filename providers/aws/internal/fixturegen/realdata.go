package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/gpuatlas/gpuatlas/providers/internal/fixture"
)

// priceRow is one row of the ec2instances.info price files: a type in a region,
// Linux prices per hour (reserved ones as effective hourly rates), in currency.
type priceRow struct {
	typ, region, currency                         string
	onDemand, spotAvg                             string
	spotMin, spotMax, spotSavings                 string // the band over the dataset's window; the Spot Advisor's savings %
	r1NoUpfront, r1AllUpfront, r3NoUpfront, r3All string
}

// realRegion matches region codes (us-east-1, us-gov-west-1, cn-north-1), not Local
// Zone or Wavelength codes such as us-east-1-atl-1 or us-west-2-wl1-den1.
var realRegion = regexp.MustCompile(`^[a-z]{2}(-gov)?-[a-z]+-[0-9]+$`)

// loadTypes reads a file of moto DescribeInstanceTypes records into g.types; a
// type described twice, here or in an earlier file, is an error.
func (g *generator) loadTypes(name string) error {
	f, err := os.Open(filepath.Join(g.in, name))
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	dec := json.NewDecoder(f)
	dec.UseNumber()
	var doc struct {
		InstanceTypes []map[string]any
	}
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if g.types == nil {
		g.types = map[string]map[string]any{}
	}
	for i, rec := range doc.InstanceTypes {
		id, _ := rec["InstanceType"].(string)
		if id == "" {
			return fmt.Errorf("%s: record %d has no InstanceType", name, i)
		}
		if g.types[id] != nil {
			return fmt.Errorf("%s: %s is described twice", name, id)
		}
		g.types[id] = rec
	}
	return nil
}

// loadOfferings returns the types offered per region (any location type) and the
// availability-zone rows per region, as [type, zone] sorted by type and zone.
func (g *generator) loadOfferings(name string) (offered map[string]map[string]bool, zones map[string][][2]string, err error) {
	rows, err := fixture.ReadCSV(filepath.Join(g.in, name), "region", "instance_type", "location_type", "location")
	if err != nil {
		return nil, nil, err
	}
	offered = map[string]map[string]bool{}
	zones = map[string][][2]string{}
	for _, r := range rows {
		region, typ := r.Get("region"), r.Get("instance_type")
		if offered[region] == nil {
			offered[region] = map[string]bool{}
		}
		offered[region][typ] = true
		if r.Get("location_type") == "availability-zone" {
			zones[region] = append(zones[region], [2]string{typ, r.Get("location")})
		}
	}
	for _, z := range zones {
		slices.SortFunc(z, func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	}
	return offered, zones, nil
}

// loadPrices reads the price files, sorted by region and type, and counts the
// rows of Local Zone and Wavelength codes it skips. A type priced twice in a
// region is an error.
func (g *generator) loadPrices(names ...string) ([]priceRow, int, error) {
	var out []priceRow
	skipped := 0
	for _, name := range names {
		rows, err := fixture.ReadCSV(filepath.Join(g.in, name), "instance_type", "region", "currency", "linux_ondemand_per_hour",
			"linux_spot_min", "linux_spot_avg", "linux_spot_max", "spot_pct_savings_od",
			"linux_reserved_yrTerm1Standard.noUpfront", "linux_reserved_yrTerm1Standard.allUpfront",
			"linux_reserved_yrTerm3Standard.noUpfront", "linux_reserved_yrTerm3Standard.allUpfront")
		if err != nil {
			return nil, 0, err
		}
		for _, r := range rows {
			if !realRegion.MatchString(r.Get("region")) {
				skipped++
				continue
			}
			out = append(out, priceRow{
				typ: r.Get("instance_type"), region: r.Get("region"), currency: r.Get("currency"),
				onDemand: r.Get("linux_ondemand_per_hour"), spotAvg: r.Get("linux_spot_avg"),
				spotMin: r.Get("linux_spot_min"), spotMax: r.Get("linux_spot_max"), spotSavings: r.Get("spot_pct_savings_od"),
				r1NoUpfront: r.Get("linux_reserved_yrTerm1Standard.noUpfront"), r1AllUpfront: r.Get("linux_reserved_yrTerm1Standard.allUpfront"),
				r3NoUpfront: r.Get("linux_reserved_yrTerm3Standard.noUpfront"), r3All: r.Get("linux_reserved_yrTerm3Standard.allUpfront"),
			})
		}
	}
	slices.SortFunc(out, func(a, b priceRow) int { return cmp.Or(cmp.Compare(a.region, b.region), cmp.Compare(a.typ, b.typ)) })
	for i := 1; i < len(out); i++ {
		if out[i].region == out[i-1].region && out[i].typ == out[i-1].typ {
			return nil, 0, fmt.Errorf("price rows: %s in %s appears twice", out[i].typ, out[i].region)
		}
	}
	return out, skipped, nil
}
