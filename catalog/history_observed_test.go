package catalog

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

// importTime is when the tests' observations were imported: the time GPU Atlas
// retrieved them, their offers' fetched_at.
var importTime = at("2026-12-01T00:00:00Z")

func asRead(file string, obs ...Observation) []ObservationAt {
	out := make([]ObservationAt, len(obs))
	for i, o := range obs {
		out[i] = ObservationAt{Observation: o, File: file, Line: i + 2}
	}
	return out
}

// p5Cut is the AWS p5.48xlarge cut of 2025-06-05 as the daily tracker saw it.
func p5Cut() []Observation {
	return []Observation{
		testObservation("2025-06-03T07:24:23Z", "98.32"), testObservation("2025-06-04T07:23:25Z", "98.32"),
		testObservation("2025-06-05T07:22:36Z", "55.04"), testObservation("2025-06-06T07:22:21Z", "55.04"),
	}
}

func TestHistoryImport_Idempotent(t *testing.T) {
	h := NewHistory()
	res, err := h.Import(asRead("p5.csv", p5Cut()...), importTime)
	if err != nil || res != (ImportResult{Added: 4}) {
		t.Fatalf("first import = %+v, %v", res, err)
	}
	first, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	res, err = h.Import(asRead("p5.csv", p5Cut()...), importTime)
	if err != nil || res != (ImportResult{Unchanged: 4}) {
		t.Fatalf("second import = %+v, %v", res, err)
	}
	second, _ := h.Marshal()
	if !bytes.Equal(first, second) {
		t.Errorf("importing the same file twice changed the history:\n%s\n%s", first, second)
	}
	// The same observation twice in one import is one.
	h2 := NewHistory()
	if res, err := h2.Import(asRead("twice.csv", p5Cut()[0], p5Cut()[0]), importTime); err != nil || res != (ImportResult{Added: 1, Unchanged: 1}) {
		t.Errorf("import of a repeated record = %+v, %v", res, err)
	}
}

func TestHistoryImport_ConflictWritesNothing(t *testing.T) {
	h := NewHistory()
	if _, err := h.Import(asRead("p5.csv", p5Cut()...), importTime); err != nil {
		t.Fatal(err)
	}
	before, _ := h.Marshal()
	other := p5Cut()[2]
	other.Price.Amount = Dec("60")
	other.Source = "https://example.org/another-tracker"
	fresh := testObservation("2025-07-01T00:00:00Z", "55.04")
	_, err := h.Import(asRead("other.csv", fresh, other), importTime)
	var oe ObservationErrors
	if !errors.As(err, &oe) || len(oe) != 1 {
		t.Fatalf("err = %v, want one problem", err)
	}
	want := "other.csv:3: aws/p5.48xlarge/us-east-1//on_demand/instance only at 2025-06-05T07:22:36Z: the history has 55.04 USD/hour from https://github.com/amorton45"
	if !strings.HasPrefix(oe[0], want) || !strings.HasSuffix(oe[0], "this record says 60 USD/hour (two observations of one series at one instant must agree)") {
		t.Errorf("err = %q", oe[0])
	}
	after, _ := h.Marshal()
	if !bytes.Equal(before, after) {
		t.Error("a failed import changed the history")
	}
	// Within one import too.
	_, err = NewHistory().Import(asRead("x.csv", p5Cut()[2], other), importTime)
	if err == nil || !strings.Contains(err.Error(), "x.csv:3: aws/p5.48xlarge/us-east-1//on_demand/instance only at 2025-06-05T07:22:36Z: x.csv:2 says 55.04 USD/hour, this record says 60 USD/hour") {
		t.Errorf("err = %v", err)
	}
	// An agreeing second source is kept beside the first.
	agree := p5Cut()[2]
	agree.Source = "https://example.org/another-tracker"
	if res, err := h.Import(asRead("agree.csv", agree), importTime); err != nil || res.Added != 1 {
		t.Fatalf("agreeing source = %+v, %v", res, err)
	}
	runs := h.ObservedSeries()[0].Runs
	if len(runs) != 2 || !cmp.Equal(runs[1].Sources, []string{agree.Source, p5Cut()[2].Source}) {
		t.Errorf("runs = %+v", runs)
	}
	// The change is observed by both: the changes pages name each.
	if c := h.ObservedChanges(); len(c) != 1 || !cmp.Equal(c[0].New.FirstSources(), []string{agree.Source, p5Cut()[2].Source}) {
		t.Errorf("the change's sources = %v", c[0].New.FirstSources())
	}
}

