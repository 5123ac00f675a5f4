package catalog

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// historyGrowthBudget is what a crawl that found nothing changed may add to
// the history file: its crawl line (time, coverage, fetch times) and the
// header's counts, a few KB; 64 KB leaves room for coverage messages.
const historyGrowthBudget = 64 << 10

// recrawled is s as a crawl d days later that found the same catalog: every
// fetch time, the observed_at that were the fetch time, and every spot band's
// observed_at (the feed's fetch time) move with the crawl, as in a live crawl.
// With jitter, every third offer (after one of its region fetched at the same
// time) is fetched up to a second after the others of its region, as adapters that stamp each price quote with its own clock
// reading do.
func recrawled(s *Snapshot, d int, jitter ...bool) *Snapshot {
	shift := time.Duration(d) * 24 * time.Hour
	c := *s
	c.TakenAt = s.TakenAt.Add(shift)
	c.Offers = make([]Offer, len(s.Offers))
	for i, o := range s.Offers {
		at := shift
		if len(jitter) > 0 && jitter[0] && i%3 == 1 && fetchGroup(s.Offers[i-1]) == fetchGroup(o) && sameTime(s.Offers[i-1].FetchedAt, o.FetchedAt) {
			at += time.Duration(i%1000) * time.Millisecond
		}
		if sameTime(o.ObservedAt, o.FetchedAt) {
			o.ObservedAt = o.ObservedAt.Add(at)
		}
		o.FetchedAt = o.FetchedAt.Add(at)
		if o.Interruption != nil {
			in := *o.Interruption
			in.ObservedAt = c.TakenAt.Add(7 * time.Second) // the feed is fetched after the crawl starts
			o.Interruption = &in
		}
		c.Offers[i] = o
	}
	return &c
}

// TestHistory_UnchangedCrawlStaysWithinBudget: crawls that find the same
// catalog add only their crawl line. Recording each spot band's observed_at
// (the feed's fetch time, new each crawl) in its offer's record closed and
// reopened about 2,000 records a crawl (1.2 MB a night with nothing changed),
// and recording each offer's own fetch time, a few milliseconds from its
// region's, made the crawl line 280 KB. Checked on the embedded catalog (real
// AWS spot bands), appended in memory and to a history read back from its
// file, rebuilt exactly but for the fetch times within fetchTolerance of their
// region's, which are the region's; appending the same crawl again (a retried
// job) is no change and no error.
func TestHistory_UnchangedCrawlStaysWithinBudget(t *testing.T) {
	base, err := ReadSnapshot("../data/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	bands := 0
	for _, o := range base.Offers {
		if o.Interruption != nil {
			bands++
		}
	}
	if bands < 100 {
		t.Fatalf("the embedded catalog has %d spot bands: the test needs them", bands)
	}
	for _, fromFile := range []bool{false, true} {
		h := NewHistory()
		var sizes []int
		for d := 0; d < 3; d++ {
			s := recrawled(base, d, true)
			if fromFile && d > 0 {
				data, err := h.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				if h, err = DecodeHistory("history.jsonl", data); err != nil {
					t.Fatal(err)
				}
			}
			changed, err := h.Append(s)
			if err != nil {
				t.Fatal(err)
			}
			if d > 0 && changed {
				t.Errorf("from file %v, crawl %d: Append reports a change for the same catalog", fromFile, d)
			}
			data, err := h.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			sizes = append(sizes, len(data))
			if again, err := h.Append(s); again || err != nil {
				t.Errorf("from file %v, crawl %d appended again: changed %v, error %v; want neither", fromFile, d, again, err)
			}
			got, err := h.At(s.TakenAt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(canonical(t, recrawled(base, d)), canonical(t, got)); diff != "" {
				t.Fatalf("from file %v, crawl %d: At (-want +got):\n%s", fromFile, d, diff)
			}
		}
		for d := 1; d < len(sizes); d++ {
			if grew := sizes[d] - sizes[d-1]; grew > historyGrowthBudget {
				t.Errorf("from file %v: unchanged crawl %d grew the history by %d bytes (%d to %d), budget %d", fromFile, d, grew, sizes[d-1], sizes[d], historyGrowthBudget)
			}
		}
	}
}

// TestHistory_BandTimesOffTheSharedOne: a band observed at another time than
// most of its provider's keeps its time in its record, and a band whose time
// stays while the shared time moves away from it is written anew: every crawl
// is rebuilt exactly, in memory and from the file.
func TestHistory_BandTimesOffTheSharedOne(t *testing.T) {
	base := testSnapshot()
	var first *Offer
	for i := range base.Offers {
		if base.Offers[i].Billing == Spot {
			first = &base.Offers[i]
			break
		}
	}
	if first == nil {
		t.Fatal("the test snapshot has no spot offer")
	}
	for _, zone := range []string{"us-east-1x", "us-east-1y", "us-east-1z"} {
		o := *first
		o.Zone = zone
		base.Offers = append(base.Offers, o)
	}
	base.Sort()
	fixed := day(0).Add(time.Hour)
	// banded is the crawl d days on with three bands: x keeps one time
	// throughout; y shares it (the provider's shared time) for two crawls,
	// then moves with z, so that x's time stays while the shared time moves.
	banded := func(d int) *Snapshot {
		s := recrawled(base, d)
		moving := s.TakenAt.Add(time.Minute)
		for i := range s.Offers {
			o := &s.Offers[i]
			at := map[string]time.Time{"us-east-1x": fixed, "us-east-1y": fixed, "us-east-1z": moving}[o.Zone]
			if o.Zone == "us-east-1y" && d >= 2 {
				at = moving
			}
			if !at.IsZero() {
				o.Interruption = &Interruption{Band: Band5To10, SavingsPct: 70, ObservedAt: at, Source: "aws:spot-advisor"}
			}
		}
		return s
	}
	mem := NewHistory()
	for d := 0; d < 4; d++ {
		if _, err := mem.Append(banded(d)); err != nil {
			t.Fatal(err)
		}
		data, err := mem.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		file, err := DecodeHistory("history.jsonl", data)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []*History{mem, file} {
			for back := 0; back <= d; back++ {
				want := banded(back)
				got, err := h.At(want.TakenAt)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(canonical(t, want), canonical(t, got)); diff != "" {
					t.Fatalf("after crawl %d, crawl %d: At (-want +got):\n%s", d, back, diff)
				}
			}
		}
	}
}
