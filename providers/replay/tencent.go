package replay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Tencent is the wire format of Tencent Cloud API 3.0 (CVM): POST / with the
// action in X-TC-Action, the region in X-TC-Region and the parameters as a JSON
// body. Params holds the body flattened with dotted paths ("Placement.Zone",
// "Filters.0.Values.0") and, for each element of Filters, "filter.<Name>" with
// its values joined by commas ("filter.instance-charge-type": "SPOTPAID"), so
// that exchanges can be written by filter name instead of position. Errors,
// including "nothing recorded", come back with HTTP 200 and an Error body.
var Tencent = Dialect{
	Decode: func(r *http.Request, body []byte) (Request, error) {
		req := newRequest(r, body, "cvm")
		req.Action = r.Header.Get("X-TC-Action")
		req.Region = r.Header.Get("X-TC-Region")
		if req.Action == "" {
			return req, fmt.Errorf("no X-TC-Action header")
		}
		if len(body) == 0 {
			return req, nil
		}
		var in any
		if err := json.Unmarshal(body, &in); err != nil {
			return req, fmt.Errorf("tencent body: %w", err)
		}
		flatten("", in, req.Params, 0)
		if m, ok := in.(map[string]any); ok {
			if fs, ok := m["Filters"].([]any); ok {
				for _, f := range fs {
					fm, _ := f.(map[string]any)
					name, _ := fm["Name"].(string)
					var vals []string
					if vs, ok := fm["Values"].([]any); ok {
						for _, v := range vs {
							vals = append(vals, scalar(v))
						}
					}
					if name != "" {
						req.Params["filter."+name] = strings.Join(vals, ",")
					}
				}
			}
		}
		return req, nil
	},
	NotFound: func(req Request) (int, string, string) {
		return 200, "application/json", TencentError("ResourceNotFound", nothingRecorded(req))
	},
}

// TencentError is a Tencent Cloud API 3.0 error body; the API sends it with
// HTTP 200.
func TencentError(code, message string) string {
	return fmt.Sprintf(`{"Response":{"Error":{"Code":%q,"Message":%q},"RequestId":"00000000-0000-0000-0000-000000000000"}}`, code, message)
}
