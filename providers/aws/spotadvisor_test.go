package aws

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// The replayed feed is the 2025-06-28 copy: in us-east-1 it has p4d.24xlarge
// (r 2, s 67) and no row for p5e, p6-b200, g6f or trn2.
func TestCrawl_SpotOffersCarryTheAdvisorBand(t *testing.T) {
	srv := harness.Start(t)
	d := crawlRegion(t, srv, "us-east-1")
	var withBand, without int
	noRow := map[string]bool{}
	for i := range d.Offers {
		o := &d.Offers[i]
		switch catalog.InterruptionStatus(o) {
		case catalog.InterruptionHasBand:
			withBand++
		case catalog.InterruptionNoData:
			without++
			noRow[strings.SplitN(o.InstanceType, ".", 2)[0]] = true
		case catalog.InterruptionNotPublished:
			t.Errorf("%s: an AWS spot offer said \"not published\"", o.Key())
		case "":
			if o.Interruption != nil {
				t.Errorf("%s: interruption data on a non-spot offer", o.Key())
			}
		}
	}
	if withBand == 0 || without == 0 {
		t.Errorf("%d spot offers with a band, %d without: want both", withBand, without)
	}
	for fam := range noRow {
		if !map[string]bool{"p5e": true, "p6-b200": true, "g6f": true, "trn2": true, "g7": true, "g7e": true, "p6-b300": true, "gr6f": true, "dl1": true, "g4ad": true}[fam] {
			t.Logf("no advisor row for family %s", fam)
		}
	}
	p4d := findOffer(t, d, "p4d.24xlarge", "us-east-1a", catalog.Spot)
	if in := p4d.Interruption; in == nil || in.Band != catalog.Band10To15 || in.SavingsPct != 67 || !in.ObservedAt.Equal(testNow) {
		t.Errorf("p4d.24xlarge spot interruption %+v, want 10-15%%, 67%% saving, observed at the crawl", in)
	}
	if n := srv.Count(spotAdvisorAction); n != 1 {
		t.Errorf("feed fetched %d times, want once", n)
	}
}

func TestCrawl_AdvisorFeedFetchedOncePerCrawl(t *testing.T) {
	srv := harness.Start(t)
	target := harness.Prepare(t, srv)
	for _, r := range []string{"us-east-1", "us-west-2", "eu-west-1"} {
		if _, err := target.Provider.Crawl(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Count(spotAdvisorAction); n != 1 {
		t.Errorf("feed fetched %d times over three regions, want once", n)
	}
}

// A feed that cannot be fetched (a network that reaches EC2 but not the
// feed's host) is an optional enrichment lost, not data lost (issue 28.16):
// every spot price of a full crawl of three regions is still there, without a
// band; the feed is asked for once (one request and its bounded retries), not
// per region nor in the sweep; the coverage stays ok with one warning.
func TestCrawl_AdvisorFailureKeepsSpotPrices(t *testing.T) {
	regions := []string{"eu-west-1", "us-east-1", "us-west-2"}
	srv := harness.Start(t)
	good, _ := harness.Crawl(t, harness.Unlimited(), harness.Config(srv), regions...)
	wantSpot := 0
	for _, o := range good.Offers {
		if o.Billing == catalog.Spot {
			wantSpot++
		}
	}

	srv = harness.Start(t)
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Action == spotAdvisorAction {
			return &replay.Response{Status: 503, ContentType: "text/plain", Body: "unreachable"}
		}
		return nil
	}
	cfg := harness.Config(srv)
	snap, _ := harness.Crawl(t, harness.Unlimited(), cfg, regions...)
	gotSpot := 0
	for i := range snap.Offers {
		o := &snap.Offers[i]
		if o.Billing != catalog.Spot {
			continue
		}
		gotSpot++
		if st := catalog.InterruptionStatus(o); st != catalog.InterruptionNoData {
			t.Errorf("%s: interruption %q without a feed, want %q (band unknown)", o.Key(), st, catalog.InterruptionNoData)
		}
	}
	if wantSpot == 0 || gotSpot != wantSpot {
		t.Errorf("%d spot offers with the feed down, %d with it up: want all kept", gotSpot, wantSpot)
	}
	if n := srv.Count(spotAdvisorAction); n < 1 || n > cfg.MaxAttempts {
		t.Errorf("feed asked %d times over %d regions, want once with at most %d attempts", n, len(regions), cfg.MaxAttempts)
	}
	if len(snap.Coverage) != 1 {
		t.Fatalf("coverage %+v", snap.Coverage)
	}
	c := snap.Coverage[0]
	if c.Status != catalog.CoverageOK || len(c.FailedTypes) != 0 || c.Swept != 0 {
		t.Errorf("coverage %s with %d failed types and %d swept, want ok with none", c.Status, len(c.FailedTypes), c.Swept)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "Spot Instance Advisor") || !strings.Contains(c.Warnings[0], spotAdvisorAction) {
		t.Errorf("warnings %q, want one naming the feed", c.Warnings)
	}
}

// A new crawl (Regions) asks for a feed that failed in the last one again.
func TestSpotAdvisor_NewCrawlAsksAgain(t *testing.T) {
	srv := harness.Start(t)
	failing := true
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Action == spotAdvisorAction && failing {
			return &replay.Response{Status: 404, ContentType: "text/plain", Body: "gone"}
		}
		return nil
	}
	target := harness.Target(t, srv, 0, 1)
	d, err := target.Provider.Crawl(context.Background(), "us-east-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Warnings) != 1 || len(d.Missing) != 0 {
		t.Fatalf("warnings %q, shortfalls %d: want one warning and no shortfall", d.Warnings, len(d.Missing))
	}
	failing = false
	if _, err := target.Provider.Regions(context.Background()); err != nil {
		t.Fatal(err)
	}
	d, err = target.Provider.Crawl(context.Background(), "us-east-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Warnings) != 0 {
		t.Errorf("warnings %q after the feed came back, want none", d.Warnings)
	}
	if n := srv.Count(spotAdvisorAction); n != 2 {
		t.Errorf("feed asked %d times over two crawls, want twice", n)
	}
}

