package main

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gpuatlas/gpuatlas/internal/browsertest"
)

// TestBrowser_CompareHeadings: the compare page's columns are headed for a
// person (the type, the region and the billing kind, in the page's language),
// never by offer keys.
func TestBrowser_CompareHeadings(t *testing.T) {
	t.Parallel()
	site, ctx, exceptions := browse(t, buildTestSite(t))
	keys := []string{"aws/p5.48xlarge/us-east-1/us-east-1a/spot", "aws/p5.48xlarge/us-west-2//on_demand"}
	q := url.Values{"o": keys}.Encode()
	for _, c := range []struct{ prefix, want0, want1 string }{
		{"", "p5.48xlarge · US East (N. Virginia) (us-east-1a) · Spot", "p5.48xlarge · US West (Oregon) · On-demand"},
		{"/zh", "p5.48xlarge · 美国东部（弗吉尼亚北部） (us-east-1a) · 竞价实例", "p5.48xlarge · 美国西部（俄勒冈） · 按量付费"},
	} {
		browsertest.Do(t, ctx, "open compare", chromedp.Navigate(site+c.prefix+"/compare.html?"+q), chromedp.WaitReady(chromedp.CSS(`#compare[data-ready]`)))
		heads := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#compare-table thead th[data-key]')].map(th => th.firstChild.textContent + th.childNodes[1].textContent)`)
		if len(heads) != 2 || heads[0] != c.want0 || heads[1] != c.want1 {
			t.Errorf("%s: headings %q, want %q and %q", c.prefix, heads, c.want0, c.want1)
		}
		text := browsertest.Eval[string](t, ctx, `document.querySelector('#compare-table thead').textContent`)
		for _, k := range keys {
			if strings.Contains(text, k) {
				t.Errorf("%s: a heading shows the offer key %s", c.prefix, k)
			}
		}
	}
	exceptions.Check(t)
}
