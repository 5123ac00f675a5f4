package catalog

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const obsCSVHeader = "provider,instance_type,region,zone,billing,price,price_high,currency,unit,includes,observed_at,observed_until,source,note\n"

func TestParseObservations_CSVAndJSONLines(t *testing.T) {
	csv := obsCSVHeader +
		"tencent,GN7.2XLARGE32,mainland-china,,subscription_month,2250,2500,CNY,month,instance only,2020-08-24T10:00:00+08:00,2020-09-21,https://example.org/p@1,\"cell: 2250 - 2500元/月\"\r\n" +
		"alibaba,ecs.gn6i-c4g1.xlarge,cn-hangzhou,cn-hangzhou-i,spot,2.536,,CNY,hour,Instance Only,2024-06-12,,https://example.org/a@2,\n"
	jsonl := `{"provider":"tencent","instance_type":"GN7.2XLARGE32","region":"mainland-china","billing":"subscription_month","price":"2250","price_high":2500,"currency":"CNY","unit":"month","includes":"instance only","observed_at":"2020-08-24T02:00:00Z","observed_until":"2020-09-21T00:00:00Z","source":"https://example.org/p@1","note":"cell: 2250 - 2500元/月"}` + "\n\n" +
		`{"provider":"alibaba","instance_type":"ecs.gn6i-c4g1.xlarge","region":"cn-hangzhou","zone":"cn-hangzhou-i","billing":"spot","price":2.536,"currency":"CNY","unit":"hour","includes":"instance only","observed_at":"2024-06-12","source":"https://example.org/a@2"}` + "\n"
	want := []ObservationAt{
		{Observation: Observation{Provider: Tencent, InstanceType: "GN7.2XLARGE32", Region: "mainland-china", Billing: SubscriptionMonth,
			Price: Price{Amount: Dec("2250"), Currency: CNY, Unit: PerMonth}, PriceHigh: DecPtr("2500"),
			ObservedAt: time.Date(2020, 8, 24, 2, 0, 0, 0, time.UTC), ObservedUntil: time.Date(2020, 9, 21, 0, 0, 0, 0, time.UTC),
			Source: "https://example.org/p@1", Note: "cell: 2250 - 2500元/月"}, Line: 2},
		{Observation: Observation{Provider: Alibaba, InstanceType: "ecs.gn6i-c4g1.xlarge", Region: "cn-hangzhou", Zone: "cn-hangzhou-i", Billing: Spot,
			Price: Price{Amount: Dec("2.536"), Currency: CNY, Unit: PerHour}, ObservedAt: time.Date(2024, 6, 12, 0, 0, 0, 0, time.UTC),
			Source: "https://example.org/a@2"}, Line: 3},
	}
	for _, tc := range []struct {
		name, data string
		lines      []int
	}{{"obs.csv", csv, []int{2, 3}}, {"obs.jsonl", jsonl, []int{1, 3}}, {"obs.txt", jsonl, []int{1, 3}}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseObservations(tc.name, []byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			w := append([]ObservationAt(nil), want...)
			for i := range w {
				w[i].File, w[i].Line = tc.name, tc.lines[i]
			}
			if diff := cmp.Diff(w, got, decimalEqual); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseObservations_Errors(t *testing.T) {
	row := "aws,p5.48xlarge,us-east-1,,on_demand,98.32,,USD,hour,instance only,2025-06-01T07:21:50Z,,https://example.org/x,\n"
	for _, tc := range []struct {
		name, data, want string
	}{
		{"no header column", "provider,instance_type\n", "obs.csv:1: no \"region\" column"},
		{"unknown column", strings.Replace(obsCSVHeader, "note", "notes", 1), "obs.csv:1: column 14 of the header is not a field name"},
		{"bad price", obsCSVHeader + strings.Replace(row, "98.32", "98,32", 1), "obs.csv:2: malformed CSV"},
		{"exponent price", obsCSVHeader + strings.Replace(row, "98.32", "1e2", 1), "obs.csv:2: price \"1e2\": want a plain decimal"},
		{"zero price", obsCSVHeader + strings.Replace(row, "98.32", "0", 1), "obs.csv:2: price 0: must be above 0"},
		{"range upside down", obsCSVHeader + strings.Replace(row, "98.32,,", "98.32,90,", 1), "obs.csv:2: price_high 90: must be above price 98.32"},
		{"no includes", obsCSVHeader + strings.Replace(row, "instance only", "", 1), "obs.csv:2: includes: required"},
		{"no zone in time", obsCSVHeader + strings.Replace(row, "2025-06-01T07:21:50Z", "2025-06-01T07:21:50", 1), "obs.csv:2: observed_at \"2025-06-01T07:21:50\": want an RFC 3339 time with a zone"},
		{"until before", obsCSVHeader + strings.Replace(row, "Z,,https", "Z,2025-05-01,https", 1), "obs.csv:2: observed_until 2025-05-01T00:00:00Z: must be after observed_at"},
		{"no source", obsCSVHeader + strings.Replace(row, "https://example.org/x", "", 1), "obs.csv:2: source: required"},
		{"unknown billing", obsCSVHeader + strings.Replace(row, "on_demand", "hourly", 1), "obs.csv:2: billing: unknown billing kind \"hourly\""},
		{"unit upfront", obsCSVHeader + strings.Replace(row, "USD,hour", "USD,upfront", 1), "obs.csv:2: unit \"upfront\": want hour, month or year"},
		{"slash in type", obsCSVHeader + strings.Replace(row, "p5.48xlarge", "p5/48", 1), "obs.csv:2: instance_type \"p5/48\": must not contain '/'"},
		{"third row", obsCSVHeader + row + row + strings.Replace(row, "aws", "oracle", 1), "obs.csv:4: provider: unknown provider \"oracle\""},
		{"empty", obsCSVHeader, "obs.csv: no observation records"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseObservations("obs.csv", []byte(tc.data))
			var oe ObservationErrors
			if !errors.As(err, &oe) {
				t.Fatalf("err = %v, want ObservationErrors", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %q, want it to contain %q", err, tc.want)
			}
		})
	}
	t.Run("json unknown field", func(t *testing.T) {
		_, err := ParseObservations("x.jsonl", []byte(`{"provider":"aws","colour":"red"}`))
		if err == nil || !strings.HasPrefix(err.Error(), "x.jsonl:1: not an observation object") || !strings.Contains(err.Error(), "colour") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("many problems stop", func(t *testing.T) {
		data := obsCSVHeader + strings.Repeat(strings.Replace(row, "98.32", "-1", 1), 50)
		_, err := ParseObservations("obs.csv", []byte(data))
		var oe ObservationErrors
		if !errors.As(err, &oe) || len(oe) != maxObservationProblems+1 || !strings.Contains(err.Error(), "stopped after 20 problems") {
			t.Errorf("%d problems listed: %v", len(oe), err)
		}
	})
	t.Run("size limit", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "big.csv")
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), MaxObservationFileBytes+1), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadObservationFile(p); err == nil || !strings.Contains(err.Error(), "larger than 64 MiB") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("long line", func(t *testing.T) {
		_, err := ParseObservations("x.jsonl", append([]byte(`{"note":"`), bytes.Repeat([]byte("y"), maxObservationLine)...))
		if err == nil || !strings.Contains(err.Error(), "x.jsonl:1: line longer than 64 KiB") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestWriteObservationsJSONL_RoundTrip(t *testing.T) {
	obs := []Observation{testObservation("2025-06-05T07:22:36Z", "55.04"), testObservation("2025-06-04T07:23:25Z", "98.32")}
	obs[0].Note = "<b>&</b>"
	var b bytes.Buffer
	if err := WriteObservationsJSONL(&b, obs); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), `{"provider":"aws","instance_type":"p5.48xlarge","region":"us-east-1","billing":"on_demand","price":"98.32","currency":"USD","unit":"hour","includes":"instance only","observed_at":"2025-06-04T07:23:25Z","source":`) {
		t.Errorf("first line = %s", strings.SplitN(b.String(), "\n", 2)[0])
	}
	if !strings.Contains(b.String(), `"note":"<b>&</b>"`) {
		t.Errorf("note escaped: %s", b.String())
	}
	back, err := ParseObservations("x.jsonl", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Observation{obs[1], obs[0]}, []Observation{back[0].Observation, back[1].Observation}, decimalEqual); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// testObservation is an observation of AWS p5.48xlarge on demand in us-east-1.
func testObservation(at, price string) Observation {
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		panic(err)
	}
	return Observation{Provider: AWS, InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: OnDemand,
		Price: Price{Amount: Dec(price), Currency: USD, Unit: PerHour}, ObservedAt: t.UTC(),
		Source: "https://github.com/amorton45/aws-gpu-price-tracker/blob/b81b52d09be8a9c9dcc8fad26adeee559004c23e/gpu_prices.csv"}
}

func FuzzParseObservations(f *testing.F) {
	f.Add("obs.csv", obsCSVHeader+"aws,p5.48xlarge,us-east-1,,on_demand,98.32,,USD,hour,instance only,2025-06-01,,https://x,\n")
	f.Add("obs.jsonl", `{"provider":"tencent","instance_type":"GN7.2XLARGE32","region":"mainland-china","billing":"subscription_month","price":"2250","price_high":"2500","currency":"CNY","unit":"month","includes":"instance only","observed_at":"2020-08-24","source":"s"}`)
	f.Add("obs.csv", "provider\n\"unterminated")
	f.Fuzz(func(t *testing.T, name, data string) {
		got, err := ParseObservations(name, []byte(data))
		if err != nil {
			if got != nil {
				t.Fatalf("records and an error: %v", err)
			}
			// Every problem is one line that names the file, and none
			// repeats a line of it: an error never echoes the content.
			for _, line := range strings.Split(strings.TrimPrefix(err.Error(), name), "\n"+name) {
				if len(line) > 1000 {
					t.Fatalf("a problem of %d bytes: %.200q", len(line), line)
				}
			}
			if header, _, _ := strings.Cut(data, "\n"); len(header) > 120 && strings.Contains(err.Error(), header) {
				t.Fatalf("the error repeats the first line: %v", err)
			}
			return
		}
		for _, o := range got {
			if err := o.Validate(); err != nil {
				t.Fatalf("%s: accepted an invalid observation: %v", o.Where(), err)
			}
			b, err := MarshalObservation(o.Observation)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ParseObservations("again.jsonl", b)
			if err != nil || !sameObservation(&back[0].Observation, &o.Observation) {
				t.Fatalf("round trip of %s: %v", b, err)
			}
		}
	})
}
