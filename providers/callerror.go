package providers

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// CallError is a failed API call: which provider, what was done, where, and the
// vendor error with its class, so that errors.Is(err, ErrThrottled) and the like
// work while the message stays short and holds no credential ("huawei: list
// flavors in cn-north-4: status 429 APIGW.0308: ... (request id ...)
// (throttled)"). Every adapter makes its errors with CallErrors.Wrap.
type CallError struct {
	Provider catalog.Provider
	Action   string
	Region   string // empty for a call that is not about one region
	Class    error  // one of the Err* sentinels, or nil
	Err      error  // the vendor error
	// Detail is Err shortened to status, code, message and request id, with
	// credentials redacted (see Redact).
	Detail string
	// Hint says what to check when the provider refused the credentials.
	Hint string
}

func (e *CallError) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Provider) + ": " + e.Action)
	if e.Region != "" {
		b.WriteString(" in " + e.Region)
	}
	detail := e.Detail
	if detail == "" && e.Err != nil {
		detail = Redact(e.Err.Error())
	}
	b.WriteString(": " + detail)
	switch {
	case errors.Is(e.Class, ErrAuth) && e.Hint != "":
		b.WriteString(" (" + e.Class.Error() + "; " + e.Hint + ")")
	case e.Class != nil:
		b.WriteString(" (" + e.Class.Error() + ")")
	}
	return b.String()
}

// Unwrap exposes the class and the vendor error to errors.Is and errors.As.
func (e *CallError) Unwrap() []error {
	if e.Class != nil {
		return []error{e.Class, e.Err}
	}
	return []error{e.Err}
}

// Classifier is the one vendor-specific part of an adapter's errors: an SDK
// error's detail shortened to status, code, message and request id ("" keeps
// the error's own text) and its class (one of the Err* sentinels, nil when none
// fits). Each adapter's errors.go holds one, with its table of codes.
type Classifier func(err error) (detail string, class error)

// CallErrors makes an adapter's CallErrors: it knows the provider, how to
// classify the vendor's errors, what to tell a user whose credentials were
// refused, and the credential values that must never appear in a message.
type CallErrors struct {
	Provider catalog.Provider
	Classify Classifier
	// Hint says what to check when the provider refuses the credentials
	// ("check ALIBABA_CLOUD_ACCESS_KEY_ID / ...").
	Hint string
	// Secrets are the credential values the adapter was given.
	Secrets []string
}

// Wrap returns err as a *CallError saying what failed where (nil for nil). An
// error that already is a CallError is returned as it is, so that a call site
// may wrap what a helper wrapped before.
func (c CallErrors) Wrap(err error, action, region string) error {
	if err == nil {
		return nil
	}
	var ce *CallError
	if errors.As(err, &ce) {
		return err
	}
	detail, class := c.classify(err)
	if detail == "" {
		detail = err.Error()
	}
	return &CallError{Provider: c.Provider, Action: action, Region: region, Class: class, Err: err,
		Detail: Redact(detail, c.Secrets...), Hint: c.Hint}
}

// StatusClass is the class of an HTTP status: 429 is throttling, 401 and 403
// refused credentials, 404 not found, 5xx unavailability; any other has none.
func StatusClass(status int) error {
	switch {
	case status == http.StatusTooManyRequests:
		return ErrThrottled
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return ErrAuth
	case status == http.StatusNotFound:
		return ErrNotFound
	case status >= 500:
		return ErrUnavailable
	}
	return nil
}

// TokenRefusal is the detail and class of a failed token request to service
// (an identity or token service) that answered resp (nil: none came). Its own
// throttling, outages and unreachability are not refused credentials: no
// answer or a 5xx is unavailability, 429 throttling, any other refusal ErrAuth.
func TokenRefusal(service string, resp *http.Response) (detail string, class error) {
	if resp == nil {
		return "the " + service + " did not answer", ErrUnavailable
	}
	detail = fmt.Sprintf("status %d from the %s", resp.StatusCode, service)
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
		return detail, ErrAuth
	}
	return detail, StatusClass(resp.StatusCode)
}

