package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The Tencent international archive (realdata's third batch): the GPU price
// overview page of Tencent Cloud International's documentation
// (tencentyun/intlcloud-documents) in 30 dated versions, 2018-09-25 to
// 2023-06-30, in Chinese (_intl_cn, _intl_zh) and English (_intl, _intl_en).
// Prices are USD list prices of the instance alone (CPU, memory, GPU): per
// hour, pay-as-you-go, and in the Chinese versions of 2020-04-01 to 2020-04-07
// per month as well, for three region groups, converted by the page from CNY.
const (
	intlFile     = "tencent/intl_gpu_list_prices_2018_2023.csv"
	intlVersions = "tencent/intl_price_pages/versions.tsv"
	intlRepo     = "https://github.com/tencentyun/intlcloud-documents/blob/"
	// intlHead is the repository snapshot in which the page still stands as
	// its last versions: the last version of each language holds until then.
	intlHead     = "02ec31c2626e18091982c1934bd4aded84cf5043"
	intlHeadDate = "2024-12-24T00:00:00Z"
	// intlArea stands for the scope of the list tables: Tencent Cloud
	// International's list price, not tied to one region (the pages of
	// 2018-2020 give "From" prices; those of 2022-09-16 on say the prices are
	// Guangzhou Zone 3's, noted on each record). No crawl has it, so these
	// series never meet a crawled offer.
	intlArea = "international"
	// intlCNYPerUSD is the rate the page's monthly figures were converted at
	// (README: 637.6811594 = 4400 / 6.9).
	intlCNYPerUSD = "6.9"
)

// intlGroups are the region groups of the 2020-04 tables, as their headings
// write them, with the Tencent region ids they name.
var intlGroups = map[string][]string{
	"腾讯云（北京、上海、广州、重庆）": {"ap-beijing", "ap-shanghai", "ap-guangzhou", "ap-chongqing"},
	"腾讯云（成都）":          {"ap-chengdu"},
	"腾讯云（硅谷、香港）":       {"na-siliconvalley", "ap-hongkong"},
}

// intlRegionalGPU is the GPU cell of a region-group row: "1*P40", and the
// page's "8*P80", a typo for P40 (no P80 exists; the row is GN8's 8-GPU size).
var intlRegionalGPU = regexp.MustCompile(`^\s*(\d+)\s*\*\s*(P40|P80)\s*$`)

// intlGuangzhou3 marks the versions that say their prices are Guangzhou Zone 3's.
var intlGuangzhou3 = regexp.MustCompile(`Guangzhou Zone 3|广州三区`)

// leadingInt is the number a cell starts with ("6 核", "56 GB").
var leadingInt = regexp.MustCompile(`^\s*(\d+)`)

// intlVersion is one page version of versions.tsv.
type intlVersion struct {
	file, commit, path string
	lang               string // zh or en
	at                 time.Time
	until              time.Time // the next version of the same language; the head for the last
	guangzhou3         bool
	page               string // the page's text, as archived
}

func convertTencentIntl(realdata string) (archive, error) {
	t, err := readTable(realdata, intlFile, "doc_commit", "doc_commit_date", "doc_path", "doc_language", "section", "subsection",
		"instance_type", "gpu", "vcpu", "memory", "hourly_price_text", "hourly_price", "hourly_currency", "hourly_is_starting_price",
		"monthly_price_text", "monthly_price", "monthly_currency")
	if err != nil {
		return archive{}, err
	}
	versions, err := intlPageVersions(realdata)
	if err != nil {
		return archive{}, err
	}
	// The regional tables name no instance type: GN8's sizes are known by
	// their vCPUs and memory from the tables that name them.
	gn8 := map[string]string{}
	for _, row := range t.rows {
		typ := t.get(row, "instance_type")
		if !strings.HasPrefix(typ, "GN8.") {
			continue
		}
		if k, ok := cpuMemKey(t.get(row, "vcpu"), t.get(row, "memory")); ok {
			gn8[k] = typ
		}
	}
	a := archive{file: "tencent_intl_gpu_list_prices_2018_2023.jsonl", title: "Tencent Cloud International GPU list prices, 2018-2023 (USD)", batch: "Third"}
	var typos, p80, converted, regional, starting int
	seen := map[string]bool{}
	for i, row := range t.rows {
		commit, path := t.get(row, "doc_commit"), t.get(row, "doc_path")
		v, ok := versions[commit+"\x00"+path]
		if !ok {
			return archive{}, fmt.Errorf("%s: page version %s %s is not in %s", t.where(i), commit, path, intlVersions)
		}
		if v.lang != t.get(row, "doc_language") {
			return archive{}, fmt.Errorf("%s: doc_language %q, but %s is the %s page", t.where(i), t.get(row, "doc_language"), v.file, v.lang)
		}
		seen[v.file] = true
		source := intlRepo + commit + "/" + escapePath(path)
		typ, regions := t.get(row, "instance_type"), []string{intlArea}
		var rowNotes []string
		if typ == "" {
			group := t.get(row, "subsection")
			if intlGroups[group] == nil {
				group = t.get(row, "section")
			}
			if intlGroups[group] == nil {
				// Three versions write the group as a plain line above its
				// table, which the archive's parse left out: read it from the
				// page, the group line nearest above the row's cells.
				group = groupAbove(v.page, t.get(row, "monthly_price_text"), t.get(row, "hourly_price_text"))
			}
			regions = intlGroups[group]
			if regions == nil {
				return archive{}, fmt.Errorf("%s: a row without an instance type outside the known region groups (%q)", t.where(i), group)
			}
			m := intlRegionalGPU.FindStringSubmatch(t.get(row, "gpu"))
			k, ok := cpuMemKey(t.get(row, "vcpu"), t.get(row, "memory"))
			if m == nil || !ok || gn8[k] == "" {
				return archive{}, fmt.Errorf("%s: GPU %q, %s vCPU, %s GB: no GN8 size of the named tables matches", t.where(i), t.get(row, "gpu"), t.get(row, "vcpu"), t.get(row, "memory"))
			}
			typ = gn8[k]
			rowNotes = append(rowNotes, fmt.Sprintf("the table names no instance type: %s by its %s vCPU and %s GB memory; region group %s", typ, t.get(row, "vcpu"), t.get(row, "memory"), group))
			if m[2] == "P80" {
				rowNotes = append(rowNotes, fmt.Sprintf("the GPU cell reads %q, a typo for P40 (GN8 has Tesla P40s; there is no P80)", strings.TrimSpace(t.get(row, "gpu"))))
				p80++
			}
			regional++
		} else if v.guangzhou3 {
			rowNotes = append(rowNotes, "the page says its prices are Guangzhou Zone 3's; other zones and operating systems differ")
		}
		for _, cell := range []struct {
			billing          catalog.BillingKind
			unit             catalog.PriceUnit
			text, amount, cu string
			starting         bool
		}{
			{catalog.OnDemand, catalog.PerHour, t.get(row, "hourly_price_text"), t.get(row, "hourly_price"), t.get(row, "hourly_currency"), t.get(row, "hourly_is_starting_price") == "yes"},
			{catalog.SubscriptionMonth, catalog.PerMonth, t.get(row, "monthly_price_text"), t.get(row, "monthly_price"), t.get(row, "monthly_currency"), false},
		} {
			if cell.amount == "" {
				continue
			}
			amount, err := dec(cell.amount)
			if err != nil || !amount.IsPositive() {
				return archive{}, fmt.Errorf("%s: price %q is not an amount above 0", t.where(i), cell.amount)
			}
			notes := append([]string(nil), rowNotes...)
			switch cell.cu {
			case "USD":
			case "CNY":
				// The Chinese pages of 2018-09 to 2020-04 write 元 in the two
				// larger GN8 rows only; the English page of the same period,
				// and every other row of the page, say USD: a typo.
				if v.lang != "zh" || typ == "" {
					return archive{}, fmt.Errorf("%s: a CNY price outside the Chinese list tables", t.where(i))
				}
				notes = append(notes, fmt.Sprintf("published as %s (元, CNY), a typo: the English page of the same period and the page's other rows give USD; kept as USD", strconvQuote(cell.text)))
				typos++
			default:
				return archive{}, fmt.Errorf("%s: currency %q", t.where(i), cell.cu)
			}
			if cell.starting {
				notes = append(notes, "a starting price (From, 起)")
				starting++
			}
			if cny, ok := convertedFromCNY(amount); ok && regions[0] != intlArea {
				notes = append(notes, fmt.Sprintf("converted by the page from %s CNY at %s CNY per USD, unrounded", cny.String(), intlCNYPerUSD))
				converted++
			}
			for _, r := range regions {
				a.obs = append(a.obs, catalog.Observation{Provider: catalog.Tencent, InstanceType: typ, Region: r,
					Billing: cell.billing, Price: catalog.Price{Amount: amount, Currency: catalog.USD, Unit: cell.unit},
					ObservedAt: v.at, ObservedUntil: v.until, Source: source, Note: strings.Join(notes, "; ")})
			}
		}
	}
	sort.SliceStable(a.obs, func(i, j int) bool { return a.obs[i].SeriesKey() < a.obs[j].SeriesKey() })
	a.notes = []string{
		"Source: Tencent Cloud International's documentation repository `tencentyun/intlcloud-documents`, the GPU price overview page (价格总览) under its successive paths (`product/计算/GPU 云服务器/购买指南/价格总览_intl_cn.md`, `..._intl.md`, `product_new/...`, `yehe_doc/.../价格总览_intl_{zh,en}.md`). Each record's `source` is the page at its commit.",
		fmt.Sprintf("%d page versions with prices, Chinese and English kept apart: each price is observed at its version's commit time and holds until the next version of the same language (`observed_until`); the last of each until the repository snapshot `%s` (2024-12-24), where the page is unchanged. The two languages agree where they overlap.", len(seen), intlHead),
		"USD list prices of the instance alone (CPU, memory, GPU; no disk, network or OS): `on_demand` per hour; `subscription_month` per month where the page gives a monthly column. Area `" + intlArea + "`: the list tables give one price for Tencent Cloud International, not a price per region; the versions of 2022-09-16 on say the prices are Guangzhou Zone 3's (noted on each record).",
		fmt.Sprintf("Region groups: the Chinese versions of 2020-04-01 to 2020-04-07 price GN8 per region group (北京、上海、广州、重庆 / 成都 / 硅谷、香港) with a monthly and an hourly column and no instance type; %d rows, each recorded for every region of its group (ap-beijing, ap-shanghai, ap-guangzhou, ap-chongqing; ap-chengdu; na-siliconvalley, ap-hongkong) and named by its vCPUs and memory (1*P40, 6 vCPU, 56 GB is GN8.LARGE56).", regional),
		fmt.Sprintf("Quirks kept visible: %d prices the Chinese pages write as 元 (CNY) in the two larger GN8 rows of 2018-09 to 2020-04 are USD (the English page of the same period and every other row say USD), recorded as USD with the cell in the note; %d region-group rows read `8*P80`, a typo for P40; %d figures of the region groups are unrounded conversions from CNY at %s CNY per USD (637.6811594 = 4400 / 6.9), noted with the CNY amount.", typos, p80, converted, intlCNYPerUSD),
		fmt.Sprintf("%d hourly prices published as \"From\" (起) are starting prices (noted). These are 2018-2023 list prices: history, never a current offer.", starting),
	}
	return a, nil
}

// groupAbove is the region-group line nearest above the table row of a page
// that holds both cells; "" when there is none.
func groupAbove(page, monthly, hourly string) string {
	group := ""
	for _, line := range strings.Split(page, "\n") {
		line = strings.TrimSpace(line)
		if g := strings.Trim(line, "*# "); intlGroups[g] != nil { // plain, **bold** or a heading
			group = g
			continue
		}
		if monthly != "" && strings.HasPrefix(line, "|") && strings.Contains(line, "| "+monthly+" ") && strings.Contains(line, "| "+hourly+" ") {
			return group
		}
	}
	return ""
}

// cpuMemKey is a row's vCPUs and memory as numbers ("6 核", "56 GB" -> "6/56");
// false when either cell is written out in words ("Six cores").
func cpuMemKey(vcpu, mem string) (string, bool) {
	c, m := leadingInt.FindStringSubmatch(vcpu), leadingInt.FindStringSubmatch(mem)
	if c == nil || m == nil {
		return "", false
	}
	return c[1] + "/" + m[1], true
}

// convertedFromCNY says whether an unrounded USD figure is a CNY amount in
// whole fen divided by the page's rate, and which.
func convertedFromCNY(usd decimal.Decimal) (decimal.Decimal, bool) {
	if usd.Exponent() > -5 {
		return decimal.Zero, false // published rounded: not a raw conversion
	}
	cny := usd.Mul(catalog.Dec(intlCNYPerUSD))
	fen := cny.Round(2)
	if cny.Sub(fen).Abs().GreaterThan(catalog.Dec("0.0001")) {
		return decimal.Zero, false
	}
	return fen, true
}

// intlPageVersions reads versions.tsv: each version of the page, by commit and
// path, with the time the next version of its language replaced it.
func intlPageVersions(realdata string) (map[string]intlVersion, error) {
	data, err := os.ReadFile(filepath.Join(realdata, intlVersions))
	if err != nil {
		return nil, err
	}
	head, _ := parseTime(intlHeadDate)
	byLang := map[string][]intlVersion{}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if i == 0 {
			continue // header
		}
		f := strings.Split(line, "\t")
		if len(f) < 5 {
			return nil, fmt.Errorf("%s:%d: want file, commit, date, change and path", intlVersions, i+1)
		}
		at, err := parseTime(f[2])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", intlVersions, i+1, err)
		}
		v := intlVersion{file: f[0], commit: f[1], path: f[4], at: at, lang: "en"}
		if strings.HasSuffix(f[4], "_intl_cn.md") || strings.HasSuffix(f[4], "_intl_zh.md") {
			v.lang = "zh"
		}
		page, err := os.ReadFile(filepath.Join(realdata, filepath.Dir(intlVersions), f[0]))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", intlVersions, i+1, err)
		}
		v.guangzhou3, v.page = intlGuangzhou3.Match(page), string(page)
		byLang[v.lang] = append(byLang[v.lang], v)
	}
	out := map[string]intlVersion{}
	for _, vs := range byLang {
		sort.SliceStable(vs, func(i, j int) bool { return vs[i].at.Before(vs[j].at) })
		for i := range vs {
			vs[i].until = head
			if i+1 < len(vs) {
				vs[i].until = vs[i+1].at
			}
			if !vs[i].until.After(vs[i].at) {
				return nil, fmt.Errorf("%s: version %s is not before the next of its language", intlVersions, vs[i].file)
			}
			out[vs[i].commit+"\x00"+vs[i].path] = vs[i]
		}
	}
	return out, nil
}
