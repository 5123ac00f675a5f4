package e2e

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	}
	return &replay.Response{Status: 401, ContentType: "application/json", Body: `{"ResponseMetadata":{"RequestId":"x","Action":"` + req.Action + `","Error":{"Code":"InvalidAccessKey","Message":"invalid access key"}}}`}
}

// Crawls with distinctive fake credentials against every replay, with requests
// that fail, time out, are reset or are refused as unauthorised, never show a
// credential: not on stdout or stderr, not in the snapshot, the history, the
// site or the export.
func TestCredentials_NeverInAnyOutput(t *testing.T) {
	bin := gpuatlasBinary(t)
	set := startReplays(t)
	vars := map[string]string{"AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull}
	for k, v := range fakeCredentials {
		vars[k] = v
	}
	env := childEnv(t, vars)
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
		for k, v := range fakeCredentials {
			if k == "AWS_REGION" {
				continue
			}
			if bytes.Contains(b, []byte(v)) {
				i := bytes.Index(b, []byte(v))
				lo, hi := max(0, i-200), min(len(b), i+len(v)+50)
				t.Errorf("%s holds %s:\n...%s...", name, k, b[lo:hi])
			}
		}
	}
	search("stdout and stderr", outputs.Bytes())
	files := 0
	_ = filepath.WalkDir(w.dir, func(p string, d fs.DirEntry, err error) error {
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
