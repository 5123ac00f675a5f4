package providers

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// vendorError stands for an SDK's error type.
type vendorError struct{ code, msg string }

func (e *vendorError) Error() string { return e.code + ": " + e.msg }

// clientTimeout stands for net/http's client timeout: a net.Error that
// errors.Is matches with context.DeadlineExceeded, yet the provider's.
type clientTimeout struct{}

func (clientTimeout) Error() string        { return "timeout awaiting response headers" }
func (clientTimeout) Timeout() bool        { return true }
func (clientTimeout) Temporary() bool      { return true }
func (clientTimeout) Is(target error) bool { return target == context.DeadlineExceeded }

func testErrors(secrets ...string) CallErrors {
	return CallErrors{Provider: "testcloud", Hint: "check TEST_KEY", Secrets: secrets,
		Classify: func(err error) (string, error) {
			var v *vendorError
			if !errors.As(err, &v) {
				return "", nil
			}
			switch v.code {
			case "Throttled":
				return "code " + v.code, ErrThrottled
			case "AuthFailure":
				return "code " + v.code + ": " + v.msg, ErrAuth
			}
			return "code " + v.code, nil
		}}
}

func TestCallErrors_Wrap(t *testing.T) {
	tests := []struct {
		name  string
		err   error
		class error
		text  string
	}{
		{"classified", &vendorError{"Throttled", "slow down"}, ErrThrottled,
			"testcloud: list things in r-1: code Throttled (throttled)"},
		{"auth with hint and redaction", &vendorError{"AuthFailure", "key TESTKEY123 refused"}, ErrAuth,
			"testcloud: list things in r-1: code AuthFailure: key [redacted] refused (authentication failed; check TEST_KEY)"},
		{"unknown code", &vendorError{"Odd", "?"}, nil, "testcloud: list things in r-1: code Odd"},
		{"transport error", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, ErrUnavailable,
			"testcloud: list things in r-1: dial tcp: connection refused (service unavailable)"},
		{"cancelled", fmt.Errorf("call: %w", context.Canceled), nil, "testcloud: list things in r-1: call: context canceled"},
		{"deadline", context.DeadlineExceeded, nil, "testcloud: list things in r-1: context deadline exceeded"},
		{"client timeout", clientTimeout{}, ErrUnavailable,
			"testcloud: list things in r-1: timeout awaiting response headers (service unavailable)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := testErrors("TESTKEY123").Wrap(tt.err, "list things", "r-1")
			if got.Error() != tt.text {
				t.Errorf("text %q, want %q", got, tt.text)
			}
			for _, class := range []error{ErrThrottled, ErrAuth, ErrNotFound, ErrUnavailable} {
				if is := errors.Is(got, class); is != errors.Is(class, tt.class) {
					t.Errorf("errors.Is(err, %v) = %v", class, is)
				}
			}
			if !errors.Is(got, tt.err) {
				t.Error("the vendor error left the chain")
			}
			if again := testErrors().Wrap(fmt.Errorf("outer: %w", got), "other", ""); !errors.Is(again, tt.err) || again.Error() != "outer: "+tt.text {
				t.Errorf("wrapping a CallError again = %q", again)
			}
		})
	}
	if testErrors().Wrap(nil, "x", "") != nil {
		t.Error("Wrap(nil) is not nil")
	}
}

func TestCallErrors_Retryable(t *testing.T) {
	e := testErrors()
	if !e.Retryable(&vendorError{"Throttled", ""}) || e.Retryable(&vendorError{"AuthFailure", ""}) ||
		!e.Retryable(e.Wrap(&net.OpError{Op: "read", Err: errors.New("reset")}, "a", "")) || e.Retryable(context.Canceled) {
		t.Error("Retryable does not follow the class")
	}
}

func TestNoCurrency(t *testing.T) {
	_, err := AnswerCurrency(catalog.Volcengine, "QueryPriceForPayAsYouGo", "cn-beijing", "Currency", " ")
	want := "volcengine: QueryPriceForPayAsYouGo in cn-beijing: answer has no currency (field Currency)"
	if !errors.Is(err, ErrNoCurrency) || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	if c, err := AnswerCurrency(catalog.Huawei, "X", "r", "currency", " cny"); err != nil || c != catalog.CNY {
		t.Errorf("AnswerCurrency = %q, %v; want CNY", c, err)
	}
}

// A currency no provider publishes in fails the price answer, named: a crawl
// never records an offer that would make its snapshot invalid.
func TestAnswerCurrency_Unknown(t *testing.T) {
	_, err := AnswerCurrency(catalog.Huawei, "ListOnDemandResourceRatings", "cn-east-3", "currency", "Y")
	want := `huawei: ListOnDemandResourceRatings in cn-east-3: answer has an unknown currency "Y" (field currency; want USD, CNY or EUR)`
	if !errors.Is(err, ErrUnknownCurrency) || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	for _, c := range []string{"usd", "CNY", " EUR "} {
		if _, err := AnswerCurrency(catalog.Alibaba, "DescribePrice", "r", "Currency", c); err != nil {
			t.Errorf("AnswerCurrency(%q) = %v", c, err)
		}
	}
}

func TestStatusClass(t *testing.T) {
	for status, want := range map[int]error{200: nil, 400: nil, 401: ErrAuth, 403: ErrAuth, 404: ErrNotFound, 409: nil,
		429: ErrThrottled, 500: ErrUnavailable, 503: ErrUnavailable} {
		if got := StatusClass(status); got != want { //nolint:errorlint // the classes themselves
			t.Errorf("StatusClass(%d) = %v, want %v", status, got, want)
		}
	}
}

func TestTokenRefusal(t *testing.T) {
	if detail, class := TokenRefusal("token service", nil); detail != "the token service did not answer" || class != ErrUnavailable { //nolint:errorlint // the classes themselves
		t.Errorf("no answer: %q, %v", detail, class)
	}
	for status, want := range map[int]error{400: ErrAuth, 401: ErrAuth, 404: ErrAuth, 429: ErrThrottled, 503: ErrUnavailable} {
		detail, class := TokenRefusal("identity service", &http.Response{StatusCode: status})
		if class != want || detail != fmt.Sprintf("status %d from the identity service", status) { //nolint:errorlint // the classes themselves
			t.Errorf("status %d: %q, %v; want class %v", status, detail, class, want)
		}
	}
}
