package compare

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// boundsInput is a valid input with every part the bounds reach: storage,
// egress, an on-demand, a spot (with the interruption model) and a
// commitment option.
func boundsInput() TCOInput {
	rate := catalog.Dec("0.15")
	spot := tcoSpot("s", "1", "0")
	spot.PayAsYouGo.Risk = &TCOSpotRisk{InterruptionsPerMonth: &rate, CheckpointMinutes: catalog.Dec("60"), RestartMinutes: catalog.Dec("10")}
	return TCOInput{Schema: TCOSchema, Workload: tcoWorkload("100", "1", "0", 12),
		Storage: &TCOStorage{GB: catalog.Dec("10"), USDPerGBMonth: catalog.Dec("0.1")},
		Egress:  &TCOEgress{GBPerMonth: catalog.Dec("10"), USDPerGB: catalog.Dec("0.09")},
		Options: []TCOOption{tcoOD("od", "1"), spot, tcoCommit("r", catalog.Reserved1yNoUpfront, "500", "0", 12, 1)}}
}

// A TCO input file is held to the ranges of the tco flags that set the same
// figures (one table, TCOBounds), and every figure only a file holds has a
// range too: 1e5000 hours, 1e400 dollars, an overhead of 2, a figure with
// 400 decimals or 50 digits are refused, naming the field and the flag.
func TestTCO_InputBounds(t *testing.T) {
	if _, err := TCO(boundsInput()); err != nil {
		t.Fatalf("the valid input: %v", err)
	}
	d := catalog.Dec
	tests := []struct {
		name string
		set  func(in *TCOInput)
		want string
	}{
		{"1e5000 hours", func(in *TCOInput) { in.Workload.JobSize = d("1e5000") }, `workload.job_size "1e+5000": out of range: want more than 0 and at most 7,440,000 (as --hours-per-month)`},
		{"gpu-hours", func(in *TCOInput) {
			in.Workload.WorkUnit, in.Workload.JobSize = WorkUnitGPUHour+"nvidia-v100-sxm2-16gb", d("1000001")
		}, "(as --job-gpu-hours)"},
		{"tokens", func(in *TCOInput) { in.Workload.WorkUnit, in.Workload.JobSize = "tokens", d("1e400") }, "workload.job_size"},
		{"1e500000000", func(in *TCOInput) { in.Workload.IdleHoursPerMonth = decimal.New(1, 500000000) }, `workload.idle_hours_per_month "1e+500000000": out of range`},
		{"1e-500000000", func(in *TCOInput) { in.Workload.Utilisation = decimal.New(1, -500000000) }, "more than 18 digits after the point"},
		{"41 digits", func(in *TCOInput) { in.Workload.JobsPerMonth = d("1" + strings.Repeat("0", 40)) }, "(a number of more than 40 digits)"},
		{"jobs", func(in *TCOInput) { in.Workload.JobsPerMonth = d("1e400") }, "(as --jobs-per-month)"},
		{"utilisation", func(in *TCOInput) { in.Workload.Utilisation = d("0") }, "(as --utilisation)"},
		{"idle", func(in *TCOInput) { in.Workload.IdleHoursPerMonth = d("745") }, `workload.idle_hours_per_month "745": out of range: want 0 to 744 (as --idle-hours)`},
		{"horizon", func(in *TCOInput) { in.Workload.HorizonMonths = 601 }, "(as --months)"},
		{"storage", func(in *TCOInput) { in.Storage.GB = d("1e400") }, "(as --storage-gb)"},
		{"storage price", func(in *TCOInput) { in.Storage.USDPerGBMonth = d("-1") }, "(as --storage-usd-per-gb-month)"},
		{"egress", func(in *TCOInput) { in.Egress.GBPerMonth = d("2e9") }, "(as --egress-gb-per-month)"},
		{"egress price", func(in *TCOInput) { in.Egress.USDPerGB = d("1001") }, "(as --egress-usd-per-gb)"},
		{"overhead of 2", func(in *TCOInput) { in.Options[0].PayAsYouGo.InterruptionOverhead = d("2") },
			`option "od": pay_as_you_go.interruption_overhead "2": out of range: want 0 % to 100 % (as a share: 0 to 1) (as --spot-overhead)`},
		{"checkpoint", func(in *TCOInput) { in.Options[1].PayAsYouGo.Risk.CheckpointMinutes = d("10081") }, "(as --checkpoint-minutes)"},
		{"restart", func(in *TCOInput) { in.Options[1].PayAsYouGo.Risk.RestartMinutes = d("-1") }, "(as --restart-minutes)"},
		{"rate", func(in *TCOInput) { r := d("101"); in.Options[1].PayAsYouGo.Risk.InterruptionsPerMonth = &r }, "(as --interruptions-per-month)"},
		{"instances", func(in *TCOInput) { in.Options[2].Commitment.Instances = 10001 }, "(as --reserved-instances)"},
		{"speed", func(in *TCOInput) { in.Options[0].Speed.WorkPerHour = d("1e400") }, `option "od": speed.work_per_hour`},
		{"hourly price", func(in *TCOInput) { in.Options[0].PayAsYouGo.USDPerHour = d("1e400") }, "pay_as_you_go.usd_per_hour"},
		{"monthly price", func(in *TCOInput) { in.Options[2].Commitment.USDPerMonth = d("1e400") }, "commitment.usd_per_month"},
		{"upfront", func(in *TCOInput) { in.Options[2].Commitment.UpfrontUSD = d("-0.01") }, "commitment.upfront_usd"},
		{"term", func(in *TCOInput) { in.Options[2].Commitment.TermMonths = 1200 }, "commitment.term_months"},
		{"400 decimals", func(in *TCOInput) { in.Options[0].PayAsYouGo.USDPerHour = d("1e-400") }, "more than 18 digits after the point"},
		{"50 digits", func(in *TCOInput) {
			in.Options[0].PayAsYouGo.USDPerHour = d("1." + strings.Repeat("0", 17) + "1" + strings.Repeat("0", 31))
		}, "more than 40 digits"},
		{"long id", func(in *TCOInput) {
			in.Options[0].ID = strings.Repeat("a", 4000)
			in.Options[0].Speed.WorkPerHour = d("0")
		},
			`option "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"…: speed.work_per_hour`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := boundsInput()
			tt.set(&in)
			done := make(chan error, 1)
			go func() { _, err := TCO(in); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("error = %v, want %q", err, tt.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("TCO still computing after 10 s")
			}
		})
	}
}

