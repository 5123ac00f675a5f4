// Package faulttest injects faults into replay servers for crawl tests: each
// provider's own throttling answer, server errors, connection resets, stalled
// answers, truncated and malformed bodies, seeded at random with a bound on
// consecutive failures so that retries can succeed. Suite is the standard set
// of fault cases every adapter runs; AnswerFuzzer and CheckConversion are the
// glue of the adapters' fuzz targets; Canonical compares crawls that met
// different faults. Tests only (providertest.Harness wires them per adapter).
package faulttest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io/fs"
	"net"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// Kind is a kind of fault.
type Kind int

// The kinds of fault. Throttle, ServerError and Reset are transient for every
// adapter (they are retried); Stall is transient when the request timeout is
// shorter than the stall; Truncated and Malformed bodies are not retried by
// every SDK and make a region fail.
const (
	Throttle Kind = iota
	ServerError
	Reset
	Stall
	Truncated
	Malformed
	numKinds
)

var kindNames = [...]string{"throttle", "server-error", "reset", "stall", "truncated", "malformed"}

func (k Kind) String() string {
	if k < 0 || k >= numKinds {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Transient are the fault kinds every adapter retries.
var Transient = []Kind{Throttle, ServerError, Reset}

// ThrottleResponse is the provider's own "slow down" answer, as its API sends it:
// EC2 RequestLimitExceeded (503), Pricing ThrottlingException (429), Alibaba
// Throttling (400), Tencent RequestLimitExceeded (in an HTTP 200 body), Huawei
// APIGW.0308 (429), Volcano Engine AccountFlowLimitExceeded (429), Azure
// TooManyRequests (429), Google Cloud RESOURCE_EXHAUSTED (429).
func ThrottleResponse(p catalog.Provider, req replay.Request) *replay.Response {
	switch p {
	case catalog.AWS:
		return awsAnswer(req, awsError{429, "ThrottlingException", "Rate exceeded"}, awsError{503, "RequestLimitExceeded", "Request limit exceeded."})
	case catalog.Alibaba:
		return &replay.Response{Status: 400, ContentType: "application/json",
			Body: replay.AlibabaError("Throttling", "Request was denied due to request throttling.")}
	case catalog.Tencent:
		return &replay.Response{Status: 200, ContentType: "application/json",
			Body: replay.TencentError("RequestLimitExceeded", "Your current request times exceeds the limit")}
	case catalog.Huawei:
		return &replay.Response{Status: 429, ContentType: "application/json",
			Body: `{"error_code":"APIGW.0308","error_msg":"The throttling threshold has been reached: policy user over ratelimit,limit:20,time:1 minute","request_id":"fault"}`}
	case catalog.Volcengine:
		return &replay.Response{Status: 429, ContentType: "application/json",
			Body: volcengineError(req, "AccountFlowLimitExceeded", 10001, "The request has exceeded the flow limit of your account.")}
	case catalog.Azure:
		// Resource Manager and the Retail Prices API: 429 with Retry-After.
		return &replay.Response{Status: 429, ContentType: "application/json", Header: map[string][]string{"Retry-After": {"0"}},
			Body: replay.AzureError("TooManyRequests", "The request is being throttled as the limit has been reached for operation type - Read_ObservationWindow_00:05:00.")}
	case catalog.GCP:
		return &replay.Response{Status: 429, ContentType: "application/json",
			Body: replay.GCPError(429, "RESOURCE_EXHAUSTED", "rateLimitExceeded", "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'compute.googleapis.com'.")}
	}
	panic("faulttest: unknown provider " + string(p))
}

// ServerErrorResponse is an internal error in the provider's wire format, with
// HTTP 500 (503 for Alibaba's ServiceUnavailable).
func ServerErrorResponse(p catalog.Provider, req replay.Request) *replay.Response {
	switch p {
	case catalog.AWS:
		return awsAnswer(req, awsError{500, "InternalErrorException", "An internal error occurred"}, awsError{500, "InternalError", "An internal error has occurred."})
	case catalog.Alibaba:
		return &replay.Response{Status: 503, ContentType: "application/json",
			Body: replay.AlibabaError("ServiceUnavailable", "The request has failed due to a temporary failure of the server.")}
	case catalog.Tencent:
		// A gateway in front of the API answers 502 with an HTML page.
		return &replay.Response{Status: 502, ContentType: "text/html", Body: "<html><body><h1>502 Bad Gateway</h1></body></html>"}
	case catalog.Huawei:
		return &replay.Response{Status: 500, ContentType: "application/json",
			Body: `{"error":{"code":"Ecs.0000","message":"Internal server error."}}`}
	case catalog.Volcengine:
		return &replay.Response{Status: 500, ContentType: "application/json",
			Body: volcengineError(req, "InternalError", 10500, "The request has failed due to an internal error.")}
	case catalog.Azure:
		return &replay.Response{Status: 500, ContentType: "application/json",
			Body: replay.AzureError("InternalServerError", "Encountered internal server error.")}
	case catalog.GCP:
		return &replay.Response{Status: 500, ContentType: "application/json",
			Body: replay.GCPError(500, "INTERNAL", "backendError", "Internal error. Please try again.")}
	}
	panic("faulttest: unknown provider " + string(p))
}

// awsError is an AWS error answer's status, code and message.
type awsError struct {
	status        int
	code, message string
}

// awsAnswer is AWS's error answer to req: the Price List's JSON one, or
// EC2's XML one.
func awsAnswer(req replay.Request, pricing, ec2 awsError) *replay.Response {
	if req.Service == "pricing" {
		return &replay.Response{Status: pricing.status, ContentType: ContentType(catalog.AWS, req),
			Body: fmt.Sprintf(`{"__type":%q,"Message":%q}`, pricing.code, pricing.message)}
	}
	return &replay.Response{Status: ec2.status, ContentType: ContentType(catalog.AWS, req),
		Body: `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>` + ec2.code + `</Code><Message>` + ec2.message +
			`</Message></Error></Errors><RequestID>fault</RequestID></Response>`}
}

func volcengineError(req replay.Request, code string, n int, msg string) string {
	meta, _ := json.Marshal(map[string]any{
		"RequestId": "fault", "Action": req.Action, "Version": req.Params["Version"],
		"Service": req.Service, "Region": req.Region,
		"Error": map[string]any{"CodeN": n, "Code": code, "Message": msg},
	})
	return `{"ResponseMetadata":` + string(meta) + `}`
}

// ResetResponse closes the connection without an answer, with a TCP reset.
func ResetResponse() *replay.Response {
	return &replay.Response{Hijack: func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // close sends RST, not FIN
		}
		_ = conn.Close()
	}}
}

