package providers

import (
	"context"
	"sync/atomic"
)

// Stats counts what a provider's calls met during a crawl: the faults its
// retries absorbed and what the end-of-crawl sweep asked again. Retry.Do
// counts into it; the runner copies the figures into the provider's coverage
// (catalog.Coverage Faults, Throttled, Retries, Swept), so that a crawl says
// how hard it had to try, not only what it found. A nil *Stats counts nothing.
type Stats struct {
	calls, faults, throttled, retries, gaveUp, swept, notFound atomic.Int64
}

// StatsFigures are a Stats' counts at one moment.
type StatsFigures struct {
	// Calls are the API calls made (each with all its attempts).
	Calls int
	// Faults are the attempts that failed transiently (throttled or
	// unavailable: 5xx, resets, timeouts); Throttled are those of them that
	// the provider answered with its throttling error.
	Faults, Throttled int
	// Retries are the attempts after a call's first.
	Retries int
	// GaveUp are the calls that used up their retries.
	GaveUp int
	// Swept are the calls made again by the runner's sweep after the rest of
	// the provider's crawl had finished.
	Swept int
	// NotFound are the calls the provider answered that what they asked for
	// does not exist (ErrNotFound): above all price quotes for a type, zone
	// and billing method that is not sold. Each is a request that priced
	// nothing; an adapter that asks only what the provider says it sells
	// (make bench reports them, target zero) makes none.
	NotFound int
}

// Figures returns the counts so far (zero for a nil Stats).
func (s *Stats) Figures() StatsFigures {
	if s == nil {
		return StatsFigures{}
	}
	return StatsFigures{
		Calls: int(s.calls.Load()), Faults: int(s.faults.Load()), Throttled: int(s.throttled.Load()),
		Retries: int(s.retries.Load()), GaveUp: int(s.gaveUp.Load()), Swept: int(s.swept.Load()),
		NotFound: int(s.notFound.Load()),
	}
}

func (s *Stats) call(ctx context.Context) {
	if s == nil {
		return
	}
	s.calls.Add(1)
	if Sweeping(ctx) {
		s.swept.Add(1)
	}
}

func (s *Stats) fault(throttled bool) {
	if s == nil {
		return
	}
	s.faults.Add(1)
	if throttled {
		s.throttled.Add(1)
	}
}

func (s *Stats) retry() {
	if s != nil {
		s.retries.Add(1)
	}
}

func (s *Stats) notFoundAnswer() {
	if s != nil {
		s.notFound.Add(1)
	}
}

func (s *Stats) giveUp() {
	if s != nil {
		s.gaveUp.Add(1)
	}
}

type sweepKey struct{}

// WithSweep marks ctx as the runner's sweep: calls made with it count as
// swept (Stats.Swept).
func WithSweep(ctx context.Context) context.Context { return context.WithValue(ctx, sweepKey{}, true) }

// Sweeping says whether ctx is the runner's sweep.
func Sweeping(ctx context.Context) bool {
	v, _ := ctx.Value(sweepKey{}).(bool)
	return v
}
