package replay

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
)

// Azure is the wire format of the Azure APIs the adapter calls: Resource
// Manager (GET /subscriptions/{id}/providers/Microsoft.Compute/skus), the
// identity service (the tenant's OpenID configuration, its token endpoint,
// instance discovery) and the Retail Prices API (GET /api/retail/prices).
// The adapter sends each to its override with Azure's paths unchanged, so the
// action is "METHOD path", with the subscription and tenant segments written
// as {subscription_id} and {tenant}. Service is arm, login or prices by the
// path; Region is the armRegionName of a price $filter. Params are the query
// parameters ("$filter", "$skip", "$skiptoken", "api-version").
var Azure = Dialect{
	Decode: func(r *http.Request, body []byte) (Request, error) {
		req := newRequest(r, body, "")
		addValues(req.Params, r.URL.Query())
		path := r.URL.Path
		segs := strings.Split(path, "/")
		switch {
		case strings.HasPrefix(path, "/api/retail/prices"):
			req.Service = "prices"
			if m := azureRegionFilter.FindStringSubmatch(req.Params["$filter"]); m != nil {
				req.Region = m[1]
			}
		case len(segs) > 2 && segs[1] == "subscriptions":
			req.Service = "arm"
			req.Params["subscription_id"] = segs[2]
			segs[2] = "{subscription_id}"
		case len(segs) > 2:
			req.Service = "login"
			if segs[1] != "common" {
				req.Params["tenant"] = segs[1]
				segs[1] = "{tenant}"
			}
		}
		req.Action = r.Method + " " + strings.Join(segs, "/")
		return req, nil
	},
	NotFound: func(req Request) (int, string, string) {
		return 404, "application/json", AzureError("NotFound", nothingRecorded(req))
	},
}

var azureRegionFilter = regexp.MustCompile(`armRegionName eq '([^']*)'`)

// AzureError is an Azure Resource Manager error body.
func AzureError(code, message string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": code, "message": message}})
	return string(b)
}
