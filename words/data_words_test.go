package words

import (
	"strings"
	"testing"
)

// The catalog's and the history's texts of fixed forms are said in Chinese
// from their facts, and in English exactly as the catalog has them; a text of
// an unknown form is kept as written.
func TestDataText_BothLanguages(t *testing.T) {
	for _, c := range []struct{ in, zh string }{
		{"40 GiB cloud_essd system disk", "40 GiB 系统盘（ESSD 云盘 cloud_essd）"},
		{"regional average of observed spot prices (ec2instances.info via tsaol/aws-gpu, 2025-11-30), shown in each zone that offers the type; not a per-zone DescribeSpotPriceHistory figure",
			"各地域观测到的竞价价格的平均值（ec2instances.info 数据集，经 tsaol/aws-gpu，2025-11-30），在提供该类型的每个可用区显示；并非各可用区的 DescribeSpotPriceHistory 数据"},
		{"estimate, not an observed price: on-demand less the Spot Instance Advisor's 63% savings (ec2instances.info via tsaol/aws-gpu, 2025-11-30), shown in each zone that offers the type",
			"估算价，并非观测到的价格：按量付费价格减去 Spot Instance Advisor 给出的 63% 节省（ec2instances.info 数据集，经 tsaol/aws-gpu，2025-11-30），在提供该类型的每个可用区显示"},
		{"equals the on-demand price: the API reports the spot cap; observed_at is the commit date of the price file; the capture may be earlier",
			"等于按量付费价格：API 报告的是竞价价格上限；观测时间（observed_at）为价格文件的提交日期；实际抓取可能更早"},
		{"instance specs only, from Open Telekom Cloud's GPU flavor tables, which use Huawei's ECS flavors; no region, zone or stock from a source; one reported price",
			"仅有实例规格，来自Open Telekom Cloud 的 GPU 规格表（沿用华为云 ECS 的规格）；来源中没有地域、可用区或库存；1 个个人报告的价格"},
		{`a starting price (起: from); published as "8576 元/月起"`, "起步价（原文“起”）；原文为“8576 元/月起”"},
		{"the same price in the 8 versions generated 2023-10-27 to 2026-06-18", "2023-10-27 至 2026-06-18 生成的 8 个版本中价格相同"},
		{"region group 腾讯云（成都）; the page says its prices are Guangzhou Zone 3's; other zones and operating systems differ",
			"地域组：腾讯云（成都）；页面称其价格为广州3区的价格；其他可用区和操作系统的价格不同"},
		{`the table names no instance type: GN8.LARGE56 by its 6 vCPU and 56 GB memory; the GPU cell reads "8*P80", a typo for P40 (GN8 has Tesla P40s; there is no P80); converted by the page from 7460 CNY at 6.9 CNY per USD, unrounded`,
			"表格未给出实例规格名：按其 6 个 vCPU 和 56 GB 内存认定为 GN8.LARGE56；GPU 一栏写作“8*P80”，系 P40 之误（GN8 配备 Tesla P40，并无 P80）；由页面按 1 美元兑 6.9 人民币从 7460 人民币换算，未取整"},
		{`published as "16.02 元/小时起" (元, CNY), a typo: the English page of the same period and the page's other rows give USD; kept as USD; a starting price (From, 起)`,
			"原文为“16.02 元/小时起”（元，即人民币），系笔误：同期英文页面及该页其他行均为美元；仍按美元记录；起步价（原文“起”）"},
		{"local SSD data disk", "本地 SSD 数据盘"},
	} {
		if got, ok := testWords(t, "zh").DataText(c.in); !ok || got != c.zh {
			t.Errorf("zh %q:\n got %q (%v)\nwant %q", c.in, got, ok, c.zh)
		}
		if got, ok := testWords(t, "en").DataText(c.in); !ok || got != c.in && !strings.Contains(c.in, "起") {
			t.Errorf("en %q: %q (%v)", c.in, got, ok)
		}
	}
	for _, in := range []string{"aws:pricing:GetProducts", "40 GiB cloud_essd system disk and more", "observed_at is the commit date of the price file; something new"} {
		if got, ok := testWords(t, "zh").DataText(in); ok || got != in {
			t.Errorf("zh %q: %q (%v), want it as written", in, got, ok)
		}
	}
}
