package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// fakeCredentials are distinctive test credentials for every provider; none
// may appear in any output.
var fakeCredentials = map[string]string{
	"AWS_ACCESS_KEY_ID":               "AKIAE2EFAKEKEYID7Q3Z",
	"AWS_SECRET_ACCESS_KEY":           "e2eFakeAwsSecret/Zq8vR2xLk5Wm9Tn4Ys7Bd3Hc6Jf1Gp0",
	"AWS_SESSION_TOKEN":               "e2eFakeAwsSessionTokenQWxhZGRpbjpvcGVuIHNlc2FtZQ",
	"AWS_REGION":                      "us-east-1",
	"ALIBABA_CLOUD_ACCESS_KEY_ID":     "LTAI5tE2eFakeKeyId8XkQ",
	"ALIBABA_CLOUD_ACCESS_KEY_SECRET": "e2eFakeAlibabaSecretVd93kLmQ0pZr",
	"TENCENTCLOUD_SECRET_ID":          "AKIDe2eFakeTencentId5mNq2Lp7Rv",
	"TENCENTCLOUD_SECRET_KEY":         "e2eFakeTencentKeyTy6Wq1Zx8Cv3Bn",
	"HUAWEICLOUD_SDK_AK":              "E2EFAKEHUAWEIAKQ7W2",
	"HUAWEICLOUD_SDK_SK":              "e2eFakeHuaweiSkPl0Ok9Ij8Uh7Yg6Tf",
	"VOLCENGINE_ACCESS_KEY":           "AKLTe2eFakeVolcAccessKeyM4n5",
	"VOLCENGINE_SECRET_KEY":           "e2eFakeVolcSecretKeyWq2Er4Ty6Ui8",
	"AZURE_SUBSCRIPTION_ID":           "11111111-2222-3333-4444-555555555555",
	"AZURE_TENANT_ID":                 "replay-tenant", // the tenant the replay's OpenID configuration names
	"AZURE_CLIENT_ID":                 "e2e-fake-azure-client",
	"AZURE_CLIENT_SECRET":             "e2eFakeAzureSecret~Hj5Kl8Mn2Pq4Rs",
	"GOOGLE_CLOUD_PROJECT":            "e2e-fake-gcp-project", // a name in every URL, not a secret
	// GOOGLE_APPLICATION_CREDENTIALS: a file fakeCredentialsEnv writes, holding fakeGCPKey.
}

// fakeGCPKey are the secrets of the Google Cloud credentials file (a service
// account key). Over the replay's plain http no token is asked for or sent,
// but the adapter reads the file: nothing of it may reach an output.
var fakeGCPKey = map[string]string{
	"private_key_id": "e2eFakeGcpKeyId4Rt6Yu8Io0Pa",
	"private_key":    "e2eFakeGcpPrivateKeyZx3Cv5Bn7Mq9Lw1",
}

// notSecret are the fake values that name things rather than grant access.
var notSecret = map[string]bool{"AWS_REGION": true, "GOOGLE_CLOUD_PROJECT": true}

// secretValues are the fake secrets to search the outputs for.
func secretValues() map[string]string {
	out := map[string]string{}
	for k, v := range fakeCredentials {
		if !notSecret[k] {
			out[k] = v
		}
	}
	for k, v := range fakeGCPKey {
		out["gcp "+k] = v
	}
	return out
}

// authFailure is each provider's answer to credentials it does not accept.
func authFailure(p catalog.Provider, req replay.Request) *replay.Response {
	switch p {
	case catalog.AWS:
		return &replay.Response{Status: 401, ContentType: "text/xml", Body: `<Response><Errors><Error><Code>AuthFailure</Code><Message>AWS was not able to validate the provided access credentials</Message></Error></Errors><RequestID>x</RequestID></Response>`}
	case catalog.Alibaba:
		return &replay.Response{Status: 404, ContentType: "application/json", Body: replay.AlibabaError("InvalidAccessKeyId.NotFound", "Specified access key is not found.")}
	case catalog.Tencent:
		return &replay.Response{Status: 200, ContentType: "application/json", Body: replay.TencentError("AuthFailure.SecretIdNotFound", "The SecretId is not found")}
	case catalog.Huawei:
		return &replay.Response{Status: 401, ContentType: "application/json", Body: `{"error_code":"APIGW.0301","error_msg":"Incorrect IAM authentication information: verify aksk signature fail"}`}
	case catalog.Azure:
		return &replay.Response{Status: 401, ContentType: "application/json", Body: replay.AzureError("InvalidAuthenticationToken", "The access token is invalid.")}
	case catalog.GCP:
		return &replay.Response{Status: 401, ContentType: "application/json",
			Body: replay.GCPError(401, "UNAUTHENTICATED", "authError", "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.")}
	}
	return &replay.Response{Status: 401, ContentType: "application/json", Body: `{"ResponseMetadata":{"RequestId":"x","Action":"` + req.Action + `","Error":{"Code":"InvalidAccessKey","Message":"invalid access key"}}}`}
}

