package replay

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// fixture is a one-exchange Alibaba-dialect folder: DescribeRegions in
// cn-hangzhou answers {"ok":true}.
var fixture = fstest.MapFS{
	"manifest.json": {Data: []byte(`{"provider":"alibaba","as_of":"2026-01-01","sources":["test"],
		"exchanges":[{"action":"DescribeRegions","region":"cn-hangzhou","content_type":"application/json","body":"regions.json"}]}`)},
	"regions.json": {Data: []byte(`{"ok":true}`)},
}

func start(t *testing.T, opts ...Option) *Server {
	t.Helper()
	s, err := Start(fixture, Alibaba, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// get asks the server for an action and returns the status and body.
func get(t *testing.T, ctx context.Context, s *Server, action string) (int, string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/?Action="+action+"&RegionId=cn-hangzhou", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer func() { _ = resp.Body.Close() }() // read-only: a close error loses nothing
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

func TestStart_NoLatencyAnswersAsRecorded(t *testing.T) {
	s := start(t)
	status, body, err := get(t, t.Context(), s, "DescribeRegions")
	if err != nil || status != 200 || body != `{"ok":true}` {
		t.Fatalf("got %d %q %v, want 200 {\"ok\":true}", status, body, err)
	}
}

func TestDo_AnswersInProcess(t *testing.T) {
	s := start(t)
	for _, tt := range []struct {
		action string
		status int
		body   string
	}{
		{"DescribeRegions", 200, `{"ok":true}`},
		{"DescribePrice", 404, AlibabaError("InvalidAction.NotFound", "replay: nothing recorded for DescribePrice in cn-hangzhou")},
	} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL+"/?Action="+tt.action+"&RegionId=cn-hangzhou", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := s.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != tt.status || string(b) != tt.body || resp.Request != req {
			t.Errorf("Do(%s) = %d %q, want %d %q and the request", tt.action, resp.StatusCode, b, tt.status, tt.body)
		}
	}
	if n := s.Count("DescribeRegions"); n != 1 {
		t.Errorf("Count = %d, want 1: Do must count like a request over a connection", n)
	}
}

func TestWait_ZeroLatencyNeverHolds(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/", nil)
	if !(&Server{}).wait(r) {
		t.Error("a server without latency held back the answer of a cancelled request")
	}
	if (&Server{latency: time.Hour}).wait(r) {
		t.Error("a server with latency answered a cancelled request")
	}
}

func TestWithLatency_DelaysEveryAnswer(t *testing.T) {
	const latency = 60 * time.Millisecond
	s := start(t, WithLatency(latency))
	for _, tt := range []struct {
		name, action string
		status       int
	}{
		{"recorded", "DescribeRegions", 200},
		{"nothing recorded", "DescribePrice", 404},
	} {
		t.Run(tt.name, func(t *testing.T) {
			begin := time.Now()
			status, _, err := get(t, t.Context(), s, tt.action)
			took := time.Since(begin)
			if err != nil || status != tt.status {
				t.Fatalf("got %d %v, want %d", status, err, tt.status)
			}
			if took < latency {
				t.Errorf("answer took %s, want at least the latency %s", took, latency)
			}
		})
	}
	t.Run("injected", func(t *testing.T) {
		s.Fault = func(Request, int) *Response { return &Response{Status: 503, Body: "busy"} }
		defer func() { s.Fault = nil }()
		begin := time.Now()
		status, _, err := get(t, t.Context(), s, "DescribeRegions")
		if took := time.Since(begin); err != nil || status != 503 || took < latency {
			t.Errorf("got %d %v after %s, want 503 after at least %s", status, err, took, latency)
		}
	})
}

func TestWithLatency_CancelledRequestEndsTheWait(t *testing.T) {
	s := start(t, WithLatency(time.Hour))
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, _, err := get(t, ctx, s, "DescribeRegions")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the request's deadline", err)
	}
	// The handler returns once it sees the cancellation; Close would otherwise
	// wait the hour for it.
	waitFor(t, func() bool { return s.inFlightNow() == 0 })
	if n := s.Count("DescribeRegions"); n != 1 {
		t.Errorf("Count = %d, want 1: a request cancelled during the latency was still received", n)
	}
}

func TestCounts_PerAction(t *testing.T) {
	s := start(t)
	for _, a := range []string{"DescribeRegions", "DescribePrice", "DescribeRegions", "DescribePrice", "DescribePrice"} {
		if _, _, err := get(t, t.Context(), s, a); err != nil {
			t.Fatal(err)
		}
	}
	got := s.Counts()
	if len(got) != 2 || got["DescribeRegions"] != 2 || got["DescribePrice"] != 3 {
		t.Errorf("Counts = %v, want DescribeRegions:2 DescribePrice:3", got)
	}
	if n := s.Count("DescribePrice"); n != 3 {
		t.Errorf("Count(DescribePrice) = %d, want 3", n)
	}
	got["DescribePrice"] = 100
	if n := s.Count("DescribePrice"); n != 3 {
		t.Errorf("changing the returned map changed the server's count to %d", n)
	}
}

func TestPeakInFlight(t *testing.T) {
	const clients = 5
	// The latency holds every request until the test has seen all of them in
	// flight, then cancels them.
	s := start(t, WithLatency(time.Hour))
	if p := s.PeakInFlight(); p != 0 {
		t.Fatalf("peak before any request = %d", p)
	}
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() { _, _, _ = get(t, ctx, s, "DescribeRegions") })
	}
	waitFor(t, func() bool { return s.inFlightNow() == clients })
	cancel()
	wg.Wait()
	waitFor(t, func() bool { return s.inFlightNow() == 0 })
	if p := s.PeakInFlight(); p != clients {
		t.Errorf("peak in flight = %d, want %d", p, clients)
	}
	short, cancelShort := context.WithTimeout(t.Context(), 10*time.Millisecond)
	defer cancelShort()
	_, _, _ = get(t, short, s, "DescribeRegions")
	waitFor(t, func() bool { return s.inFlightNow() == 0 })
	if p := s.PeakInFlight(); p != clients {
		t.Errorf("peak after a lone request = %d, want it kept at %d", p, clients)
	}
}

// waitFor polls cond for up to 5 seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 5s")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// inFlightNow is the number of requests the server is answering.
func (s *Server) inFlightNow() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inFlight
}
