package sitegen

import (
	"fmt"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// A buyer asks what changed last week, not what changed in the night: the
// changes index sums up the last seven days and changes/week.html lists them,
// as one comparison of the newest crawl with the crawl a week before it, so a
// price that moved twice in the week shows its first and last figure once.

// weekPath is the page of the last seven days' changes.
const weekPath = "changes/week.html"

// weekSpan is how far back the week's changes look.
const weekSpan = 7 * 24 * time.Hour

// weekChanges compares the newest crawl with the last crawl at least weekSpan
// before it, or with the oldest when the history is younger than that (Full
// false). times are the crawls oldest first, the site's snapshot last;
// recorded says how many of them the history holds. Nil with a single crawl.
func (c *changesModel) weekChanges(h *catalog.History, times []time.Time, recorded int) (*weekInfo, error) {
	n := len(times)
	if n < 2 {
		return nil, nil
	}
	newest := times[n-1]
	from, full := 0, false
	for i, t := range times[:n-1] {
		if !t.After(newest.Add(-weekSpan)) {
			from, full = i, true
		}
	}
	old, err := h.CrawlAt(times[from])
	if err != nil {
		return nil, fmt.Errorf("changes of the week: %w", err)
	}
	cur := c.m.snap
	if recorded == n {
		// The snapshot is the newest recorded crawl: both sides come from the
		// history, as each crawl's own changes do.
		if cur, err = h.CrawlAt(newest); err != nil {
			return nil, fmt.Errorf("changes of the week: %w", err)
		}
	}
	return &weekInfo{crawlInfo: crawlInfo{At: newest, Slug: "week", Set: c.changeSet(catalog.Diff(old, cur))},
		Crawls: n - 1 - from, Full: full}, nil
}

// weekInfo is the last seven days' changes.
type weekInfo struct {
	crawlInfo
	// Crawls is how many crawls the week holds after the one it starts from.
	Crawls int
	// Full is false when the history begins less than seven days before the
	// newest crawl: the changes are then those since the first crawl.
	Full bool
}

// Path is the week's page relative to the language root.
func (w weekInfo) Path() string { return weekPath }
