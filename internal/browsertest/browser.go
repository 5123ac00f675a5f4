// Package browsertest drives headless Chromium for the tests of the built site:
// it starts one browser per test binary and opens a tab per test (skipped outside
// CI when none is installed, a failure in CI; skipped with -short), serves a site folder, and holds the page steps those tests share: run and
// evaluate, wait, set controls, record uncaught script exceptions, and save
// screenshots at desktop and phone sizes under $GPUATLAS_ARTIFACTS.
package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gpuatlas/gpuatlas/internal/testlane"
)

// Size is a screen a page is opened on.
type Size struct {
	Name          string
	Width, Height int
	// Phone: the screen is emulated as a phone's (portrait, touch, scale 2),
	// since a window cannot be narrower than 500 pixels.
	Phone bool
}

var (
	// Desktop is the window of a desktop screen.
	Desktop = Size{Name: "desktop", Width: 1400, Height: 900}
	// Phone is a 390-pixel phone screen.
	Phone = Size{Name: "phone", Width: 390, Height: 844, Phone: true}
)

// timeout bounds each tab's whole life in a test; a tab that opens many pages
// (Shots) gets shotTimeout more for each.
const (
	timeout     = 90 * time.Second
	shotTimeout = 30 * time.Second
)

// ChromiumPath is the browser the tests drive: $GPUATLAS_CHROMIUM when set, else
// Debian's chromium from PATH.
func ChromiumPath() (string, error) {
	if p := os.Getenv("GPUATLAS_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("GPUATLAS_CHROMIUM: %w", err)
		}
		return p, nil
	}
	return exec.LookPath("chromium")
}

// requireChromium returns the browser's path. Without one it skips the test,
// except in CI (CI set), where a missing browser is a failure; either way it
// returns "" after stopping t.
func requireChromium(t testing.TB) string {
	t.Helper()
	path, err := ChromiumPath()
	if err == nil {
		return path
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("chromium is not installed (CI must install Debian's chromium package, or set GPUATLAS_CHROMIUM): %v", err)
	} else {
		t.Skipf("chromium is not installed (set GPUATLAS_CHROMIUM to a browser binary): %v", err)
	}
	return ""
}

// Start opens a tab with a desktop window in the package's browser and returns
// its context; the tab closes when the test ends.
func Start(t testing.TB) context.Context {
	t.Helper()
	return StartSized(t, Desktop)
}

// StartSized opens a tab on a screen of the given size (emulating a phone when
// size.Phone) in the package's browser and returns its context. The browser is
// one Chromium process per test binary, started headless by the first test
// that asks and closed by Shutdown; each tab has a browser context of its own
// (as a fresh profile: no cookies, storage or cache from another test) and is
// closed when the test ends, after at most timeout. In -short mode the test
// is skipped.
func StartSized(t testing.TB, size Size) context.Context {
	t.Helper()
	return startSized(t, size, timeout)
}

// startSized is StartSized with the tab's life bounded by life.
func startSized(t testing.TB, size Size, life time.Duration) context.Context {
	t.Helper()
	testlane.Long(t, "drives Chromium")
	path := requireChromium(t)
	browser, err := sharedBrowser(path)
	if err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	ctx, cancelTimeout := context.WithTimeout(browser, life)
	t.Cleanup(cancelTimeout)
	ctx, cancel := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	testlane.Count("browser-tab", t.Name())
	switch {
	case size.Phone:
		Do(t, ctx, "emulate a phone", chromedp.EmulateViewport(int64(size.Width), int64(size.Height),
			chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
	case size != Desktop:
		Do(t, ctx, "size the window", chromedp.EmulateViewport(int64(size.Width), int64(size.Height)))
	default:
		// A new tab opens with the browser's window size, Desktop's.
		Do(t, ctx, "open a tab")
	}
	return ctx
}

// browser is the package's Chromium: started once, reused by every tab.
var browser struct {
	mu      sync.Mutex
	ctx     context.Context // the browser's first tab; its children are new tabs
	cancel  func()
	profile string // the browser's user data folder
}

// sharedBrowser returns the context of the package's browser, starting it (or
// starting it again, if it died) on first use.
func sharedBrowser(path string) (context.Context, error) {
	browser.mu.Lock()
	defer browser.mu.Unlock()
	if browser.ctx != nil && browser.ctx.Err() == nil {
		return browser.ctx, nil
	}
	shutdownLocked()
	profile, err := os.MkdirTemp("", "gpuatlas-chromium-")
	if err != nil {
		return nil, err
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(Desktop.Width, Desktop.Height),
		chromedp.UserDataDir(profile),
	)
	ctx, cancel := chromedp.NewContext(alloc)
	browser.ctx, browser.profile = ctx, profile
	browser.cancel = func() { cancel(); cancelAlloc() }
	// The first Run starts the browser, with no deadline: it lives until
	// Shutdown (a tab's deadline is its own).
	if err := chromedp.Do(ctx); err != nil {
		shutdownLocked()
		return nil, err
	}
	testlane.Count("chromium-start", "")
	return ctx, nil
}

// Shutdown closes the package's browser, if one was started, and removes its
// profile. A package whose tests use the browser calls it from TestMain after
// m.Run; without that, the kernel ends the browser with the test binary
// (chromedp starts it with a parent-death signal) but its profile folder stays.
func Shutdown() {
	browser.mu.Lock()
	defer browser.mu.Unlock()
	shutdownLocked()
}

func shutdownLocked() {
	if browser.cancel != nil {
		browser.cancel()
	}
	if browser.profile != "" {
		_ = os.RemoveAll(browser.profile) // a temporary folder: a leftover harms no test
	}
	browser.ctx, browser.cancel, browser.profile = nil, nil, ""
}

// Serve serves h on a local address until the test ends and returns its URL.
func Serve(t testing.TB, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}
