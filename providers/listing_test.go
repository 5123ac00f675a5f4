package providers

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// A Listing is read once, whoever asks first; its regions come sorted, and a
// failed read's error is every later caller's too.
func TestListing_ReadOnce(t *testing.T) {
	reads := 0
	list := func(context.Context) (map[string]int, error) {
		reads++
		return map[string]int{"westus": 2, "eastus": 1}, nil
	}
	var l Listing[int]
	regions, err := l.Regions(context.Background(), list)
	if err != nil || !slices.Equal(regions, []string{"eastus", "westus"}) {
		t.Fatalf("Regions = %v, %v", regions, err)
	}
	if m, err := l.Get(context.Background(), list); err != nil || m["westus"] != 2 || reads != 1 {
		t.Errorf("Get = %v, %v after %d reads; want the first read's", m, err, reads)
	}

	failed := errors.New("listing failed")
	var bad Listing[int]
	for range 2 {
		if _, err := bad.Regions(context.Background(), func(context.Context) (map[string]int, error) { reads++; return nil, failed }); !errors.Is(err, failed) {
			t.Errorf("err = %v, want the read's", err)
		}
	}
	if reads != 2 {
		t.Errorf("%d reads, want 2 (one a listing)", reads)
	}
}
