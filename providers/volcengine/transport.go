package volcengine

import (
	"net/http"

	"github.com/gpuatlas/gpuatlas/providers"
)

type roundTripperFunc func(*http.Request) (*http.Response, error)

// jsonAnswers reads each answer whole and turns one that is not a JSON object
// (a gateway's HTML page, a body cut off mid-transfer, null) into a transport
// error.
// The SDK would otherwise print "Unmarshal err, ..." or "read volcenginebody
// err, ..." to standard output (volcenginequery, v1.1.35), which corrupts
// `gpuatlas crawl --out -`, and return an error that says nothing retryable; as
// a transport error it is the SDK's RequestError, which is retried as
// unavailable and names the status in the region's failure.
func jsonAnswers(base http.RoundTripper) roundTripperFunc {
	return func(req *http.Request) (*http.Response, error) {
		resp, err := base.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		// An object only: the SDK dereferences a nil response for a JSON null
		// (panic in volcenginequery.processBodyError, v1.1.35).
		return providers.JSONObjectAnswer(resp)
	}
}

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