// Class is err's class: the CallError's, or the adapter's reading of an SDK
// error (a network error is unavailability; a cancelled call has no class).
func (c CallErrors) Class(err error) error {
	var ce *CallError
	if errors.As(err, &ce) {
		return ce.Class
	}
	_, class := c.classify(err)
	return class
}

func (c CallErrors) classify(err error) (detail string, class error) {
	if errors.Is(err, context.Canceled) {
		return "", nil
	}
	if c.Classify != nil {
		detail, class = c.Classify(err)
	}
	// A transport error (a reset, a client timeout) is unavailability; the
	// crawl's own deadline is not the provider's. The comparison is of
	// identity: a client timeout wraps context.DeadlineExceeded too
	// (errors.Is would match it), but is not the context's error itself.
	var netErr net.Error
	if class == nil && errors.As(err, &netErr) && !isCrawlDeadline(netErr) {
		class = ErrUnavailable
	}
	return detail, class
}

// isCrawlDeadline says whether the first net.Error in a chain is the context's
// own deadline error itself. It compares identity on purpose: net/http's
// client timeout matches context.DeadlineExceeded under errors.Is, yet it is a
// transport timeout, which is the provider's unavailability.
func isCrawlDeadline(netErr net.Error) bool {
	return netErr == context.DeadlineExceeded //nolint:errorlint // identity, not errors.Is: see above
}

// Retryable says whether another attempt may succeed: the error is throttling
// or unavailability.
func (c CallErrors) Retryable(err error) bool {
	class := c.Class(err)
	return errors.Is(class, ErrThrottled) || errors.Is(class, ErrUnavailable)
}

// Retry is NewRetry for SDK errors as the adapter classifies them: throttling
// (with its own patience) and unavailability are retried (the SDK's own
// retries are off, so none double up).
func (c CallErrors) Retry(cfg Config, attempts int, base time.Duration) Retry {
	r := NewRetry(cfg, attempts, base)
	r.Class = c.Class
	return r
}

// ErrNoCurrency says that a price answer states no currency. No adapter
// assumes one: the offer would carry a currency nobody stated.
var ErrNoCurrency = errors.New("answer has no currency")

// NoCurrency is the error for a price answer without a currency; it names the
// provider, the API, where it was asked and the field that was empty:
// "volcengine: QueryPriceForPayAsYouGo in cn-beijing: answer has no currency
// (field Currency)".
func NoCurrency(p catalog.Provider, api, region, field string) error {
	return &CallError{Provider: p, Action: api, Region: region, Err: ErrNoCurrency,
		Detail: fmt.Sprintf("%v (field %s)", ErrNoCurrency, field)}
}

// ErrUnknownCurrency says that a price answer states a currency that no
// provider publishes in (catalog.PublishedCurrency): a snapshot with it would
// not be valid, so the answer fails its region, whose previous data is kept.
var ErrUnknownCurrency = errors.New("answer has an unknown currency")

// AnswerCurrency is the currency a price answer states in field (trimmed,
// upper case): NoCurrency when the field is empty, an ErrUnknownCurrency
// error naming it (an excerpt) when it is not USD, CNY or EUR.
func AnswerCurrency(p catalog.Provider, api, region, field, value string) (catalog.Currency, error) {
	c := catalog.Currency(strings.ToUpper(strings.TrimSpace(value)))
	switch {
	case c == "":
		return "", NoCurrency(p, api, region, field)
	case !catalog.PublishedCurrency(c):
		return "", &CallError{Provider: p, Action: api, Region: region, Err: ErrUnknownCurrency,
			Detail: fmt.Sprintf("%v %s (field %s; want USD, CNY or EUR)", ErrUnknownCurrency, catalog.Excerpt(value), field)}
	}
	return c, nil
}
