package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// Provenance lines, as the realdata README states them.
var sources = []string{
	"aws/describe_instance_types_accelerated.json: repository getmoto/moto, path moto/ec2/resources/instance_types.json, file last changed in commit 34d6cad5abbb7b91c97578f3249b39a7e2df1ed5 (2026-08-02, \"update EC2 Instance Types\"); repository snapshot commit 0af643a5dbfc98797f08ee64f5be3ef8002d56ff (2026-08-22). Licence: Apache-2.0.",
	"aws/describe_instance_types_accelerated_legacy.json: same source file (getmoto/moto, moto/ec2/resources/instance_types.json), older commits: dl1 from c4ea638016b2413f644a0e332fd7923047003602 (2026-07-02), p3.* and f1.* from 95a01280bd2c20fd7fcfb36deaf0820f5d3f0bfa (2026-04-01), p2.* from a625589aa6850fe7866cad8a672a38fa79197203 (2025-03-16), g3/g3s from bc221b5e73ad90b19d082172e6057a0517859af6 (2024-11-03), g2 from 2e06ed15ef7427c9e278a4dc8c0a2ff31f810a8f (2023-10-01). Licence: Apache-2.0.",
	"aws/instance_type_offerings_accelerated.csv: repository getmoto/moto, moto/ec2/resources/instance_type_offerings/{region,availability-zone,availability-zone-id}/<region>.json, last changed in commit c6bd43ff2d090b35b6491f1cc80bffd29063e5c8 (2026-08-01). Licence: Apache-2.0. DescribeInstanceTypeOfferings results.",
	"aws/ec2_accelerated_prices_by_region.csv: repository tsaol/aws-gpu, path data/gpu_instances_raw.json at commit 2d0108c7bd261c8e40493fbd35135437bd6c9099 (2025-11-30); the GPU subset of the ec2instances.info dataset (vantage-sh/ec2instances.info, MIT licence); tsaol/aws-gpu itself carries no licence file.",
	"aws/ec2_accelerated_prices_china_regions.csv: repository tsaol/aws-gpu, path data/gpu_instances_raw_cn.json, last changed in commit 7412fd256c5eda04a70a17742a68e8e44824b2cb (2026-01-21); same ec2instances.info origin (MIT licence).",
}

// manifest states the sources and every conversion, with the counts the run
// found: regions described, regions without offering data, priced rows that gave
// no spot item, and price rows of Local Zones and Wavelength zones skipped.
func manifest(regions int, noOfferings []string, spotSkipped, skippedLocal, spotRows int) replay.Manifest {
	observed := &replay.ObservedDates{Default: asOf, Regions: map[string]string{"cn-north-1": asOfChina, "cn-northwest-1": asOfChina}}
	return replay.Manifest{Provider: "aws", Real: replay.RealAll, Retrieved: retrieved, Observed: observed,
		OfferProvenance: spotProvenanceFile, Sources: sources, Notes: []string{
			"Dates: GPU Atlas retrieved this data on " + retrieved + " (retrieved, the offers' fetched_at). The prices held on the dates of the price files' commits (observed, the offers' observed_at): " + asOf + " for the regional file, " + asOfChina + " for the China regions (cn-north-1, cn-northwest-1). The instance specs and zones are as of their moto commits (2026-08-02 and 2026-08-01).",
			"DescribeRegions lists every region with any data (" + fmt.Sprint(regions) + "): the regions of the offerings file and the region codes of both price files. Endpoints are ec2.<region>.amazonaws.com (.com.cn in China); optInStatus is opted-in for the regions launched after March 2019, opt-in-not-required otherwise.",
			"DescribeInstanceTypes: the moto records (values unchanged) written as EC2 query XML (camelCase element names, lists as <item>, InferenceAcceleratorInfo accelerators as <member>, Workloads as workloadSet; every record was read back through the SDK deserializer and compared with the source at generation). To keep the fixtures small only these members are written (values as in the source): " + strings.Join(slices.Sorted(maps.Keys(kept)), ", ") + "; the others (EBS, Nitro, placement, boot and root-device details, core lists, ENA details) are not read by the catalog.",
			"DescribeInstanceTypes per region returns the union of the types offered there (offerings file, any location type) and the types priced there (price files), so retired types still priced (p2, p3, g3, g2 in us-east-1) come from the legacy records. Regions without offering data (" + strings.Join(noOfferings, ", ") + ") are described from their price rows alone and answer DescribeInstanceTypeOfferings with an empty set.",
			"DescribeInstanceTypeOfferings (LocationType availability-zone): the offerings file's availability-zone rows, sorted by instance type and zone.",
			fmt.Sprintf("DescribeSpotPriceHistory: the price file has only a regional min/avg/max over its spot window, so each type gets one Linux/UNIX item per availability zone that offers it, with linux_spot_avg as spotPrice and the dataset date (%s) as timestamp. %d priced rows with a spot figure had no availability-zone offering data in their region and give no spot items.", spotStamp, spotSkipped),
			fmt.Sprintf("%s (%d rows, one per type and region replayed) says what each replayed spot figure is, which the EC2 answer has no field for: where the file gives linux_spot_min and linux_spot_max, the average of the spot prices the dataset observed, with that band (make data stores it as the offers' price_range); where it gives neither, the figure is on-demand × (100 - spot_pct_savings_od)/100 to the dataset's rounding (checked for every such row): an estimate from the Spot Instance Advisor's savings percent, not an observed price. Each offer's source says which.", spotProvenanceFile, spotRows),
			"GetProducts (Price List, aws_v1): one product per priced type and region code, with only the members the adapter and a reader need (product attributes, sku, terms with offerTermCode, effectiveDate, termAttributes and priceDimensions holding unit and pricePerUnit; description, rateCode, appliesTo and ranges left out) (attributes regionCode, instanceType, operatingSystem Linux, tenancy Shared, preInstalledSw NA, capacitystatus Used; SKU a hash of region and type). OnDemand from linux_ondemand_per_hour; Reserved standard 1yr/3yr No Upfront from the *.noUpfront effective hourly; All Upfront as an hourly dimension of 0 plus an upfront Quantity = the *.allUpfront effective hourly x 8760 x years, computed in exact decimal. Offer term codes are AWS's (JRTCKXETXF on-demand, 4NA7Y494T4 / 6QCMYABX3D / BPH4J8HBKS / NQ3QZPMQV9 reserved). Prices are USD; cn-north-1 and cn-northwest-1 are CNY from the China file (" + asOfChina + "): on-demand, and reserved where the file has the figures (it has no spot figures).",
			fmt.Sprintf("Price rows for Local Zone and Wavelength codes (e.g. us-east-1-atl-1, us-west-2-wl1-den1, cn-north-1-pkx-1) are not regions and were skipped: %d rows.", skippedLocal),
			fmt.Sprintf("Pages: DescribeInstanceTypes %d items, DescribeInstanceTypeOfferings %d, DescribeSpotPriceHistory %d, GetProducts %d; next tokens are <action>-<region>-p<n>.", typesPerPage, offeringsPerPage, spotPerPage, productsPerPage),
			"Requests are matched on action, signing region (EC2) and NextToken; GetProducts on the regionCode filter and NextToken.",
		}}
}
