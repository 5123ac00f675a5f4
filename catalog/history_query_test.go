package catalog

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

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
			if diff := cmp.Diff(tt.want, got, decimalEqual); diff != "" {
				t.Errorf("PriceSeries (-want +got):\n%s", diff)
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
