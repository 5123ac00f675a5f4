package replay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// AWS is the wire format of EC2 (query protocol: form-encoded POST, XML answers)
// and the Price List API (JSON 1.1: X-Amz-Target header, JSON body). The region is
// the signature's credential scope. Pricing requests get their filters as params
// named "filter.<Field>" and NextToken as "NextToken". A GET is the Spot
// Instance Advisor feed (service spotadvisor, action GetSpotAdvisorData for its
// document's path), a public document with no signature.
var AWS = Dialect{
	Decode: func(r *http.Request, body []byte) (Request, error) {
		req := newRequest(r, body, "")
		if r.Method == http.MethodGet {
			req.Service, req.Action = "spotadvisor", "GET "+r.URL.Path
			if r.URL.Path == "/spot-advisor-data.json" {
				req.Action = "GetSpotAdvisorData"
			}
			return req, nil
		}
		req.Region, req.Service = scopeRegion(r.Header.Get("Authorization"))
		if target := r.Header.Get("X-Amz-Target"); target != "" {
			_, action, _ := strings.Cut(target, ".")
			req.Action = action
			req.Service = "pricing"
			var in struct {
				Filters []struct {
					Field, Type, Value string
				}
				ServiceCode   string
				NextToken     string
				FormatVersion string
			}
			if len(body) > 0 {
				if err := json.Unmarshal(body, &in); err != nil {
					return req, fmt.Errorf("pricing body: %w", err)
				}
			}
			for _, f := range in.Filters {
				req.Params["filter."+f.Field] = f.Value
			}
			req.Params["ServiceCode"] = in.ServiceCode
			req.Params["NextToken"] = in.NextToken
			return req, nil
		}
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return req, fmt.Errorf("ec2 form: %w", err)
		}
		addValues(req.Params, form)
		req.Action = form.Get("Action")
		req.Service = "ec2"
		return req, nil
	},
	NotFound: func(req Request) (int, string, string) {
		if req.Service == "spotadvisor" {
			return 404, "application/xml", `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>` + xmlEscape(nothingRecorded(req)) + `</Message></Error>`
		}
		if req.Service == "pricing" {
			return 400, "application/x-amz-json-1.1", `{"__type":"InvalidParameterException","Message":"replay: nothing recorded for this request"}`
		}
		return 400, "text/xml", `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>InvalidParameterValue</Code><Message>` + xmlEscape(nothingRecorded(req)) + `</Message></Error></Errors><RequestID>replay</RequestID></Response>`
	},
}

func xmlEscape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")
	return r.Replace(s)
}