func TestParseSpotAdvisor_Errors(t *testing.T) {
	ranges := `"ranges":[{"index":0,"label":"<5%"},{"index":1,"label":"5-10%"},{"index":2,"label":"10-15%"},{"index":3,"label":"15-20%"},{"index":4,"label":">20%"}]`
	for _, tc := range []struct{ name, body, want string }{
		{"not json", `<html>`, "not the advisor's JSON"},
		{"four bands", `{"ranges":[{"index":0,"label":"<5%"}],"spot_advisor":{}}`, "ranges: 1 bands"},
		{"relabelled", strings.Replace(`{`+ranges+`,"spot_advisor":{"r":{}}}`, `"<5%"`, `"<3%"`, 1), `label "<3%"`},
		{"no regions", `{` + ranges + `,"spot_advisor":{}}`, "no regions"},
		{"band index", `{` + ranges + `,"spot_advisor":{"us-east-1":{"Linux":{"p4d.24xlarge":{"s":67,"r":7}}}}}`, `spot_advisor["us-east-1"].Linux["p4d.24xlarge"]: r 7`},
		{"saving", `{` + ranges + `,"spot_advisor":{"us-east-1":{"Linux":{"p4d.24xlarge":{"s":300,"r":1}}}}}`, "s 300"},
		{"missing r", `{` + ranges + `,"spot_advisor":{"us-east-1":{"Linux":{"p4d.24xlarge":{"s":3}}}}}`, "needs r and s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseSpotAdvisor([]byte(tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	data, err := parseSpotAdvisor([]byte(`{` + ranges + `,"spot_advisor":{"us-east-1":{"Linux":{"g5.xlarge":{"s":-62,"r":4}},"Windows":{"g5.xlarge":{"s":1,"r":0}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := data["us-east-1"]["g5.xlarge"]; got.band != catalog.BandOver20 || got.savings != -62 {
		t.Errorf("row %+v, want the Linux row: >20%%, -62 (kept as published)", got)
	}
}

func TestSpotAdvisor_SizeLimit(t *testing.T) {
	srv := harness.Start(t)
	big := `{"pad":"` + strings.Repeat("x", maxSpotAdvisorBytes) + `"}`
	srv.Fault = func(req replay.Request, n int) *replay.Response {
		if req.Action == spotAdvisorAction {
			return &replay.Response{Status: 200, ContentType: "application/json", Body: big}
		}
		return nil
	}
	target := harness.Target(t, srv, 0, 1)
	d, err := target.Provider.Crawl(context.Background(), "us-east-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "larger than 16 MiB") {
		t.Fatalf("warnings %q, want the feed refused for its size", d.Warnings)
	}
	if strings.Contains(d.Warnings[0], "xxxxxxxx") {
		t.Error("the error echoes the answer")
	}
}

func FuzzParseSpotAdvisor(f *testing.F) {
	f.Add([]byte(`{"ranges":[{"index":0,"label":"<5%"},{"index":1,"label":"5-10%"},{"index":2,"label":"10-15%"},{"index":3,"label":"15-20%"},{"index":4,"label":">20%"}],"spot_advisor":{"us-east-1":{"Linux":{"g5.xlarge":{"s":59,"r":4}}}}}`))
	f.Add([]byte(`{"ranges":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		data, err := parseSpotAdvisor(b)
		if err != nil {
			return
		}
		for _, rows := range data {
			for _, r := range rows {
				if r.band.Index() < 0 {
					t.Fatalf("band %q accepted", r.band)
				}
			}
		}
	})
}
