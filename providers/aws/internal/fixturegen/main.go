// Command fixturegen turns the real AWS data in ../shared/realdata/aws into the
// replay fixtures of the AWS adapter: recorded EC2 (query XML) and Price List
// (JSON 1.1) answers with a manifest. The output is deterministic.
//
//	go run ./providers/aws/internal/fixturegen -realdata ../shared/realdata/aws -out providers/aws/testdata/replay
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base32"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	asOf        = "2025-11-30" // date of the regional price file
	asOfChina   = "2026-01-21" // date of the China price file
	spotStamp   = "2025-11-30T00:00:00.000Z"
	ec2XMLNS    = "http://ec2.amazonaws.com/doc/2016-11-15/"
	ec2Type     = "text/xml;charset=UTF-8"
	pricingType = "application/x-amz-json-1.1"

	// Page sizes, smaller than the API maxima so that every paginated call is
	// exercised over several pages.
	typesPerPage     = 20
	offeringsPerPage = 100
	spotPerPage      = 100
	productsPerPage  = 25
)

// Provenance lines, as the realdata README states them.
var sources = []string{
	"aws/describe_instance_types_accelerated.json: repository getmoto/moto, path moto/ec2/resources/instance_types.json, file last changed in commit 34d6cad5abbb7b91c97578f3249b39a7e2df1ed5 (2026-08-02, \"update EC2 Instance Types\"); repository snapshot commit 0af643a5dbfc98797f08ee64f5be3ef8002d56ff (2026-08-22). Licence: Apache-2.0.",
	"aws/describe_instance_types_accelerated_legacy.json: same source file (getmoto/moto, moto/ec2/resources/instance_types.json), older commits: dl1 from c4ea638016b2413f644a0e332fd7923047003602 (2026-07-02), p3.* and f1.* from 95a01280bd2c20fd7fcfb36deaf0820f5d3f0bfa (2026-04-01), p2.* from a625589aa6850fe7866cad8a672a38fa79197203 (2025-03-16), g3/g3s from bc221b5e73ad90b19d082172e6057a0517859af6 (2024-11-03), g2 from 2e06ed15ef7427c9e278a4dc8c0a2ff31f810a8f (2023-10-01). Licence: Apache-2.0.",
	"aws/instance_type_offerings_accelerated.csv: repository getmoto/moto, moto/ec2/resources/instance_type_offerings/{region,availability-zone,availability-zone-id}/<region>.json, last changed in commit c6bd43ff2d090b35b6491f1cc80bffd29063e5c8 (2026-08-01). Licence: Apache-2.0. DescribeInstanceTypeOfferings results.",
	"aws/ec2_accelerated_prices_by_region.csv: repository tsaol/aws-gpu, path data/gpu_instances_raw.json at commit 2d0108c7bd261c8e40493fbd35135437bd6c9099 (2025-11-30); the GPU subset of the ec2instances.info dataset (vantage-sh/ec2instances.info, MIT licence); tsaol/aws-gpu itself carries no licence file.",
	"aws/ec2_accelerated_prices_china_regions.csv: repository tsaol/aws-gpu, path data/gpu_instances_raw_cn.json, last changed in commit 7412fd256c5eda04a70a17742a68e8e44824b2cb (2026-01-21); same ec2instances.info origin (MIT licence).",
}

// realRegion matches region codes (us-east-1, us-gov-west-1, cn-north-1), not Local
// Zone or Wavelength codes such as us-east-1-atl-1 or us-west-2-wl1-den1.
var realRegion = regexp.MustCompile(`^[a-z]{2}(-gov)?-[a-z]+-[0-9]+$`)

// optIn lists the regions that an account must enable (launched after March 2019).
var optIn = map[string]bool{
	"af-south-1": true, "ap-east-1": true, "ap-south-2": true, "ap-southeast-3": true, "ap-southeast-4": true,
	"ap-southeast-5": true, "ap-southeast-7": true, "ca-west-1": true, "eu-central-2": true, "eu-south-1": true,
	"eu-south-2": true, "il-central-1": true, "me-central-1": true, "me-south-1": true, "mx-central-1": true,
}