// StallResponse answers nothing for d, or until the client gives up (its
// request timeout or a cancelled crawl closes the connection), then closes the
// connection. d bounds how long a server Close waits for the handler.
func StallResponse(d time.Duration) *replay.Response {
	return &replay.Response{Hijack: func(w http.ResponseWriter, r *http.Request) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-r.Context().Done():
		case <-t.C:
		}
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			_ = conn.Close()
		}
	}}
}

// TruncatedTransfer announces a body longer than the one it sends, then closes
// the connection: the client reads an unexpected EOF mid-body.
func TruncatedTransfer(contentType string) *replay.Response {
	return &replay.Response{Hijack: func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer func() { _ = conn.Close() }() // the cut is the fault: a close error changes nothing
		body := `{"RequestId":"trunc","Result":{"InstanceTy`
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s", contentType, 4096, body)
		_ = buf.Flush()
	}}
}

// MalformedResponse is an HTTP 200 whose body is not what the wire format
// promises: an HTML error page where JSON or XML is expected.
func MalformedResponse(contentType string) *replay.Response {
	return &replay.Response{Status: 200, ContentType: contentType,
		Body: "<html><head><title>Service Temporarily Unavailable</title></head><body>upstream connect error or disconnect/reset before headers</body></html>"}
}

// Recorded returns the body the replay would serve for req from the fixture
// folder dir, or false when nothing is recorded. Tests use it to cut or bend
// a real answer.
func Recorded(dir fs.FS, m replay.Manifest, req replay.Request) (replay.Exchange, []byte, bool) {
	e, ok := m.Find(req)
	if !ok {
		return replay.Exchange{}, nil, false
	}
	b, err := fs.ReadFile(dir, e.Body)
	if err != nil {
		return e, nil, false
	}
	return e, b, true
}

// TruncatedRecorded serves the first half of the recorded answer to req with
// the recorded status: a well-formed HTTP answer whose document is cut.
func TruncatedRecorded(dir fs.FS, m replay.Manifest, req replay.Request) *replay.Response {
	e, b, ok := Recorded(dir, m, req)
	if !ok {
		return nil
	}
	status := e.Status
	if status == 0 {
		status = 200
	}
	return &replay.Response{Status: status, ContentType: e.ContentType, Body: string(b[:len(b)/2])}
}

