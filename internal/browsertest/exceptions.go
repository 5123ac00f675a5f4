package browsertest

import (
	"context"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Exceptions records a tab's uncaught script exceptions.
type Exceptions struct {
	mu  sync.Mutex
	got []string
}

// CollectExceptions records the tab's uncaught script exceptions from now on.
func CollectExceptions(ctx context.Context) *Exceptions {
	e := &Exceptions{}
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
