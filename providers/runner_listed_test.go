package providers

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Listed tells how many regions a provider will crawl (after OnlyRegions),
// once and before that provider's first Progress: the crawl's progress bar
// reads it as its total.
func TestCrawl_ListedBeforeProgress(t *testing.T) {
	fp := &fakeProvider{
		regions: []string{"ap-c", "ap-a", "ap-b", "ap-x"},
		data:    map[string]*RegionData{"ap-a": {}, "ap-b": {}},
		fail:    map[string]error{"ap-c": errors.New("boom")},
	}
	var mu sync.Mutex
	var told []string
	_, err := Crawl(context.Background(), []Target{{Factory: Factory{ID: catalog.Tencent, Concurrency: 2}, Provider: fp, Stats: &Stats{}}}, Options{
		OnlyRegions: []string{"ap-a", "ap-b", "ap-c"},
		Listed: func(p catalog.Provider, n int) {
			mu.Lock()
			defer mu.Unlock()
			told = append(told, fmt.Sprintf("listed %s %d", p, n))
		},
		Progress: func(_ catalog.Provider, region string, err error) {
			mu.Lock()
			defer mu.Unlock()
			told = append(told, fmt.Sprintf("%s %v", region, err == nil))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(told) != 4 || told[0] != "listed tencent 3" {
		t.Fatalf("told %q, want the listing (3 regions) first, then 3 regions", told)
	}
	if told[3] != "ap-c false" {
		t.Errorf("told %q, want the failed region last, after the sweep", told)
	}
}
