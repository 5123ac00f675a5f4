package catalog

import (
	"runtime"
	"sync"
)

// Snapshots and histories are lists of records that are each encoded, decoded
// and checked on their own; the work on 100,000 of them is split into one
// contiguous chunk per processor, so that results land in order without locks.

// minChunk is the least number of records worth a goroutine of their own.
const minChunk = 512

// chunks splits n records into contiguous ranges, one per processor
// (GOMAXPROCS) at most: bounds[k] to bounds[k+1] is chunk k.
func chunks(n int) (bounds []int) {
	k := max(1, min(runtime.GOMAXPROCS(0), n/minChunk))
	bounds = make([]int, k+1)
	for i := range bounds {
		bounds[i] = n * i / k
	}
	return bounds
}

// inParallel runs work(0) ... work(k-1) concurrently and waits for them.
func inParallel(k int, work func(chunk int)) {
	if k == 1 {
		work(0)
		return
	}
	var wg sync.WaitGroup
	for c := range k {
		wg.Go(func() { work(c) })
	}
	wg.Wait()
}
