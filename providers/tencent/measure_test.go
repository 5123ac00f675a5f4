package tencent

import (
	"os"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// TestMeasure_FullReplayCrawl crawls every region of the real-data replay with
// the production Factory (its rate limit included) and logs the measured
// figures. It takes minutes, so it runs only with GPUATLAS_MEASURE=1.
func TestMeasure_FullReplayCrawl(t *testing.T) {
	if os.Getenv("GPUATLAS_MEASURE") == "" {
		t.Skip("set GPUATLAS_MEASURE=1 to measure a full crawl at the production rate")
	}
	for _, tc := range []struct {
		name    string
		factory providers.Factory
	}{{"unlimited", unlimited()}, {"production", Factory}} {
		srv := startReplay(t, "testdata/replay")
		target := providers.Prepare(tc.factory, testConfig(srv))
		start := time.Now()
		snap, err := providers.Crawl(t.Context(), []providers.Target{target}, providers.Options{Clock: func() time.Time { return fixedNow }})
		if err != nil {
			t.Fatal(err)
		}
		wall := time.Since(start)
		cov := snap.Coverage[0]
		suspect := 0
		for _, o := range snap.Offers {
			if o.Suspect != "" {
				suspect++
			}
		}
		t.Logf("%s: status=%s regions=%d failed=%d requests=%d peak/s=%d wall=%s instances=%d placements=%d offers=%d suspect=%d",
			tc.name, cov.Status, cov.Regions, len(cov.FailedRegions), target.Transport.Requests(), target.Transport.PeakPerSecond(),
			wall.Round(time.Millisecond), len(snap.Instances), len(snap.Placements), len(snap.Offers), suspect)
		if cov.Status != catalog.CoverageOK {
			t.Errorf("coverage = %+v", cov)
		}
	}
}