// The same through JSON, as tco --input reads it: numbers the decoder takes
// (1e5000, 1E400) are held to the bounds, not computed.
func TestTCO_InputBoundsFromJSON(t *testing.T) {
	raw, err := json.Marshal(boundsInput())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"job_size":"100"`, `"job_size":1e5000`, "workload.job_size"},
		{`"usd_per_hour":"1"`, `"usd_per_hour":1E400`, "pay_as_you_go.usd_per_hour"},
		{`"interruption_overhead":"0"`, `"interruption_overhead":"2"`, "interruption_overhead"},
	} {
		text := strings.Replace(string(raw), c.from, c.to, 1)
		if text == string(raw) {
			t.Fatalf("%s is not in the input JSON: %s", c.from, raw)
		}
		var in TCOInput
		if err := json.Unmarshal([]byte(text), &in); err != nil {
			t.Fatalf("%s: %v", c.to, err)
		}
		if _, err := TCO(in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error = %v, want %q", c.to, err, c.want)
		}
	}
}

// Every flag of the table has the range the flags document and a file is
// held to: its maximum passes, the next step above does not.
func TestTCOBounds_EdgesHold(t *testing.T) {
	step := decimal.New(1, -9)
	for _, b := range TCOBounds {
		if err := b.Check(b.Max); err != nil {
			t.Errorf("%s: its maximum %s is refused: %v", b.Field, b.Max, err)
		}
		above := b.Max.Add(step)
		if b.Integer {
			above = b.Max.Add(decimal.NewFromInt(1))
		}
		if err := b.Check(above); err == nil {
			t.Errorf("%s: %s above its maximum passes", b.Field, above)
		}
		if err := b.Check(b.Min); (err == nil) == b.MinOpen {
			t.Errorf("%s: its minimum %s: error %v, open %v", b.Field, b.Min, err, b.MinOpen)
		}
		if b.Flag != "" {
			if got, ok := TCOFlagBound(b.Flag); !ok || got.Field != b.Field {
				t.Errorf("--%s: TCOFlagBound = %+v, %v", b.Flag, got, ok)
			}
		}
	}
}

// A TCO input file's number of a million digits is refused before it is
// read into a decimal (which would take seconds), saying where.
func TestScanTCOInput(t *testing.T) {
	raw, err := json.Marshal(boundsInput())
	if err != nil {
		t.Fatal(err)
	}
	if err := ScanTCOInput("in.json", raw); err != nil {
		t.Fatalf("a valid input: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"job_size":"100"`, "\"job_size\":\n  1" + strings.Repeat("0", 1_000_000), "in.json:2:3: a number of 1000001 characters: at most 64"},
		{`"job_size":"100"`, `"job_size":"1` + strings.Repeat("0", 5000) + `"`, "in.json:1:"},
		{`"id":"od"`, `"id":"` + strings.Repeat("x", 4097) + `"`, "a string of 4097 characters: at most 4096"},
	} {
		text := strings.Replace(string(raw), c.from, c.to, 1)
		start := time.Now()
		err := ScanTCOInput("in.json", []byte(text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40s…: error = %v, want %q", c.to, err, c.want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%.40s…: the scan took %s", c.to, d)
		}
	}
	if err := ScanTCOInput("in.json", []byte("not json")); err != nil {
		t.Errorf("not JSON: %v, want nil (the decoder says what is wrong)", err)
	}
}

func FuzzScanTCOInput(f *testing.F) {
	raw, _ := json.Marshal(boundsInput())
	for _, s := range []string{string(raw), "", "{", `{"a":1e5000}`, `[1,2,"x"]`, `{"workload":{"job_size":"` + strings.Repeat("9", 70) + `"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		err := ScanTCOInput("f.json", b)
		if err == nil {
			return
		}
		if !strings.HasPrefix(err.Error(), "f.json:") {
			t.Fatalf("error without the place: %v", err)
		}
	})
}