// kept lists the InstanceTypeInfo members written to the recorded answers (a
// member's whole subtree; list items add nothing to the path). The others are left
// out to keep the fixtures small: the catalog does not read them, and EBS figures,
// core lists, connection tracking and placement details make up most of a record.
var kept = map[string]bool{
	"InstanceType": true, "CurrentGeneration": true, "BareMetal": true, "Hypervisor": true,
	"VCpuInfo.DefaultVCpus": true, "VCpuInfo.DefaultCores": true, "VCpuInfo.DefaultThreadsPerCore": true,
	"MemoryInfo": true, "ProcessorInfo": true, "InstanceStorageSupported": true, "InstanceStorageInfo": true,
	"NetworkInfo.NetworkPerformance": true, "NetworkInfo.EfaSupported": true, "NetworkInfo.EfaInfo": true,
	"NetworkInfo.MaximumNetworkCards": true, "NetworkInfo.NetworkCards.NetworkCardIndex": true,
	"NetworkInfo.NetworkCards.NetworkPerformance": true, "NetworkInfo.NetworkCards.BaselineBandwidthInGbps": true,
	"NetworkInfo.NetworkCards.PeakBandwidthInGbps": true,
	"GpuInfo": true, "NeuronInfo": true, "InferenceAcceleratorInfo": true, "FpgaInfo": true, "MediaAcceleratorInfo": true,
	"SupportedUsageClasses": true,
}

// trim returns the record with only the kept members.
func trim(v any, path string) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			p := k
			if path != "" {
				p = path + "." + k
			}
			switch {
			case keptWhole(p):
				out[k] = e
			case keptPart(p):
				out[k] = trim(e, p)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = trim(e, path)
		}
		return out
	}
	return v
}

