package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The regional-median rule on real rows (data/catalog.json): Google Cloud's
// a3-highgpu-8g on demand, machine plus GPU part as its source (SkyPilot's
// catalog v8) prices them, in six of its regions; and Tencent's
// GN10Xp.20XLARGE320, whose mainland price (95.87 CNY in ap-nanjing) is the
// lowest against its median (158.17) of the real data, and must pass.
func TestFlagImplausible_RegionalMedian(t *testing.T) {
	gcp := func(region, amount string) Offer {
		o := awsOffer("a3-highgpu-8g", region, "", OnDemand, amount)
		o.Provider = GCP
		return o
	}
	offers := []Offer{
		gcp("us-central1", "43.066150064"), gcp("us-east4", "87.832470064"), gcp("asia-east1", "101.701249984"),
		gcp("europe-west4", "111.817189968"), gcp("us-east5", "98.925670096"), gcp("europe-north1", "96.712310064"),
	}
	got := ImplausibleReasons(nil, offers)
	want := "on-demand price 43.066150064 USD/hour is below 55% of the median 97.81899 of its 6 regions' on-demand prices"
	if len(got[0]) != 1 || got[0][0] != want {
		t.Errorf("us-central1: %q, want %q", got[0], want)
	}
	if len(got) != 1 {
		t.Errorf("flagged %v, want us-central1 alone", got)
	}
	// Two regions are too few to tell which is odd.
	if got := ImplausibleReasons(nil, offers[:2]); len(got) != 0 {
		t.Errorf("two regions: %v, want none flagged", got)
	}
	// Spot prices vary by region with demand: the rule leaves them alone
	// (europe-north1's spot price is 12.312819952, a half of the others').
	spot := []Offer{gcp("europe-north1", "12.312819952"), gcp("us-east4", "20.044460048"), gcp("asia-east1", "25.47229008"), gcp("us-central1", "26.83013008")}
	for i := range spot {
		spot[i].Billing = Spot
	}
	if got := ImplausibleReasons(nil, spot); len(got) != 0 {
		t.Errorf("spot: %v, want none flagged", got)
	}

	tencent := func(region, zone, amount string) Offer {
		o := awsOffer("GN10Xp.20XLARGE320", region, zone, OnDemand, amount)
		o.Provider, o.Price.Currency = Tencent, CNY
		return o
	}
	var rows []Offer
	for _, r := range [][3]string{{"ap-bangkok", "ap-bangkok-2", "167.74"}, {"ap-beijing", "ap-beijing-6", "95.89"}, {"ap-beijing", "ap-beijing-7", "95.89"},
		{"ap-chengdu", "ap-chengdu-1", "95.89"}, {"ap-chongqing", "ap-chongqing-1", "95.89"}, {"ap-guangzhou", "ap-guangzhou-6", "95.89"},
		{"ap-hongkong", "ap-hongkong-2", "162.94"}, {"ap-nanjing", "ap-nanjing-1", "95.87"}, {"ap-nanjing", "ap-nanjing-3", "95.87"},
		{"ap-seoul", "ap-seoul-2", "158.17"}, {"ap-shanghai", "ap-shanghai-2", "95.89"}, {"ap-shanghai", "ap-shanghai-5", "95.89"},
		{"ap-singapore", "ap-singapore-1", "167.73"}, {"ap-tokyo", "ap-tokyo-2", "167.73"}, {"eu-frankfurt", "eu-frankfurt-1", "172.53"},
		{"na-siliconvalley", "na-siliconvalley-2", "162.94"}} {
		rows = append(rows, tencent(r[0], r[1], r[2]))
	}
	for i, reasons := range ImplausibleReasons(nil, rows) {
		t.Errorf("%s: %s", rows[i].Zone, strings.Join(reasons, "; "))
	}
}

// With parts, the accelerators' part per GPU is held against that GPU's
// median over its regions (60%), whatever the machine type: Google Cloud's
// A100 40GB on demand as the embedded catalog has it, in a2-highgpu-1g in
// four regions and a2-megagpu-16g (16 GPUs) in two more. europe-west4's GPU
// part (1.61364875 per GPU) is 55% of the median, its whole price 66% of
// a2-highgpu-1g's; a2-megagpu-16g has three regions of its own, too few to
// tell alone.
func TestFlagImplausible_RegionalMedianOfParts(t *testing.T) {
	types := []InstanceType{awsType("a2-highgpu-1g", 1, "NVIDIA A100 40GB"), awsType("a2-megagpu-16g", 16, "NVIDIA A100 40GB")}
	gcp := func(typ, region, machine, accel string) Offer {
		m, a := Dec(machine), Dec(accel)
		o := awsOffer(typ, region, "", OnDemand, m.Add(a).String())
		o.Provider, o.Parts = GCP, []PricePart{{Part: PartMachine, Amount: m}, {Part: PartAccelerators, Amount: a}}
		return o
	}
	offers := []Offer{gcp("a2-highgpu-1g", "europe-west4", "0.814063748", "1.61364875"), gcp("a2-highgpu-1g", "us-central1", "0.739477504", "2.933908125"),
		gcp("a2-highgpu-1g", "us-west4", "0.832794996", "3.10156"), gcp("a2-highgpu-1g", "me-west1", "0.813425004", "3.22729875"),
		gcp("a2-megagpu-16g", "europe-west4", "9.684029984", "25.81838"), gcp("a2-megagpu-16g", "asia-southeast1", "10.851259968", "27.29373"),
		gcp("a2-megagpu-16g", "us-central1", "8.796980032", "46.94253")}
	got := ImplausibleReasons(types, offers)
	want := map[int][]string{
		0: {"on-demand GPU part 1.61364875 USD/hour per GPU is below 60% of the median 2.933908 over 5 regions for NVIDIA A100 40GB"},
		4: {"on-demand GPU part 1.61364875 USD/hour per GPU is below 60% of the median 2.933908 over 5 regions for NVIDIA A100 40GB"},
		5: {"on-demand GPU part 1.705858125 USD/hour per GPU is below 60% of the median 2.933908 over 5 regions for NVIDIA A100 40GB"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	// The whole prices alone (55% rule, per type) pass them: a2-highgpu-1g's
	// 2.427712498 is 66% of its median, and a2-megagpu-16g's three regions
	// have a median of their own.
	for i := range offers {
		offers[i].Parts = nil
	}
	if got := ImplausibleReasons(types, offers); len(got) != 0 {
		t.Errorf("without parts: %v, want none", got)
	}
}
