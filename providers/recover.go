package providers

import (
	"errors"
	"fmt"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// ErrPanicked is the class of an adapter's panic, recovered by the runner: a
// panic in one adapter (an SDK dereferencing a field a vendor left out) fails
// that provider's crawl, as failed coverage whose message says so, while the
// other providers' crawls go on (issue 32.8).
var ErrPanicked = errors.New("adapter panicked")

// PanicError is a recovered panic of an adapter's code. Its message holds the
// panic's value as an escaped, shortened excerpt with credentials redacted
// (Redact, then catalog.ExcerptN: at most maxPanicText characters quoted as a
// Go string): a panic's text may carry a vendor's answer or a
// signed URL, and it ends up in the coverage report and the job log.
type PanicError struct {
	Provider catalog.Provider
	// Where says what the runner was asking the adapter for ("crawl
	// ap-guangzhou", "list regions").
	Where string
	// Value is the panic's value, redacted and escaped.
	Value string
}

func (e *PanicError) Error() string {
	msg := fmt.Sprintf("%v during %s: %s", ErrPanicked, e.Where, e.Value)
	if e.Provider == "" {
		return msg // Gather's: the coverage it ends in names the provider
	}
	return string(e.Provider) + ": " + msg
}

// Unwrap makes errors.Is(err, ErrPanicked) hold.
func (e *PanicError) Unwrap() error { return ErrPanicked }

// newPanicError makes the error of a recovered panic value.
func newPanicError(p catalog.Provider, where string, value any) *PanicError {
	return &PanicError{Provider: p, Where: where, Value: catalog.ExcerptN(Redact(fmt.Sprint(value)), maxPanicText)}
}

// maxPanicText bounds the panic's text kept in the message: enough for a
// runtime error and the value it names, not a whole answer.
const maxPanicText = 200

// Safely runs fn and turns a panic in it into a *PanicError, so that a
// goroutine the runner or an adapter starts cannot take the process down.
func Safely(p catalog.Provider, where string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = newPanicError(p, where, r)
		}
	}()
	return fn()
}

// panicIn returns the first recovered panic among errs and the regions'
// shortfalls, nil when there is none.
func panicIn(errs []error, data []*RegionData) error {
	for _, err := range errs {
		if errors.Is(err, ErrPanicked) {
			return err
		}
	}
	for _, d := range data {
		if d == nil {
			continue
		}
		for _, s := range d.Missing {
			if errors.Is(s.Err, ErrPanicked) {
				return s.Err
			}
		}
	}
	return nil
}