// ContentType is the content type an answer of the provider's API has.
func ContentType(p catalog.Provider, req replay.Request) string {
	switch {
	case p == catalog.AWS && req.Service == "pricing":
		return "application/x-amz-json-1.1"
	case p == catalog.AWS:
		return "text/xml"
	}
	return "application/json"
}

// Respond builds the response of a fault kind for a request to provider p.
func Respond(p catalog.Provider, k Kind, req replay.Request, stall time.Duration) *replay.Response {
	switch k {
	case Throttle:
		return ThrottleResponse(p, req)
	case ServerError:
		return ServerErrorResponse(p, req)
	case Reset:
		return ResetResponse()
	case Stall:
		return StallResponse(stall)
	case Truncated:
		return TruncatedTransfer(ContentType(p, req))
	case Malformed:
		return MalformedResponse(ContentType(p, req))
	}
	panic(fmt.Sprintf("faulttest: unknown kind %d", k))
}

// volatileParam says whether a request parameter changes between attempts of
// the same call (signatures, nonces, timestamps), so that it is left out of the
// request's identity.
func volatileParam(k string) bool {
	l := strings.ToLower(k)
	return strings.HasPrefix(l, "signature") || l == "timestamp" || l == "accesskeyid" ||
		strings.HasPrefix(l, "x-amz-") || l == "x-date" || l == "clienttoken"
}

// RequestKey identifies a call across its attempts: service, action, region and
// the parameters that do not change between attempts.
func RequestKey(req replay.Request) string {
	keys := make([]string, 0, len(req.Params))
	for k := range req.Params {
		if !volatileParam(k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(req.Service + "\x00" + req.Action + "\x00" + req.Region)
	for _, k := range keys {
		b.WriteString("\x00" + k + "=" + req.Params[k])
	}
	return b.String()
}

// Injector is a replay Fault that fails a seeded random share of requests with
// transient faults. The decision for a request depends only on the seed, the
// request's identity and its attempt number, so a crawl sees the same faults
// whatever the order its goroutines send in. With MaxConsecutive set, no
// request fails more than that many times in a row, so an adapter with more
// attempts than that always gets through; without it (zero) every attempt
// fails at Rate independently, as on a bad day: faults that clear, but with
// no bound on how long a call's bad luck lasts.
type Injector struct {
	Provider catalog.Provider
	Seed     uint64
	// Rate is the share of attempts that fail, 0..1.
	Rate float64
	// MaxConsecutive bounds the failures of one call in a row (set it below
	// the crawl's MaxAttempts); zero leaves them unbounded.
	MaxConsecutive int
	// Kinds are drawn from for each fault (Transient when empty).
	Kinds []Kind
	// StallFor is how long a Stall fault holds the request.
	StallFor time.Duration
	// Eligible, when set, limits faults to the requests it accepts; the
	// others are not counted either.
	Eligible func(replay.Request) bool
	// Latency, when set, holds every request this long before it is answered,
	// so that concurrent requests overlap and InFlightPeak sees them.
	Latency time.Duration

	mu          sync.Mutex
	attempts    map[string]int
	consecutive map[string]int
	injected    [numKinds]int
	requests    int
	inFlight    atomic.Int64
	peak        atomic.Int64
}

// Fault is the replay.Server Fault function.
func (in *Injector) Fault(req replay.Request, _ int) *replay.Response {
	if in.Latency > 0 {
		n := in.inFlight.Add(1)
		for {
			p := in.peak.Load()
			if n <= p || in.peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(in.Latency)
		in.inFlight.Add(-1)
	}
	key := RequestKey(req)
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.attempts == nil {
		in.attempts, in.consecutive = map[string]int{}, map[string]int{}
	}
	if in.Eligible != nil && !in.Eligible(req) {
		return nil
	}
	in.requests++
	attempt := in.attempts[key]
	in.attempts[key]++
	r := unit(in.Seed, key, attempt, 0)
	if r >= in.Rate || (in.MaxConsecutive > 0 && in.consecutive[key] >= in.MaxConsecutive) {
		in.consecutive[key] = 0
		return nil
	}
	in.consecutive[key]++
	kinds := in.Kinds
	if len(kinds) == 0 {
		kinds = Transient
	}
	k := kinds[int(unit(in.Seed, key, attempt, 1)*float64(len(kinds)))%len(kinds)]
	in.injected[k]++
	stall := in.StallFor
	if stall <= 0 {
		stall = 5 * time.Second
	}
	return Respond(in.Provider, k, req, stall)
}

// unit is a deterministic number in [0, 1) from the seed, a request's identity,
// its attempt and a stream number.
func unit(seed uint64, key string, attempt, stream int) float64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%d\x00%d", seed, key, attempt, stream)
	// A final mix (splitmix64) spreads FNV's low-entropy high bits.
	x := h.Sum64()
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / float64(1<<53)
}

// Stats are what an injector did.
type Stats struct {
	Requests     int          // requests seen
	Injected     map[Kind]int // faults served, by kind
	InFlightPeak int          // most requests held at once (with Latency)
}

// Total is the number of faults served.
func (s Stats) Total() int {
	n := 0
	for _, v := range s.Injected {
		n += v
	}
	return n
}

func (s Stats) String() string {
	var parts []string
	for k := Kind(0); k < numKinds; k++ {
		if n := s.Injected[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, n))
		}
	}
	return fmt.Sprintf("%d requests, %d faults (%s)", s.Requests, s.Total(), strings.Join(parts, ", "))
}

