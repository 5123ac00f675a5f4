package providers

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Transport is the HTTP transport every adapter's SDK sends through. It keeps the
// provider's request rate under its limit (retries included, since each attempt
// passes here) and counts requests, so that request counts are measured, not
// estimated.
type Transport struct {
	Base    http.RoundTripper
	Limiter *rate.Limiter

	requests atomic.Int64
	mu       sync.Mutex
	window   []time.Time // send times within the last second, for the peak rate
	peak     int
}

// NewTransport returns a transport limited to perSecond requests a second with the
// given burst; perSecond <= 0 means unlimited. The base transport never uses an
// environment proxy for loopback addresses.
func NewTransport(perSecond float64, burst int) *Transport {
	lim := rate.NewLimiter(rate.Inf, 0)
	if perSecond > 0 {
		if burst < 1 {
			burst = 1
		}
		lim = rate.NewLimiter(rate.Limit(perSecond), burst)
	}
	return &Transport{Base: DefaultBaseTransport(), Limiter: lim}
}

// DefaultBaseTransport is http.DefaultTransport's settings with a proxy function
// that honours HTTP(S)_PROXY and NO_PROXY (some SDKs install a proxy that ignores
// NO_PROXY; going through this transport avoids it).
func DefaultBaseTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = http.ProxyFromEnvironment
	return t
}

// RoundTrip waits for the rate limiter, then sends the request.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.Limiter.Wait(req.Context()); err != nil {
		return nil, err
	}
	t.requests.Add(1)
	t.observe(time.Now())
	return t.Base.RoundTrip(req)
}

// Do lets the transport serve as an SDK's HTTP client (aws.HTTPClient).
func (t *Transport) Do(req *http.Request) (*http.Response, error) {
	return (&http.Client{Transport: t}).Do(req)
}

func (t *Transport) observe(now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cut := now.Add(-time.Second)
	i := 0
	for i < len(t.window) && !t.window[i].After(cut) {
		i++
	}
	t.window = append(t.window[i:], now)
	if len(t.window) > t.peak {
		t.peak = len(t.window)
	}
}

// Requests is the number of requests sent so far.
func (t *Transport) Requests() int { return int(t.requests.Load()) }

// PeakPerSecond is the largest number of requests sent within any one second.
func (t *Transport) PeakPerSecond() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.peak
}

// Wait blocks until the limiter allows one more operation; for SDKs whose HTTP
// client cannot be replaced.
func (t *Transport) Wait(ctx context.Context) error { return t.Limiter.Wait(ctx) }

// APILimiters are the limiters of a provider's per-API limits, by action.
// Actions of one APILimit share its limiter. The zero value limits nothing.
type APILimiters map[string]*rate.Limiter

// NewAPILimiters builds a limiter for each limit.
func NewAPILimiters(limits []APILimit) APILimiters {
	out := APILimiters{}
	for _, l := range limits {
		burst := max(l.Burst, 1)
		lim := rate.NewLimiter(rate.Limit(l.PerSecond), burst)
		for _, a := range l.Actions {
			out[a] = lim
		}
	}
	return out
}

// Wait blocks until the limit of action allows one more call; an action
// without a limit does not wait.
func (l APILimiters) Wait(ctx context.Context, action string) error {
	lim, ok := l[action]
	if !ok {
		return ctx.Err()
	}
	return lim.Wait(ctx)
}
