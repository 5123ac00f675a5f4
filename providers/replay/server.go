package replay

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Response is an answer a test injects instead of the recorded one.
type Response struct {
	Status      int
	ContentType string
	Body        string
	Header      http.Header
	// Hijack, when set, is called instead of writing a response (to reset the
	// connection or stall).
	Hijack func(w http.ResponseWriter, r *http.Request)
}

// Server is a running replay server.
type Server struct {
	URL      string
	Manifest Manifest

	srv     *httptest.Server
	dialect Dialect
	bodies  fs.FS

	// latency delays every answer (see WithLatency).
	latency time.Duration
	// unlogged keeps Requests empty (see WithoutRequestLog).
	unlogged bool

	mu       sync.Mutex
	requests []Request
	// Fault, when set, is asked first for every request; a non-nil response is
	// served instead of the recorded one. n counts requests with the same action.
	Fault    func(req Request, n int) *Response
	seen     map[string]int
	inFlight int
	peak     int
}

// Option changes how a server answers; Start takes them.
type Option func(*Server)

// WithLatency delays every answer, recorded, injected or "nothing recorded", by
// d, as a distant API would; a request whose context ends first gets no answer.
// Benchmarks use it to measure a crawl against its rate limits rather than
// against loopback speed.
func WithLatency(d time.Duration) Option {
	return func(s *Server) { s.latency = d }
}

// WithoutRequestLog keeps no list of the requests served (Requests stays
// empty; Count and Counts still count): a fuzz target sends millions.
func WithoutRequestLog() Option {
	return func(s *Server) { s.unlogged = true }
}

// Start serves the fixture folder dir in the given dialect on a loopback port.
func Start(dir fs.FS, d Dialect, opts ...Option) (*Server, error) {
	m, err := LoadManifest(dir)
	if err != nil {
		return nil, err
	}
	s := &Server{Manifest: m, dialect: d, bodies: dir, seen: map[string]int{}}
	for _, o := range opts {
		o(s)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s, nil
}

// Host is the server's host:port, for SDKs that take an endpoint without a scheme.
func (s *Server) Host() string { return strings.TrimPrefix(s.URL, "http://") }

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Do answers req in process, without a connection, as the server would over
// one: an SDK client whose HTTP client is the server (aws.HTTPClient and the
// like) reads the recorded answers with no transport in between, so no
// transport quirk (smithy-go closing a request body early, see the AWS
// adapter's requestbody.go) can fail a call. Injected faults apply, but not
// their Hijack, which needs a connection.
func (s *Server) Do(req *http.Request) (*http.Response, error) {
	in := req.Clone(req.Context())
	if in.Body == nil {
		in.Body = http.NoBody
	}
	rec := httptest.NewRecorder()
	s.serve(rec, in)
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}

// RoundTrip is Do: the server as an http.RoundTripper, for a client's
// transport (Config.Transport) that reaches it without a connection.
func (s *Server) RoundTrip(req *http.Request) (*http.Response, error) { return s.Do(req) }

// Requests returns the requests served so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count returns how many requests had the given action.
func (s *Server) Count(action string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[action]
}

// Counts returns how many requests each action had, requests the server could
// not decode left out.
func (s *Server) Counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.seen))
	for a, n := range s.seen {
		out[a] = n
	}
	return out
}

// PeakInFlight is the largest number of requests the server was answering at
// once, from the moment a request arrived until its answer was written.
func (s *Server) PeakInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.inFlight++
	s.peak = max(s.peak, s.inFlight)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	s.answer(w, r)
}

// answer serves one request: the injected fault, the recorded answer, or the
// dialect's "nothing recorded", each after the server's latency.
func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
		return
	}
	req, err := s.dialect.Decode(r, body)
	if err != nil {
		if !s.wait(r) {
			return
		}
		http.Error(w, "replay: cannot decode request: "+err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	if !s.unlogged {
		s.requests = append(s.requests, req)
	}
	s.seen[req.Action]++
	n := s.seen[req.Action]
	fault := s.Fault
	s.mu.Unlock()
	if !s.wait(r) {
		return
	}
	if fault != nil {
		if resp := fault(req, n); resp != nil {
			if resp.Hijack != nil {
				resp.Hijack(w, r)
				return
			}
			for k, v := range resp.Header {
				w.Header()[k] = v
			}
			write(w, resp.Status, resp.ContentType, []byte(resp.Body))
			return
		}
	}
	e, ok := s.Manifest.Find(req)
	if !ok {
		status, ct, b := s.dialect.NotFound(req)
		write(w, status, ct, []byte(b))
		return
	}
	data, err := fs.ReadFile(s.bodies, e.Body)
	if err != nil {
		http.Error(w, "replay: "+err.Error(), http.StatusInternalServerError)
		return
	}
	status := e.Status
	if status == 0 {
		status = http.StatusOK
	}
	write(w, status, e.ContentType, data)
}

// wait holds the answer for the server's latency; false means the request's
// context ended first and nothing should be written.
func (s *Server) wait(r *http.Request) bool {
	if s.latency <= 0 {
		return true
	}
	t := time.NewTimer(s.latency)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

func write(w http.ResponseWriter, status int, contentType string, body []byte) {
	if contentType != "" {
		w.Header().Set("Content-Type", contentType)
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
