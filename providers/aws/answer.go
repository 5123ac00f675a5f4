package aws

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"

	"github.com/gpuatlas/gpuatlas/providers"
)

// checkedAnswer rejects a successful EC2 answer that is not an EC2 XML document.
//
// The EC2 query protocol's deserializer skips a root element it does not know:
// an HTTP 200 carrying a proxy's or gateway's HTML page decodes as an empty
// page without error, and the region would be recorded as crawled with no
// instance types or offers. An answer must be well-formed XML whose root element
// is <ActionResponse> (or <Response>, the error envelope); anything else becomes
// a temporary transport error, which the SDK's retryer retries and which names
// the answer in the region's failure when retries run out.
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
// retryer try again: a gateway page in place of an answer is usually a passing
// fault.
type badAnswer struct{ msg string }

func (e *badAnswer) Error() string   { return e.msg }
func (e *badAnswer) Temporary() bool { return true }
