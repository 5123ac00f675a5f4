package replay

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Alibaba is the wire format of Alibaba Cloud RPC APIs (ECS): the SDK sends
// POST /?Action=...&RegionId=...&<params> with an empty body and reads a JSON
// answer. The region is the RegionId parameter. Answers are never gzipped: the
// Alibaba SDK sends Accept-Encoding: identity and fails on a gzip body.
var Alibaba = Dialect{
	Decode: func(r *http.Request, body []byte) (Request, error) {
		req := newRequest(r, body, "ecs")
		addValues(req.Params, r.URL.Query())
		// Some RPC clients send the parameters as a form body instead.
		if len(body) > 0 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
			form, err := url.ParseQuery(string(body))
			if err != nil {
				return req, fmt.Errorf("alibaba form: %w", err)
			}
			addValues(req.Params, form)
		}
		req.Action = req.Params["Action"]
		req.Region = req.Params["RegionId"]
		if req.Action == "" {
			return req, fmt.Errorf("no Action parameter in %q", r.URL.RawQuery)
		}
		return req, nil
	},
	NotFound: func(req Request) (int, string, string) {
		return 404, "application/json", AlibabaError("InvalidAction.NotFound", nothingRecorded(req))
	},
}

// AlibabaError is an Alibaba RPC error body, as the ECS API sends it with a
// non-2xx status (Throttling comes with 400).
func AlibabaError(code, message string) string {
	return fmt.Sprintf(`{"RequestId":"00000000-0000-0000-0000-000000000000","HostId":"ecs.aliyuncs.com","Code":%q,"Message":%q,"Recommend":"https://api.aliyun.com/troubleshoot?q=%s&product=Ecs"}`,
		code, message, url.QueryEscape(code))
}
