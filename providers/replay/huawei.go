package replay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Huawei is the wire format of Huawei Cloud's REST APIs (ECS, IAM, BSS): the action
// is "METHOD path-template", with the project id segment of the path written as
// {project_id} ("GET /v1/{project_id}/cloudservers/flavors"). Huawei does not sign
// the region, so Region is the project id (from X-Project-Id or the path) for
// project-scoped calls, and for BSS price inquiries the region of the first
// product_infos item. Params are the query parameters, plus the JSON body flattened
// with dotted keys and 1-based list indices ("product_infos.1.id"), plus project_id.
var Huawei = Dialect{
	Decode: func(r *http.Request, body []byte) (Request, error) {
		req := newRequest(r, body, "")
		addValues(req.Params, r.URL.Query())
		if len(body) > 0 {
			var v any
			if err := json.Unmarshal(body, &v); err != nil {
				return req, fmt.Errorf("huawei body: %w", err)
			}
			flatten("", v, req.Params, 1)
		}
		project := r.Header.Get("X-Project-Id")
		path := r.URL.Path
		segs := strings.Split(path, "/")
		// Project-scoped paths are /v1/{project_id}/... or /v2.1/{project_id}/...
		if len(segs) > 2 && strings.HasPrefix(segs[1], "v") && (project == "" || segs[2] == project) && looksLikeProjectID(segs[2]) {
			project = segs[2]
			segs[2] = "{project_id}"
			path = strings.Join(segs, "/")
		}
		if project != "" {
			req.Params["project_id"] = project
		}
		req.Action = r.Method + " " + path
		switch {
		case strings.HasPrefix(path, "/v3/"):
			req.Service = "iam"
		case strings.HasPrefix(path, "/v2/bills/"):
			req.Service = "bss"
			req.Region = req.Params["product_infos.1.region"]
		default:
			req.Service = "ecs"
			req.Region = project
		}
		return req, nil
	},
	NotFound: func(req Request) (int, string, string) {
		msg, _ := json.Marshal(nothingRecorded(req))
		if req.Service == "ecs" {
			return 404, "application/json", `{"error":{"code":"Ecs.0114","message":` + string(msg) + `}}`
		}
		return 404, "application/json", `{"error_code":"APIGW.0101","error_msg":` + string(msg) + `}`
	},
}

// looksLikeProjectID tells a project id path segment (32 hex characters on Huawei
// Cloud) from a fixed one such as "cloudservers".
func looksLikeProjectID(s string) bool {
	if len(s) < 16 {
		return false
	}
	for _, c := range s {
		isHex := c >= '0' && c <= '9' || c >= 'a' && c <= 'f'
		if !isHex {
			return false
		}
	}
	return true
}
