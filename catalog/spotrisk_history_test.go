package catalog

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const bandHead = "provider,region,instance_type,observed_at,band,savings_pct,source\n"

func TestParseBandHistory_Changes(t *testing.T) {
	h, err := ParseBandHistory("b.csv", []byte(bandHead+
		"aws,us-east-1,p3.16xlarge,2019-07-17,>20%,70,s\n"+
		"aws,us-east-1,p3.16xlarge,2025-06-28,>20%,83,s\n"+
		"aws,eu-west-1,p3.16xlarge,2019-07-17,<5%,70,s\n"+
		"aws,eu-west-1,p3.16xlarge,2025-06-28,10-15%,60,s\n"+
		"aws,us-east-1,p4d.24xlarge,2025-06-28,10-15%,67,s\n"+
		"aws,us-east-1,p2.xlarge,2019-07-17,<5%,70,s\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := func(s string) time.Time { t, _ := time.Parse("2006-01-02", s); return t }
	got, err := h.Changes(d("2019-07-17"), d("2025-06-28"))
	if err != nil {
		t.Fatal(err)
	}
	want := []BandChange{
		{AWS, "us-east-1", "p2.xlarge", BandUnder5, ""},
		{AWS, "eu-west-1", "p3.16xlarge", BandUnder5, Band10To15},
		{AWS, "us-east-1", "p4d.24xlarge", "", Band10To15},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if s := h.Of(AWS, "p3.16xlarge")["eu-west-1"]; len(s) != 2 || s[1].Band != Band10To15 {
		t.Errorf("series %+v", s)
	}
	if _, err := h.Changes(d("2020-01-01"), d("2025-06-28")); err == nil || !strings.Contains(err.Error(), "2019-07-17, 2025-06-28") {
		t.Errorf("a day without a copy: %v", err)
	}
}

func TestParseBandHistory_Errors(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"a,b\n", "columns"},
		{bandHead + "aws,us-east-1,p3.2xlarge,2019-7-1,<5%,1,s\n", "b.csv:2: observed_at"},
		{bandHead + "aws,us-east-1,p3.2xlarge,2019-07-01,<6%,1,s\n", "b.csv:2: interruption band"},
		{bandHead + "aws,us-east-1,p3.2xlarge,2019-07-01,<5%,x,s\n", "savings_pct"},
		{bandHead + "oracle,us-east-1,p3.2xlarge,2019-07-01,<5%,1,s\n", "b.csv:2"},
		{bandHead + "aws,us-east-1,p3.2xlarge,2019-07-01,<5%,1,s\naws,us-east-1,p3.2xlarge,2019-07-01,<5%,2,s\n", `b.csv:3: "p3.2xlarge" in "us-east-1" on 2019-07-01 is given twice`},
		{bandHead + "aws,,p3.2xlarge,2019-07-01,<5%,1,s\n", "must not be empty"},
	} {
		if _, err := ParseBandHistory("b.csv", []byte(tc.body)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.body, err, tc.want)
		}
	}
}

func FuzzParseBandHistory(f *testing.F) {
	f.Add([]byte(bandHead + "aws,us-east-1,p3.16xlarge,2019-07-17,>20%,70,s\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ParseBandHistory("f.csv", b)
		if err != nil {
			return
		}
		for _, o := range h.Observations {
			if o.Band.Index() < 0 {
				t.Fatalf("band %q accepted", o.Band)
			}
		}
	})
}
