package replay

import (
	"encoding/json"
	"net/http"
	"strings"
)

// GCP is the wire format of the Google Cloud APIs the adapter calls through
// its REST clients: Compute Engine (GET
// /compute/v1/projects/{project}/aggregated/machineTypes and
// .../aggregated/acceleratorTypes) and the Cloud Billing Catalog (GET
// /v1/services/{service}/skus), each JSON with a nextPageToken, and the
// token service (POST /token). The action is "METHOD path" with the project
// written as {project}; Service is compute, billing or oauth2 by the path.
// Params are the query parameters ("pageToken", "filter", "currencyCode").
var GCP = Dialect{
	Decode: func(r *http.Request, body []byte) (Request, error) {
		req := newRequest(r, body, "")
		addValues(req.Params, r.URL.Query())
		segs := strings.Split(r.URL.Path, "/")
		switch {
		case strings.HasPrefix(r.URL.Path, "/compute/"):
			req.Service = "compute"
			if len(segs) > 4 && segs[3] == "projects" {
				req.Params["project"] = segs[4]
				segs[4] = "{project}"
			}
		case strings.HasPrefix(r.URL.Path, "/v1/services/"):
			req.Service = "billing"
		case r.URL.Path == "/token":
			req.Service = "oauth2"
		}
		req.Action = r.Method + " " + strings.Join(segs, "/")
		return req, nil
	},
	NotFound: func(req Request) (int, string, string) {
		return 404, "application/json", GCPError(404, "NOT_FOUND", "notFound", nothingRecorded(req))
	},
}

// GCPError is a Google API error body: the HTTP code, the RPC status, the
// reason of its one error, and the message.
func GCPError(code int, status, reason, message string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"code": code, "message": message, "status": status,
		"errors": []map[string]string{{"message": message, "domain": "global", "reason": reason}},
	}})
	return string(b)
}
