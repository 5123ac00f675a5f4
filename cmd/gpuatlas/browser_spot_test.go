package main

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gpuatlas/gpuatlas/internal/browsertest"
)

// TestBrowser_ExplorerInterruptionFilter: in the offers view, interruption<=10%
// keeps exactly the spot offers whose advisor band is <5% or 5-10%, and the
// interruption column shows each one's band.
func TestBrowser_ExplorerInterruptionFilter(t *testing.T) {
	t.Parallel()
	dir, snap, _, _ := embeddedSite(t)
	site, ctx, exceptions := browse(t, dir)
	expr := "billing:spot gpus>=8 interruption<=10%"
	// billing=all: the offers view shows on-demand offers alone until asked.
	browsertest.Do(t, ctx, "open the explorer", chromedp.Navigate(site+"/offers.html?view=offers&billing=all"), chromedp.WaitReady(chromedp.CSS(ready)))
	browsertest.SetControl(t, ctx, "filter-x", expr)
	browsertest.WaitFor(t, ctx, `new URLSearchParams(location.search).get('x') === `+browsertest.JSString(expr))
	var want []string
	for i := range snap.Offers {
		o := &snap.Offers[i]
		if o.Interruption == nil || o.Interruption.Band.Index() > 1 || !o.Plausible() || o.Synthetic {
			continue
		}
		for _, it := range snap.Instances {
			if it.Key() == o.InstanceKey() && it.GPUUnits().IntPart() >= 8 {
				want = append(want, o.Key())
			}
		}
	}
	sort.Strings(want)
	if len(want) == 0 {
		t.Fatal("the embedded catalog has no 8-GPU spot offer with a band of at most 10%")
	}
	got := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#offers-body tr')].map(r => r.dataset.key + ' ' + r.querySelector('td.c-interruption').textContent)`)
	if len(got) == 0 {
		t.Fatalf("no rows for %q", expr)
	}
	for _, g := range got {
		key, band, _ := strings.Cut(g, " ")
		ok := false
		for _, w := range want {
			if w == key {
				ok = true
			}
		}
		if !ok || (band != "<5%" && band != "5-10%") {
			t.Errorf("row %q: not an offer with a band of at most 10%%", g)
		}
	}
	if shown := browsertest.Eval[string](t, ctx, `document.getElementById('row-count').dataset.shown`); shown != fmt.Sprint(len(want)) {
		t.Errorf("%s offers shown, the catalog has %d (%v)", shown, len(want), want)
	}
	browsertest.Screenshot(t, ctx, "explorer-interruption.png")
	exceptions.Check(t)
}
