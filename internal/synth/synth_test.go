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
