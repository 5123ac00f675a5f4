package synth

import (
	"sync"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The benchmarks below measure the catalog's hot paths at the scale the issue
// names (100,000 offers); `make bench` reports the same figures from the CLI.
// Profile one with: go test -run '^$' -bench Diff100k -cpuprofile cpu.out ./internal/synth

const largeOffers = 100_000

var large struct {
	once      sync.Once
	old, new  *catalog.Snapshot
	hist      *catalog.History
	newJSON   []byte
	histBytes []byte
}

// largeFixture is a 30-day history of a 100,000-offer catalog; old is its first
// crawl and new its last (about 6,000 price changes apart).
func largeFixture(b *testing.B) {
	large.once.Do(func() {
		h, last, err := History(HistoryOptions{Offers: largeOffers, Days: 30, Seed: 1})
		if err != nil {
			panic(err)
		}
		first, err := h.At(h.Crawls()[0])
		if err != nil {
			panic(err)
		}
		large.old, large.new, large.hist = first, last, h
		if large.newJSON, err = last.MarshalCanonical(); err != nil {
			panic(err)
		}
		if large.histBytes, err = h.Marshal(); err != nil {
			panic(err)
		}
	})
	b.ResetTimer()
}

func BenchmarkSnapshotDecode100k(b *testing.B) {
	largeFixture(b)
	b.SetBytes(int64(len(large.newJSON)))
	for b.Loop() {
		if _, err := catalog.DecodeSnapshot("catalog.json", large.newJSON); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSnapshotMarshal100k(b *testing.B) {
	largeFixture(b)
	b.SetBytes(int64(len(large.newJSON)))
	for b.Loop() {
		if _, err := large.new.MarshalCanonical(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate100k(b *testing.B) {
	largeFixture(b)
	for b.Loop() {
		if err := large.new.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDiff100k(b *testing.B) {
	largeFixture(b)
	var r catalog.DiffReport
	for b.Loop() {
		r = catalog.Diff(large.old, large.new)
	}
	if r.Empty() {
		b.Fatal("no changes between the first and last crawl")
	}
}

func BenchmarkHistoryDecode100k(b *testing.B) {
	largeFixture(b)
	b.SetBytes(int64(len(large.histBytes)))
	for b.Loop() {
		if _, err := catalog.DecodeHistory("history.jsonl", large.histBytes); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHistoryAppend100k is the nightly job's history step: one more crawl of
// a 100,000-offer catalog appended to a 30-day history read from its file.
func BenchmarkHistoryAppend100k(b *testing.B) {
	largeFixture(b)
	next := *large.new
	next.TakenAt = next.TakenAt.AddDate(0, 0, 1)
	next.Offers = append([]catalog.Offer(nil), large.new.Offers...)
	for i := range next.Offers {
		next.Offers[i].FetchedAt = next.Offers[i].FetchedAt.AddDate(0, 0, 1)
	}
	for b.Loop() {
		b.StopTimer()
		h, err := catalog.DecodeHistory("history.jsonl", large.histBytes)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := h.Append(&next); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHistoryDays_100k is the generator's own cost per day: appending the
// next daily crawl to a history held in memory.
func BenchmarkHistoryDays100k(b *testing.B) {
	for b.Loop() {
		if _, _, err := History(HistoryOptions{Offers: largeOffers, Days: 10, Seed: 2}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHistoryMarshal100k(b *testing.B) {
	largeFixture(b)
	b.SetBytes(int64(len(large.histBytes)))
	for b.Loop() {
		if _, err := large.hist.Marshal(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHistoryAppendNextDay100k is one day of the generator: appending the
// next daily crawl (a few hundred prices changed) to a history held in memory,
// which appended the crawl before.
func BenchmarkHistoryAppendNextDay100k(b *testing.B) {
	largeFixture(b)
	h, err := catalog.DecodeHistory("history.jsonl", large.histBytes)
	if err != nil {
		b.Fatal(err)
	}
	next := *large.new
	next.Offers = append([]catalog.Offer(nil), large.new.Offers...)
	day := func() {
		next.TakenAt = next.TakenAt.AddDate(0, 0, 1)
		for i := range next.Offers {
			next.Offers[i].FetchedAt = next.Offers[i].FetchedAt.AddDate(0, 0, 1)
		}
		for i := 0; i < len(next.Offers); i += 500 {
			next.Offers[i].Price.Amount = next.Offers[i].Price.Amount.Add(catalog.Dec("0.01"))
		}
	}
	day()
	if _, err := h.Append(&next); err != nil { // compares with the records, once
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		day()
		b.StartTimer()
		if _, err := h.Append(&next); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHistoryAt100k(b *testing.B) {
	largeFixture(b)
	at := large.hist.Crawls()[len(large.hist.Crawls())-1]
	for b.Loop() {
		if _, err := large.hist.At(at); err != nil {
			b.Fatal(err)
		}
	}
}