func TestHistoryObservedSeries_Runs(t *testing.T) {
	h := NewHistory()
	list := func(at, until, price, high string) Observation {
		o := Observation{Provider: Tencent, InstanceType: "GN7.2XLARGE32", Region: "mainland-china", Billing: SubscriptionMonth,
			Price: Price{Amount: Dec(price), Currency: CNY, Unit: PerMonth}, ObservedAt: at2(at), Source: "page@" + at}
		if until != "" {
			o.ObservedUntil = at2(until)
		}
		if high != "" {
			o.PriceHigh = DecPtr(high)
		}
		return o
	}
	obs := []Observation{
		list("2019-12-01", "2020-06-01", "2500", ""),
		list("2020-06-01", "2020-08-24", "2500", ""),
		list("2020-08-24", "2020-09-21", "2250", "2500"),
		// not listed from 2020-09-21 to 2020-11-16: a gap
		list("2020-11-16", "2021-07-15", "2250", "2500"),
	}
	disk := obs[0]
	disk.Includes = "50 GiB cloud disk"
	disk.Price.Amount = Dec("2600")
	if _, err := h.Import(asRead("t.csv", append(obs, disk)...), importTime); err != nil {
		t.Fatal(err)
	}
	series := h.ObservedSeries()
	if len(series) != 2 {
		t.Fatalf("%d series, want 2 (what a price includes is part of its identity)", len(series))
	}
	type run struct {
		Price, From, Last, Until string
	}
	var got []run
	for _, r := range series[0].Runs {
		got = append(got, run{r.PriceText(), r.From.Format("2006-01-02"), r.Last.Format("2006-01-02"), r.Until.Format("2006-01-02")})
	}
	want := []run{
		{"2500 CNY/month", "2019-12-01", "2020-06-01", "2020-08-24"},
		{"2250 - 2500 CNY/month", "2020-08-24", "2020-08-24", "2020-09-21"},
		{"2250 - 2500 CNY/month", "2020-11-16", "2020-11-16", "2021-07-15"},
	}
	if series[0].Key != "tencent/GN7.2XLARGE32/mainland-china//subscription_month/instance only" {
		t.Errorf("series key = %s", series[0].Key)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	changes := h.ObservedChanges()
	if len(changes) != 1 || !changes[0].At.Equal(at2("2020-08-24")) || changes[0].Percent != nil || changes[0].New.PriceHigh == nil {
		t.Fatalf("changes = %+v, want the range of 2020-08-24 without a percentage", changes)
	}
	// The last observation without observed_until holds to the end of its day.
	h2 := NewHistory()
	if _, err := h2.Import(asRead("p5.csv", p5Cut()...), importTime); err != nil {
		t.Fatal(err)
	}
	runs := h2.ObservedSeries()[0].Runs
	if len(runs) != 2 || !runs[0].Until.Equal(at("2025-06-05T07:22:36Z")) || !runs[1].Until.Equal(at("2025-06-07T00:00:00Z")) || len(runs[1].Sightings) != 2 {
		t.Errorf("runs = %+v", runs)
	}
	c := h2.ObservedChanges()
	if len(c) != 1 || c[0].Percent == nil || c[0].Percent.String() != "-44.02" || c[0].New.Sources[0] != p5Cut()[2].Source {
		t.Errorf("changes = %+v", c)
	}
}

func at2(date string) time.Time { return at(date + "T00:00:00Z") }

func TestHistoryAt_Observations(t *testing.T) {
	h := NewHistory()
	if _, err := h.Append(testSnapshot()); err != nil { // the crawl of 2025-11-30
		t.Fatal(err)
	}
	// A Tencent type no crawl knows, and p5's cut, months before the crawl.
	gn2 := Observation{Provider: Tencent, InstanceType: "GN2.7XLARGE56", Region: "mainland-china", Billing: SubscriptionMonth,
		Price: Price{Amount: Dec("4248"), Currency: CNY, Unit: PerMonth}, ObservedAt: at2("2018-05-28"), ObservedUntil: at2("2018-10-28"), Source: "page"}
	if _, err := h.Import(asRead("x.csv", append(p5Cut(), gn2)...), importTime); err != nil {
		t.Fatal(err)
	}
	old, err := h.At(at("2025-06-01T23:59:59Z"))
	if err == nil {
		t.Fatalf("At before any observation or crawl = %d offers, want an error", len(old.Offers))
	}
	before, err := h.At(at("2025-06-04T23:59:59Z"))
	if err != nil {
		t.Fatal(err)
	}
	after, err := h.At(at("2025-06-06T23:59:59Z"))
	if err != nil {
		t.Fatal(err)
	}
	if len(before.Offers) != 1 || len(after.Offers) != 1 || !before.TakenAt.Equal(at("2025-06-04T07:23:25Z")) {
		t.Fatalf("before = %+v, after = %+v", before.Offers, after.Offers)
	}
	if it := before.Instances[0]; it.ID != "p5.48xlarge" || it.VCPUs != 192 {
		t.Errorf("the type of an observed offer = %+v, want the crawl's record", it)
	}
	r := Diff(before, after)
	if r.Total != (DiffCounts{PriceChanges: 1, PriceDecreases: 1}) || r.Providers[0].PriceChanges[0].Percent.String() != "-44.02" {
		t.Errorf("diff across the cut = %+v", r.Total)
	}
	// The series ended on 2025-06-06: nothing of it holds a day later.
	if s, err := h.At(at("2025-06-07T00:00:00Z")); err == nil {
		t.Errorf("At after the series ended = %d offers, want an error (no crawl yet, nothing holds)", len(s.Offers))
	}
	// The crawl's snapshot is the crawl's alone: imported prices never carry.
	crawl, err := h.At(at("2026-01-01T00:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if canonical(t, crawl) != canonical(t, testSnapshot()) {
		t.Error("an imported series carried into a later crawl's snapshot")
	}
	// 2018: a type known only from the list, as a stub, with the list's price.
	s, err := h.At(at("2018-06-01T00:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Offers) != 1 || s.Offers[0].Price.Amount.String() != "4248" || s.Offers[0].Availability != Unknown || !IsObservedStub(s.Instances[0]) {
		t.Errorf("2018 = %+v %+v", s.Offers, s.Instances)
	}
	if o := s.Offers[0]; !o.ObservedAt.Equal(at2("2018-05-28")) || !o.FetchedAt.Equal(importTime) || !s.TakenAt.Equal(at2("2018-05-28")) {
		t.Errorf("observed_at %s, fetched_at %s, taken_at %s: want the observation's time, the import's time and the observation's time", o.ObservedAt, o.FetchedAt, s.TakenAt)
	}
	// A stub's specs are unknown, not zero, in the diff's words.
	r = Diff(nil, s)
	if txt := r.Text(); !strings.Contains(txt, "+ instance type GN2.7XLARGE56 (specs not recorded: known only from dated price observations)") {
		t.Errorf("diff text:\n%s", txt)
	}
	if md := r.Markdown(10); !strings.Contains(md, "| `GN2.7XLARGE56` | | | | specs not recorded |") {
		t.Errorf("diff markdown:\n%s", md)
	}
}

func TestHistoryAt_CrawlWinsAndBasisIsIdentity(t *testing.T) {
	h := NewHistory()
	snap := testSnapshot()
	if _, err := h.Append(snap); err != nil {
		t.Fatal(err)
	}
	// A price that includes a disk, observed across the crawl: the crawl's own
	// (instance-only) offer wins at the crawl.
	o := testObservation("2025-11-29T00:00:00Z", "60")
	o.Includes = "40 GiB ESSD system disk"
	o.ObservedUntil = at2("2025-12-05")
	if _, err := h.Import(asRead("d.csv", o), importTime); err != nil {
		t.Fatal(err)
	}
	prev, err := h.At(at2("2025-11-29"))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := h.At(at2("2025-11-30"))
	if err != nil {
		t.Fatal(err)
	}
	if canonical(t, cur) != canonical(t, snap) {
		t.Error("an imported price replaced the crawl's offer")
	}
	r := Diff(prev, cur)
	if r.Total.PriceChanges != 0 || r.Total.OffersRemoved != 1 || r.Total.OffersAdded != 3 {
		t.Errorf("diff across a change of basis = %+v, want the disk-included offer removed and no price change", r.Total)
	}
}

func TestHistoryCodec_Observations(t *testing.T) {
	h := NewHistory()
	if _, err := h.Append(testSnapshot()); err != nil {
		t.Fatal(err)
	}
	v1, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(v1, []byte(`{"format":"gpuatlas-history","schema_version":1,"crawls":1,"records":`)) {
		t.Errorf("a history without observations is not written as version 1: %s", v1[:80])
	}
	o := p5Cut()
	o[0].PriceHigh, o[0].Note = DecPtr("99"), "range"
	if _, err := h.Import(asRead("p5.csv", o...), importTime); err != nil {
		t.Fatal(err)
	}
	v2, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(v2), "\n"), "\n")
	if !strings.HasPrefix(lines[0], `{"format":"gpuatlas-history","schema_version":2,"crawls":1,"records":`) || !strings.HasSuffix(lines[0], `,"observations":4}`) {
		t.Errorf("header = %s", lines[0])
	}
	if want := `{"observation":{"provider":"aws","instance_type":"p5.48xlarge","region":"us-east-1","billing":"on_demand","price":"98.32","price_high":"99","currency":"USD","unit":"hour","includes":"instance only","observed_at":"2025-06-03T07:24:23Z","retrieved_at":"2026-12-01T00:00:00Z","source":"https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d09be8a9c9dcc8fad26adeee559004c23e/gpu_prices.csv","note":"range"}}`; lines[len(lines)-4] != want {
		t.Errorf("observation line = %s\nwant %s", lines[len(lines)-4], want)
	}
	back, err := DecodeHistory("h.jsonl", v2)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := back.Marshal()
	if !bytes.Equal(v2, again) {
		t.Error("a version 2 history does not round-trip")
	}
	if back.ObservationCount() != 4 || len(back.ObservedChanges()) != 2 {
		t.Errorf("read back %d observations, %d changes", back.ObservationCount(), len(back.ObservedChanges()))
	}
	// The version 1 file of before reads as it did.
	if old, err := DecodeHistory("old.jsonl", v1); err != nil || old.ObservationCount() != 0 {
		t.Errorf("version 1 file: %v", err)
	}

	n := len(lines)
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"truncated", lines[:n-1], "h.jsonl:" + itoa(n-1) + ": the file has 3 observations, its header says 4"},
		{"out of order", append(append(append([]string{}, lines[:n-2]...), lines[n-1]), lines[n-2]), "h.jsonl:" + itoa(n) + ": observation out of order"},
		{"observation in v1", append(strings.Split(strings.TrimSuffix(string(v1), "\n"), "\n"), lines[n-1]), ": an observation line in a version 1 history"},
		{"no count in v2", append([]string{strings.Replace(lines[0], `,"observations":4`, "", 1)}, lines[1:]...), "h.jsonl:1: a version 2 history header must count its observations"},
		{"bad price", append(append([]string{}, lines[:n-1]...), strings.Replace(lines[n-1], `"price":"55.04"`, `"price":"-1"`, 1)), "h.jsonl:" + itoa(n) + ": observation: price -1: must be above 0"},
		{"disagreeing", append(append([]string{}, lines[:n-1]...), strings.Replace(lines[n-2], `"price":"55.04"`, `"price":"55.05"`, 1)), "must agree"},
		{"no retrieved_at", append(append([]string{}, lines[:n-1]...), strings.Replace(lines[n-1], `"retrieved_at":"2026-12-01T00:00:00Z",`, "", 1)), "h.jsonl:" + itoa(n) + ": observation: retrieved_at: required in a history"},
		{"retrieved before observed", append(append([]string{}, lines[:n-1]...), strings.Replace(lines[n-1], `"retrieved_at":"2026-12-01T00:00:00Z"`, `"retrieved_at":"2025-01-01T00:00:00Z"`, 1)), "retrieved_at 2025-01-01T00:00:00Z: before observed_at 2025-06-06T07:22:21Z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeHistory("h.jsonl", []byte(strings.Join(tc.lines, "\n")+"\n"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestHistoryImport_RetrievedAt: an observation says when GPU Atlas retrieved
// it: as its file gives it, else the import's time (UTC, whole seconds); the
// same record imported again keeps its first retrieval; without a time to
// give, or retrieved before it was observed, the import fails and adds nothing.
func TestHistoryImport_RetrievedAt(t *testing.T) {
	given := p5Cut()[2]
	given.RetrievedAt = at("2026-11-01T00:00:00Z")
	stamped := p5Cut()[3]
	h := NewHistory()
	now := time.Date(2026, 12, 2, 10, 11, 12, 999, time.FixedZone("CST", 8*3600))
	if _, err := h.Import(asRead("p5.jsonl", given, stamped), now); err != nil {
		t.Fatal(err)
	}
	got := h.Observations()
	if !got[0].RetrievedAt.Equal(given.RetrievedAt) || got[1].RetrievedAt != at("2026-12-02T02:11:12Z") {
		t.Errorf("retrieved_at = %s, %s; want the file's and the import's time in whole seconds, UTC", got[0].RetrievedAt, got[1].RetrievedAt)
	}
	later := stamped
	later.RetrievedAt = at("2027-01-01T00:00:00Z")
	if res, err := h.Import(asRead("again.jsonl", later), now.AddDate(0, 1, 0)); err != nil || res != (ImportResult{Unchanged: 1}) {
		t.Errorf("the same record retrieved later = %+v, %v; want it unchanged", res, err)
	}
	if r := h.ObservedSeries()[0].Runs[0]; !r.Retrieved.Equal(given.RetrievedAt) || h.Observations()[1].RetrievedAt != at("2026-12-02T02:11:12Z") {
		t.Errorf("a second import changed when the records were retrieved: %+v", h.Observations())
	}

	for _, tc := range []struct {
		name string
		o    Observation
		now  time.Time
		want string
	}{
		{"no time to give", p5Cut()[0], time.Time{}, "x.jsonl:2: retrieved_at: required (when GPU Atlas retrieved the archive"},
		{"retrieved before observed", func() Observation {
			o := p5Cut()[0]
			o.RetrievedAt = at("2025-01-01T00:00:00Z")
			return o
		}(), now, "x.jsonl:2: retrieved_at 2025-01-01T00:00:00Z: before observed_at 2025-06-03T07:24:23Z"},
		{"stamped before observed: observed in the future", p5Cut()[0], at("2025-01-01T00:00:00Z"), "x.jsonl:2: observed_at 2025-06-03T07:24:23Z: in the future (the import runs at 2025-01-01T00:00:00Z)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHistory()
			_, err := h.Import(asRead("x.jsonl", tc.o), tc.now)
			if err == nil || !strings.Contains(err.Error(), tc.want) || h.ObservationCount() != 0 {
				t.Errorf("err = %v, want %q and nothing added", err, tc.want)
			}
		})
	}
}

// TestHistoryAt_ObservedDatesAndPlausibility: an archived offer that At
// rebuilds has the two dates of its observation (observed_at when the archive
// saw it, fetched_at when GPU Atlas retrieved it), and is judged by the
// plausibility rules beside the archived prices of its time. Real rows:
// Alibaba's price file of 2024-06-12 (cloudpilot-ai/priceserver @ 60cef47f),
// where the spot price of ecs.ebmgn6i.24xlarge in cn-heyuan-b is the on-demand
// price (the API's cap) and that of ecs.gn6i-c4g1.xlarge in ap-northeast-1a is
// 35% of it; and Tencent's GN7.2XLARGE32 list price of the page version of
// 2019-10-16.
func TestHistoryAt_ObservedDatesAndPlausibility(t *testing.T) {
	const priceFile = "https://github.com/cloudpilot-ai/priceserver/blob/60cef47f24c2c7e5020b923b121923ee2e5ea055/pkg/client/builtin-data/alibabacloud_price.json"
	const page = "https://github.com/ZoeyYann/qcloud-documents/blob/0c6bc0e57ef45d29f4b02b9a4e10e52fe1179cfd/product/计算与网络/GPU%20云服务器/购买指导/价格总览.md"
	ali := func(typ, region, zone string, billing BillingKind, price string) Observation {
		return Observation{Provider: Alibaba, InstanceType: typ, Region: region, Zone: zone, Billing: billing,
			Price: Price{Amount: Dec(price), Currency: CNY, Unit: PerHour}, ObservedAt: at("2024-06-12T09:03:21Z"),
			RetrievedAt: importTime, Source: priceFile}
	}
	gn7 := Observation{Provider: Tencent, InstanceType: "GN7.2XLARGE32", Region: "mainland-china", Billing: OnDemand,
		Price: Price{Amount: Dec("8.68"), Currency: CNY, Unit: PerHour}, ObservedAt: at("2019-10-16T14:17:02Z"),
		ObservedUntil: at("2019-11-19T10:07:27Z"), RetrievedAt: importTime, Source: page}
	h := NewHistory()
	if _, err := h.Import(asRead("archives.jsonl",
		ali("ecs.ebmgn6i.24xlarge", "cn-heyuan", "", OnDemand, "68.75"),
		ali("ecs.ebmgn6i.24xlarge", "cn-heyuan", "cn-heyuan-b", Spot, "68.75"),
		ali("ecs.gn6i-c4g1.xlarge", "ap-northeast-1", "", OnDemand, "8.38"),
		ali("ecs.gn6i-c4g1.xlarge", "ap-northeast-1", "ap-northeast-1a", Spot, "2.933"),
		gn7), time.Time{}); err != nil {
		t.Fatal(err)
	}
	type dated struct{ Observed, Fetched, Suspect string }
	for _, tc := range []struct {
		at    time.Time
		taken time.Time
		want  map[string]dated
	}{
		{at("2024-06-12T12:00:00Z"), at("2024-06-12T09:03:21Z"), map[string]dated{
			"alibaba/ecs.ebmgn6i.24xlarge/cn-heyuan//on_demand":                {"2024-06-12T09:03:21Z", "2026-12-01T00:00:00Z", ""},
			"alibaba/ecs.ebmgn6i.24xlarge/cn-heyuan/cn-heyuan-b/spot":          {"2024-06-12T09:03:21Z", "2026-12-01T00:00:00Z", "spot price 68.75 is at or above the on-demand price 68.75 CNY/hour"},
			"alibaba/ecs.gn6i-c4g1.xlarge/ap-northeast-1//on_demand":           {"2024-06-12T09:03:21Z", "2026-12-01T00:00:00Z", ""},
			"alibaba/ecs.gn6i-c4g1.xlarge/ap-northeast-1/ap-northeast-1a/spot": {"2024-06-12T09:03:21Z", "2026-12-01T00:00:00Z", ""},
		}},
		{at2("2019-11-01"), at("2019-10-16T14:17:02Z"), map[string]dated{
			"tencent/GN7.2XLARGE32/mainland-china//on_demand": {"2019-10-16T14:17:02Z", "2026-12-01T00:00:00Z", ""},
		}},
	} {
		s, err := h.At(tc.at)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]dated{}
		for _, o := range s.Offers {
			got[o.Key()] = dated{formatHistoryTime(o.ObservedAt), formatHistoryTime(o.FetchedAt), o.Suspect}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("At(%s) (-want +got):\n%s", formatHistoryTime(tc.at), diff)
		}
		if !s.TakenAt.Equal(tc.taken) {
			t.Errorf("At(%s) taken_at %s, want the newest observation %s", formatHistoryTime(tc.at), s.TakenAt, tc.taken)
		}
		// The same offers, flagged alike, as ObservedOffersAt gives them.
		for _, o := range h.ObservedOffersAt(tc.at, s.Instances) {
			if g := got[o.Key()]; g.Suspect != o.Suspect {
				t.Errorf("ObservedOffersAt(%s) %s suspect %q, At says %q", formatHistoryTime(tc.at), o.Key(), o.Suspect, g.Suspect)
			}
		}
		// The data-quality check finds nothing unmarked, and dates them as observed then.
		r := CheckQuality(s, time.Time{})
		if len(r.Errors) != 0 {
			t.Errorf("At(%s): check errors %+v", formatHistoryTime(tc.at), r.Errors)
		}
		for _, d := range s.DataAges(s.TakenAt) {
			if d.Unknown != 0 || !d.Oldest.Equal(tc.taken) || !d.Retrieved.Equal(importTime) {
				t.Errorf("At(%s): data age %+v, want every price dated %s and retrieved %s", formatHistoryTime(tc.at), d, tc.taken, importTime)
			}
		}
	}
}
