package aws

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/gpuatlas/gpuatlas/providers"
)

// The SDK's HTTP client sends through these wrappers around the runner's
// transport (see New): detachedBody works around a body race in smithy-go,
// checkedAnswer keeps a gateway's page from passing for an empty answer.

// detachedBody sends each request with its own in-memory copy of the body.
//
// smithy-go (v1.28) closes the request body as soon as the response headers
// arrive, and its closed body's WriteTo returns io.EOF. net/http may still be
// checking the body for extra bytes at that moment; it then takes the io.EOF for a
// body read error and closes the connection under the response being read, and
// the call fails with "deserialization failed ... use of closed network
// connection" (aws/aws-sdk-go-v2#1825, #2737). The query and JSON request bodies
// are a few hundred bytes, so a copy costs nothing.
type detachedBody struct {
	base http.RoundTripper
}

func (t detachedBody) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return t.base.RoundTrip(req)
	}
	data, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return nil, err
	}
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(data))
	out.ContentLength = int64(len(data))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	return t.base.RoundTrip(out)
}

// checkedAnswer rejects a successful EC2 answer that is not an EC2 XML document.
//
// The EC2 query protocol's deserializer skips a root element it does not know:
// an HTTP 200 carrying a proxy's or gateway's HTML page decodes as an empty
// page without error, and the region would be recorded as crawled with no
// instance types or offers. An answer must be well-formed XML whose root element
// is <ActionResponse> (or <Response>, the error envelope); anything else becomes
// a temporary transport error, which the adapter's retries retry (it is
// unavailability) and which names the answer in the region's failure when
// retries run out.
type checkedAnswer struct {
	base http.RoundTripper
}

func (t checkedAnswer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.StatusCode < 200 || resp.StatusCode > 299 ||
		!strings.HasPrefix(req.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		return resp, err
	}
	body, err := providers.ReadAnswer(resp)
	if err != nil {
		return nil, &badAnswer{msg: fmt.Sprintf("read EC2 answer (HTTP %d): %v", resp.StatusCode, err)}
	}
	if root, err := xmlRoot(body); err != nil || !strings.HasSuffix(root, "Response") {
		return nil, &badAnswer{msg: fmt.Sprintf("EC2 answer (HTTP %d, %s, %d bytes) is not an EC2 XML response (root %q, %v)",
			resp.StatusCode, resp.Header.Get("Content-Type"), len(body), root, err)}
	}
	return resp, nil
}

// xmlRoot is the local name of the document's root element.
func xmlRoot(b []byte) (string, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", err
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name.Local, nil
		}
	}
}

// badAnswer is an answer the adapter cannot use. Temporary makes the SDK's
// tests of an error (and so the adapter's retries) try again: a gateway page
// in place of an answer is usually a passing fault.
type badAnswer struct{ msg string }

func (e *badAnswer) Error() string   { return e.msg }
func (e *badAnswer) Temporary() bool { return true }
