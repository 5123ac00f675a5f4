package main

import (
	"fmt"
	"strings"
	"time"
)

// bucket is one token bucket a crawl's requests pass through, with the number
// of requests that passed it.
type bucket struct {
	name      string // "all calls", or the actions of a per-API limit
	requests  int
	perSecond float64 // <= 0: no limit
	burst     int
}

// bound is the shortest wall time a crawl can take, and the term that sets it.
type bound struct {
	wall time.Duration
	by   string
}

// lowerBound is the shortest wall time of a crawl of n requests, each answered
// latency after it is sent, through the given buckets with at most inFlight
// requests in flight at once. Two things hold it up:
//
//   - a bucket: its burst of requests can leave at once, each further one a
//     1/rate later, so the last of its requests leaves (requests − burst)/rate
//     after the start and is answered a latency after that;
//   - the in-flight cap: n requests held for latency each, at most inFlight at
//     a time, take n × latency / inFlight.
//
// The bound is the larger of all these terms; the crawl's own order (a region's
// prices need its instance types first) can only add to it.
func lowerBound(buckets []bucket, n int, latency time.Duration, inFlight int) bound {
	inFlight = max(inFlight, 1)
	b := bound{wall: latency * time.Duration(n) / time.Duration(inFlight), by: fmt.Sprintf("%d in flight × %s latency", inFlight, latency)}
	if n == 0 {
		return bound{by: "no requests"}
	}
	for _, k := range buckets {
		if k.perSecond <= 0 || k.requests == 0 {
			continue
		}
		queued := max(k.requests-max(k.burst, 1), 0)
		wall := time.Duration(float64(queued)/k.perSecond*float64(time.Second)) + latency
		if wall > b.wall {
			b = bound{wall: wall, by: k.name}
		}
	}
	return b
}

// describe says what a bucket is, for a row's note: "all calls 20/s burst 10: 512".
func (k bucket) describe() string {
	if k.perSecond <= 0 {
		return fmt.Sprintf("%s unlimited: %d", k.name, k.requests)
	}
	return fmt.Sprintf("%s %s/s burst %d: %d", k.name, trimFloat(k.perSecond), k.burst, k.requests)
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.2f", f)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