// fakeCredentialsEnv is a child's environment with the fake credentials of
// every provider and no AWS configuration files.
func fakeCredentialsEnv(t *testing.T) []string {
	t.Helper()
	vars := map[string]string{"AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull}
	for k, v := range fakeCredentials {
		vars[k] = v
	}
	key, err := json.Marshal(map[string]string{"type": "service_account", "project_id": fakeCredentials["GOOGLE_CLOUD_PROJECT"],
		"private_key_id": fakeGCPKey["private_key_id"], "private_key": fakeGCPKey["private_key"],
		"client_email": "e2e@e2e-fake-gcp-project.iam.gserviceaccount.com", "token_uri": "https://oauth2.googleapis.com/token"})
	if err != nil {
		t.Fatal(err)
	}
	vars["GOOGLE_APPLICATION_CREDENTIALS"] = filepath.Join(t.TempDir(), "gcp-key.json")
	if err := os.WriteFile(vars["GOOGLE_APPLICATION_CREDENTIALS"], key, 0o600); err != nil {
		t.Fatal(err)
	}
	return childEnv(t, vars)
}

// searchFiles calls search with the path and bytes of every file under dir
// it can read, and returns how many it read.
func searchFiles(dir string, search func(name string, b []byte)) int {
	files := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil {
			files++
			search(p, b)
		}
		return nil
	})
	return files
}

// Crawls with distinctive fake credentials against every replay, with requests
// that fail, time out, are reset or are refused as unauthorised, never show a
// credential: not on stdout or stderr, not in the snapshot, the history, the
// site or the export.
func TestCredentials_NeverInAnyOutput(t *testing.T) {
	bin := gpuatlasBinary(t)
	set := startReplays(t)
	env := fakeCredentialsEnv(t)
	w := newWorkspace(t)
	var outputs bytes.Buffer
	runAll := func(args []string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = &outputs, &outputs
		start := time.Now()
		_ = cmd.Run()
		t.Logf("%s took %s", args[0], time.Since(start).Round(time.Millisecond))
	}
	// A clean crawl, then one with faults of every kind, timeouts and refused
	// credentials in some calls, then a crawl to stdout.
	runAll(w.crawlArgs(set))
	for p, srv := range set.Servers {
		in := &faulttest.Injector{Provider: p, Seed: 3, Rate: 0.5, MaxConsecutive: 3,
			Kinds:    []faulttest.Kind{faulttest.Throttle, faulttest.ServerError, faulttest.Reset, faulttest.Stall, faulttest.Truncated, faulttest.Malformed},
			StallFor: time.Second}
		srv.Fault = faulttest.Chain(func(req replay.Request, n int) *replay.Response {
			if n%7 == 3 {
				return authFailure(p, req)
			}
			return nil
		}, in.Fault)
	}
	args := append(w.crawlArgs(set), "--request-timeout", "300ms", "--accept-drop", "--accept-price-change")
	runAll(args)
	runAll(append(w.crawlArgs(set)[:0:0], append(args, "--out", "-", "--no-history")...))
	runAll(w.buildArgs())
	runAll([]string{"export", "--catalog", w.catalog, "--format", "json"})
	runAll([]string{"diff", w.catalog, w.catalog})

	if !strings.Contains(outputs.String(), "failed region") && !strings.Contains(outputs.String(), "stale") {
		t.Fatalf("the faulty crawl reported no failure; the test did not exercise error paths:\n%.3000s", outputs.String())
	}
	search := func(name string, b []byte) {
		for k, v := range secretValues() {
			if bytes.Contains(b, []byte(v)) {
				i := bytes.Index(b, []byte(v))
				lo, hi := max(0, i-200), min(len(b), i+len(v)+50)
				t.Errorf("%s holds %s:\n...%s...", name, k, b[lo:hi])
			}
		}
	}
	search("stdout and stderr", outputs.Bytes())
	files := searchFiles(w.dir, search)
	if files < 10 {
		t.Errorf("searched only %d files", files)
	}
	// The servers saw the credentials (they were used), so the search is
	// meaningful.
	seen := false
	for _, srv := range set.Servers {
		for _, r := range srv.Requests() {
			if strings.Contains(r.Header.Get("Authorization"), fakeCredentials["AWS_ACCESS_KEY_ID"]) {
				seen = true
			}
		}
	}
	if !seen {
		t.Error("the AWS replay never saw the fake access key id")
	}
	t.Logf("searched %d bytes of output and %d files", outputs.Len(), files)
}

