package compare

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func checks(s Scenario, sp specs) []Check {
	r := s.Requires
	var out []Check
	add := func(req string, st CheckStatus, format string, args ...any) {
		out = append(out, Check{Requirement: req, Status: st, Detail: fmt.Sprintf(format, args...)})
	}
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
			add("accelerator_kinds", Pass, "accelerator kind %s", strings.Join(got, ", "))
		} else {
			add("accelerator_kinds", Fail, "accelerator kind %s is not %s", strings.Join(got, ", "), strings.Join(kinds, " or "))
		}
	}
	if r.MinGPUs != nil {
		if sp.units.GreaterThanOrEqual(*r.MinGPUs) {
			add("min_gpus", Pass, "%s GPUs ≥ %s", sp.units, r.MinGPUs)
		} else {
			add("min_gpus", Fail, "%s GPUs < %s required", sp.units, r.MinGPUs)
		}
	}
	if r.MaxGPUs != nil {
		if sp.units.LessThanOrEqual(*r.MaxGPUs) {
			add("max_gpus", Pass, "%s GPUs ≤ %s", sp.units, r.MaxGPUs)
		} else {
			add("max_gpus", Fail, "%s GPUs > %s (more than the scenario uses)", sp.units, r.MaxGPUs)
		}
	}
	if r.MinGPUMemoryGiB != nil {
		switch {
		case sp.memEach == nil:
			add("min_gpu_memory_gib", UnknownSpec, "GPU memory unknown for %s", sp.gpuName())
		case sp.memEach.GreaterThanOrEqual(*r.MinGPUMemoryGiB):
			add("min_gpu_memory_gib", Pass, "%s GiB per GPU%s ≥ %s GiB", sp.memEach, sp.memFrom, r.MinGPUMemoryGiB)
		default:
			add("min_gpu_memory_gib", Fail, "%s GiB per GPU%s < %s GiB required", sp.memEach, sp.memFrom, r.MinGPUMemoryGiB)
		}
	}
	if r.MinTotalGPUMemoryGiB != nil {
		switch {
		case sp.memTotal == nil:
			add("min_total_gpu_memory_gib", UnknownSpec, "GPU memory unknown for %s", sp.gpuName())
		case sp.memTotal.GreaterThanOrEqual(*r.MinTotalGPUMemoryGiB):
			add("min_total_gpu_memory_gib", Pass, "%s GiB GPU memory in all ≥ %s GiB", sp.memTotal, r.MinTotalGPUMemoryGiB)
		default:
			add("min_total_gpu_memory_gib", Fail, "%s GiB GPU memory in all < %s GiB required", sp.memTotal, r.MinTotalGPUMemoryGiB)
		}
	}
	if r.MinGPUMemoryBandwidth != nil {
		switch {
		case !sp.mapped || sp.model.BandwidthGBs == nil:
			add("min_memory_bandwidth_gbs", UnknownSpec, "memory bandwidth unknown for %s", sp.gpuName())
		case sp.model.BandwidthGBs.GreaterThanOrEqual(*r.MinGPUMemoryBandwidth):
			add("min_memory_bandwidth_gbs", Pass, "%s GB/s memory bandwidth ≥ %s GB/s", sp.model.BandwidthGBs, r.MinGPUMemoryBandwidth)
		default:
			add("min_memory_bandwidth_gbs", Fail, "%s GB/s memory bandwidth < %s GB/s required", sp.model.BandwidthGBs, r.MinGPUMemoryBandwidth)
		}
	}
	if r.MinFP64TFLOPS != nil {
		v, terms, ok := instanceFigure(sp.gpus, sp.t, FigureFP64)
		switch {
		case !ok:
			add("min_fp64_tflops", UnknownSpec, "FP64 throughput unknown for %s (not in the GPU reference)", sp.gpuName())
		case v.GreaterThanOrEqual(*r.MinFP64TFLOPS):
			add("min_fp64_tflops", Pass, "FP64 %s = %s TFLOPS ≥ %s", terms, v, r.MinFP64TFLOPS)
		default:
			add("min_fp64_tflops", Fail, "FP64 %s = %s TFLOPS < %s required", terms, v, r.MinFP64TFLOPS)
		}
	}
	if r.NVLink && sp.devices > 1 {
		switch sp.link {
		case "nvlink":
			add("nvlink", Pass, "%s", sp.linkWhy)
		case "pcie":
			add("nvlink", Fail, "no NVLink: %s", sp.linkWhy)
		default:
			add("nvlink", UnknownSpec, "%s", sp.linkWhy)
		}
	}
	if r.MinNVENC != nil {
		v, _, ok := instanceFigure(sp.gpus, sp.t, FigureNVENC)
		switch {
		case !ok:
			add("min_nvenc", UnknownSpec, "NVENC unknown for %s (not in the GPU reference)", sp.gpuName())
		case v.IsZero():
			add("min_nvenc", Fail, "no hardware video encoder: %s has no NVENC", sp.gpuName())
		case v.GreaterThanOrEqual(*r.MinNVENC):
			add("min_nvenc", Pass, "%s NVENC engines ≥ %s", v, r.MinNVENC)
		default:
			add("min_nvenc", Fail, "%s NVENC engines < %s required", v, r.MinNVENC)
		}
	}
	if r.RDMA {
		if sp.t.RDMA != "" {
			add("rdma", Pass, "%s for multi-node traffic", strings.ToUpper(sp.t.RDMA))
		} else {
			add("rdma", Fail, "no RDMA/EFA listed for multi-node traffic")
		}
	}
	if r.MinNetworkGbps != nil {
		switch {
		case sp.t.NetworkGbps == nil:
			add("min_network_gbps", UnknownSpec, "network bandwidth unknown (%s)", orNone(sp.t.Network, "not published"))
		case sp.t.NetworkGbps.GreaterThanOrEqual(*r.MinNetworkGbps):
			add("min_network_gbps", Pass, "%s Gbps network (the instance, all cards) ≥ %s", sp.t.NetworkGbps, r.MinNetworkGbps)
		default:
			add("min_network_gbps", Fail, "%s Gbps network (the instance, all cards) < %s Gbps required", sp.t.NetworkGbps, r.MinNetworkGbps)
		}
	}
	if r.MinVCPUsPerGPU != nil {
		v := sp.perGPU(decimal.NewFromInt(int64(sp.t.VCPUs)))
		if v.GreaterThanOrEqual(*r.MinVCPUsPerGPU) {
			add("min_vcpus_per_gpu", Pass, "%s vCPU per GPU ≥ %s", v, r.MinVCPUsPerGPU)
		} else {
			add("min_vcpus_per_gpu", Fail, "%s vCPU per GPU < %s required", v, r.MinVCPUsPerGPU)
		}
	}
	if r.MinMemoryGiBPerGPU != nil {
		v := sp.perGPU(sp.t.MemoryGiB)
		if v.GreaterThanOrEqual(*r.MinMemoryGiBPerGPU) {
			add("min_memory_gib_per_gpu", Pass, "%s GiB host memory per GPU ≥ %s GiB", v, r.MinMemoryGiBPerGPU)
		} else {
			add("min_memory_gib_per_gpu", Fail, "%s GiB host memory per GPU < %s GiB required", v, r.MinMemoryGiBPerGPU)
		}
	}
	if r.LocalNVMe {
		if sp.t.LocalNVMe {
			add("local_nvme", Pass, "local NVMe (%d GB)", sp.t.LocalStorageGB)
		} else {
			add("local_nvme", Fail, "no local NVMe listed")
		}
	}
	return out
}

func containsKind(ks []catalog.AcceleratorKind, k catalog.AcceleratorKind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}
