// Package browsertest drives headless Chromium for the tests of the built site:
// it starts the browser (skipped outside CI when none is installed, a failure in
// CI), serves a site folder, and holds the page steps those tests share: run and
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
	"testing"
	"time"

	"github.com/chromedp/chromedp"
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

// timeout bounds each browser's whole life in a test.
const timeout = 90 * time.Second

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

// Start starts Chromium headless with a desktop window and returns the context
// of its tab; the browser closes when the test ends.
func Start(t testing.TB) context.Context {
	t.Helper()
	return StartSized(t, Desktop)
}

// StartSized starts Chromium headless on a screen of the given size (emulating a
// phone when size.Phone) and returns the context of its tab.
func StartSized(t testing.TB, size Size) context.Context {
	t.Helper()
	path := requireChromium(t)
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
		chromedp.WindowSize(size.Width, size.Height),
		chromedp.UserDataDir(t.TempDir()),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancelTimeout := context.WithTimeout(alloc, timeout)
	t.Cleanup(cancelTimeout)
	ctx, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	if size.Phone {
		Do(t, ctx, "emulate a phone", chromedp.EmulateViewport(int64(size.Width), int64(size.Height),
			chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
	}
	return ctx
}

// Serve serves h on a local address until the test ends and returns its URL.
func Serve(t testing.TB, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}
