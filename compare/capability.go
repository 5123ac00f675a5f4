package compare

import "github.com/gpuatlas/gpuatlas/catalog"

// The capability rule: which hardware can run a task at the precision asked.
// It is one rule for `gpuatlas fit`, the site's estimator (static/fit.js runs
// the same rule, pinned by compare/testdata/fit_cases.json) and the scenario
// checks (requires.training, requires.native_precision). The facts come from
// the GPU reference (data/gpus.csv training, native_bf16, native_fp8, each
// from the maker's documentation); an unknown fact never passes as a yes, and
// an accelerator whose model nobody identified never fits.

// Capability reason codes (scenario checks; a fit row's reason is the same
// word).
const (
	ReasonModelNotIdentified     ReasonCode = "model_not_identified"     // gpu (the provider's name)
	ReasonTrainingCapable        ReasonCode = "training_capable"         // gpu
	ReasonInferenceOnly          ReasonCode = "inference_only"           // gpu
	ReasonTrainingUnknown        ReasonCode = "training_unknown"         // gpu
	ReasonNativePrecisionOK      ReasonCode = "native_precision_ok"      // gpu, precision (text)
	ReasonNoNativeBF16           ReasonCode = "no_native_bf16"           // gpu
	ReasonNoNativeFP8            ReasonCode = "no_native_fp8"            // gpu
	ReasonNativePrecisionUnknown ReasonCode = "native_precision_unknown" // gpu, precision (text)
	ReasonReqTraining            ReasonCode = "req_training"             //
	ReasonReqNativePrecision     ReasonCode = "req_native_precision"     // precision (text)
)

// CapabilityMisses are the reasons CapabilityMiss gives: a fit row's reason
// may be any of them (its words are "fit.reason.<code>").
var CapabilityMisses = []ReasonCode{ReasonModelNotIdentified, ReasonInferenceOnly, ReasonTrainingUnknown,
	ReasonNoNativeBF16, ReasonNoNativeFP8, ReasonNativePrecisionUnknown}

// NativePrecision is the number format a task computes in, which the
// hardware must support natively; empty when any hardware will do. A QLoRA
// fine-tune computes in bf16 over its 4-bit base (the QLoRA paper's compute
// type); full and LoRA training and inference compute in the weights'
// precision where that is bf16 or fp8. fp16 and fp32 run natively on every
// GPU the reference lists; int8 and int4 weights are dequantised.
func NativePrecision(in MemoryInput) Precision {
	switch {
	case in.Task == TaskQLoRA:
		return BF16
	case in.Precision == BF16 || in.Precision == FP8:
		return in.Precision
	}
	return ""
}

// Capabilities are the capability facts of an accelerator model.
type Capabilities struct {
	Identified bool
	Training   catalog.Capability
	NativeBF16 catalog.Capability
	NativeFP8  catalog.Capability
}

// CapabilitiesOf reads a model's facts; a zero model (unmapped) is not
// identified.
func CapabilitiesOf(m catalog.GPUModel, mapped bool) Capabilities {
	if !mapped {
		return Capabilities{}
	}
	return Capabilities{Identified: true, Training: m.Training, NativeBF16: m.NativeBF16, NativeFP8: m.NativeFP8}
}

// CapabilityMiss says why hardware cannot run a task (training or not) in the
// native precision p (empty: any), or "" when it can. The order is the
// reason's weight: an unidentified model first, then training, then the
// precision.
func CapabilityMiss(c Capabilities, training bool, p Precision) ReasonCode {
	if !c.Identified {
		return ReasonModelNotIdentified
	}
	if training {
		switch c.Training {
		case catalog.CapabilityNo:
			return ReasonInferenceOnly
		case catalog.CapabilityUnknown:
			return ReasonTrainingUnknown
		}
	}
	var have catalog.Capability
	var no ReasonCode
	switch p {
	case BF16:
		have, no = c.NativeBF16, ReasonNoNativeBF16
	case FP8:
		have, no = c.NativeFP8, ReasonNoNativeFP8
	default:
		return ""
	}
	switch have {
	case catalog.CapabilityYes:
		return ""
	case catalog.CapabilityNo:
		return no
	}
	return ReasonNativePrecisionUnknown
}

// candidateCapabilities are a fit candidate's facts as the candidate carries
// them (the site's data/fit.json carries the same fields).
func candidateCapabilities(c MemoryCandidate) Capabilities {
	return Capabilities{Identified: c.GPUModel != "", Training: c.Training, NativeBF16: c.NativeBF16, NativeFP8: c.NativeFP8}
}
