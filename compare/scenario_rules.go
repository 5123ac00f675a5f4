package compare

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func checks(s Scenario, sp specs) []Check {
	r := s.Requires
	var out []Check
	add := func(req string, st CheckStatus, why Reason) {
		out = append(out, Check{Requirement: req, Status: st, Reason: why})
	}
	// pass on have ≥ need, in unit u.
	compareFig := func(req string, have, need decimal.Decimal, u Unit, ok, short ReasonCode) {
		if have.GreaterThanOrEqual(need) {
			add(req, Pass, reason(ok, quantity("have", have, u), quantity("need", need, u)))
		} else {
			add(req, Fail, reason(short, quantity("have", have, u), quantity("need", need, u)))
		}
	}
	gpu := sp.gpuFigure()
	if len(r.AcceleratorKinds) > 0 {
		kinds := make([]string, len(r.AcceleratorKinds))
		for i, k := range r.AcceleratorKinds {
			kinds[i] = string(k)
		}
		ok := true
		var got []string
		for _, a := range sp.t.Accelerators {
			got = append(got, string(a.Kind))
			if !containsKind(r.AcceleratorKinds, a.Kind) {
				ok = false
			}
		}
		if ok {
			add("accelerator_kinds", Pass, reason(ReasonAcceleratorKindOK, codeList("have", GroupKind, got...)))
		} else {
			add("accelerator_kinds", Fail, reason(ReasonAcceleratorKindWrong, codeList("have", GroupKind, got...), codeList("need", GroupKind, kinds...)))
		}
	}
	if r.MinGPUs != nil {
		compareFig("min_gpus", sp.units, *r.MinGPUs, UnitGPU, ReasonGPUsEnough, ReasonGPUsTooFew)
	}
	if r.MaxGPUs != nil {
		if sp.units.LessThanOrEqual(*r.MaxGPUs) {
			add("max_gpus", Pass, reason(ReasonGPUsWithin, quantity("have", sp.units, UnitGPU), quantity("max", *r.MaxGPUs, UnitGPU)))
		} else {
			add("max_gpus", Fail, reason(ReasonGPUsTooMany, quantity("have", sp.units, UnitGPU), quantity("max", *r.MaxGPUs, UnitGPU)))
		}
	}
	if r.MinGPUMemoryGiB != nil {
		if sp.memEach == nil {
			add("min_gpu_memory_gib", UnknownSpec, reason(ReasonGPUMemoryUnknown, gpu))
		} else {
			compareFig("min_gpu_memory_gib", *sp.memEach, *r.MinGPUMemoryGiB, UnitGB, ReasonGPUMemoryEachOK, ReasonGPUMemoryEachShort)
			if sp.memFrom != nil {
				out[len(out)-1].Reason.Parts = []Reason{*sp.memFrom}
			}
		}
	}
	if r.MinTotalGPUMemoryGiB != nil {
		if sp.memTotal == nil {
			add("min_total_gpu_memory_gib", UnknownSpec, reason(ReasonGPUMemoryUnknown, gpu))
		} else {
			compareFig("min_total_gpu_memory_gib", *sp.memTotal, *r.MinTotalGPUMemoryGiB, UnitGB, ReasonGPUMemoryTotalOK, ReasonGPUMemoryTotalShort)
		}
	}
	if r.MinGPUMemoryBandwidth != nil {
		if !sp.mapped || sp.model.BandwidthGBs == nil {
			add("min_memory_bandwidth_gbs", UnknownSpec, reason(ReasonBandwidthUnknown, gpu))
		} else {
			compareFig("min_memory_bandwidth_gbs", *sp.model.BandwidthGBs, *r.MinGPUMemoryBandwidth, UnitGBs, ReasonBandwidthOK, ReasonBandwidthShort)
		}
	}
	if r.MinFP64TFLOPS != nil {
		if v, terms, ok := instanceFigure(sp.gpus, sp.t, FigureFP64); !ok {
			add("min_fp64_tflops", UnknownSpec, reason(ReasonFP64Unknown, gpu))
		} else {
			compareFig("min_fp64_tflops", v, *r.MinFP64TFLOPS, UnitTFLOPS, ReasonFP64OK, ReasonFP64Short)
			out[len(out)-1].Reason.Parts = terms
		}
	}
	if r.NVLink && sp.devices > 1 {
		switch sp.link {
		case "nvlink":
			add("nvlink", Pass, sp.linkWhy)
		case "pcie":
			add("nvlink", Fail, reason(ReasonNVLinkMissing).withParts(sp.linkWhy))
		default:
			add("nvlink", UnknownSpec, sp.linkWhy)
		}
	}
	if r.MinNVENC != nil {
		v, _, ok := instanceFigure(sp.gpus, sp.t, FigureNVENC)
		switch {
		case !ok:
			add("min_nvenc", UnknownSpec, reason(ReasonNVENCUnknown, gpu))
		case v.IsZero():
			add("min_nvenc", Fail, reason(ReasonNVENCNone, gpu))
		default:
			compareFig("min_nvenc", v, *r.MinNVENC, UnitNVENC, ReasonNVENCOK, ReasonNVENCShort)
		}
	}
	if r.RDMA {
		if sp.t.RDMA != "" {
			add("rdma", Pass, reason(ReasonRDMAOK, text("rdma", strings.ToUpper(sp.t.RDMA))))
		} else {
			add("rdma", Fail, reason(ReasonRDMAMissing))
		}
	}
	if r.MinNetworkGbps != nil {
		switch {
		case sp.t.NetworkGbps == nil && sp.t.Network == "":
			add("min_network_gbps", UnknownSpec, reason(ReasonNetworkUnpublished))
		case sp.t.NetworkGbps == nil:
			add("min_network_gbps", UnknownSpec, reason(ReasonNetworkUnknown, text("published", sp.t.Network)))
		default:
			compareFig("min_network_gbps", *sp.t.NetworkGbps, *r.MinNetworkGbps, UnitGbps, ReasonNetworkOK, ReasonNetworkShort)
		}
	}
	if r.MinVCPUsPerGPU != nil {
		v := sp.perGPU(decimal.NewFromInt(int64(sp.t.VCPUs)))
		compareFig("min_vcpus_per_gpu", v, *r.MinVCPUsPerGPU, UnitVCPU, ReasonVCPUsPerGPUOK, ReasonVCPUsPerGPUShort)
	}
	if r.MinMemoryGiBPerGPU != nil {
		v := sp.perGPU(sp.t.MemoryGiB)
		compareFig("min_memory_gib_per_gpu", v, *r.MinMemoryGiBPerGPU, UnitGiB, ReasonHostMemoryPerGPUOK, ReasonHostMemoryPerGPUShort)
	}
	if r.Training || r.NativePrecision != "" {
		capabilityChecks(r, sp, add)
	}
	if r.LocalNVMe {
		if sp.t.LocalNVMe {
			add("local_nvme", Pass, reason(ReasonLocalNVMeOK, quantity("size", decimal.NewFromInt(int64(sp.t.LocalStorageGB)), UnitGB)))
		} else {
			add("local_nvme", Fail, reason(ReasonLocalNVMeMissing))
		}
	}
	return out
}

