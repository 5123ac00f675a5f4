package catalog

import (
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func day(d int) time.Time { return time.Date(2025, 11, 30+d, 0, 0, 0, 0, time.UTC) }

// historyCrawls are three crawls with known changes between them.
func historyCrawls() []*Snapshot {
	s1 := testSnapshot()
	s1.Unmapped = []UnmappedAccelerator{{Provider: AWS, Name: "Radeon Pro V520", InstanceTypes: []string{"g4ad.xlarge"}}}
	// One offer fetched an hour after the others of its region (more than
	// fetchTolerance), in another zone: kept exactly.
	s1.Offers[2].FetchedAt = time.Date(2025, 11, 30, 9, 0, 1, 500, time.FixedZone("", 8*3600))

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
		if f.Name == "ObservedAt" {
			// held relative to the fetch time (observedMark)
			g, ok := st.FieldByName(f.Name)
			if !ok || g.Type != reflect.TypeOf(observedMark("")) || g.Tag.Get("json") != "observed_at,omitempty" {
				t.Errorf("offerState.ObservedAt = %v `%s`, want an observedMark `json:\"observed_at,omitempty\"`", g.Type, g.Tag)
			}
			continue
		}
		if f.Name == "Interruption" {
			// its observed_at held against the crawl's shared time (interruptionState)
			g, ok := st.FieldByName(f.Name)
			if !ok || g.Type != reflect.TypeOf(&interruptionState{}) || g.Tag != f.Tag {
				t.Errorf("offerState.Interruption = %v `%s`, want an *interruptionState `%s`", g.Type, g.Tag, f.Tag)
			}
			in, is := reflect.TypeOf(Interruption{}), reflect.TypeOf(interruptionState{})
			for j := 0; j < in.NumField(); j++ {
				if h, ok := is.FieldByName(in.Field(j).Name); !ok || (h.Type != in.Field(j).Type && h.Name != "ObservedAt") {
					t.Errorf("interruptionState lacks Interruption.%s (history would drop it)", in.Field(j).Name)
				}
			}
			if in.NumField() != is.NumField() {
				t.Errorf("interruptionState has %d fields, Interruption has %d", is.NumField(), in.NumField())
			}
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

// TestHistory_ObservedAt records observed_at only where it says more than the
// fetch time: a live crawl's price confirmed again is no change, a dataset's
// date and "unknown" are kept, and every crawl is rebuilt exactly, also from
// the file.
func TestHistory_ObservedAt(t *testing.T) {
	dataset := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	crawl := func(d int, datasetDate time.Time) *Snapshot {
		s := testSnapshot()
		s.TakenAt = day(d)
		for i := range s.Offers {
			s.Offers[i].FetchedAt = day(d)
		}
		s.Offers[0].ObservedAt = day(d)      // a live crawl observes what it fetches
		s.Offers[1].ObservedAt = datasetDate // the date a dataset gives
		s.Offers[2].ObservedAt = time.Time{} // no date known
		return s
	}
	snaps := []*Snapshot{crawl(0, dataset), crawl(1, dataset), crawl(2, dataset.AddDate(0, 1, 0))}
	h := NewHistory()
	for _, s := range snaps {
		if _, err := h.Append(s); err != nil {
			t.Fatal(err)
		}
	}
	offerRecords := map[string]int{}
	for _, r := range h.records {
		if r.kind == recOffer {
			offerRecords[r.key]++
		}
	}
	want := map[string]int{snaps[0].Offers[0].Key(): 1, snaps[0].Offers[1].Key(): 2, snaps[0].Offers[2].Key(): 1}
	if !reflect.DeepEqual(offerRecords, want) {
		t.Errorf("offer records per key = %v, want %v (one for the live price, two for the re-dated one)", offerRecords, want)
	}
	data, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	read, err := DecodeHistory("history.jsonl", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, hist := range []*History{h, read} {
		for i, s := range snaps {
			got, err := hist.At(s.TakenAt)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := canonical(t, got), canonical(t, s); g != w {
				t.Errorf("crawl %d rebuilt:\n%s\nwant\n%s", i, g, w)
			}
		}
	}
}
