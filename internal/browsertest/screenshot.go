package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// ArtifactsDir is where screenshots go: $GPUATLAS_ARTIFACTS (created), so that
// CI keeps them for a person to look at; "" when it is not set, and then no
// screenshot is taken. A picture saved to a test's temporary folder is
// deleted unseen when the test ends, and capturing them was a quarter of
// cmd/gpuatlas's test time (385 s with them, 281 s without, 2026-12-06);
// every page is still opened and checked the same. GPUATLAS_ARTIFACTS=DIR
// make test (as CI runs it) keeps them.
func ArtifactsDir(t testing.TB) string {
	t.Helper()
	d := os.Getenv("GPUATLAS_ARTIFACTS")
	if d == "" {
		return ""
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// shotScreens is how many screens high a page's screenshot goes at most. A
// whole-page shot of a long page costs tens of seconds (the Chinese TCO page is
// 38,000 pixels high on a phone: 52 s and 8.8 MB on the shared 2-core machine),
// and a person reads a screenshot's top; the checks that need the whole page
// (no sideways scroll, no overlaps) measure the DOM, not the picture.
const shotScreens = 3

// Screenshot saves the page's top, at most shotScreens screens of it, as a PNG
// named name in ArtifactsDir; nothing without one.
func Screenshot(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	saveShot(t, ctx, name, topScreenshot)
}

// topScreenshot captures the page from its top, as wide as its layout and as
// high as the page or shotScreens screens, whichever is less. The PNG is
// encoded for speed, not size (OptimizeForSpeed): the encoding was most of a
// capture's time, and a bigger file in the CI artifacts costs nothing.
func topScreenshot(ctx context.Context, tgt *chromedp.Target) ([]byte, error) {
	type extent struct{ W, H, Screen float64 }
	box, err := chromedp.Evaluate[extent](`({W: document.documentElement.scrollWidth, H: document.documentElement.scrollHeight, Screen: window.innerHeight})`)(ctx, tgt)
	if err != nil {
		return nil, err
	}
	yes := true
	r, err := cdp.Call(ctx, tgt, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Format:                page.CaptureScreenshotFormatPng,
		CaptureBeyondViewport: &yes,
		FromSurface:           &yes,
		OptimizeForSpeed:      &yes,
		Clip:                  &page.Viewport{Width: box.W, Height: min(box.H, shotScreens*box.Screen), Scale: 1},
	})
	if err != nil {
		return nil, err
	}
	return r.Data, nil
}

// ElementShot saves the element that sel selects as a PNG named name.
func ElementShot(t testing.TB, ctx context.Context, sel, name string) {
	t.Helper()
	saveShot(t, ctx, name, chromedp.Screenshot(chromedp.CSS(sel)))
}

func saveShot(t testing.TB, ctx context.Context, name string, shot chromedp.Action[[]byte]) {
	t.Helper()
	dir := ArtifactsDir(t)
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, shot)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// Page is a page of a site to screenshot.
type Page struct {
	Name string // the screenshot is SIZE-NAME.png
	Path string // from the site's root, with a query or fragment if wanted
	Wait string // CSS selector of what shows the page is ready; "footer" when empty
}

// Shots are the screenshots a test saves of a site's pages.
type Shots struct {
	Pages []Page
	// Check, when set, runs on each page once it is ready, before its screenshot.
	Check func(t *testing.T, ctx context.Context, p Page)
	// NoExceptions fails a size whose pages threw uncaught script exceptions.
	NoExceptions bool
}

// Save opens each page of the site at base on a desktop and on a phone, in a
// subtest per size (shots/desktop, shots/phone; the two run at once,
// in tabs of their own), and saves its screenshot (Screenshot: where they are
// kept); on the phone it fails a page
// wider than the screen (tables scroll inside their box). It returns when both
// are done.
func (s Shots) Save(t *testing.T, base string) {
	// The group's Run returns once its parallel subtests have finished.
	t.Run("shots", func(t *testing.T) { s.save(t, base) })
}

func (s Shots) save(t *testing.T, base string) {
	for _, size := range []Size{Desktop, Phone} {
		t.Run(size.Name, func(t *testing.T) {
			t.Parallel()
			// A full-page shot of a long page on a phone's doubled pixels takes
			// seconds on a busy machine: the tab's life grows with its pages.
			ctx := startSized(t, size, timeout+time.Duration(len(s.Pages))*shotTimeout)
			var exceptions *Exceptions
			if s.NoExceptions {
				exceptions = CollectExceptions(ctx)
			}
			for _, p := range s.Pages {
				wait := p.Wait
				if wait == "" {
					wait = "footer"
				}
				Do(t, ctx, "open "+p.Path, chromedp.Navigate(base+p.Path), chromedp.WaitReady(chromedp.CSS(wait)))
				if size.Phone {
					if w := Eval[int](t, ctx, `document.documentElement.scrollWidth`); w > size.Width {
						t.Errorf("%s is %d pixels wide on a %d-pixel screen", p.Path, w, size.Width)
					}
				}
				if s.Check != nil {
					s.Check(t, ctx, p)
				}
				Screenshot(t, ctx, size.Name+"-"+p.Name+".png")
			}
			if exceptions != nil {
				exceptions.Check(t)
			}
		})
	}
}
