package compare

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The capability rule: an unidentified model never fits; training needs
// hardware offered for training; bf16 and fp8 need native support; an unknown
// fact is its own reason, never a yes.
func TestCapabilityMiss(t *testing.T) {
	yes, no, unknown := catalog.CapabilityYes, catalog.CapabilityNo, catalog.CapabilityUnknown
	ampere := Capabilities{Identified: true, Training: yes, NativeBF16: yes, NativeFP8: no}
	volta := Capabilities{Identified: true, Training: yes, NativeBF16: no, NativeFP8: no}
	inferentia2 := Capabilities{Identified: true, Training: no, NativeBF16: yes, NativeFP8: yes}
	unknownGPU := Capabilities{Identified: true}
	for _, c := range []struct {
		name     string
		c        Capabilities
		training bool
		p        Precision
		want     ReasonCode
	}{
		{"unidentified, even for fp16 inference", Capabilities{}, false, FP16, ReasonModelNotIdentified},
		{"A100 trains in bf16", ampere, true, BF16, ""},
		{"A100 has no fp8", ampere, false, FP8, ReasonNoNativeFP8},
		{"V100 has no bf16", volta, true, BF16, ReasonNoNativeBF16},
		{"V100 trains in fp16", volta, true, "", ""},
		{"Inferentia2 does not train", inferentia2, true, BF16, ReasonInferenceOnly},
		{"Inferentia2 serves in bf16", inferentia2, false, BF16, ""},
		{"unknown training", unknownGPU, true, "", ReasonTrainingUnknown},
		{"unknown bf16", unknownGPU, false, BF16, ReasonNativePrecisionUnknown},
		{"unknown hardware serves fp16", Capabilities{Identified: true, Training: unknown}, false, "", ""},
	} {
		if got := CapabilityMiss(c.c, c.training, c.p); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		in   MemoryInput
		want Precision
	}{
		{MemoryInput{Task: TaskQLoRA, Precision: INT4}, BF16},
		{MemoryInput{Task: TaskFull, Precision: BF16}, BF16},
		{MemoryInput{Task: TaskFull, Precision: FP16}, ""},
		{MemoryInput{Task: TaskInference, Precision: FP8}, FP8},
		{MemoryInput{Task: TaskInference, Precision: INT8}, ""},
	} {
		if got := NativePrecision(c.in); got != c.want {
			t.Errorf("NativePrecision(%s %s) = %q, want %q", c.in.Task, c.in.Precision, got, c.want)
		}
	}
}

// FitMemory lists as fits only hardware that can run the task at the
// precision asked: the rest miss with the capability's reason, whatever their
// memory. The fleet's GPU of unknown model (ecs.unknown) has no memory either,
// so it stays counted as unknown memory; an unidentified model with memory
// misses as not identified.
func TestFitMemory_Capability(t *testing.T) {
	ref := scGPUs(t)
	snap := fitFleet()
	snap.Instances = append(snap.Instances, catalog.InstanceType{Provider: catalog.Alibaba, ID: "ecs.vg1000", VCPUs: 64, MemoryGiB: catalog.Dec("512"),
		Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Name: "VG1000", Count: 8, Share: catalog.Dec("1"), MemoryGiB: catalog.Dec("141")}}})
	snap.Instances = append(snap.Instances, catalog.InstanceType{Provider: catalog.AWS, ID: "p3.16xlarge", VCPUs: 64, MemoryGiB: catalog.Dec("488"),
		Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Model: "nvidia-v100-sxm2-16gb", Name: "V100", Count: 8, Share: catalog.Dec("1"), MemoryGiB: catalog.Dec("16")}}})
	snap.Instances = append(snap.Instances, catalog.InstanceType{Provider: catalog.AWS, ID: "inf2.48xlarge", VCPUs: 192, MemoryGiB: catalog.Dec("768"),
		Accelerators: []catalog.Accelerator{{Kind: catalog.KindNPU, Model: "aws-inferentia2", Name: "Inferentia2", Count: 12, Share: catalog.Dec("1"), MemoryGiB: catalog.Dec("32")}}})
	od := catalog.OnDemand
	snap.Offers = append(snap.Offers, scOffer(catalog.Alibaba, "ecs.vg1000", "cn-hangzhou", od, "1", catalog.USD, catalog.PerHour),
		scOffer(catalog.AWS, "p3.16xlarge", "us-east-1", od, "1", catalog.USD, catalog.PerHour),
		scOffer(catalog.AWS, "inf2.48xlarge", "us-east-1", od, "1", catalog.USD, catalog.PerHour))
	models := loadTestModels(t)
	cs, err := MemoryCandidates(snap, ref, CandidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   MemoryInput
		miss map[string]string // instance → reason
	}{
		{"8B full bf16", MemoryInput{Model: "llama-3.1-8b", Task: TaskFull, Precision: BF16},
			map[string]string{"alibaba/ecs.vg1000": "model_not_identified", "aws/p3.16xlarge": "no_native_bf16", "aws/inf2.48xlarge": "inference_only"}},
		{"70B QLoRA", MemoryInput{Model: "llama-3.1-70b", Task: TaskQLoRA},
			map[string]string{"alibaba/ecs.vg1000": "model_not_identified", "aws/p3.16xlarge": "no_native_bf16", "aws/inf2.48xlarge": "inference_only"}},
		{"8B inference fp16", MemoryInput{Model: "llama-3.1-8b", Precision: FP16},
			map[string]string{"alibaba/ecs.vg1000": "model_not_identified"}},
	} {
		e, err := EstimateMemory(tc.in, models)
		if err != nil {
			t.Fatal(err)
		}
		res := FitMemory(e, cs, FitOptions{})
		for _, f := range res.Fits {
			if why, bad := tc.miss[f.Instance]; bad {
				t.Errorf("%s: %s is a fit, want a miss (%s)", tc.name, f.Instance, why)
			}
		}
		got := map[string]string{}
		for _, m := range res.Misses {
			got[m.Instance] = m.Reason
		}
		for inst, why := range tc.miss {
			if got[inst] != why {
				t.Errorf("%s: %s misses with %q, want %q", tc.name, inst, got[inst], why)
			}
		}
		if tc.name == "8B inference fp16" {
			found := false
			for _, f := range res.Fits {
				found = found || f.Instance == "aws/p3.16xlarge" || f.Instance == "aws/inf2.48xlarge"
			}
			if !found {
				t.Errorf("%s: V100 and Inferentia2 serve fp16 and should fit", tc.name)
			}
		}
	}
}