// echoKinds are the error answers an echoing server gives, in turn: refused
// credentials (not retried; the region fails), a bad request (not retried; a
// failed type or region) and a server error (retried, swept).
var echoKinds = []struct {
	status int
	code   map[catalog.Provider]string
}{
	{401, map[catalog.Provider]string{catalog.AWS: "AuthFailure", catalog.Alibaba: "IncompleteSignature", catalog.Tencent: "AuthFailure.SignatureFailure",
		catalog.Huawei: "APIGW.0301", catalog.Volcengine: "SignatureDoesNotMatch", catalog.Azure: "InvalidAuthenticationToken", catalog.GCP: "UNAUTHENTICATED"}},
	{400, map[catalog.Provider]string{catalog.AWS: "InvalidParameterValue", catalog.Alibaba: "InvalidParameter", catalog.Tencent: "InvalidParameterValue",
		catalog.Huawei: "Ecs.0005", catalog.Volcengine: "InvalidParameter", catalog.Azure: "InvalidParameter", catalog.GCP: "INVALID_ARGUMENT"}},
	{500, map[catalog.Provider]string{catalog.AWS: "InternalError", catalog.Alibaba: "InternalError", catalog.Tencent: "InternalError",
		catalog.Huawei: "Ecs.0000", catalog.Volcengine: "InternalError", catalog.Azure: "InternalServerError", catalog.GCP: "INTERNAL"}},
}

// echoAnswer is provider p's error answer whose message repeats the request:
// its Authorization header as sent, URL-encoded and base64-encoded, and its
// signed URL with the query, as careless servers do.
func echoAnswer(p catalog.Provider, srvURL string, req replay.Request, kind int) *replay.Response {
	auth := req.Header.Get("Authorization")
	q := url.Values{}
	for k, v := range req.Params {
		q.Set(k, v)
	}
	echo := "request was: Authorization: " + auth + "; encoded " + url.QueryEscape(auth) + "; base64 " +
		base64.StdEncoding.EncodeToString([]byte(auth)) + "; url " + srvURL + req.Path + "?" + q.Encode()
	k := echoKinds[kind%len(echoKinds)]
	code := k.code[p]
	jsonMsg, _ := json.Marshal(echo)
	switch p {
	case catalog.AWS:
		if req.Service == "pricing" {
			return &replay.Response{Status: k.status, ContentType: "application/x-amz-json-1.1", Body: `{"__type":"` + code + `","Message":` + string(jsonMsg) + `}`}
		}
		var msg strings.Builder
		_ = xml.EscapeText(&msg, []byte(echo))
		return &replay.Response{Status: k.status, ContentType: "text/xml",
			Body: `<Response><Errors><Error><Code>` + code + `</Code><Message>` + msg.String() + `</Message></Error></Errors><RequestID>r</RequestID></Response>`}
	case catalog.Alibaba:
		return &replay.Response{Status: k.status, ContentType: "application/json", Body: replay.AlibabaError(code, echo)}
	case catalog.Tencent:
		return &replay.Response{Status: 200, ContentType: "application/json", Body: replay.TencentError(code, echo)}
	case catalog.Huawei:
		return &replay.Response{Status: k.status, ContentType: "application/json",
			Body: `{"error_code":"` + code + `","error_msg":` + string(jsonMsg) + `,"request_id":"r"}`}
	case catalog.Azure:
		return &replay.Response{Status: k.status, ContentType: "application/json", Body: replay.AzureError(code, echo)}
	case catalog.GCP:
		return &replay.Response{Status: k.status, ContentType: "application/json", Body: replay.GCPError(k.status, code, "e2e", echo)}
	}
	return &replay.Response{Status: k.status, ContentType: "application/json",
		Body: `{"ResponseMetadata":{"RequestId":"r","Action":"` + req.Action + `","Error":{"CodeN":100010,"Code":"` + code + `","Message":` + string(jsonMsg) + `}}}`}
}

// credentialForms are the ways a value can appear in an output: as it is,
// URL-encoded, and base64-encoded on its own or inside a longer encoded text
// (each of the three alignments, without the characters its neighbours
// share), in standard and URL-safe alphabets.
func credentialForms(v string) []string {
	forms := []string{v, url.QueryEscape(v), url.PathEscape(v)}
	for shift := range 3 {
		pad := strings.Repeat("\x00", shift)
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			s := enc.EncodeToString([]byte(pad + v))
			// The first (shift*8+5)/6 characters mix in the padding and the
			// last few the text after v: keep what v alone decides.
			lo, hi := (shift*8+5)/6, (len(pad+v)*8)/6
			if hi-lo >= 8 {
				forms = append(forms, s[lo:hi])
			}
		}
	}
	return forms
}

