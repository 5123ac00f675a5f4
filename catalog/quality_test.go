package catalog

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// qualitySnapshot is testSnapshot with the problems CheckQuality reports: the
// p5.48xlarge spot offer of ap-southeast-3 unmarked (7.59552 USD against
// 75.9552 on demand), a marked one, a made-up price, an offer without source,
// an unmapped accelerator and prices a year old or undated.
func qualitySnapshot() *Snapshot {
	s := testSnapshot()
	dataset := time.Date(2025, 11, 30, 0, 0, 0, 0, time.UTC)
	retrieved := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	s.TakenAt = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for i := range s.Offers {
		s.Offers[i].FetchedAt, s.Offers[i].ObservedAt = retrieved, dataset
	}
	od := awsOffer("p5.48xlarge", "ap-southeast-3", "", OnDemand, "75.9552")
	od.FetchedAt, od.ObservedAt = retrieved, dataset
	spot := awsOffer("p5.48xlarge", "ap-southeast-3", "ap-southeast-3a", Spot, "7.59552")
	spot.FetchedAt, spot.ObservedAt = retrieved, dataset
	// A spot price equal to on demand, as p4d.24xlarge's in ap-south-1
	// (26.3444 both), at p5.48xlarge's on-demand price (p4d's own figure would
	// be under half of p5's other regions', and suspect on its own).
	marked := awsOffer("p5.48xlarge", "ap-south-1", "ap-south-1a", Spot, "55.04")
	marked.FetchedAt, marked.ObservedAt = retrieved, dataset
	marked.Suspect = "spot price 55.04 is at or above the on-demand price 55.04 USD/hour"
	odSouth := awsOffer("p5.48xlarge", "ap-south-1", "", OnDemand, "55.04")
	odSouth.FetchedAt, odSouth.ObservedAt = retrieved, dataset
	made := Offer{Provider: Alibaba, InstanceType: "ecs.gn7i-c8g1.2xlarge", Region: "cn-hangzhou", Billing: OnDemand,
		Price: Price{Amount: Dec("8.5"), Currency: CNY, Unit: PerHour}, Source: "", FetchedAt: retrieved, Synthetic: true}
	s.Instances = append(s.Instances, InstanceType{Provider: Alibaba, ID: "ecs.gn7i-c8g1.2xlarge", Source: "alibaba:ecs:DescribeInstanceTypes",
		Accelerators: []Accelerator{{Kind: KindGPU, Name: "A10", Count: 1, Share: Dec("1"), MemoryGiB: Dec("24")}}})
	s.Offers = append(s.Offers, od, spot, marked, odSouth, made)
	s.Unmapped = []UnmappedAccelerator{{Provider: Alibaba, Name: "G49", InstanceTypes: []string{"ecs.gn8v.4xlarge"}}}
	s.Sort()
	return s
}

func TestCheckQuality(t *testing.T) {
	r := CheckQuality(qualitySnapshot(), time.Time{})
	if r.OK() {
		t.Fatal("OK() = true for a catalog with errors")
	}
	var codes []string
	for _, e := range r.Errors {
		codes = append(codes, e.Code+" "+e.Subject)
	}
	want := []string{
		"no_source alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand",
		"suspect_unmarked aws/p5.48xlarge/ap-southeast-3/ap-southeast-3a/spot",
		"synthetic_offer alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand",
	}
	if diff := cmp.Diff(want, codes); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	var suspect []string
	for _, o := range r.Suspect {
		suspect = append(suspect, o.Key+" "+map[bool]string{true: "marked", false: "unmarked"}[o.Marked])
	}
	if diff := cmp.Diff([]string{
		"aws/p5.48xlarge/ap-south-1/ap-south-1a/spot marked",
		"aws/p5.48xlarge/ap-southeast-3/ap-southeast-3a/spot unmarked",
	}, suspect); diff != "" {
		t.Errorf("suspect offers (-want +got):\n%s", diff)
	}
	if len(r.Unmapped) != 1 || len(r.Stale) != 2 {
		t.Errorf("unmapped %d, stale %d (%+v), want 1 and 2 (aws a year old, alibaba undated)", len(r.Unmapped), len(r.Stale), r.Stale)
	}
	if r.ConflictsChecked || len(r.Conflicts) != 0 {
		t.Errorf("conflicts checked %v: %v; the catalog records none yet", r.ConflictsChecked, r.Conflicts)
	}
	if r.Warnings() != 2+1+2 {
		t.Errorf("Warnings() = %d, want 5", r.Warnings())
	}
}

func TestCheckQuality_Clean(t *testing.T) {
	s := testSnapshot()
	for i := range s.Offers {
		s.Offers[i].ObservedAt = s.Offers[i].FetchedAt
	}
	r := CheckQuality(s, time.Time{})
	if !r.OK() || r.Warnings() != 0 {
		t.Errorf("errors %v, %d warnings: want none", r.Errors, r.Warnings())
	}
	if !strings.Contains(r.Text(0), "0 errors, 0 warnings") {
		t.Errorf("text:\n%s", r.Text(0))
	}
	s.Offers[0].ObservedAt = s.Offers[0].FetchedAt.Add(time.Hour)
	if r := CheckQuality(s, time.Time{}); len(r.Errors) != 1 || r.Errors[0].Code != CodeObservedAfterFetched {
		t.Errorf("errors %v, want observed_after_fetched", r.Errors)
	}
}

func TestQualityReport_Renderings(t *testing.T) {
	r := CheckQuality(qualitySnapshot(), time.Time{})
	r.AddError(Finding{Code: CodeSuspectLeads, Subject: "llm-training", Message: "ranks aws/p5.48xlarge/ap-southeast-3/ap-southeast-3a/spot"})
	text := r.Text(0)
	for _, s := range []string{
		"4 errors, 5 warnings",
		"error: aws/p5.48xlarge/ap-southeast-3/ap-southeast-3a/spot: 7.59552 USD/hour breaks a plausibility rule but is not marked suspect",
		"Suspect offers (shown marked; never a cheapest answer) (2)",
		"aws/p5.48xlarge/ap-southeast-3/ap-southeast-3a/spot 7.59552 USD/hour (NOT MARKED in the catalog): spot price 7.59552 is at or below 10% of the on-demand price 75.9552 USD/hour",
		`alibaba "G49": ecs.gn8v.4xlarge`,
		"aws: prices observed 2025-11-30, 366 days before 2026-12-01 (more than 30)",
		"alibaba: 1 of 1 prices have no observation date",
		"Spec conflicts\n  not checked",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q:\n%s", s, text)
		}
	}
	md := r.Markdown(1)
	for _, s := range []string{"## Data quality", "**4 errors**, 5 warnings", "| `no_source` | `alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand` |",
		"_… and 1 more (`gpuatlas check --format json` lists every one)._", "### Spec conflicts\n\nNot checked"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"schema_version", "taken_at", "as_of", "errors", "suspect_offers", "unmapped_accelerators", "stale_providers", "conflicts", "conflicts_checked"} {
		if _, ok := back[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, b)
		}
	}
}
