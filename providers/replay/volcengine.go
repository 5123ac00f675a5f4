package replay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Volcengine is the wire format of Volcano Engine's OpenAPI (ECS, billing): the
// action and version are query parameters, the region and service come from the
// signature's credential scope ("Credential=AK/20240501/cn-beijing/ecs/request").
// Params are the query parameters; a JSON body (billing's POST calls) is flattened
// into them with dotted keys and 1-based list indices ("ConfigList.1.ConfigurationCode").
var Volcengine = Dialect{
	Decode: func(r *http.Request, body []byte) (Request, error) {
		req := newRequest(r, body, "")
		addValues(req.Params, r.URL.Query())
		if len(body) > 0 && strings.Contains(r.Header.Get("Content-Type"), "json") {
			var v any
			if err := json.Unmarshal(body, &v); err != nil {
				return req, fmt.Errorf("volcengine body: %w", err)
			}
			flatten("", v, req.Params, 1)
		}
		req.Action = req.Params["Action"]
		req.Region, req.Service = scopeRegion(r.Header.Get("Authorization"))
		return req, nil
	},
	NotFound: func(req Request) (int, string, string) {
		meta, _ := json.Marshal(map[string]any{
			"RequestId": "replay", "Action": req.Action, "Version": req.Params["Version"],
			"Service": req.Service, "Region": req.Region,
			"Error": map[string]any{"Code": "NotFound",
				"Message": nothingRecorded(req)},
		})
		return 404, "application/json", `{"ResponseMetadata":` + string(meta) + `}`
	},
}
