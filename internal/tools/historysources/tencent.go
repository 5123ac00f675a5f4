package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The Tencent archive: the GPU list-price page of Tencent Cloud's documentation
// in its 61 dated versions (2016-12-27 to 2021-05-25), 包年包月 per month and
// 按量计费 per hour, parsed into rows by the realdata batch.
const (
	tencentFile     = "history/tencent_gpu_list_prices_2016_2021.csv"
	tencentVersions = "history/tencent_price_pages/versions.tsv"
	// The pages were read from this public fork, whose commits are upstream's
	// (tencentyun/qcloud-documents); its head is the last time the pages are
	// known to have stood as their last version.
	tencentRepo     = "https://github.com/ZoeyYann/qcloud-documents/blob/"
	tencentHead     = "26ccf09b5c0fe76e88e92a870df2c8971ab2b686"
	tencentHeadDate = "2021-07-15T00:00:00Z"
	// tencentRegion stands for the list's scope: the pages give one reference
	// price for mainland China ("本页参考价格主要以中国大陆地区为主"), not a
	// price per region. It is not a Tencent region id, and no crawl has it, so
	// these series never meet a crawled offer.
	tencentRegion = "mainland-china"
)

// plainCell is a cell that is one amount and its unit, nothing else to note.
var plainCell = regexp.MustCompile(`^\s*[0-9.]+\s*(元/(月|小时))?\s*$`)

// localSSD marks the cells that say the price includes the local SSD data disk
// (G2, 2017-05 to 2017-08): another basis than the instance alone.
var localSSD = regexp.MustCompile(`含本地\s*SSD\s*盘价格`)

func convertTencent(realdata string) (archive, error) {
	t, err := readTable(realdata, tencentFile, "doc_commit", "doc_commit_date", "doc_path", "instance_type",
		"monthly_price_text", "hourly_price_text", "monthly_cny_low", "monthly_cny_high", "hourly_cny_low", "hourly_cny_high", "hourly_is_starting_price")
	if err != nil {
		return archive{}, err
	}
	until, err := tencentVersionEnds(realdata)
	if err != nil {
		return archive{}, err
	}
	a := archive{file: "tencent_gpu_list_prices_2016_2021.jsonl", title: "Tencent Cloud GPU list prices, 2016-2021 (mainland China)"}
	var dashes, ssd, starting, ranges int
	versions := map[string]bool{}
	for i, row := range t.rows {
		commit := t.get(row, "doc_commit")
		end, ok := until[commit]
		if !ok {
			return archive{}, fmt.Errorf("%s: commit %s is not in %s", t.where(i), commit, tencentVersions)
		}
		versions[commit] = true
		at, err := parseTime(t.get(row, "doc_commit_date"))
		if err != nil {
			return archive{}, fmt.Errorf("%s: doc_commit_date: %w", t.where(i), err)
		}
		source := tencentRepo + commit + "/" + escapePath(t.get(row, "doc_path"))
		for _, cell := range []struct {
			billing   catalog.BillingKind
			unit      catalog.PriceUnit
			text      string
			low, high string
			starting  bool
		}{
			{catalog.SubscriptionMonth, catalog.PerMonth, t.get(row, "monthly_price_text"), t.get(row, "monthly_cny_low"), t.get(row, "monthly_cny_high"), false},
			{catalog.OnDemand, catalog.PerHour, t.get(row, "hourly_price_text"), t.get(row, "hourly_cny_low"), t.get(row, "hourly_cny_high"), t.get(row, "hourly_is_starting_price") == "yes"},
		} {
			if cell.low == "" {
				if strings.TrimSpace(cell.text) == "-" {
					dashes++ // not sold in that size
				}
				continue
			}
			low, err := dec(cell.low)
			if err != nil {
				return archive{}, fmt.Errorf("%s: %q: %w", t.where(i), cell.low, err)
			}
			o := catalog.Observation{Provider: catalog.Tencent, InstanceType: t.get(row, "instance_type"), Region: tencentRegion,
				Billing: cell.billing, Price: catalog.Price{Amount: low, Currency: catalog.CNY, Unit: cell.unit},
				ObservedAt: at, ObservedUntil: end, Source: source}
			if cell.high != "" && cell.high != cell.low {
				high, err := dec(cell.high)
				if err != nil {
					return archive{}, fmt.Errorf("%s: %q: %w", t.where(i), cell.high, err)
				}
				o.PriceHigh = &high
				ranges++
			}
			if localSSD.MatchString(cell.text) {
				o.Includes = "local SSD data disk"
				ssd++
			}
			var notes []string
			if cell.starting {
				notes = append(notes, "a starting price (起: from)")
				starting++
			}
			if !plainCell.MatchString(cell.text) {
				notes = append(notes, "published as "+strconvQuote(cell.text))
			}
			o.Note = strings.Join(notes, "; ")
			a.obs = append(a.obs, o)
		}
	}
	a.notes = []string{
		"Source: Tencent Cloud's documentation repository, pages `product/计算与网络/GPU 云服务器/购买指导/GPU 型实例价格.md` (to 2017-09-07) and `.../购买指导/价格总览.md` (from 2017-09-08), read from the public fork `ZoeyYann/qcloud-documents` (head `" + tencentHead + "`, 2021-07-15), whose commits are upstream's. Each record's `source` is the page at its commit.",
		fmt.Sprintf("%d page versions with prices. Each price is observed at its version's commit time and holds until the next version (`observed_until`); the last version's until the fork's head, 2021-07-15, when the page still stood so. A type missing from a version leaves a gap: the page did not list it then.", len(versions)),
		"包年包月 is `subscription_month` in CNY per month, 按量计费 is `on_demand` in CNY per hour; the type names are as published (G2.2xlarge, GN2.7XLARGE56, Ga2.2xlarge).",
		"Region `" + tencentRegion + "`: the pages give Tencent's reference list price (刊例价) for mainland China, not a price per region, so the series are not attached to any region id and never meet a crawled offer.",
		"What the price includes: the pages price the compute part (CPU, memory, GPU) without disks or network, so `instance only`; except " + fmt.Sprint(ssd) + " G2 cells of 2017-05 to 2017-08 that say 含本地SSD盘价格 (the local SSD data disk included), which are their own series with `includes` \"local SSD data disk\": a change of basis, not a price change.",
		fmt.Sprintf("Ranges (from 2020-08-24, e.g. \"2250 - 2500\"): %d prices keep the low end in `price` and the high end in `price_high`, never averaged; %d hourly prices published with 起 are starting prices (noted).", ranges, starting),
		fmt.Sprintf("Left out: %d cells published as \"-\" (that size not sold) and the cells left empty. These are 2016-2021 prices: history, never a current offer.", dashes),
	}
	return a, nil
}

