package tencent

import (
	"fmt"
	"io"
	"net/http"

	"github.com/gpuatlas/gpuatlas/providers"
)

// statusTransport turns an HTTP 429 or 5xx answer into a transport error. The
// SDK parses every body as JSON before it looks at the status, so a gateway's
// HTML 502 page would otherwise surface as ClientError.ParseJsonError, which
// says nothing retryable; as a transport error it becomes
// ClientError.NetworkError with the status in its message (see classify).
type statusTransport struct{ base http.RoundTripper }

// RoundTrip sends the request and vets the answer as the type says. It also
// reads every other answer whole and turns one that is not a JSON
// object into a transport error: the SDK panics on a JSON null
// (common/http.TryReadErr, v1.3.211, dereferences the nil it decodes to), and
// a body cut off mid-transfer is a network fault, retried like one.
func (t statusTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		_ = resp.Body.Close() // the answer is discarded: its status is the error
		return nil, fmt.Errorf("http status code: %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	return providers.JSONObjectAnswer(resp)
}