func keptWhole(path string) bool {
	for p := path; ; {
		if kept[p] {
			return true
		}
		i := strings.LastIndex(p, ".")
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

func keptPart(path string) bool {
	for k := range kept {
		if strings.HasPrefix(k, path+".") {
			return true
		}
	}
	return false
}

// xmlNames are the EC2 XML element names that are not the JSON member name with
// a lower-case first letter (see the SDK's awsEc2query_deserializeDocument*).
var xmlNames = map[string]string{
	"Workloads":      "workloadSet",
	"InterfaceTypes": "interfaceTypeSet",
}

type priceRow struct {
	typ, region, currency                         string
	onDemand, spotAvg                             string
	r1NoUpfront, r1AllUpfront, r3NoUpfront, r3All string
}

type generator struct {
	in, out   string
	manifest  replay.Manifest
	types     map[string]map[string]any // instance type -> JSON record
	typeOrder []string
	notes     []string
}

func main() {
	in := flag.String("realdata", "../shared/realdata/aws", "folder with the real AWS data")
	out := flag.String("out", "providers/aws/testdata/replay", "fixture folder to write (replaced)")
	flag.Parse()
	g := &generator{in: *in, out: *out}
	if err := g.run(); err != nil {
		fmt.Fprintln(os.Stderr, "fixturegen:", err)
		os.Exit(1)
	}
	if err := verify(*out, g.types); err != nil {
		fmt.Fprintln(os.Stderr, "fixturegen: verify:", err)
		os.Exit(1)
	}
}

func (g *generator) run() error {
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
	regions := sortedKeys(regionTypes)

	if err := os.RemoveAll(g.out); err != nil {
		return err
	}
	g.manifest = replay.Manifest{Provider: "aws", AsOf: asOf, Synthetic: false, Sources: sources}

	if err := g.writeRegions(regions); err != nil {
		return err
	}
	spotSkipped := 0
	for _, region := range regions {
		if err := g.writeInstanceTypes(region, sortedKeys(regionTypes[region])); err != nil {
			return err
		}
		if err := g.writeOfferings(region, zones[region], regionTypes[region]); err != nil {
			return err
		}
		n, err := g.writeSpot(region, prices, zones[region])
		if err != nil {
			return err
		}
		spotSkipped += n
		if err := g.writeProducts(region, prices); err != nil {
			return err
		}
	}

	noOfferings := []string{}
	for _, r := range regions {
		if len(offered[r]) == 0 {
			noOfferings = append(noOfferings, r)
		}
	}
	g.notes = append(g.notes,
		"DescribeRegions lists every region with any data ("+fmt.Sprint(len(regions))+"): the regions of the offerings file and the region codes of both price files. Endpoints are ec2.<region>.amazonaws.com (.com.cn in China); optInStatus is opted-in for the regions launched after March 2019, opt-in-not-required otherwise.",
		"DescribeInstanceTypes: the moto records (values unchanged) written as EC2 query XML (camelCase element names, lists as <item>, InferenceAcceleratorInfo accelerators as <member>, Workloads as workloadSet; every record was read back through the SDK deserializer and compared with the source at generation). To keep the fixtures small only these members are written (values as in the source): "+strings.Join(sortedKeys(kept), ", ")+"; the others (EBS, Nitro, placement, boot and root-device details, core lists, ENA details) are not read by the catalog.",
		"DescribeInstanceTypes per region returns the union of the types offered there (offerings file, any location type) and the types priced there (price files), so retired types still priced (p2, p3, g3, g2 in us-east-1) come from the legacy records. Regions without offering data ("+strings.Join(noOfferings, ", ")+") are described from their price rows alone and answer DescribeInstanceTypeOfferings with an empty set.",
		"DescribeInstanceTypeOfferings (LocationType availability-zone): the offerings file's availability-zone rows, sorted by instance type and zone.",
		fmt.Sprintf("DescribeSpotPriceHistory: the price file has only a regional min/avg/max over its spot window, so each type gets one Linux/UNIX item per availability zone that offers it, with linux_spot_avg as spotPrice and the dataset date (%s) as timestamp. %d priced rows with a spot figure had no availability-zone offering data in their region and give no spot items.", spotStamp, spotSkipped),
		"GetProducts (Price List, aws_v1): one product per priced type and region code, with only the members the adapter and a reader need (product attributes, sku, terms with offerTermCode, effectiveDate, termAttributes and priceDimensions holding unit and pricePerUnit; description, rateCode, appliesTo and ranges left out) (attributes regionCode, instanceType, operatingSystem Linux, tenancy Shared, preInstalledSw NA, capacitystatus Used; SKU a hash of region and type). OnDemand from linux_ondemand_per_hour; Reserved standard 1yr/3yr No Upfront from the *.noUpfront effective hourly; All Upfront as an hourly dimension of 0 plus an upfront Quantity = the *.allUpfront effective hourly x 8760 x years, computed in exact decimal. Offer term codes are AWS's (JRTCKXETXF on-demand, 4NA7Y494T4 / 6QCMYABX3D / BPH4J8HBKS / NQ3QZPMQV9 reserved). Prices are USD; cn-north-1 and cn-northwest-1 are CNY from the China file ("+asOfChina+"): on-demand, and reserved where the file has the figures (it has no spot figures).",
		fmt.Sprintf("Price rows for Local Zone and Wavelength codes (e.g. us-east-1-atl-1, us-west-2-wl1-den1, cn-north-1-pkx-1) are not regions and were skipped: %d rows.", skippedLocal),
		fmt.Sprintf("Pages: DescribeInstanceTypes %d items, DescribeInstanceTypeOfferings %d, DescribeSpotPriceHistory %d, GetProducts %d; next tokens are <action>-<region>-p<n>.", typesPerPage, offeringsPerPage, spotPerPage, productsPerPage),
		"Requests are matched on action, signing region (EC2) and NextToken; GetProducts on the regionCode filter and NextToken.",
	)
	g.manifest.Notes = g.notes
	replay.SortExchanges(g.manifest.Exchanges)
	var data bytes.Buffer
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(g.manifest); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(g.out, "manifest.json"), data.Bytes(), 0o644)
}

func (g *generator) loadTypes(name string) error {
	f, err := os.Open(filepath.Join(g.in, name))
	if err != nil {
		return err
	}
	defer f.Close()
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
// availability-zone rows per region: zone -> types.
func (g *generator) loadOfferings(name string) (offered map[string]map[string]bool, zones map[string][][2]string, err error) {
	rows, err := readCSV(filepath.Join(g.in, name))
	if err != nil {
		return nil, nil, err
	}
	offered = map[string]map[string]bool{}
	zones = map[string][][2]string{}
	for _, r := range rows {
		region, typ := r["region"], r["instance_type"]
		if offered[region] == nil {
			offered[region] = map[string]bool{}
		}
		offered[region][typ] = true
		if r["location_type"] == "availability-zone" {
			zones[region] = append(zones[region], [2]string{typ, r["location"]})
		}
	}
	for region := range zones {
		z := zones[region]
		sort.Slice(z, func(i, j int) bool {
			if z[i][0] != z[j][0] {
				return z[i][0] < z[j][0]
			}
			return z[i][1] < z[j][1]
		})
	}
	return offered, zones, nil
}

func (g *generator) loadPrices(names ...string) ([]priceRow, int, error) {
	var out []priceRow
	skipped := 0
	for _, name := range names {
		rows, err := readCSV(filepath.Join(g.in, name))
		if err != nil {
			return nil, 0, err
		}
		for _, r := range rows {
			if !realRegion.MatchString(r["region"]) {
				skipped++
				continue
			}
			out = append(out, priceRow{
				typ: r["instance_type"], region: r["region"], currency: r["currency"],
				onDemand: r["linux_ondemand_per_hour"], spotAvg: r["linux_spot_avg"],
				r1NoUpfront: r["linux_reserved_yrTerm1Standard.noUpfront"], r1AllUpfront: r["linux_reserved_yrTerm1Standard.allUpfront"],
				r3NoUpfront: r["linux_reserved_yrTerm3Standard.noUpfront"], r3All: r["linux_reserved_yrTerm3Standard.allUpfront"],
			})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].region != out[j].region {
			return out[i].region < out[j].region
		}
		return out[i].typ < out[j].typ
	})
	for i := 1; i < len(out); i++ {
		if out[i].region == out[i-1].region && out[i].typ == out[i-1].typ {
			return nil, 0, fmt.Errorf("price rows: %s in %s appears twice", out[i].typ, out[i].region)
		}
	}
	return out, skipped, nil
}

func (g *generator) writeRegions(regions []string) error {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<DescribeRegionsResponse xmlns="` + ec2XMLNS + `">`)
	b.WriteString("<requestId>" + requestID("DescribeRegions") + "</requestId><regionInfo>")
	for _, r := range regions {
		host := "ec2." + r + ".amazonaws.com"
		if strings.HasPrefix(r, "cn-") {
			host += ".cn"
		}
		status := "opt-in-not-required"
		if optIn[r] {
			status = "opted-in"
		}
		b.WriteString("<item><regionName>" + esc(r) + "</regionName><regionEndpoint>" + esc(host) + "</regionEndpoint><optInStatus>" + status + "</optInStatus></item>")
	}
	b.WriteString("</regionInfo></DescribeRegionsResponse>\n")
	return g.writeEC2("DescribeRegions", "", nil, "ec2/DescribeRegions.xml", b.Bytes())
}

func (g *generator) writeInstanceTypes(region string, types []string) error {
	return g.paged("DescribeInstanceTypes", region, len(types), typesPerPage, "instanceTypeSet", func(b *bytes.Buffer, i int) {
		b.WriteString("<item>")
		writeXMLObject(b, trim(g.types[types[i]], "").(map[string]any), "")
		b.WriteString("</item>")
	})
}

func (g *generator) writeOfferings(region string, zones [][2]string, types map[string]bool) error {
	var rows [][2]string
	for _, z := range zones {
		if types[z[0]] {
			rows = append(rows, z)
		}
	}
	return g.paged("DescribeInstanceTypeOfferings", region, len(rows), offeringsPerPage, "instanceTypeOfferingSet", func(b *bytes.Buffer, i int) {
		b.WriteString("<item><instanceType>" + esc(rows[i][0]) + "</instanceType><locationType>availability-zone</locationType><location>" + esc(rows[i][1]) + "</location></item>")
	})
}

// writeSpot returns the number of priced rows with a spot figure that give no item.
func (g *generator) writeSpot(region string, prices []priceRow, zones [][2]string) (int, error) {
	byType := map[string][]string{}
	for _, z := range zones {
		byType[z[0]] = append(byType[z[0]], z[1])
	}
	type item struct{ typ, zone, price string }
	var items []item
	skipped := 0
	for _, p := range prices {
		if p.region != region || p.spotAvg == "" {
			continue
		}
		zs := byType[p.typ]
		if len(zs) == 0 {
			skipped++
			continue
		}
		price, err := decimal.NewFromString(p.spotAvg)
		if err != nil {
			return 0, fmt.Errorf("spot %s in %s: %w", p.typ, region, err)
		}
		for _, z := range zs {
			items = append(items, item{p.typ, z, price.StringFixed(6)})
		}
	}
	err := g.paged("DescribeSpotPriceHistory", region, len(items), spotPerPage, "spotPriceHistorySet", func(b *bytes.Buffer, i int) {
		it := items[i]
		b.WriteString("<item><instanceType>" + esc(it.typ) + "</instanceType><productDescription>Linux/UNIX</productDescription><spotPrice>" +
			it.price + "</spotPrice><timestamp>" + spotStamp + "</timestamp><availabilityZone>" + esc(it.zone) + "</availabilityZone></item>")
	})
	return skipped, err
}

// paged writes the pages of one paginated EC2 call in a region; an empty result is
// one empty page.
func (g *generator) paged(action, region string, n, perPage int, set string, item func(b *bytes.Buffer, i int)) error {
	pages := (n + perPage - 1) / perPage
	if pages == 0 {
		pages = 1
	}
	for p := 0; p < pages; p++ {
		var b bytes.Buffer
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
		b.WriteString("<" + action + "Response xmlns=\"" + ec2XMLNS + "\">")
		b.WriteString("<requestId>" + requestID(action, region, fmt.Sprint(p)) + "</requestId>")
		b.WriteString("<" + set + ">")
		for i := p * perPage; i < n && i < (p+1)*perPage; i++ {
			item(&b, i)
		}
		b.WriteString("</" + set + ">")
		if p+1 < pages {
			b.WriteString("<nextToken>" + token(action, region, p+2) + "</nextToken>")
		} else {
			b.WriteString("<nextToken/>")
		}
		b.WriteString("</" + action + "Response>\n")
		prev := ""
		if p > 0 {
			prev = token(action, region, p+1)
		}
		file := fmt.Sprintf("ec2/%s/%s-%d.xml", region, action, p+1)
		if err := g.writeEC2(action, region, map[string]string{"NextToken": prev}, file, b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

func (g *generator) writeEC2(action, region string, params map[string]string, file string, body []byte) error {
	if err := g.write(file, body); err != nil {
		return err
	}
	g.manifest.Exchanges = append(g.manifest.Exchanges, replay.Exchange{
		Service: "ec2", Action: action, Region: region, Params: params, ContentType: ec2Type, Body: file,
	})
	return nil
}

// Price List documents: only the structure GetProducts returns, with the fields
// the data gives.
type product struct {
	Product struct {
		ProductFamily string            `json:"productFamily"`
		Attributes    map[string]string `json:"attributes"`
		SKU           string            `json:"sku"`
	} `json:"product"`
	ServiceCode     string `json:"serviceCode"`
	Terms           terms  `json:"terms"`
	Version         string `json:"version"`
	PublicationDate string `json:"publicationDate"`
}

type terms struct {
	OnDemand map[string]term `json:"OnDemand,omitempty"`
	Reserved map[string]term `json:"Reserved,omitempty"`
}

type term struct {
	PriceDimensions map[string]dimension `json:"priceDimensions"`
	SKU             string               `json:"sku"`
	EffectiveDate   string               `json:"effectiveDate"`
	OfferTermCode   string               `json:"offerTermCode"`
	TermAttributes  map[string]string    `json:"termAttributes"`
}

type dimension struct {
	Unit         string            `json:"unit"`
	PricePerUnit map[string]string `json:"pricePerUnit"`
}

const (
	hourlyRate  = "6YS6EN2CT7" // AWS's rate code of an hourly price dimension
	upfrontRate = "2TG2D8R56U" // and of an upfront fee
)

func (g *generator) writeProducts(region string, prices []priceRow) error {
	var docs []string
	for _, p := range prices {
		if p.region != region || g.types[p.typ] == nil {
			continue
		}
		doc, ok, err := productDoc(p)
		if err != nil {
			return err
		}
		if ok {
			docs = append(docs, doc)
		}
	}
	pages := (len(docs) + productsPerPage - 1) / productsPerPage
	if pages == 0 {
		pages = 1
	}
	for pg := 0; pg < pages; pg++ {
		end := min((pg+1)*productsPerPage, len(docs))
		body := struct {
			FormatVersion string   `json:"FormatVersion"`
			PriceList     []string `json:"PriceList"`
			NextToken     string   `json:"NextToken,omitempty"`
		}{FormatVersion: "aws_v1", PriceList: append([]string{}, docs[min(pg*productsPerPage, len(docs)):end]...)}
		if pg+1 < pages {
			body.NextToken = token("GetProducts", region, pg+2)
		}
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		file := fmt.Sprintf("pricing/%s/GetProducts-%d.json", region, pg+1)
		if err := g.write(file, append(data, '\n')); err != nil {
			return err
		}
		prev := ""
		if pg > 0 {
			prev = token("GetProducts", region, pg+1)
		}
		g.manifest.Exchanges = append(g.manifest.Exchanges, replay.Exchange{
			Service: "pricing", Action: "GetProducts",
			Params:      map[string]string{"filter.regionCode": region, "NextToken": prev},
			ContentType: pricingType, Body: file,
		})
	}
	return nil
}

// productDoc is the Price List document of one priced type in one region; ok is
// false when the row has no Linux price at all.
func productDoc(p priceRow) (string, bool, error) {
	sku := skuOf(p.region, p.typ)
	date := asOf
	if p.currency == "CNY" {
		date = asOfChina
	}
	var doc product
	doc.Product.ProductFamily = "Compute Instance"
	doc.Product.SKU = sku
	doc.Product.Attributes = map[string]string{
		"servicecode": "AmazonEC2", "regionCode": p.region, "instanceType": p.typ,
		"operatingSystem": "Linux", "tenancy": "Shared",
		"preInstalledSw": "NA", "capacitystatus": "Used", "licenseModel": "No License required", "operation": "RunInstances",
	}
	doc.ServiceCode = "AmazonEC2"
	doc.Version = strings.ReplaceAll(date, "-", "") + "000000"
	doc.PublicationDate = date + "T00:00:00Z"
	effective := date + "T00:00:00Z"
	dim := func(code, rate, unit string, amount decimal.Decimal) (string, dimension) {
		return sku + "." + code + "." + rate, dimension{Unit: unit, PricePerUnit: map[string]string{p.currency: priceText(amount)}}
	}
	mkTerm := func(code string, attrs map[string]string, dims ...func() (string, dimension)) term {
		t := term{PriceDimensions: map[string]dimension{}, SKU: sku, EffectiveDate: effective, OfferTermCode: code, TermAttributes: attrs}
		for _, d := range dims {
			k, v := d()
			t.PriceDimensions[k] = v
		}
		return t
	}
	any := false
	if p.onDemand != "" {
		od, err := decimal.NewFromString(p.onDemand)
		if err != nil {
			return "", false, fmt.Errorf("%s in %s: on-demand %q: %w", p.typ, p.region, p.onDemand, err)
		}
		code := "JRTCKXETXF"
		doc.Terms.OnDemand = map[string]term{sku + "." + code: mkTerm(code, map[string]string{}, func() (string, dimension) {
			return dim(code, hourlyRate, "Hrs", od)
		})}
		any = true
	}
	reserved := []struct {
		value, code, lease, option string
		years                      int64
	}{
		{p.r1NoUpfront, "4NA7Y494T4", "1yr", "No Upfront", 1},
		{p.r1AllUpfront, "6QCMYABX3D", "1yr", "All Upfront", 1},
		{p.r3NoUpfront, "BPH4J8HBKS", "3yr", "No Upfront", 3},
		{p.r3All, "NQ3QZPMQV9", "3yr", "All Upfront", 3},
	}
	for _, r := range reserved {
		if r.value == "" {
			continue
		}
		eff, err := decimal.NewFromString(r.value)
		if err != nil {
			return "", false, fmt.Errorf("%s in %s: reserved %s %s %q: %w", p.typ, p.region, r.lease, r.option, r.value, err)
		}
		attrs := map[string]string{"LeaseContractLength": r.lease, "OfferingClass": "standard", "PurchaseOption": r.option}
		var t term
		if r.option == "No Upfront" {
			t = mkTerm(r.code, attrs, func() (string, dimension) {
				return dim(r.code, hourlyRate, "Hrs", eff)
			})
		} else {
			// The source gives the effective hourly rate of an all-upfront
			// reservation; the Price List states it as the fee over the term.
			fee := eff.Mul(decimal.NewFromInt(8760 * r.years))
			t = mkTerm(r.code, attrs,
				func() (string, dimension) {
					return dim(r.code, hourlyRate, "Hrs", decimal.Zero)
				},
				func() (string, dimension) { return dim(r.code, upfrontRate, "Quantity", fee) })
		}
		if doc.Terms.Reserved == nil {
			doc.Terms.Reserved = map[string]term{}
		}
		doc.Terms.Reserved[sku+"."+r.code] = t
		any = true
	}
	if !any {
		return "", false, nil
	}
	data, err := json.Marshal(doc)
	return string(data), true, err
}

// priceText writes an amount as the Price List does (ten decimal places), without
// ever rounding a figure that has more.
func priceText(d decimal.Decimal) string {
	if d.Exponent() < -10 {
		return d.String()
	}
	return d.StringFixed(10)
}

func (g *generator) write(rel string, data []byte) error {
	path := filepath.Join(g.out, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// writeXMLObject writes a JSON object's members as EC2 XML elements, in name
// order; parent is the object's own member name.
func writeXMLObject(b *bytes.Buffer, obj map[string]any, parent string) {
	for _, k := range sortedKeys(obj) {
		name := xmlNames[k]
		if name == "" {
			name = strings.ToLower(k[:1]) + k[1:]
		}
		b.WriteString("<" + name + ">")
		writeXMLValue(b, obj[k], parent+"."+k)
		b.WriteString("</" + name + ">")
	}
}

func writeXMLValue(b *bytes.Buffer, v any, path string) {
	switch v := v.(type) {
	case map[string]any:
		writeXMLObject(b, v, path)
	case []any:
		// EC2 wraps list members in <item>, except InferenceAcceleratorInfo's
		// accelerators, whose members are <member> (awsEc2query_deserializeDocumentInferenceDeviceInfoList).
		elem := "item"
		if strings.HasSuffix(path, "InferenceAcceleratorInfo.Accelerators") {
			elem = "member"
		}
		for _, e := range v {
			b.WriteString("<" + elem + ">")
			writeXMLValue(b, e, path)
			b.WriteString("</" + elem + ">")
		}
	case string:
		b.WriteString(esc(v))
	case json.Number:
		b.WriteString(v.String())
	case bool:
		fmt.Fprint(b, v)
	case nil:
	}
}

func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

func token(action, region string, page int) string {
	return fmt.Sprintf("%s-%s-p%d", action, region, page)
}

func requestID(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "/")))
	x := fmt.Sprintf("%x", h[:16])
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

func skuOf(region, typ string) string {
	h := sha256.Sum256([]byte(region + "/" + typ))
	return base32.StdEncoding.EncodeToString(h[:])[:16]
}

func readCSV(path string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var rows []map[string]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		row := map[string]string{}
		for i, h := range header {
			row[h] = strings.TrimSpace(rec[i])
		}
		rows = append(rows, row)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