// tencentVersionEnds maps each page version's commit to the time the next
// version replaced it (the fork's head for the last).
func tencentVersionEnds(realdata string) (map[string]time.Time, error) {
	data, err := os.ReadFile(filepath.Join(realdata, tencentVersions))
	if err != nil {
		return nil, err
	}
	type version struct {
		commit string
		at     time.Time
	}
	var vs []version
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if i == 0 {
			continue // header
		}
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			return nil, fmt.Errorf("%s:%d: want commit and date", tencentVersions, i+1)
		}
		at, err := parseTime(f[1])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", tencentVersions, i+1, err)
		}
		vs = append(vs, version{f[0], at})
	}
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].at.Before(vs[j].at) })
	head, _ := parseTime(tencentHeadDate)
	out := map[string]time.Time{}
	for i, v := range vs {
		end := head
		if i+1 < len(vs) {
			end = vs[i+1].at
		}
		if !end.After(v.at) {
			return nil, fmt.Errorf("%s: version %s is not before the next", tencentVersions, v.commit)
		}
		out[v.commit] = end
	}
	return out, nil
}

// escapePath writes a repository path into a URL as an IRI: spaces and the
// characters a URL reserves are escaped, Chinese is kept as it is (a third of the
// length of its percent-encoding; browsers and clients encode it on use).
func escapePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		switch {
		case r == '/' || r > 0x7f:
			b.WriteRune(r)
		default:
			b.WriteString(url.PathEscape(string(r)))
		}
	}
	return b.String()
}

// strconvQuote quotes a cell for a note, keeping Chinese text readable.
func strconvQuote(s string) string { return "\"" + strings.TrimSpace(s) + "\"" }
