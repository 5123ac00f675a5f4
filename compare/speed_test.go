package compare

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func TestSpecSpeed_FallsBackToACommonFigure(t *testing.T) {
	gpus := scGPUs(t)
	fleet := map[string]catalog.InstanceType{}
	for _, it := range scFleet().Instances {
		fleet[it.Key()] = it
	}
	v100 := fleet["aws/p3.8xlarge"]
	a100 := fleet["aws/p4d.24xlarge"]
	h100 := fleet["aws/p5.48xlarge"]
	ref, err := ReferenceInstance(gpus, "nvidia-v100-sxm2-32gb")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		target, base catalog.InstanceType
		figs         []Figure
		want, expl   string
	}{
		{"bf16 unknown on the V100: fp16 for both", a100, v100, []Figure{FigureBF16, FigureFP16}, "4.992",
			// 8 × 312 / (4 × 125) = 2496 / 500
			"speed_from_specs(figure=fp16, target=2496 TFLOPS, base=500 TFLOPS, ratio=4.992)" +
				"[spec_terms[figure_term(units=8 GPU, each=312 TFLOPS, figure=fp16, model=nvidia-a100-sxm-40gb)]; " +
				"spec_terms[figure_term(units=4 GPU, each=125 TFLOPS, figure=fp16, model=nvidia-v100-sxm2-16gb)]; " +
				"figure_unknown_for(figure=bf16, instance=aws/p3.8xlarge)]"},
		{"reference GPU-hours", a100, ref, []Figure{FigureBF16, FigureFP16}, "19.968",
			// 8 × 312 / 125
			"speed_from_specs(figure=fp16, target=2496 TFLOPS, base=125 TFLOPS, ratio=19.968)" +
				"[spec_terms[figure_term(units=8 GPU, each=312 TFLOPS, figure=fp16, model=nvidia-a100-sxm-40gb)]; " +
				"spec_terms[figure_term(units=1 GPU, each=125 TFLOPS, figure=fp16, model=nvidia-v100-sxm2-32gb)]; " +
				"figure_unknown_for(figure=bf16, instance=1x nvidia-v100-sxm2-32gb)]"},
		{"fp64 for HPC", h100, ref, []Figure{FigureFP64}, "34.158795",
			// 8 × 33.45 / 7.834 = 267.6 / 7.834 = 34.15879499… → 34.158795
			"speed_from_specs(figure=fp64, target=267.6 TFLOPS, base=7.834 TFLOPS, ratio=34.158795)" +
				"[spec_terms[figure_term(units=8 GPU, each=33.45 TFLOPS, figure=fp64, model=nvidia-h100-sxm-80gb)]; " +
				"spec_terms[figure_term(units=1 GPU, each=7.834 TFLOPS, figure=fp64, model=nvidia-v100-sxm2-32gb)]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := SpecSpeed(gpus, tt.target, tt.base, tt.figs)
			if err != nil {
				t.Fatal(err)
			}
			if s.WorkPerHour.String() != tt.want || rs(s.Reason) != tt.expl || s.Basis != Estimated || s.From != SpeedFromSpecs {
				t.Errorf("got %s %s (%s, %s)\nwant %s %s", s.WorkPerHour, rs(s.Reason), s.Basis, s.From, tt.want, tt.expl)
			}
		})
	}
	// The A10's NVENC count is not in the reference: no speed, and the error says why.
	a10 := fleet["alibaba/ecs.gn7i-c8g1.2xlarge"]
	if _, err := SpecSpeed(gpus, a10, fleet["aws/g4dn.xlarge"], []Figure{FigureNVENC}); err == nil ||
		err.Error() != "no speed for alibaba/ecs.gn7i-c8g1.2xlarge relative to aws/g4dn.xlarge: NVENC engines unknown for alibaba/ecs.gn7i-c8g1.2xlarge" {
		t.Errorf("error = %v", err)
	}
}

func TestMeasuredSpeed_PrefersMeasured(t *testing.T) {
	costs := []WorkCost{
		{Provider: catalog.AWS, InstanceType: "p4d.24xlarge", Workload: "llm-finetune-7b", WorkPerHour: catalog.Dec("9000000"), Basis: Estimated, RunRef: "a.csv:2"},
		{Provider: catalog.AWS, InstanceType: "p4d.24xlarge", Workload: "llm-finetune-7b", WorkPerHour: catalog.Dec("7200000"), Basis: Measured, RunRef: "a.csv:3"},
		{Provider: catalog.AWS, InstanceType: "p3.8xlarge", Workload: "llm-finetune-7b", WorkPerHour: catalog.Dec("1800000"), Basis: Measured, RunRef: "a.csv:4"},
	}
	s, ok := RelativeMeasuredSpeed(costs, "llm-finetune-7b", "aws/p4d.24xlarge", "aws/p3.8xlarge")
	// 7200000 / 1800000 = 4, both measured.
	if !ok || s.WorkPerHour.String() != "4" || s.Basis != Measured || s.From != SpeedFromBenchmark {
		t.Errorf("got %+v, %v", s, ok)
	}
	if _, ok := RelativeMeasuredSpeed(costs, "llm-finetune-7b", "aws/p4d.24xlarge", "aws/g6.xlarge"); ok {
		t.Error("a speed without a figure for the base")
	}
}
