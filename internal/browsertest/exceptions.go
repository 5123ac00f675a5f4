package browsertest

import (
	"context"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Exceptions records a tab's uncaught script exceptions, and its
// Content-Security-Policy violations as exceptions of their own.
type Exceptions struct {
	mu  sync.Mutex
	got []string
}

// cspReporter turns each Content-Security-Policy violation of a page into an
// uncaught exception: a script, style or image the policy blocked is a
// failure of the page, even when nothing else shows it.
const cspReporter = `document.addEventListener('securitypolicyviolation', (e) => setTimeout(() => {
	throw new Error('Content-Security-Policy violation: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'an inline ' + e.effectiveDirective) + ' at ' + e.sourceFile + ':' + e.lineNumber);
}));`

// CollectExceptions records the tab's uncaught script exceptions and policy
// violations from now on (violations from the next page it opens).
func CollectExceptions(ctx context.Context) *Exceptions {
	e := &Exceptions{}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspReporter}); err != nil {
		e.got = append(e.got, "cannot watch for Content-Security-Policy violations: "+err.Error())
	}
	events := chromedp.Events(ctx, runtime.ExceptionThrown)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			text := "exception"
			if d := ev.ExceptionDetails; d != nil {
				text = d.Text
				if d.Exception != nil {
					text += " " + d.Exception.Description
				}
			}
			e.mu.Lock()
			e.got = append(e.got, text)
			e.mu.Unlock()
		}
	}()
	return e
}

// List returns the exceptions recorded so far.
func (e *Exceptions) List() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.got...)
}

// Check fails the test with each exception recorded so far.
func (e *Exceptions) Check(t testing.TB) {
	t.Helper()
	for _, x := range e.List() {
		t.Errorf("uncaught script exception: %s", x)
	}
}
