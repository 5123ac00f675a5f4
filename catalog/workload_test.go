package catalog

import (
	"strings"
	"testing"
)

func TestParseRateUnit(t *testing.T) {
	tests := []struct {
		unit    string
		work    string
		seconds string
		perWork bool
		err     bool
	}{
		{"tokens/s", "tokens", "1", false, false},
		{"images/min", "images", "60", false, false},
		{"TFLOP/s", "TFLOP", "1", false, false},
		{"s/frame", "frame", "1", true, false},
		{"ms/image", "image", "0.001", true, false},
		{"h/case", "case", "3600", true, false},
		{"tokens", "", "", false, true},
		{"s/s", "", "", false, true},
		{"tokens/day", "", "", false, true},
		{"a/b/s", "", "", false, true},
		{"/s", "", "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.unit, func(t *testing.T) {
			u, err := ParseRateUnit(tt.unit)
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error %v", err, tt.err)
			}
			if tt.err {
				return
			}
			if u.Work != tt.work || !u.TimeSeconds.Equal(Dec(tt.seconds)) || u.TimePerWork != tt.perWork {
				t.Errorf("ParseRateUnit = %+v", u)
			}
		})
	}
}

func TestParseWorkloads_Errors(t *testing.T) {
	const head = "id,name,category,metric,unit,higher_is_better,cost_per,cost_unit,description\n"
	tests := []struct {
		name, row, want string
	}{
		{"Direction", "x,X,training,throughput,tokens/s,false,1000000,1M tokens,d\n", "w.csv:2: higher_is_better must be true for unit tokens/s"},
		{"TimeDirection", "x,X,rendering,render_time,s/frame,true,1,frame,d\n", "w.csv:2: higher_is_better must be false for unit s/frame"},
		{"Unit", "x,X,training,throughput,tokens per second,true,1,token,d\n", `w.csv:2: unit "tokens per second" is not work/time`},
		{"CostPer", "x,X,training,throughput,tokens/s,true,0,tokens,d\n", "w.csv:2: cost_per 0 must be positive"},
		{"ID", "X Y,X,training,throughput,tokens/s,true,1,token,d\n", `w.csv:2: id "X Y" must be a non-empty lower-case slug`},
		{"Duplicate", "x,X,training,throughput,tokens/s,true,1,token,d\nx,X,training,throughput,tokens/s,true,1,token,d\n", `w.csv:3: duplicate workload "x" (first on line 2)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseWorkloads("w.csv", strings.NewReader(head+tt.row))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err = %v, want prefix %q", err, tt.want)
			}
		})
	}
}

// The committed registry loads and holds the workloads the issue names, each with
// a cost label.
func TestWorkloads_Committed(t *testing.T) {
	r := testWorkloads(t)
	for _, id := range []string{"llm-finetune-7b", "llm-pretrain-70b", "llm-inference-8b", "llm-inference-70b",
		"resnet50-train", "bert-large-train", "sdxl-inference", "yolo-inference", "blender-render",
		"nvenc-transcode-4k", "hpc-fp64-hpl", "openfoam"} {
		w, ok := r.Workload(id)
		if !ok {
			t.Errorf("workload %s missing", id)
			continue
		}
		if w.CostLabel() == "USD per " || w.Description == "" {
			t.Errorf("%s: no cost unit or description", id)
		}
	}
	w, _ := r.Workload("llm-inference-8b")
	if w.CostLabel() != "USD per 1M tokens" || !w.CostPer.Equal(Dec("1000000")) || w.Rate.Work != "tokens" {
		t.Errorf("llm-inference-8b = %+v", w)
	}
	b, _ := r.Workload("blender-render")
	if b.HigherIsBetter || !b.Rate.TimePerWork || b.CostLabel() != "USD per frame" {
		t.Errorf("blender-render = %+v", b)
	}
	if _, ok := r.Workload("nope"); ok {
		t.Error("unknown workload found")
	}
	var nilReg *WorkloadRegistry
	if _, ok := nilReg.Workload("x"); ok || nilReg.IDs() != nil {
		t.Error("nil registry is not empty")
	}
}
