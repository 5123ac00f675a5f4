package main

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/browsertest"
)

// payload runs script if any page inserts it as markup: the flag it sets is what
// the test looks for.
const payload = `"><img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>`

// Provider strings pass through the explorer's and the compare page's scripts as
// text: hostile names render literally and run nothing.
func TestBrowser_HostileProviderStringsRunNothing(t *testing.T) {
	t.Parallel()
	snap := testSnapshot(t)
	// Poison the strings the scripts render: the GPU name, the zone, the region
	// name, what the price includes and the suspect reason of the first type.
	target := snap.Instances[0].Key()
	for i := range snap.Instances {
		if snap.Instances[i].Key() == target {
			snap.Instances[i].Accelerators[0].Name = "GPU" + payload
			snap.Instances[i].Accelerators[0].Model = ""
			snap.Instances[i].Family = "fam" + payload
		}
	}
	var key string
	for i := range snap.Offers {
		if snap.Offers[i].InstanceKey() == target {
			snap.Offers[i].Includes = "disk" + payload
			snap.Offers[i].Suspect = "odd" + payload
			if key == "" {
				key = snap.Offers[i].Key()
			}
		}
	}
	for i := range snap.Regions {
		snap.Regions[i].NameEN = "Region" + payload
	}
	snap.Unmapped = append(snap.Unmapped, catalog.UnmappedAccelerator{Provider: snap.Instances[0].Provider, Name: "GPU" + payload, InstanceTypes: []string{snap.Instances[0].ID}})
	if err := snap.Validate(); err != nil {
		t.Fatal(err)
	}
	site, ctx, exceptions := browse(t, buildSite(t, snap))

	pages := []string{
		"/offers.html?view=offers&billing=&sus=1&part=1&cols=provider,type,family,gpu,region,zone,billing,price,marks",
		"/offers.html?sus=1&part=1&by=region&cols=type,provider,family,gpu,on_demand,spot,region",
		"/offers.html?sus=1&part=1&x=" + url.QueryEscape(`region:"<img" "<script>"`),
		"/compare.html?o=" + key,
	}
	for _, page := range pages {
		browsertest.Do(t, ctx, "open "+page, chromedp.Navigate(site+page), chromedp.WaitReady(chromedp.CSS("footer")))
		// Let the scripts load the data and render.
		browsertest.WaitFor(t, ctx, `document.body.innerText.includes('GPU"><img')`)
		if pwned := browsertest.Eval[bool](t, ctx, `window.__pwned === 1`); pwned {
			t.Errorf("%s: a provider string ran as script", page)
		}
		if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('main img[src="x"], main script:not([src]):not([type="application/json"])').length`); n != 0 {
			t.Errorf("%s: %d elements were created from provider strings", page, n)
		}
		if text := browsertest.Eval[string](t, ctx, `document.body.innerText`); !strings.Contains(text, `<script>window.__pwned=1</script>`) {
			t.Errorf("%s: the hostile name is not shown as text", page)
		}
	}
	exceptions.Check(t)
}
