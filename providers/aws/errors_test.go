package aws

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"net/http"
	"strings"
	"testing"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

func TestClassify(t *testing.T) {
	httpErr := func(status int, err error) error {
		return &awshttp.ResponseError{ResponseError: &smithyhttp.ResponseError{Response: &smithyhttp.Response{Response: &http.Response{StatusCode: status}}, Err: err}}
	}
	api := func(code string) error { return &smithy.GenericAPIError{Code: code, Message: "m"} }
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"ec2 throttling", httpErr(503, api("RequestLimitExceeded")), providers.ErrThrottled},
		{"pricing throttling", httpErr(429, api("ThrottlingException")), providers.ErrThrottled},
		{"auth failure", httpErr(401, api("AuthFailure")), providers.ErrAuth},
		{"region not enabled", httpErr(401, api("OptInRequired")), providers.ErrAuth},
		{"internal error", httpErr(500, api("InternalError")), providers.ErrUnavailable},
		{"not found code", httpErr(400, api("InvalidRegion.NotFound")), providers.ErrNotFound},
		{"unknown code, 503", httpErr(503, api("Whatever")), providers.ErrUnavailable},
		{"unknown code, 403", httpErr(403, api("Whatever")), providers.ErrAuth},
		{"unknown code, 400", httpErr(400, api("InvalidParameterValue")), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := callErrors(nil).Wrap(tc.err, "test", "")
			for _, class := range []error{providers.ErrThrottled, providers.ErrAuth, providers.ErrNotFound, providers.ErrUnavailable} {
				if is := errors.Is(got, class); is != errors.Is(class, tc.want) {
					t.Errorf("errors.Is(classify(err), %v) = %v", class, is)
				}
			}
			var apiErr smithy.APIError
			if !errors.As(got, &apiErr) {
				t.Error("classify lost the SDK error")
			}
			if d := callDetail(t, got); d != tc.err.Error() {
				t.Errorf("text %q, want the SDK's %q", d, tc.err)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	base := errors.New("token AKIDX and secret S3CR3T were refused")
	got := callErrors([]string{"S3CR3T", "AKIDX"}).Wrap(base, "test", "")
	if want := "aws: test: token [redacted] and secret [redacted] were refused"; got.Error() != want {
		t.Errorf("redact() = %q, want %q", got, want)
	}
	if !errors.Is(got, base) {
		t.Error("redact lost the chain")
	}
	if plain := errors.New("nothing secret"); callDetail(t, callErrors([]string{"S3CR3T"}).Wrap(plain, "test", "")) != plain.Error() {
		t.Error("redact changed an error without secrets")
	}
}

// callDetail is the Detail of the CallError err is or wraps.
func callDetail(t *testing.T, err error) string {
	t.Helper()
	var ce *providers.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("%v is not a CallError", err)
	}
	return ce.Detail
}

// A server that echoes the request's Authorization header (SigV4:
// Credential=AKIA.../date/region/service/aws4_request, Signature=...) and
// query in its error message never gets them into an error's text.
func TestErrors_EchoedRequestIsRedacted(t *testing.T) {
	harness.CheckEchoRedacted(t, "us-east-1", func(req replay.Request, echo string) *replay.Response {
		if req.Service == "pricing" {
			msg, _ := json.Marshal(echo)
			return &replay.Response{Status: 403, ContentType: "application/x-amz-json-1.1",
				Body: `{"__type":"UnrecognizedClientException","Message":` + string(msg) + `}`}
		}
		var msg strings.Builder
		_ = xml.EscapeText(&msg, []byte(echo))
		return &replay.Response{Status: 401, ContentType: "text/xml",
			Body: `<Response><Errors><Error><Code>AuthFailure</Code><Message>` + msg.String() + `</Message></Error></Errors><RequestID>r4</RequestID></Response>`}
	})
}
