package aws

import (
	"bytes"
	"io"
	"net/http"
)

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
