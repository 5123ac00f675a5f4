package replay

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
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

// Dialect is a provider's wire format: how to read a request and how to say that
// nothing was recorded for it.
type Dialect struct {
	Decode   func(r *http.Request, body []byte) (Request, error)
	NotFound func(req Request) (status int, contentType string, body string)
}

// newRequest starts decoding r: method, path, a copy of the headers, the body,
// and no parameters yet.
func newRequest(r *http.Request, body []byte, service string) Request {
	return Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Params: map[string]string{}, Service: service}
}

// addValues adds query or form values to params, a repeated key's values joined
// by commas.
func addValues(params map[string]string, values map[string][]string) {
	for k, v := range values {
		params[k] = strings.Join(v, ",")
	}
}

// nothingRecorded is the message of every dialect's "nothing recorded" answer.
func nothingRecorded(req Request) string {
	return "replay: nothing recorded for " + req.Action + " in " + req.Region
}

// flatten writes a decoded JSON value into params with dotted keys, list
// elements numbered from first: 1 as query-protocol SDKs name nested parameters
// (Huawei, Volcano Engine: "product_infos.1.id"), 0 as Tencent's paths do
// ("Filters.0.Values.0").
func flatten(prefix string, v any, params map[string]string, first int) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			flatten(join(k), e, params, first)
		}
	case []any:
		for i, e := range x {
			flatten(join(strconv.Itoa(i+first)), e, params, first)
		}
	default:
		params[prefix] = scalar(x)
	}
}

// scalar is a JSON scalar as a parameter value: null is empty, numbers are
// written without exponent.
func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
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
