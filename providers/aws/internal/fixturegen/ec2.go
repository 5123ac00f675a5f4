package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/providers/internal/fixture"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	ec2XMLNS  = "http://ec2.amazonaws.com/doc/2016-11-15/"
	ec2Type   = "text/xml;charset=UTF-8"
	spotStamp = "2025-11-30T00:00:00.000Z"
)

// optIn lists the regions that an account must enable (launched after March 2019).
var optIn = map[string]bool{
	"af-south-1": true, "ap-east-1": true, "ap-south-2": true, "ap-southeast-3": true, "ap-southeast-4": true,
	"ap-southeast-5": true, "ap-southeast-7": true, "ca-west-1": true, "eu-central-2": true, "eu-south-1": true,
	"eu-south-2": true, "il-central-1": true, "me-central-1": true, "me-south-1": true, "mx-central-1": true,
}

func (g *generator) writeRegions(regions []string) {
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
	g.writeEC2("DescribeRegions", "", nil, "ec2/DescribeRegions.xml", b.Bytes())
}

func (g *generator) writeInstanceTypes(region string, types []string) {
	g.paged("DescribeInstanceTypes", region, len(types), typesPerPage, "instanceTypeSet", func(b *bytes.Buffer, i int) {
		b.WriteString("<item>")
		writeXMLObject(b, trim(g.types[types[i]], "").(map[string]any), "")
		b.WriteString("</item>")
	})
}

func (g *generator) writeOfferings(region string, zones [][2]string, types map[string]bool) {
	var rows [][2]string
	for _, z := range zones {
		if types[z[0]] {
			rows = append(rows, z)
		}
	}
	g.paged("DescribeInstanceTypeOfferings", region, len(rows), offeringsPerPage, "instanceTypeOfferingSet", func(b *bytes.Buffer, i int) {
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
		prov, err := spotProvenance(p, price)
		if err != nil {
			return 0, err
		}
		g.spot = append(g.spot, prov)
	}
	g.paged("DescribeSpotPriceHistory", region, len(items), spotPerPage, "spotPriceHistorySet", func(b *bytes.Buffer, i int) {
		it := items[i]
		b.WriteString("<item><instanceType>" + esc(it.typ) + "</instanceType><productDescription>Linux/UNIX</productDescription><spotPrice>" +
			it.price + "</spotPrice><timestamp>" + spotStamp + "</timestamp><availabilityZone>" + esc(it.zone) + "</availabilityZone></item>")
	})
	return skipped, nil
}

// paged writes the pages of one paginated EC2 call in a region; an empty result is
// one empty page.
func (g *generator) paged(action, region string, n, perPage int, set string, item func(b *bytes.Buffer, i int)) {
	pages := max((n+perPage-1)/perPage, 1)
	for p := range pages {
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
		g.writeEC2(action, region, map[string]string{"NextToken": prev}, fmt.Sprintf("ec2/%s/%s-%d.xml", region, action, p+1), b.Bytes())
	}
}

func (g *generator) writeEC2(action, region string, params map[string]string, file string, body []byte) {
	g.folder.Add(replay.Exchange{
		Service: "ec2", Action: action, Region: region, Params: params, ContentType: ec2Type, Body: g.folder.Body(file, body),
	})
}

func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// token is the NextToken that asks for page of a paginated call in a region.
func token(action, region string, page int) string {
	return fmt.Sprintf("%s-%s-p%d", action, region, page)
}

func requestID(parts ...string) string { return fixture.RequestID(strings.Join(parts, "/")) }

// The source labels of the replayed spot offers (replay.OfferProvenance): the
// dataset gives one figure per type and region, either the average of the spot
// prices it observed over its window (with their minimum and maximum) or, with
// no observation, on-demand less the Spot Instance Advisor's savings percent.
const (
	spotAverageSource  = "regional average of observed spot prices (ec2instances.info via tsaol/aws-gpu, " + asOf + "), shown in each zone that offers the type; not a per-zone DescribeSpotPriceHistory figure"
	spotEstimateSource = "estimate, not an observed price: on-demand less the Spot Instance Advisor's %s%% savings (ec2instances.info via tsaol/aws-gpu, " + asOf + "), shown in each zone that offers the type"
)

// spotProvenance says what a row's spot figure is. A row without a band must
// be the savings estimate to the dataset's rounding, else it is an error: a
// figure of unknown kind is not replayed.
func spotProvenance(p priceRow, avg decimal.Decimal) (replay.OfferProvenance, error) {
	prov := replay.OfferProvenance{InstanceType: p.typ, Region: p.region, Billing: "spot"}
	if p.spotMin != "" || p.spotMax != "" {
		lo, err1 := decimal.NewFromString(p.spotMin)
		hi, err2 := decimal.NewFromString(p.spotMax)
		if err1 != nil || err2 != nil || avg.LessThan(lo) || avg.GreaterThan(hi) {
			return prov, fmt.Errorf("spot %s in %s: band %q..%q does not hold the average %s", p.typ, p.region, p.spotMin, p.spotMax, avg)
		}
		prov.Source, prov.PriceMin, prov.PriceMax = spotAverageSource, lo.String(), hi.String()
		return prov, nil
	}
	od, err1 := decimal.NewFromString(p.onDemand)
	s, err2 := decimal.NewFromString(p.spotSavings)
	if err1 != nil || err2 != nil {
		return prov, fmt.Errorf("spot %s in %s: no band and no on-demand price or savings to tell what %s is", p.typ, p.region, avg)
	}
	est := od.Mul(decimal.NewFromInt(100).Sub(s)).Div(decimal.NewFromInt(100))
	if est.Sub(avg).Abs().GreaterThan(od.Mul(decimal.New(1, -5))) {
		return prov, fmt.Errorf("spot %s in %s: no band, and %s is not on-demand %s less %s%% (%s)", p.typ, p.region, avg, od, s, est)
	}
	prov.Source, prov.Estimated = fmt.Sprintf(spotEstimateSource, s.String()), true
	return prov, nil
}