// Every provider's servers answer a share of requests with errors that echo
// the request's Authorization header (plain, URL-encoded and base64) and its
// signed URL, as refused credentials, bad requests and server errors; the
// real gpuatlas binary crawls, then builds the site. No key id or secret of
// any of the providers (nor the secrets of the Google Cloud key file), in any of those forms, reaches stderr or stdout,
// the snapshot (its coverage), history.jsonl or any file of the built site,
// while the echoes did reach the crawl's reports (so redaction was tested).
func TestCredentials_EchoedAuthorizationNeverInAnyOutput(t *testing.T) {
	bin := gpuatlasBinary(t)
	set := startReplays(t)
	env := fakeCredentialsEnv(t)
	w := newWorkspace(t)
	var outputs bytes.Buffer
	run := func(args []string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = &outputs, &outputs
		_ = cmd.Run()
	}
	run(w.crawlArgs(set)) // a clean crawl first: a history, data to keep
	// echoEvery answers every request whose number in this crawl (per
	// provider, from 0) is first modulo every with an echo.
	echoEvery := func(first, every int64) {
		for p, srv := range set.Servers {
			var k atomic.Int64
			srv.Fault = func(req replay.Request, _ int) *replay.Response {
				if n := k.Add(1) - 1; n%every == first {
					return echoAnswer(p, srv.URL, req, int(n/every))
				}
				return nil
			}
		}
	}
	// The first request of each provider (its region list, where it asks
	// for one: the provider fails and is kept stale, the message in
	// coverage) and every third after it; then a crawl whose region lists
	// pass, so that regions and types fail with echoes.
	echoEvery(0, 3)
	run(w.crawlArgs(set))
	echoEvery(1, 4)
	run(w.crawlArgs(set))
	run(w.buildArgs())

	out := outputs.String()
	if !strings.Contains(out, "request was: Authorization") {
		t.Fatalf("no echoed request reached the crawl's output; the test did not exercise redaction:\n%.4000s", out)
	}
	// Each provider's echoes reached its reports: a line names the provider
	// and carries an echo.
	for _, p := range catalog.Providers {
		echoed := false
		for _, line := range strings.Split(out, "\n") {
			echoed = echoed || (strings.Contains(line, string(p)+":") && strings.Contains(line, "request was:"))
		}
		if !echoed {
			t.Errorf("no line of the output reports an echo from %s; its redaction was not tested", p)
		}
	}
	var secrets []string
	for _, v := range secretValues() {
		secrets = append(secrets, v)
	}
	// What the servers saw: the credential each provider signed with. Google
	// Cloud sends none to a plain-http endpoint (no token to sign or ask
	// for): its server must have seen requests, none with a credential.
	seen := map[catalog.Provider]bool{}
	for p, srv := range set.Servers {
		if p == catalog.GCP {
			reqs := srv.Requests()
			seen[p] = len(reqs) > 0
			for _, r := range reqs {
				if a := r.Header.Get("Authorization"); a != "" {
					t.Errorf("gcp: a request to the plain-http replay carries Authorization %.20q", a)
				}
			}
			continue
		}
		for _, r := range srv.Requests() {
			// Azure's secret goes in the token request's form body.
			a := r.Header.Get("Authorization") + " " + r.Params["AccessKeyId"] + " " + string(r.Body)
			for _, v := range secrets {
				if strings.Contains(a, v) {
					seen[p] = true
				}
			}
		}
	}
	if len(seen) != len(set.Servers) {
		t.Fatalf("only %v sent a fake key id; the search would prove nothing", seen)
	}
	search := func(name string, b []byte) {
		for _, v := range secrets {
			for _, f := range credentialForms(v) {
				if i := bytes.Index(b, []byte(f)); i >= 0 {
					lo, hi := max(0, i-200), min(len(b), i+len(f)+50)
					t.Errorf("%s holds %q (a form of %q):\n...%s...", name, f, v, b[lo:hi])
				}
			}
		}
	}
	search("stdout and stderr", outputs.Bytes())
	files := searchFiles(w.dir, search)
	for _, f := range []string{w.catalog, w.history, filepath.Join(w.site, "index.html")} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s was not written: %v", f, err)
		}
	}
	snap, err := catalog.ReadSnapshot(w.catalog)
	if err != nil {
		t.Fatal(err)
	}
	reasons := ""
	for _, c := range snap.Coverage {
		reasons += c.Message
		for _, f := range c.FailedRegions {
			reasons += f.Reason
		}
		for _, f := range c.FailedTypes {
			reasons += f.Reason
		}
	}
	if !strings.Contains(reasons, "request was: Authorization") {
		t.Errorf("no echo reached the snapshot's coverage; the search there proves nothing")
	}
	t.Logf("searched %d bytes of output and %d files for %d credentials in %d forms each", outputs.Len(), files, len(secrets), len(credentialForms(secrets[0])))
}
