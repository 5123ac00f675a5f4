package synth

import (
	"bytes"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func TestSnapshot_ValidDeterministicAndMarkedSynthetic(t *testing.T) {
	a, b := Snapshot(3000, 7), Snapshot(3000, 7)
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	ja, _ := a.MarshalCanonical()
	jb, _ := b.MarshalCanonical()
	if !bytes.Equal(ja, jb) {
		t.Error("the same seed gave two different snapshots")
	}
	if n := len(a.Offers); n < 2700 || n > 3300 {
		t.Errorf("asked for about 3000 offers, got %d", n)
	}
	for _, it := range a.Instances {
		if !it.Synthetic || it.Source != Source {
			t.Fatalf("instance %s is not marked synthetic: %+v", it.Key(), it)
		}
	}
	for _, o := range a.Offers {
		if !o.Synthetic || o.Source != Source {
			t.Fatalf("offer %s is not marked synthetic", o.Key())
		}
	}
	providers := map[catalog.Provider]bool{}
	for _, o := range a.Offers {
		providers[o.Provider] = true
	}
	if len(providers) != len(catalog.Providers) {
		t.Errorf("offers cover %d providers, want all %d", len(providers), len(catalog.Providers))
	}
}

func TestHistory_DailyChangesThatReplay(t *testing.T) {
	h, last, err := History(HistoryOptions{Offers: 2000, Days: 60, Seed: 3, Churn: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	crawls := h.Crawls()
	if len(crawls) != 60 || !crawls[59].Equal(Taken) || !crawls[0].Equal(Taken.AddDate(0, 0, -59)) {
		t.Fatalf("crawls = %d, from %s to %s", len(crawls), crawls[0], crawls[len(crawls)-1])
	}
	// The newest crawl rebuilds to the returned snapshot, byte for byte.
	at, err := h.At(Taken)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := at.MarshalCanonical()
	want, _ := last.MarshalCanonical()
	if !bytes.Equal(got, want) {
		t.Error("the history's last crawl differs from the returned snapshot")
	}
	// Prices moved, types came and went, and the file round-trips.
	first, err := h.At(crawls[0])
	if err != nil {
		t.Fatal(err)
	}
	d := catalog.Diff(first, last)
	var c catalog.DiffCounts
	for _, p := range d.Providers {
		c.PriceChanges += p.Counts.PriceChanges
		c.InstanceTypesAdded += p.Counts.InstanceTypesAdded
		c.InstanceTypesRemoved += p.Counts.InstanceTypesRemoved
	}
	if c.PriceChanges < 100 || c.InstanceTypesAdded+c.InstanceTypesRemoved == 0 {
		t.Errorf("60 days at 1%% churn changed too little: %+v", c)
	}
	data, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := catalog.DecodeHistory("history.jsonl", data)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := back.Marshal(); !bytes.Equal(again, data) {
		t.Error("the history does not round-trip")
	}
	if _, _, err := History(HistoryOptions{Offers: 10, Days: 0}); err == nil {
		t.Error("a history of 0 days was made")
	}
}

// TestHistory_StepsAgreeWithAt checks catalog.History.Steps on a long made-up
// history, where types appear and retire and prices move every day: each step's
// diff is the diff of the whole snapshots of its two crawls.
func TestHistory_StepsAgreeWithAt(t *testing.T) {
	h, _, err := History(HistoryOptions{Offers: 1500, Days: 40, Seed: 5, Churn: 0.02})
	if err != nil {
		t.Fatal(err)
	}
	crawls := h.Crawls()
	var prev *catalog.Snapshot
	changed := 0
	err = h.Steps(crawls[len(crawls)-1], func(st catalog.HistoryStep) error {
		cur, err := h.At(crawls[st.Index])
		if err != nil {
			return err
		}
		if prev != nil {
			got, _ := catalog.Diff(st.Before, st.After).JSON()
			want, _ := catalog.Diff(prev, cur).JSON()
			if !bytes.Equal(got, want) {
				t.Fatalf("crawl %d: the step's diff differs from the whole snapshots' diff", st.Index)
			}
			if len(st.After.Offers) > len(cur.Offers)/4 {
				t.Errorf("crawl %d: the step holds %d of %d offers; it should hold only what changed", st.Index, len(st.After.Offers), len(cur.Offers))
			}
			if len(st.After.Instances)+len(st.Before.Instances) > 0 {
				changed++
			}
		}
		prev = cur
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if changed == 0 {
		t.Error("no instance type appeared or retired in 40 days; the test does not cover them")
	}
}
