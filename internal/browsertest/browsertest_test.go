package browsertest

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestMain closes the browser the tests share.
func TestMain(m *testing.M) {
	code := m.Run()
	Shutdown()
	os.Exit(code)
}

// stopT records how a test would have stopped instead of stopping.
type stopT struct {
	testing.TB
	fatal, skip bool
}

func (s *stopT) Helper()               {}
func (s *stopT) Fatalf(string, ...any) { s.fatal = true }
func (s *stopT) Skipf(string, ...any)  { s.skip = true }

// Without a browser the tests skip, except in CI, where they fail.
func TestRequireChromium_SkipsOutsideCIFailsInCI(t *testing.T) {
	t.Setenv("GPUATLAS_CHROMIUM", filepath.Join(t.TempDir(), "no-such-browser"))
	for _, tt := range []struct {
		ci          string
		fatal, skip bool
	}{{"", false, true}, {"true", true, false}} {
		t.Setenv("CI", tt.ci)
		st := &stopT{TB: t}
		if got := requireChromium(st); got != "" || st.fatal != tt.fatal || st.skip != tt.skip {
			t.Errorf("CI=%q: path %q, fatal %v, skip %v; want fatal %v, skip %v", tt.ci, got, st.fatal, st.skip, tt.fatal, tt.skip)
		}
	}
}

func TestJSString(t *testing.T) {
	if got, want := JSString(`it's a \ path`), `'it\'s a \\ path'`; got != want {
		t.Errorf("JSString = %s, want %s", got, want)
	}
}

const testPage = `<!doctype html><html><body>
<select id="s"><option>a</option><option>b</option></select>
<div id="d"><input type="checkbox" value="x"></div>
<p id="out"></p>
<script>
document.getElementById('s').addEventListener('change', e => { document.getElementById('out').textContent = 'select ' + e.target.value; });
document.getElementById('d').addEventListener('change', e => { document.getElementById('out').textContent = 'tick ' + e.target.checked; });
</script>
<footer>end</footer></body></html>`

// The harness drives a served page: controls, evaluation, waiting, uncaught
// exceptions and screenshots.
func TestStart_DrivesAServedPage(t *testing.T) {
	base := Serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(testPage))
	}))
	t.Setenv("GPUATLAS_ARTIFACTS", t.TempDir())
	ctx := Start(t)
	exceptions := CollectExceptions(ctx)
	Do(t, ctx, "open", chromedp.Navigate(base+"/"), chromedp.WaitReady(chromedp.CSS("footer")))
	SetControl(t, ctx, "s", "b")
	WaitFor(t, ctx, `document.getElementById('out').textContent === 'select b'`)
	Tick(t, ctx, "d", "x", true)
	if got := Eval[string](t, ctx, `document.getElementById('out').textContent`); got != "tick true" {
		t.Errorf("after ticking: %q", got)
	}
	if got := EvalAsync[int](t, ctx, `Promise.resolve(7)`); got != 7 {
		t.Errorf("awaited promise = %d", got)
	}
	Do(t, ctx, "throw", chromedp.Evaluate[chromedp.Void](`setTimeout(() => { throw new Error('boom'); }, 0)`))
	// The event comes on its own: give it a few seconds.
	for deadline := time.Now().Add(5 * time.Second); len(exceptions.List()) == 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if got := exceptions.List(); len(got) != 1 || !strings.Contains(got[0], "boom") {
		t.Errorf("exceptions = %q, want the one thrown", got)
	}
	// A screenshot is saved where GPUATLAS_ARTIFACTS says, and not at all
	// without it.
	t.Setenv("GPUATLAS_ARTIFACTS", "")
	Screenshot(t, ctx, "none.png")
	dir := t.TempDir()
	t.Setenv("GPUATLAS_ARTIFACTS", dir)
	Screenshot(t, ctx, "page.png")
	if fi, err := os.Stat(filepath.Join(dir, "page.png")); err != nil || fi.Size() < 1000 {
		t.Errorf("page.png: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.png")); err == nil {
		t.Error("none.png was saved without GPUATLAS_ARTIFACTS")
	}
}

// A script or style a page's Content-Security-Policy blocks is recorded as an
// exception: the site's tests fail on it.
func TestCollectExceptions_PolicyViolations(t *testing.T) {
	base := Serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'")
		_, _ = w.Write([]byte(`<!doctype html><html><body><p style="color:red">styled</p><script>document.title = 'ran';</script><footer>end</footer></body></html>`))
	}))
	ctx := Start(t)
	exceptions := CollectExceptions(ctx)
	Do(t, ctx, "open", chromedp.Navigate(base+"/"), chromedp.WaitReady(chromedp.CSS("footer")))
	for deadline := time.Now().Add(5 * time.Second); len(exceptions.List()) < 2 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	got := strings.Join(exceptions.List(), "\n")
	for _, want := range []string{"Content-Security-Policy violation: script-src", "Content-Security-Policy violation: style-src"} {
		if !strings.Contains(got, want) {
			t.Errorf("exceptions lack %q:\n%s", want, got)
		}
	}
}

// Tabs share one browser, and nothing else: a tab opened later sees none of an
// earlier tab's storage for the same site, and each has its own screen size.
func TestStart_TabsShareOneBrowserNotTheirStorage(t *testing.T) {
	base := Serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><html><head><meta name="viewport" content="width=device-width"></head><body><footer>end</footer></body></html>`))
	}))
	first := Start(t)
	Do(t, first, "open", chromedp.Navigate(base+"/"), chromedp.WaitReady(chromedp.CSS("footer")))
	Do(t, first, "store", chromedp.Evaluate[chromedp.Void](`localStorage.setItem('k', 'v'); document.cookie = 'c=1'`))
	phone := StartSized(t, Phone)
	second := Start(t)
	if a, b, c := chromedp.FromContext(first).Browser, chromedp.FromContext(phone).Browser, chromedp.FromContext(second).Browser; a == nil || a != b || a != c {
		t.Errorf("the tabs run in different browsers: %p, %p, %p", a, b, c)
	}
	for name, ctx := range map[string]context.Context{"phone": phone, "second": second} {
		Do(t, ctx, "open", chromedp.Navigate(base+"/"), chromedp.WaitReady(chromedp.CSS("footer")))
		if got := Eval[string](t, ctx, `(localStorage.getItem('k') || '') + document.cookie`); got != "" {
			t.Errorf("%s tab sees the first tab's storage and cookies: %q", name, got)
		}
	}
	if got := Eval[int](t, first, `innerWidth`); got != Desktop.Width {
		t.Errorf("desktop tab: innerWidth %d, want %d", got, Desktop.Width)
	}
	if got := Eval[int](t, phone, `innerWidth`); got != Phone.Width {
		t.Errorf("phone tab: innerWidth %d, want %d", got, Phone.Width)
	}
}
