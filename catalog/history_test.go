package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

func day(d int) time.Time { return time.Date(2025, 11, 30+d, 0, 0, 0, 0, time.UTC) }

// historyCrawls are three crawls with known changes between them.
func historyCrawls() []*Snapshot {
	s1 := testSnapshot()
	s1.Unmapped = []UnmappedAccelerator{{Provider: AWS, Name: "Radeon Pro V520", InstanceTypes: []string{"g4ad.xlarge"}}}
	// One offer fetched at another time, in another zone: kept exactly.
	s1.Offers[2].FetchedAt = time.Date(2025, 11, 30, 8, 0, 1, 500, time.FixedZone("", 8*3600))

	// Day 2: on-demand p5 price +10%, g6f spot sold out, a new type with an
	// offer, new fetch times, a coverage change; same FX rates.
	s2 := testSnapshot()
	s2.TakenAt = day(1)
	s2.Unmapped = s1.Unmapped
	for i := range s2.Offers {
		s2.Offers[i].FetchedAt = day(1)
	}
	s2.Offers[1].Price.Amount = Dec("60.544")
	s2.Offers[2].Availability = SoldOut
	s2.Coverage[1] = Coverage{Provider: AWS, Status: CoverageOK, Regions: 2, LastOK: day(1), Requests: 12}
	s2.Instances = append(s2.Instances, InstanceType{Provider: AWS, ID: "p5e.48xlarge", Family: "p5e", VCPUs: 192, MemoryGiB: Dec("2048"),
		Generation: "current", Source: "aws:ec2:DescribeInstanceTypes",
		Accelerators: []Accelerator{{Kind: KindGPU, Model: "nvidia-h200-sxm-141gb", Name: "H200", Count: 8, Share: Dec("1"), MemoryGiB: Dec("141")}}})
	s2.Offers = append(s2.Offers, Offer{Provider: AWS, InstanceType: "p5e.48xlarge", Region: "us-east-1", Billing: OnDemand,
		Price: Price{Amount: Dec("70.00"), Currency: USD, Unit: PerHour}, Availability: Available, Source: "aws:pricing:GetProducts", FetchedAt: day(1)})

	// Day 3: the p5 price back to where it was, g6f gone, new FX rates, the
	// placement sold out, no unmapped accelerator.
	s3 := testSnapshot()
	s3.TakenAt = day(2)
	for i := range s3.Offers {
		s3.Offers[i].FetchedAt = day(2)
	}
	s3.FX.Date, s3.FX.Rates = "2025-12-01", map[Currency]decimal.Decimal{USD: Dec("1.1600"), CNY: Dec("8.2000")}
	s3.Instances = s3.Instances[:1]
	s3.Offers = s3.Offers[:2]
	s3.Placements[0].Status = SoldOut
	s3.Instances = append(s3.Instances, s2.Instances[2])
	o := s2.Offers[3]
	o.FetchedAt = day(2)
	s3.Offers = append(s3.Offers, o)
	return []*Snapshot{s1, s2, s3}
}

