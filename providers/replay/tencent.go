package replay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
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
		req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Params: map[string]string{}, Service: "cvm"}
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
		tencentFlatten("", in, req.Params)
		if m, ok := in.(map[string]any); ok {
			if fs, ok := m["Filters"].([]any); ok {
				for _, f := range fs {
					fm, _ := f.(map[string]any)
					name, _ := fm["Name"].(string)
					var vals []string
					if vs, ok := fm["Values"].([]any); ok {
						for _, v := range vs {
							vals = append(vals, tencentScalar(v))
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
		return 200, "application/json", TencentError("ResourceNotFound",
			"replay: nothing recorded for "+req.Action+" in "+req.Region)
	},
}

// TencentError is a Tencent Cloud API 3.0 error body; the API sends it with
// HTTP 200.
func TencentError(code, message string) string {
	return fmt.Sprintf(`{"Response":{"Error":{"Code":%q,"Message":%q},"RequestId":"00000000-0000-0000-0000-000000000000"}}`, code, message)
}

func tencentFlatten(prefix string, v any, out map[string]string) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			tencentFlatten(join(k), x[k], out)
		}
	case []any:
		for i, e := range x {
			tencentFlatten(join(strconv.Itoa(i)), e, out)
		}
	default:
		out[prefix] = tencentScalar(x)
	}
}

func tencentScalar(v any) string {
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