// Stats returns the counts so far.
func (in *Injector) Stats() Stats {
	in.mu.Lock()
	defer in.mu.Unlock()
	s := Stats{Requests: in.requests, Injected: map[Kind]int{}, InFlightPeak: int(in.peak.Load())}
	for k, n := range in.injected {
		if n > 0 {
			s.Injected[Kind(k)] = n
		}
	}
	return s
}

// Down answers every request the way a provider that is down does: server
// errors, with some connections reset.
func Down(p catalog.Provider) func(replay.Request, int) *replay.Response {
	return func(req replay.Request, n int) *replay.Response {
		if n%3 == 0 {
			return ResetResponse()
		}
		return ServerErrorResponse(p, req)
	}
}

// Never answers the requests match accepts: they stall until the client gives
// up (at most d); others are served as recorded.
func Never(match func(replay.Request) bool, d time.Duration) func(replay.Request, int) *replay.Response {
	return func(req replay.Request, _ int) *replay.Response {
		if match(req) {
			return StallResponse(d)
		}
		return nil
	}
}

// Chain asks each fault function in turn and serves the first answer.
func Chain(fs ...func(replay.Request, int) *replay.Response) func(replay.Request, int) *replay.Response {
	return func(req replay.Request, n int) *replay.Response {
		for _, f := range fs {
			if f == nil {
				continue
			}
			if r := f(req, n); r != nil {
				return r
			}
		}
		return nil
	}
}

// LoopToken is the pagination token RepeatNextToken hands out again and again.
const LoopToken = "faulttest-loop-token"

var (
	xmlToken  = regexp.MustCompile(`<nextToken>[^<]*</nextToken>|<nextToken\s*/>`)
	jsonToken = regexp.MustCompile(`"NextToken"\s*:\s*(?:"[^"]*"|null)`)
)

// RepeatNextToken answers every request of action with its first recorded page
// (the one asked with an empty NextToken), its next token set to LoopToken:
// a listing that never ends unless the adapter notices the repeat. It knows
// EC2's XML <nextToken> and JSON "NextToken" fields.
func RepeatNextToken(dir fs.FS, m replay.Manifest, action string) func(replay.Request, int) *replay.Response {
	return func(req replay.Request, _ int) *replay.Response {
		if req.Action != action {
			return nil
		}
		first := req
		first.Params = map[string]string{}
		for k, v := range req.Params {
			first.Params[k] = v
		}
		first.Params["NextToken"] = ""
		e, b, ok := Recorded(dir, m, first)
		if !ok {
			return nil
		}
		body := string(b)
		switch {
		case xmlToken.MatchString(body):
			body = xmlToken.ReplaceAllString(body, "<nextToken>"+LoopToken+"</nextToken>")
		case strings.Contains(e.ContentType, "xml") || strings.HasPrefix(strings.TrimSpace(body), "<"):
			i := strings.LastIndex(body, "</")
			body = body[:i] + "<nextToken>" + LoopToken + "</nextToken>" + body[i:]
		case jsonToken.MatchString(body):
			body = jsonToken.ReplaceAllString(body, `"NextToken":"`+LoopToken+`"`)
		default:
			return nil
		}
		return &replay.Response{Status: 200, ContentType: e.ContentType, Body: body}
	}
}