func canonical(t *testing.T, s *Snapshot) string {
	t.Helper()
	b, err := s.MarshalCanonical()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func buildHistory(t testing.TB, snaps []*Snapshot) *History {
	t.Helper()
	h := NewHistory()
	for _, s := range snaps {
		changed, err := h.Append(s)
		if err != nil {
			t.Fatalf("append %s: %v", s.TakenAt, err)
		}
		if !changed {
			t.Fatalf("append %s: changed = false, want true", s.TakenAt)
		}
	}
	return h
}

func TestHistory_AtRebuildsEachCrawl(t *testing.T) {
	snaps := historyCrawls()
	h := buildHistory(t, snaps)
	data, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	read, err := DecodeHistory("history.jsonl", data)
	if err != nil {
		t.Fatalf("decode what was written: %v\n%s", err, data)
	}
	for name, hist := range map[string]*History{"appended": h, "read back": read} {
		for _, s := range snaps {
			got, err := hist.At(s.TakenAt)
			if err != nil {
				t.Fatalf("%s: At(%s): %v", name, s.TakenAt, err)
			}
			if diff := cmp.Diff(canonical(t, s), canonical(t, got)); diff != "" {
				t.Errorf("%s: At(%s) (-want +got):\n%s", name, s.TakenAt, diff)
			}
		}
	}
	// Between crawls: the crawl before.
	got, err := h.At(day(1).Add(23 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if !got.TakenAt.Equal(day(1)) {
		t.Errorf("At(day 1 + 23h) took the crawl of %s, want %s", got.TakenAt, day(1))
	}
	if _, err := h.At(day(-1)); err == nil || !strings.Contains(err.Error(), "no crawl at or before") {
		t.Errorf("At before the first crawl: err = %v", err)
	}
	again, err := read.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, again) {
		t.Errorf("re-encoding a read history changed it:\n%s", cmp.Diff(string(data), string(again)))
	}
}

func TestHistory_StoresOnlyChanges(t *testing.T) {
	snaps := historyCrawls()
	h := buildHistory(t, snaps)
	before, _ := h.Marshal()
	// The same catalog crawled again a day later: new times, nothing else.
	next := historyCrawls()[2]
	next.TakenAt = day(3)
	for i := range next.Offers {
		next.Offers[i].FetchedAt = day(3)
	}
	changed, err := h.Append(next)
	if err != nil {
		t.Fatal(err)
	}
	if changed {
		t.Error("changed = true for a crawl with the same catalog")
	}
	after, _ := h.Marshal()
	beforeLines := strings.Split(string(before), "\n")
	afterLines := strings.Split(string(after), "\n")
	if len(afterLines) != len(beforeLines)+1 {
		t.Fatalf("an unchanged crawl added %d lines, want 1 (its crawl line)", len(afterLines)-len(beforeLines))
	}
	// Only the header changed among the old lines; the crawl line is one entry
	// per region's fetch time and no FX table (the rates did not change).
	for i := 1; i < len(beforeLines); i++ {
		if i <= 3 {
			if beforeLines[i] != afterLines[i] {
				t.Errorf("crawl line %d changed", i+1)
			}
			continue
		}
		if beforeLines[i] != afterLines[i+1] {
			t.Errorf("record line changed:\n%s\n%s", beforeLines[i], afterLines[i+1])
		}
	}
	crawl := afterLines[4]
	if strings.Contains(crawl, `"fx"`) || !strings.Contains(crawl, `"fetched_at":{"aws/us-east-1":"2025-12-03T00:00:00Z"}`) {
		t.Errorf("crawl line = %s", crawl)
	}
	// Each offer key has one record per value it held: the p5 on-demand price
	// went 55.04 → 60.544 → 55.04, three records.
	if n := strings.Count(string(after), `{"offer":{"provider":"aws","instance_type":"p5.48xlarge","region":"us-east-1","billing":"on_demand"`); n != 3 {
		t.Errorf("p5 on-demand offer has %d records, want 3:\n%s", n, after)
	}
}

func TestHistory_PriceSeries(t *testing.T) {
	h := buildHistory(t, historyCrawls())
	usd := func(a string) Price { return Price{Amount: Dec(a), Currency: USD, Unit: PerHour} }
	tests := []struct {
		key  string
		want []PricePoint
	}{
		{"aws/p5.48xlarge/us-east-1//on_demand", []PricePoint{
			{From: day(0), Last: day(0), Until: day(1), Price: usd("55.04"), Availability: Available},
			{From: day(1), Last: day(1), Until: day(2), Price: usd("60.544"), Availability: Available},
			{From: day(2), Last: day(2), Price: usd("55.04"), Availability: Available},
		}},
		{"aws/g6f.large/us-east-1/us-east-1b/spot", []PricePoint{
			{From: day(0), Last: day(0), Until: day(1), Price: usd("0.1"), Availability: Available},
			{From: day(1), Last: day(1), Until: day(2), Price: usd("0.1"), Availability: SoldOut},
		}},
		{"aws/p5e.48xlarge/us-east-1//on_demand", []PricePoint{
			{From: day(1), Last: day(2), Price: usd("70.00"), Availability: Available},
		}},
		{"aws/nope/us-east-1//on_demand", nil},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			got := h.PriceSeries(tt.key)
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })); diff != "" {
				t.Errorf("PriceSeries (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHistory_AppendOrder(t *testing.T) {
	snaps := historyCrawls()
	h := buildHistory(t, snaps[:2])
	if _, err := h.Append(snaps[0]); err == nil || !strings.Contains(err.Error(), "older than the last recorded crawl") {
		t.Errorf("appending an older snapshot: err = %v", err)
	}
	changed, err := h.Append(snaps[1])
	if err != nil || changed {
		t.Errorf("appending the last snapshot again: changed %v, err %v; want a no-op", changed, err)
	}
	other := historyCrawls()[1]
	other.Offers[0].Price.Upfront = DecPtr("1")
	if _, err := h.Append(other); err == nil || !strings.Contains(err.Error(), "already recorded") {
		t.Errorf("appending another snapshot with the same time: err = %v", err)
	}
	bad := historyCrawls()[2]
	bad.Offers = append(bad.Offers, bad.Offers[0])
	if _, err := h.Append(bad); err == nil || !strings.Contains(err.Error(), "duplicate offer") {
		t.Errorf("appending an invalid snapshot: err = %v", err)
	}
	if got := len(h.Crawls()); got != 2 {
		t.Errorf("failed appends left %d crawls, want 2", got)
	}
}

func TestHistory_AppendDoesNotModifyTheSnapshot(t *testing.T) {
	s := historyCrawls()[0]
	s.Coverage[1].Sources = []string{"b", "a"}
	before := s.Coverage[1].Sources[0]
	if _, err := NewHistory().Append(s); err != nil {
		t.Fatal(err)
	}
	if s.Coverage[1].Sources[0] != before || s.Offers[0].Billing != Reserved1yAllUpfront {
		t.Error("Append reordered the caller's snapshot")
	}
}

func TestHistory_FileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "history.jsonl")
	if _, err := ReadHistory(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("reading a missing history: err = %v, want fs.ErrNotExist", err)
	}
	h := buildHistory(t, historyCrawls())
	if err := WriteHistory(path, h); err != nil {
		t.Fatal(err)
	}
	got, err := ReadHistory(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(h.Crawls(), got.Crawls()); diff != "" {
		t.Errorf("crawls (-want +got):\n%s", diff)
	}
}

// TestHistory_OfferStateCoversOffer keeps the offer record in step with Offer: a
// field added to Offer and not to offerState would be lost from history.
func TestHistory_OfferStateCoversOffer(t *testing.T) {
	st := reflect.TypeOf(offerState{})
	of := reflect.TypeOf(Offer{})
	for i := 0; i < of.NumField(); i++ {
		f := of.Field(i)
		if f.Name == "FetchedAt" {
			continue
		}
		g, ok := st.FieldByName(f.Name)
		if !ok || g.Type != f.Type || g.Tag != f.Tag {
			t.Errorf("offerState lacks Offer.%s %s `%s` (history would drop it)", f.Name, f.Type, f.Tag)
		}
	}
	if st.NumField() != of.NumField()-1 {
		t.Errorf("offerState has %d fields, Offer has %d (want one fewer: fetched_at)", st.NumField(), of.NumField())
	}
}

func TestDecodeHistory_Errors(t *testing.T) {
	good, err := buildHistory(t, historyCrawls()).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	offerLine := 0
	for i, l := range lines {
		if strings.HasPrefix(l, `{"offer":`) {
			offerLine = i
			break
		}
	}
	without := func(i int) string {
		return strings.Join(append(append([]string(nil), lines[:i]...), lines[i+1:]...), "")
	}
	replace := func(old, new string) string { return strings.Replace(string(good), old, new, 1) }
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", "h.jsonl: empty file"},
		{"a snapshot", `{"schema": 1}` + "\n", "h.jsonl:1:"},
		{"no header", lines[1], "h.jsonl:1: not a GPU Atlas history"},
		{"unknown version", replace(`"schema_version":1`, `"schema_version":7`), "h.jsonl:1: history schema version 7 is not supported"},
		{"malformed", replace(`{"offer":{"provider":"aws"`, `{"offer":{"provider":aws"`), "h.jsonl:" + itoa(offerLine+1) + ":22: malformed JSON"},
		{"wrong type", replace(`"vcpus":192`, `"vcpus":"many"`), "instance.vcpus: cannot use JSON string"},
		{"unknown field", replace(`"vcpus":192`, `"vcpus":192,"cores":96`), `unknown field "cores"`},
		{"truncated in a line", string(good[:len(good)-20]), "h.jsonl:" + itoa(len(lines)-1) + ": truncated"},
		{"truncated at a line", strings.Join(lines[:len(lines)-2], ""), "truncated or was edited"},
		{"record lost", without(offerLine), "truncated or was edited"},
		{"empty line", replace("\n{\"offer\"", "\n\n{\"offer\""), "h.jsonl:" + itoa(offerLine+1) + ": empty line"},
		{"unknown crawl", replace(`"from":"2025-12-01T00:00:00Z"}`, `"from":"2024-01-01T00:00:00Z"}`), `"from" "2024-01-01T00:00:00Z" is not a recorded crawl`},
		{"crawls out of order", replace(`{"crawl":"2025-12-01T00:00:00Z"`, `{"crawl":"2025-11-01T00:00:00Z"`), "h.jsonl:3: crawl 2025-11-01T00:00:00Z is not after"},
		{"two kinds on a line", replace(`{"offer":{`, `{"region":{"provider":"aws","id":"x","name_en":"","name_zh":"","country":"","city":"","geo":""},"offer":{`), "exactly one of"},
		{"overlap", replace(`,"to":"2025-12-01T00:00:00Z"}`+"\n"+`{"offer":{"provider":"aws","instance_type":"p5.48xlarge"`, `}`+"\n"+`{"offer":{"provider":"aws","instance_type":"p5.48xlarge"`), "holds in the same crawls as the record on line"},
		{"to before from", replace(`"from":"2025-11-30T00:00:00Z","to":"2025-12-01T00:00:00Z"}`, `"from":"2025-12-01T00:00:00Z","to":"2025-11-30T00:00:00Z"}`), `is not after "from"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.data == string(good) {
				t.Fatal("the test case did not change the file")
			}
			_, err := DecodeHistory("h.jsonl", []byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestHistory_EmptyAt(t *testing.T) {
	if _, err := NewHistory().At(day(0)); err == nil || !strings.Contains(err.Error(), "history is empty") {
		t.Errorf("At on an empty history: err = %v", err)
	}
	b, err := NewHistory().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	h, err := DecodeHistory("h.jsonl", b)
	if err != nil || len(h.Crawls()) != 0 {
		t.Errorf("empty history round trip: %v, %d crawls", err, len(h.Crawls()))
	}
}

func FuzzReadHistory(f *testing.F) {
	good, err := buildHistory(f, historyCrawls()).Marshal()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"format":"gpuatlas-history","schema_version":1,"crawls":0,"records":0}` + "\n"))
	f.Add([]byte(`{"format":"gpuatlas-history","schema_version":1,"crawls":1,"records":1}
{"crawl":"2025-11-30T00:00:00Z","coverage":[],"fetched_at":{}}
{"placement":{"provider":"aws","instance_type":"x","region":"r","zone":"z","status":"available"},"from":"2025-11-30T00:00:00Z"}
`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := DecodeHistory("fuzz.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.jsonl") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		enc, err := h.Marshal()
		if err != nil {
			t.Fatalf("a history that decoded does not encode: %v", err)
		}
		again, err := DecodeHistory("again.jsonl", enc)
		if err != nil {
			t.Fatalf("a re-encoded history does not decode: %v\n%s", err, enc)
		}
		for _, at := range again.Crawls() {
			if s, err := again.At(at); err == nil {
				if _, err := s.MarshalCanonical(); err != nil {
					t.Fatalf("rebuilt snapshot does not encode: %v", err)
				}
			}
		}
	})
}

