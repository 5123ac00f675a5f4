// Command fixturegen turns the real AWS data in ../shared/realdata/aws into the
// replay fixtures of the AWS adapter. It reads the moto instance-type records and
// offerings and the ec2instances.info price files (realdata.go), writes recorded
// EC2 query-XML answers (ec2.go, instancetype_xml.go) and Price List JSON 1.1
// answers (pricelist.go) with a manifest.json that states their provenance
// (manifest.go), and reads the instance-type answers back through the SDK
// (verify.go). It replaces the output folder; its output is deterministic.
//
//	go run ./providers/aws/internal/fixturegen -realdata ../shared/realdata/aws -out providers/aws/testdata/replay
package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/gpuatlas/gpuatlas/providers/internal/fixture"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	asOf      = "2025-11-30" // date of the regional price file
	asOfChina = "2026-01-21" // date of the China price file
	// retrieved is when GPU Atlas copied the source data (the shared real-data
	// set, first batch): the embedded offers' fetched_at.
	retrieved = "2026-11-30"
	// spotProvenanceFile holds what each replayed spot figure is.
	spotProvenanceFile = "spot_provenance.json"

	// Page sizes, smaller than the API maxima so that every paginated call is
	// exercised over several pages.
	typesPerPage     = 20
	offeringsPerPage = 100
	spotPerPage      = 100
	productsPerPage  = 25
)

// generator holds the real data read so far and the fixture folder being written.
type generator struct {
	in     string
	folder *fixture.Folder
	types  map[string]map[string]any // instance type -> moto JSON record
	spot   []replay.OfferProvenance  // what each replayed spot figure is
}

func main() {
	fixture.Command{Cloud: "aws", Reads: "the moto instance-type and offering files and the ec2instances.info price files", Generate: generate}.Main()
}

// generate writes the fixtures, then reads them back through the SDK.
func generate(realdata, out string) error {
	g := &generator{in: realdata}
	if err := g.run(out); err != nil {
		return err
	}
	if err := verify(out, g.types); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	return nil
}

func (g *generator) run(out string) error {
	if err := g.loadTypes("describe_instance_types_accelerated.json"); err != nil {
		return err
	}
	if err := g.loadTypes("describe_instance_types_accelerated_legacy.json"); err != nil {
		return err
	}
	offered, zones, err := g.loadOfferings("instance_type_offerings_accelerated.csv")
	if err != nil {
		return err
	}
	prices, skippedLocal, err := g.loadPrices("ec2_accelerated_prices_by_region.csv", "ec2_accelerated_prices_china_regions.csv")
	if err != nil {
		return err
	}

	// regionTypes: the types DescribeInstanceTypes returns in a region, the union of
	// the types offered there and the types priced there.
	regionTypes := map[string]map[string]bool{}
	add := func(region, typ string) {
		if g.types[typ] == nil {
			return
		}
		if regionTypes[region] == nil {
			regionTypes[region] = map[string]bool{}
		}
		regionTypes[region][typ] = true
	}
	for region, ts := range offered {
		for t := range ts {
			add(region, t)
		}
	}
	for _, p := range prices {
		add(p.region, p.typ)
	}
	regions := slices.Sorted(maps.Keys(regionTypes))

	if g.folder, err = fixture.Create(out); err != nil {
		return err
	}
	g.folder.RawHTML = true
	g.writeRegions(regions)
	spotSkipped := 0
	for _, region := range regions {
		g.writeInstanceTypes(region, slices.Sorted(maps.Keys(regionTypes[region])))
		g.writeOfferings(region, zones[region], regionTypes[region])
		n, err := g.writeSpot(region, prices, zones[region])
		if err != nil {
			return err
		}
		spotSkipped += n
		if err := g.writeProducts(region, prices); err != nil {
			return err
		}
	}

	var noOfferings []string
	for _, r := range regions {
		if len(offered[r]) == 0 {
			noOfferings = append(noOfferings, r)
		}
	}
	g.folder.JSON(spotProvenanceFile, g.spot)
	advisor, err := g.writeSpotAdvisor()
	if err != nil {
		return err
	}
	m := manifest(len(regions), noOfferings, spotSkipped, skippedLocal, len(g.spot))
	m.Sources = append(m.Sources, advisor.source())
	m.SpotAdvisor = &replay.SpotAdvisorCopy{Observed: advisor.date,
		Source: fmt.Sprintf("AWS Spot Instance Advisor (spot-advisor-data.json), copy of %s in %s %s at %s", advisor.date, advisor.repo, advisor.path, advisor.commit[:12])}
	m.Notes = append(m.Notes, fmt.Sprintf("GetSpotAdvisorData (GET /spot-advisor-data.json, the public Spot Instance Advisor feed): the newest committed copy (%s, %s at %s), its %d Linux rows of accelerated types written back in the feed's shape (ranges, instance_types, spot_advisor.<region>.Linux.<type> {s, r}); other OS rows and non-accelerated types are not in the shared copy. The feed has no date of its own: spot_advisor.observed is the copy's commit date (it was fetched on or before it), which make data stamps on the offers' interruption data.",
		advisor.date, advisor.repo, advisor.commit, advisor.rows))
	return g.folder.WriteManifest(m)
}