// capabilityChecks are requires.training and requires.native_precision, by
// the capability rule: a fact the reference does not give is unknown (may
// fit); an accelerator whose model nobody identified fails both.
func capabilityChecks(r Requirements, sp specs, add func(string, CheckStatus, Reason)) {
	gpu := sp.gpuFigure()
	c := CapabilitiesOf(sp.model, sp.mapped)
	if r.Training {
		switch why := CapabilityMiss(c, true, ""); why {
		case "":
			add("training", Pass, reason(ReasonTrainingCapable, gpu))
		case ReasonTrainingUnknown:
			add("training", UnknownSpec, reason(why, gpu))
		default:
			add("training", Fail, reason(why, gpu))
		}
	}
	if p := r.NativePrecision; p != "" {
		prec := text("precision", string(p))
		switch why := CapabilityMiss(c, false, p); why {
		case "":
			add("native_precision", Pass, reason(ReasonNativePrecisionOK, gpu, prec))
		case ReasonNativePrecisionUnknown:
			add("native_precision", UnknownSpec, reason(why, gpu, prec))
		case ReasonModelNotIdentified:
			if !r.Training { // said once
				add("native_precision", Fail, reason(why, gpu))
			}
		default:
			add("native_precision", Fail, reason(why, gpu))
		}
	}
}

func containsKind(ks []catalog.AcceleratorKind, k catalog.AcceleratorKind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}