// TestDecodeHistory_AnyLayoutAgrees: record lines Marshal did not write (spaces,
// keys in another order) are read by encoding/json, to the same history.
func TestDecodeHistory_AnyLayoutAgrees(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	s := testSnapshot()
	for i := 0; i < 2100; i++ {
		o := s.Offers[i%3]
		o.Region = fmt.Sprintf("r%04d", i)
		s.Offers = append(s.Offers, o)
	}
	h := NewHistory()
	if _, err := h.Append(s); err != nil {
		t.Fatal(err)
	}
	good, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	for i, l := range lines {
		switch {
		case i%7 == 3 && strings.HasPrefix(l, `{"offer":`):
			lines[i] = `{ "offer": ` + l[len(`{"offer":`):]
		case i%7 == 4 && strings.HasPrefix(l, `{"offer":`):
			at := strings.Index(l, `,"from":`)
			lines[i] = `{"from":` + l[at+len(`,"from":`):len(l)-2] + `,"offer":` + l[len(`{"offer":`):at] + "}\n"
		}
	}
	other := strings.Join(lines, "")
	if other == string(good) {
		t.Fatal("no line changed")
	}
	got, err := DecodeHistory("h.jsonl", []byte(other))
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := got.Marshal(); !bytes.Equal(again, good) {
		t.Errorf("decoded to another history:\n%s", cmp.Diff(string(good), string(again)))
	}
	// Crawl lines in another layout are read as crawls.
	spaced := strings.ReplaceAll(string(good), `{"crawl":`, `{ "crawl":`)
	if got, err := DecodeHistory("h.jsonl", []byte(spaced)); err != nil {
		t.Errorf("crawl lines with a space: %v", err)
	} else if again, _ := got.Marshal(); !bytes.Equal(again, good) {
		t.Error("crawl lines with a space: decoded to another history")
	}
	// A crawl line among the records is reported where it is.
	lines = strings.SplitAfter(string(good), "\n")
	last := len(lines) - 2
	lines = append(lines[:last:last], lines[1], lines[last])
	lines[0] = strings.Replace(lines[0], `"crawls":1`, `"crawls":2`, 1)
	if _, err := DecodeHistory("h.jsonl", []byte(strings.Join(lines, ""))); err == nil || !strings.Contains(err.Error(), "h.jsonl:"+itoa(last+1)+": crawl line after the records") {
		t.Errorf("a crawl line among the records: err = %v", err)
	}
}

// FuzzDecodeHistory_RecordLinesAgree: what the offer and placement line reader
// takes, the encoding/json reader takes too, to the same record.
func FuzzDecodeHistory_RecordLinesAgree(f *testing.F) {
	h := buildHistory(f, historyCrawls())
	good, err := h.Marshal()
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.SplitAfter(string(good), "\n") {
		if strings.HasPrefix(line, `{"offer"`) || strings.HasPrefix(line, `{"placement"`) {
			f.Add([]byte(line))
		}
	}
	d := &historyDecoder{name: "h.jsonl", lastLine: 99, crawlIndex: map[string]int{}}
	for i, at := range h.Crawls() {
		d.crawlIndex[formatHistoryTime(at)] = i
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		fast := recordLineReader{d: d, strings: interner{}}
		got, ok := fast.read(line)
		if !ok {
			return
		}
		want, isCrawl, err := d.record(2, line, true)
		if err != nil || isCrawl {
			t.Fatalf("read %s, which encoding/json does not: %v (crawl %v)", line, err, isCrawl)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read %s\ngot  %+v\nwant %+v", line, got, want)
		}
	})
}
