// Package replay serves recorded provider API answers from a local HTTP server, in
// each provider's own wire format, so that adapters are exercised through the real
// vendor SDK clients without a network. Tests use it directly; `make data` uses it
// to crawl the fixtures into the embedded catalog.
package replay

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"time"
)

// Request is a request as the server understood it.
type Request struct {
	Method  string
	Path    string
	Service string // ec2, pricing, ecs, cvm, ...
	Action  string
	Region  string // from the signature's credential scope or the region parameter
	Params  map[string]string
	Header  http.Header
	Body    []byte
}

// Exchange is one recorded answer and the request it answers. A request matches
// when its service, action and region equal the exchange's (where set) and every
// listed parameter has the listed value; an empty value means the parameter is
// absent or empty (the first page of a paginated call).
type Exchange struct {
	Service     string            `json:"service,omitempty"`
	Action      string            `json:"action"`
	Region      string            `json:"region,omitempty"`
	Params      map[string]string `json:"params,omitempty"`
	Status      int               `json:"status,omitempty"`
	ContentType string            `json:"content_type,omitempty"`
	Body        string            `json:"body"` // file name, relative to the fixture folder
}

// Manifest describes a fixture folder: where its data comes from and as of when,
// and the exchanges it answers. Synthetic is true where no real data exists.
type Manifest struct {
	Provider  string `json:"provider"`
	AsOf      string `json:"as_of"` // YYYY-MM-DD the data describes
	Synthetic bool   `json:"synthetic"`
	// SyntheticPrices is true where the specs are real but no real prices exist
	// (Huawei): every price served is synthetic.
	SyntheticPrices bool       `json:"synthetic_prices,omitempty"`
	Sources         []string   `json:"sources"`
	Notes           []string   `json:"notes,omitempty"`
	Exchanges       []Exchange `json:"exchanges"`
}

// Dialect is a provider's wire format: how to read a request and how to say that
// nothing was recorded for it.
type Dialect struct {
	Decode   func(r *http.Request, body []byte) (Request, error)
	NotFound func(req Request) (status int, contentType string, body string)
}

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

// LoadManifest reads manifest.json from a fixture folder.
func LoadManifest(dir fs.FS) (Manifest, error) {
	data, err := fs.ReadFile(dir, "manifest.json")
	if err != nil {
		return Manifest{}, fmt.Errorf("replay: read manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, fmt.Errorf("replay: manifest.json: %w", err)
	}
	for i, e := range m.Exchanges {
		if _, err := fs.Stat(dir, e.Body); err != nil {
			return Manifest{}, fmt.Errorf("replay: manifest.json exchange %d (%s): body %s: %w", i, e.Action, e.Body, err)
		}
	}
	return m, nil
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
	s.requests = append(s.requests, req)
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
	e, ok := s.match(req)
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

func (s *Server) match(req Request) (Exchange, bool) {
	for _, e := range s.Manifest.Exchanges {
		if e.Action != req.Action || (e.Service != "" && e.Service != req.Service) || (e.Region != "" && e.Region != req.Region) {
			continue
		}
		ok := true
		for k, v := range e.Params {
			if req.Params[k] != v {
				ok = false
				break
			}
		}
		if ok {
			return e, true
		}
	}
	return Exchange{}, false
}

// SortExchanges orders exchanges so that manifests are written deterministically.
func SortExchanges(ex []Exchange) {
	key := func(e Exchange) string {
		ks := make([]string, 0, len(e.Params))
		for k, v := range e.Params {
			ks = append(ks, k+"="+v)
		}
		sort.Strings(ks)
		return e.Service + "\x00" + e.Action + "\x00" + e.Region + "\x00" + strings.Join(ks, "&")
	}
	sort.SliceStable(ex, func(i, j int) bool { return key(ex[i]) < key(ex[j]) })
}

// scopeRegion returns the region of an AWS-style signature credential scope:
// "Credential=AKID/20240501/us-east-1/ec2/aws4_request" gives us-east-1.
func scopeRegion(auth string) (region, service string) {
	_, cred, ok := strings.Cut(auth, "Credential=")
	if !ok {
		return "", ""
	}
	cred, _, _ = strings.Cut(cred, ",")
	parts := strings.Split(strings.TrimSpace(cred), "/")
	if len(parts) >= 4 {
		return parts[2], parts[3]
	}
	return "", ""
}
