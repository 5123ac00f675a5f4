package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// pollTimeout is how long WaitFor waits; the explorer debounces text inputs.
const pollTimeout = 5 * time.Second

// Do runs actions in the tab and fails the test, naming what, if one fails.
func Do(t testing.TB, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// Eval evaluates a JavaScript expression in the page and returns its value.
func Eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// EvalAsync evaluates an expression that gives a promise, and waits for it.
func EvalAsync[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// WaitFor polls a JavaScript condition until it holds, for up to five seconds.
func WaitFor(t testing.TB, ctx context.Context, cond string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(pollTimeout))); err != nil {
		t.Fatalf("waiting for %s: %v", cond, err)
	}
}

// Follow clicks the link that sel selects, as a person would, and waits until
// the page it opens has loaded: a new document (the clicked page's window, and
// the mark Follow left on it, are gone) whose readyState is complete. Waiting
// for an element both pages have (a footer) can find the old page's before the
// new one replaces it.
func Follow(t testing.TB, ctx context.Context, what, sel string) {
	t.Helper()
	Do(t, ctx, what, chromedp.Evaluate[chromedp.Void](`window.__gpuatlasFollowing = true`), chromedp.Click(sel, chromedp.NodeVisible))
	// Asked again until it holds: while the old document goes, a question
	// can fail (its context is destroyed), which is no answer yet.
	deadline := time.Now().Add(followTimeout)
	for {
		loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!window.__gpuatlasFollowing && document.readyState === 'complete'`))
		if err == nil && loaded {
			return
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			t.Fatalf("%s: the next page did not load in %s (last answer %v, %v)", what, followTimeout, loaded, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// followTimeout bounds Follow's wait for the next page (a busy machine loads a
// page in seconds).
const followTimeout = 20 * time.Second

// SetControl sets the value of the control with the given id as a person would
// and fires its event (change for a select, input otherwise).
func SetControl(t testing.TB, ctx context.Context, id, value string) {
	t.Helper()
	Do(t, ctx, "set "+id, chromedp.Evaluate[chromedp.Void](`(() => {
		const c = document.getElementById(`+JSString(id)+`);
		c.value = `+JSString(value)+`;
		c.dispatchEvent(new Event(c.tagName === 'SELECT' ? 'change' : 'input', {bubbles: true}));
	})()`))
}

// Tick ticks or unticks the checkbox with the given value inside the element
// with the given id (such as a drop-down of checkboxes) as a person would, and
// fires its change event.
func Tick(t testing.TB, ctx context.Context, id, value string, on bool) {
	t.Helper()
	Do(t, ctx, "check "+id+" "+value, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const box = document.querySelector('#%s input[value="%s"]');
		if (!box) throw new Error('no option %s in %s');
		box.checked = %t;
		box.dispatchEvent(new Event('change', {bubbles: true}));
	})()`, id, value, value, id, on)))
}

// JSString quotes s as a JavaScript string literal.
func JSString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// DisableJavaScript opens a blank tab and turns its page scripts off, so that
// the pages opened next read as they do without JavaScript. Evaluate still
// works: it runs through the protocol.
func DisableJavaScript(t testing.TB, ctx context.Context) {
	t.Helper()
	Do(t, ctx, "open tab", chromedp.Navigate("about:blank"))
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatalf("disable JavaScript: %v", err)
	}
}
