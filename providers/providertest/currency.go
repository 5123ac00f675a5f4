package providertest

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// NoCurrency is a price answer whose currency a test blanks.
type NoCurrency struct {
	// Action is the replay action of the price answer; API the name the
	// error gives it (the same but for Huawei's REST paths).
	Action, API string
	// Region is the region to crawl.
	Region string
	// Key is the JSON key of the currency in the recorded answer; Field the
	// field the error names.
	Key, Field string
}

// CheckNoCurrency serves c.Action's recorded answers with their currency
// blanked, crawls c.Region and fails t unless what those answers price fails
// with the one error for a price answer without a currency
// (providers.NoCurrency), naming the provider, the API and the field: the
// region, where one call prices all of it, or else the instance types the
// calls price (Coverage.FailedTypes), with no offer from those answers. No
// adapter assumes a currency.
func (h Harness) CheckNoCurrency(t *testing.T, c NoCurrency) {
	t.Helper()
	srv := h.Start(t)
	blank := regexp.MustCompile(`("` + regexp.QuoteMeta(c.Key) + `"\s*:\s*)"[^"]*"`)
	dir := os.DirFS(h.dir())
	srv.Fault = func(req replay.Request, _ int) *replay.Response {
		if req.Action != c.Action {
			return nil
		}
		e, b, ok := faulttest.Recorded(dir, srv.Manifest, req)
		if !ok {
			return nil
		}
		status := e.Status
		if status == 0 {
			status = 200
		}
		return &replay.Response{Status: status, ContentType: e.ContentType, Body: blank.ReplaceAllString(string(b), `$1""`)}
	}
	snap, _ := h.Crawl(t, h.Unlimited(), h.Config(srv), c.Region)
	cov := snap.Coverage[0]
	prefix := string(h.Factory.ID) + ": " + c.API + " in "
	want := providers.ErrNoCurrency.Error() + " (field " + c.Field + ")"
	var reasons []string
	for _, f := range cov.FailedRegions {
		reasons = append(reasons, f.Reason)
	}
	failedType := map[string]bool{}
	for _, f := range cov.FailedTypes {
		reasons = append(reasons, f.Reason)
		failedType[f.InstanceType] = true
	}
	if len(reasons) == 0 || len(cov.FailedRegions) > 1 || (len(cov.FailedRegions) == 1 && cov.FailedRegions[0].Region != c.Region) {
		t.Fatalf("coverage %+v, want %s or its types failed with %q ... %q", cov, c.Region, prefix, want)
	}
	for _, r := range reasons {
		if !strings.Contains(r, prefix) || !strings.Contains(r, want) {
			t.Errorf("reason %q, want %q ... %q", r, prefix, want)
		}
	}
	for _, o := range snap.Offers {
		if o.Price.Currency == "" {
			t.Errorf("offer %s has no currency", o.Key())
		}
	}
	if len(cov.FailedRegions) == 0 {
		t.Logf("%d instance types failed, %d offers from other calls kept", len(failedType), len(snap.Offers))
	}
	t.Log(reasons[0])
}
