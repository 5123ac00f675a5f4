package compare

// ReasonCode names what a Reason says. The values are a public contract: they are
// in the JSON of `gpuatlas scenarios` and `gpuatlas tco`, every one has a message
// in each language (templates/i18n/*.reasons.json, keyed "reason.<code>"), and the
// README lists each with its figures. Figures are named in the comments.
type ReasonCode string

// Checks of hard requirements (Check.Reason). "have" is the instance type's
// figure, "need" the scenario's; "gpu" the GPU model's name.
const (
	ReasonAcceleratorKindOK     ReasonCode = "accelerator_kind_ok"       // have (kind codes)
	ReasonAcceleratorKindWrong  ReasonCode = "accelerator_kind_wrong"    // have, need (kind codes)
	ReasonGPUsEnough            ReasonCode = "gpus_enough"               // have, need (GPU)
	ReasonGPUsTooFew            ReasonCode = "gpus_too_few"              // have, need (GPU)
	ReasonGPUsWithin            ReasonCode = "gpus_within"               // have, max (GPU)
	ReasonGPUsTooMany           ReasonCode = "gpus_too_many"             // have, max (GPU)
	ReasonGPUMemoryEachOK       ReasonCode = "gpu_memory_each_ok"        // have, need (GiB per GPU); parts: memory source
	ReasonGPUMemoryEachShort    ReasonCode = "gpu_memory_each_short"     // have, need (GiB per GPU); parts: memory source
	ReasonGPUMemoryTotalOK      ReasonCode = "gpu_memory_total_ok"       // have, need (GiB in all)
	ReasonGPUMemoryTotalShort   ReasonCode = "gpu_memory_total_short"    // have, need (GiB in all)
	ReasonGPUMemoryUnknown      ReasonCode = "gpu_memory_unknown"        // gpu
	ReasonBandwidthOK           ReasonCode = "memory_bandwidth_ok"       // have, need (GB/s per GPU)
	ReasonBandwidthShort        ReasonCode = "memory_bandwidth_short"    // have, need (GB/s per GPU)
	ReasonBandwidthUnknown      ReasonCode = "memory_bandwidth_unknown"  // gpu
	ReasonFP64OK                ReasonCode = "fp64_ok"                   // have, need (TFLOPS); parts: figure_term
	ReasonFP64Short             ReasonCode = "fp64_short"                // have, need (TFLOPS); parts: figure_term
	ReasonFP64Unknown           ReasonCode = "fp64_unknown"              // gpu
	ReasonNVLinkMissing         ReasonCode = "nvlink_missing"            // parts: the link reason
	ReasonNVENCOK               ReasonCode = "nvenc_ok"                  // have, need (NVENC)
	ReasonNVENCShort            ReasonCode = "nvenc_short"               // have, need (NVENC)
	ReasonNVENCNone             ReasonCode = "nvenc_none"                // gpu
	ReasonNVENCUnknown          ReasonCode = "nvenc_unknown"             // gpu
	ReasonRDMAOK                ReasonCode = "rdma_ok"                   // rdma (text: EFA, RDMA, ERDMA)
	ReasonRDMAMissing           ReasonCode = "rdma_missing"              //
	ReasonNetworkOK             ReasonCode = "network_ok"                // have, need (Gbps, the whole instance)
	ReasonNetworkShort          ReasonCode = "network_short"             // have, need (Gbps, the whole instance)
	ReasonNetworkUnknown        ReasonCode = "network_unknown"           // published (text: the provider's words)
	ReasonNetworkUnpublished    ReasonCode = "network_unpublished"       //
	ReasonVCPUsPerGPUOK         ReasonCode = "vcpus_per_gpu_ok"          // have, need (vCPU)
	ReasonVCPUsPerGPUShort      ReasonCode = "vcpus_per_gpu_short"       // have, need (vCPU)
	ReasonHostMemoryPerGPUOK    ReasonCode = "host_memory_per_gpu_ok"    // have, need (GiB)
	ReasonHostMemoryPerGPUShort ReasonCode = "host_memory_per_gpu_short" // have, need (GiB)
	ReasonLocalNVMeOK           ReasonCode = "local_nvme_ok"             // size (GB)
	ReasonLocalNVMeMissing      ReasonCode = "local_nvme_missing"        //
)

// Where a GPU's memory figure comes from (a part of a memory check and of Hardware).
const (
	ReasonMemoryFromReference ReasonCode = "memory_from_reference" //
	ReasonMemorySpecConflict  ReasonCode = "memory_spec_conflict"  // reported (GiB): the provider's figure
	ReasonMemoryUsable        ReasonCode = "memory_usable"         // usable (GiB): the provider's usable figure
)

// How the GPUs of a type talk to each other (Hardware.LinkReason, the NVLink check).
const (
	ReasonLinkSingle             ReasonCode = "link_single"              //
	ReasonLinkNVLinkStated       ReasonCode = "link_nvlink_stated"       //
	ReasonLinkNVSwitchStated     ReasonCode = "link_nvswitch_stated"     //
	ReasonLinkNeuronLinkStated   ReasonCode = "link_neuronlink_stated"   //
	ReasonLinkOtherStated        ReasonCode = "link_other_stated"        //
	ReasonLinkPCIeStated         ReasonCode = "link_pcie_stated"         //
	ReasonLinkUnknownUnmapped    ReasonCode = "link_unknown_unmapped"    //
	ReasonLinkPCIeNoNVLink       ReasonCode = "link_pcie_no_nvlink"      // gpu
	ReasonLinkNVLinkSXM          ReasonCode = "link_nvlink_sxm"          // gpu, form_factor (text)
	ReasonLinkNVLinkNotInRef     ReasonCode = "link_nvlink_not_in_ref"   // gpu
	ReasonLinkNVLinkBridgeOption ReasonCode = "link_nvlink_bridge_maybe" // gpu
)

// ReasonFigureTerm is a term of a spec figure summed over an instance's
// accelerators: units × each (figure codes, unit) of model (text).
const ReasonFigureTerm ReasonCode = "figure_term" // units (GPU), each, figure (figure code), model (text)

// Dimension details (DimensionScore.Reason) and the unknowns of an offer.
const (
	ReasonDimMemory           ReasonCode = "dim_memory"               // have, target (GiB)
	ReasonDimMemoryUnknown    ReasonCode = "dim_memory_unknown"       // gpu
	ReasonDimCompute          ReasonCode = "dim_compute"              // have, target (TFLOPS, TOPS or NVENC); parts: figure_term
	ReasonDimComputeUnknown   ReasonCode = "dim_compute_unknown"      // figures (figure codes), gpu
	ReasonDimBandwidth        ReasonCode = "dim_bandwidth"            // have, target (GB/s per GPU)
	ReasonDimBandwidthUnknown ReasonCode = "dim_bandwidth_unknown"    // gpu
	ReasonDimNoInterconnect   ReasonCode = "dim_interconnect_na"      //
	ReasonDimMean             ReasonCode = "dim_mean"                 // parts: part_*
	ReasonDimPrice            ReasonCode = "dim_price"                // price, best (USD per the price basis)
	ReasonDimPriceNoUSD       ReasonCode = "dim_price_no_usd"         //
	ReasonDimPriceNoUnit      ReasonCode = "dim_price_no_unit"        // basis (pricebasis code)
	ReasonDimWorkCost         ReasonCode = "dim_work_cost"            // cost, best (USD), workload (costunit code), basis (basis code)
	ReasonDimNoBenchmark      ReasonCode = "dim_work_cost_no_bench"   // workloads (ids)
	ReasonDimensionUnknown    ReasonCode = "dimension_unknown"        // dimension (dim code); parts: the dimension's reason
	ReasonPartNVLink          ReasonCode = "part_nvlink"              // score
	ReasonPartPCIe            ReasonCode = "part_pcie"                // score
	ReasonPartNVLinkUnknown   ReasonCode = "part_nvlink_unknown"      //
	ReasonPartNetwork         ReasonCode = "part_network"             // have, target (Gbps), score
	ReasonPartNetworkUnknown  ReasonCode = "part_network_unknown"     //
	ReasonPartRDMA            ReasonCode = "part_rdma"                // rdma (text), score
	ReasonPartNoRDMA          ReasonCode = "part_no_rdma"             // score
	ReasonPartVCPUs           ReasonCode = "part_vcpus_per_gpu"       // have, target (vCPU), score
	ReasonPartHostMemory      ReasonCode = "part_host_memory_per_gpu" // have, target (GiB), score
	ReasonPartLocalNVMe       ReasonCode = "part_local_nvme"          // score
	ReasonPartNoLocalNVMe     ReasonCode = "part_no_local_nvme"       // score
)

// Strengths and weaknesses (OfferFit.Strengths, OfferFit.Weaknesses).
const (
	ReasonGPUMemoryAmple      ReasonCode = "gpu_memory_ample"        // have, target (GiB)
	ReasonGPUMemoryLittle     ReasonCode = "gpu_memory_little"       // have, target (GiB)
	ReasonComputeHigh         ReasonCode = "compute_high"            // have, target
	ReasonComputeLow          ReasonCode = "compute_low"             // have, target
	ReasonBandwidthHigh       ReasonCode = "bandwidth_high"          // have, target (GB/s)
	ReasonBandwidthLow        ReasonCode = "bandwidth_low"           // have, target (GB/s)
	ReasonInterconnectStrong  ReasonCode = "interconnect_strong"     //
	ReasonInterconnectWeak    ReasonCode = "interconnect_weak"       //
	ReasonPriceGood           ReasonCode = "price_good"              // price (USD per the price basis), times (× the best)
	ReasonPriceExpensive      ReasonCode = "price_expensive"         // price, times
	ReasonWorkCostLow         ReasonCode = "work_cost_low"           // cost (USD), workload (costunit code), basis
	ReasonWorkCostHigh        ReasonCode = "work_cost_high"          // cost (USD), workload (costunit code), basis
	ReasonVCPUsPerGPULow      ReasonCode = "vcpus_per_gpu_low"       // have, prefer (vCPU), for (text, text_zh)
	ReasonHostMemoryPerGPULow ReasonCode = "host_memory_per_gpu_low" // have, prefer (GiB), for (text, text_zh)
	ReasonNoLocalNVMe         ReasonCode = "no_local_nvme"           //
	ReasonNoRDMA              ReasonCode = "no_rdma"                 //
)

// A scenario's requirements and preferences (Requirements.Reasons,
// Preferences.Reasons).
const (
	ReasonReqAcceleratorKinds ReasonCode = "req_accelerator_kinds"       // kinds (kind codes)
	ReasonReqMinGPUs          ReasonCode = "req_min_gpus"                // n (GPU)
	ReasonReqMaxGPUs          ReasonCode = "req_max_gpus"                // n (GPU)
	ReasonReqGPUMemoryEach    ReasonCode = "req_min_gpu_memory"          // n (GiB per GPU)
	ReasonReqGPUMemoryTotal   ReasonCode = "req_min_total_gpu_memory"    // n (GiB in all)
	ReasonReqBandwidth        ReasonCode = "req_min_memory_bandwidth"    // n (GB/s per GPU)
	ReasonReqFP64             ReasonCode = "req_min_fp64"                // n (TFLOPS in all)
	ReasonReqNVLink           ReasonCode = "req_nvlink"                  //
	ReasonReqNVENC            ReasonCode = "req_min_nvenc"               // n (NVENC)
	ReasonReqRDMA             ReasonCode = "req_rdma"                    //
	ReasonReqNetwork          ReasonCode = "req_min_network"             // n (Gbps)
	ReasonReqVCPUsPerGPU      ReasonCode = "req_min_vcpus_per_gpu"       // n (vCPU)
	ReasonReqHostMemoryPerGPU ReasonCode = "req_min_host_memory_per_gpu" // n (GiB)
	ReasonReqLocalNVMe        ReasonCode = "req_local_nvme"              //
	ReasonPrefVCPUsPerGPU     ReasonCode = "pref_vcpus_per_gpu"          // n (vCPU), for (text, text_zh)
	ReasonPrefHostMemory      ReasonCode = "pref_host_memory_per_gpu"    // n (GiB), for (text, text_zh)
	ReasonPrefLocalNVMe       ReasonCode = "pref_local_nvme"             //
	ReasonPrefRDMA            ReasonCode = "pref_rdma"                   //
)

// Why a matrix cell is empty (Cell.Reason).
const (
	ReasonCellNoOffers ReasonCode = "cell_no_offers" //
	ReasonCellNoneFits ReasonCode = "cell_none_fits" // n: instance types considered, none of which fits
)

// Speeds (Speed.Reason).
const (
	ReasonSpeedReference      ReasonCode = "speed_reference"       //
	ReasonSpeedFromSpecs      ReasonCode = "speed_from_specs"      // figure (figure code), target, base (the figure's unit), ratio; parts: two terms (target, base) then figure_unknown_for / figure_zero_for
	ReasonSpecTerms           ReasonCode = "spec_terms"            // parts: figure_term (a sum)
	ReasonFigureUnknownFor    ReasonCode = "figure_unknown_for"    // figure (figure code), instance (text)
	ReasonFigureZeroFor       ReasonCode = "figure_zero_for"       // figure (figure code), instance (text)
	ReasonSpeedMeasuredRun    ReasonCode = "speed_run"             // basis, run (text), work_per_hour, workload (text)
	ReasonSpeedFromBenchmarks ReasonCode = "speed_from_benchmarks" // basis, workload (text), target, base, ratio; parts: two speed_run
)

// Cost per unit of work (WorkCost.Reason).
const (
	ReasonCostMeasured        ReasonCode = "cost_measured"         // value, unit (text), gpus (GPU), run (text), who (text); parts: cost_partial_instance?, cost_rate
	ReasonCostEstimatedSame   ReasonCode = "cost_estimated_same"   // run, on (text), value, unit, who, gpus (GPU); parts: cost_rate
	ReasonCostEstimatedScaled ReasonCode = "cost_estimated_scaled" // run, on, value, unit, who, target, used (GPU); parts: cost_rate
	ReasonCostPartialInstance ReasonCode = "cost_partial_instance" // used, all (GPU)
	ReasonCostRate            ReasonCode = "cost_rate"             // price (USD/h), billing (billing code), work_per_hour, work (work code)
	ReasonCostPublished       ReasonCode = "cost_published"        // basis (basis code), value, unit (text), round, system, submitter (text), gpus (GPU); parts: cost_rate
)

// TCO: break-evens, comparisons, notes and the steps of each option.
const (
	ReasonBreakEven         ReasonCode = "breakeven_pays_off"      // billing (billing code), rate (USD/h), hours (h a month), utilisation (percent)
	ReasonBreakEvenNever    ReasonCode = "breakeven_never"         // billing, rate, hours, utilisation
	ReasonTCOComparison     ReasonCode = "tco_comparison"          // a, b (text), hourly_more, sooner (percent), a_hours, b_hours (h); a_total, b_total (USD), total_more (percent), months (month) when B costs anything
	ReasonTCOLeftOut        ReasonCode = "tco_left_out"            // instance (text), billing (billing code), region (text)
	ReasonTCOSuspectLeftOut ReasonCode = "tco_suspect_left_out"    // instance, billing, region (text), suspect (text: the plausibility rules' reason)
	ReasonStepWorkPerMonth  ReasonCode = "step_work_per_month"     // jobs, job_size, unit (work_unit code), work
	ReasonStepBusyHours     ReasonCode = "step_busy_hours"         // work, speed, basis (basis code), hours
	ReasonStepNeededHours   ReasonCode = "step_needed_hours"       // work, speed, utilisation, idle (h), hours
	ReasonStepHoursPerJob   ReasonCode = "step_hours_per_job"      // job_size, speed, utilisation, hours
	ReasonStepHoursPerJobIO ReasonCode = "step_hours_per_job_spot" // job_size, speed, utilisation, overhead, hours
	ReasonStepCommitCeil    ReasonCode = "step_committed_ceil"     // needed (h), instances
	ReasonStepCommitFloor   ReasonCode = "step_committed_floor"    // needed (h), instances, billing (billing code)
	ReasonStepCommitUse     ReasonCode = "step_commitment_use"     // used, committed (h), use
	ReasonStepCommitHourly  ReasonCode = "step_commitment_hourly"  // monthly (USD), term (month), upfront (USD), rate (USD/h)
	ReasonStepPAYGHours     ReasonCode = "step_payg_hours"         // billing, hours
	ReasonStepPAYGOverhead  ReasonCode = "step_payg_hours_spot"    // billing, hours_before, overhead, hours
	ReasonStepMonth         ReasonCode = "step_month"              // month, cost (USD); parts: term_*
	ReasonStepAfterHorizon  ReasonCode = "step_after_horizon"      // instances, monthly (USD), months_left (month), usd (USD)
	ReasonStepTotal         ReasonCode = "step_total"              // paid (USD), months (month), after (USD), total (USD)
	ReasonStepCostPerUnit   ReasonCode = "step_cost_per_unit"      // unit (work_unit code), total (USD), work, per_unit (USD), jobs, per_job (USD)
	ReasonTermCommitMonthly ReasonCode = "term_commit_monthly"     // instances, monthly (USD)
	ReasonTermUpfront       ReasonCode = "term_upfront"            // instances, upfront (USD)
	ReasonTermPAYG          ReasonCode = "term_payg"               // hours (h), rate (USD/h)
	ReasonTermExtras        ReasonCode = "term_extras"             // usd (USD): storage and egress
	ReasonTermZero          ReasonCode = "term_zero"               //
	// The spot interruption model (tco_spot.go).
	ReasonStepSpotRiskBand    ReasonCode = "step_spot_risk_band"          // band, observed (text), upper (percent), rate, checkpoint, restart (minutes), loss (h)
	ReasonStepSpotRiskRate    ReasonCode = "step_spot_risk_rate"          // rate, checkpoint, restart (minutes), loss (h)
	ReasonStepPAYGRisk        ReasonCode = "step_payg_hours_spot_risk"    // billing, hours_before, rate, interruptions, loss, lost, hours
	ReasonStepHoursPerJobRisk ReasonCode = "step_hours_per_job_spot_risk" // job_size, speed, utilisation, hours_before, rate, interruptions, loss, lost, hours
	ReasonTCOSpotNeedsRate    ReasonCode = "tco_spot_needs_rate"          // instance, region (text), status (interruption code: no_data or not_published)
)

// ReasonCodes lists every code, for the message catalogs' and the README's
// completeness tests.
var ReasonCodes = []ReasonCode{
	ReasonAcceleratorKindOK, ReasonAcceleratorKindWrong, ReasonGPUsEnough, ReasonGPUsTooFew, ReasonGPUsWithin, ReasonGPUsTooMany,
	ReasonGPUMemoryEachOK, ReasonGPUMemoryEachShort, ReasonGPUMemoryTotalOK, ReasonGPUMemoryTotalShort, ReasonGPUMemoryUnknown,
	ReasonBandwidthOK, ReasonBandwidthShort, ReasonBandwidthUnknown, ReasonFP64OK, ReasonFP64Short, ReasonFP64Unknown,
	ReasonNVLinkMissing, ReasonNVENCOK, ReasonNVENCShort, ReasonNVENCNone, ReasonNVENCUnknown, ReasonRDMAOK, ReasonRDMAMissing,
	ReasonNetworkOK, ReasonNetworkShort, ReasonNetworkUnknown, ReasonNetworkUnpublished, ReasonVCPUsPerGPUOK, ReasonVCPUsPerGPUShort,
	ReasonHostMemoryPerGPUOK, ReasonHostMemoryPerGPUShort, ReasonLocalNVMeOK, ReasonLocalNVMeMissing,
	ReasonMemoryFromReference, ReasonMemorySpecConflict, ReasonMemoryUsable,
	ReasonLinkSingle, ReasonLinkNVLinkStated, ReasonLinkNVSwitchStated, ReasonLinkNeuronLinkStated, ReasonLinkOtherStated, ReasonLinkPCIeStated, ReasonLinkUnknownUnmapped, ReasonLinkPCIeNoNVLink,
	ReasonLinkNVLinkSXM, ReasonLinkNVLinkNotInRef, ReasonLinkNVLinkBridgeOption, ReasonFigureTerm,
	ReasonDimMemory, ReasonDimMemoryUnknown, ReasonDimCompute, ReasonDimComputeUnknown, ReasonDimBandwidth, ReasonDimBandwidthUnknown,
	ReasonDimNoInterconnect, ReasonDimMean, ReasonDimPrice, ReasonDimPriceNoUSD, ReasonDimPriceNoUnit, ReasonDimWorkCost,
	ReasonDimNoBenchmark, ReasonDimensionUnknown, ReasonPartNVLink, ReasonPartPCIe, ReasonPartNVLinkUnknown, ReasonPartNetwork,
	ReasonPartNetworkUnknown, ReasonPartRDMA, ReasonPartNoRDMA, ReasonPartVCPUs, ReasonPartHostMemory, ReasonPartLocalNVMe,
	ReasonPartNoLocalNVMe,
	ReasonGPUMemoryAmple, ReasonGPUMemoryLittle, ReasonComputeHigh, ReasonComputeLow, ReasonBandwidthHigh, ReasonBandwidthLow,
	ReasonInterconnectStrong, ReasonInterconnectWeak, ReasonPriceGood, ReasonPriceExpensive, ReasonWorkCostLow, ReasonWorkCostHigh,
	ReasonVCPUsPerGPULow, ReasonHostMemoryPerGPULow, ReasonNoLocalNVMe, ReasonNoRDMA,
	ReasonReqAcceleratorKinds, ReasonReqMinGPUs, ReasonReqMaxGPUs, ReasonReqGPUMemoryEach, ReasonReqGPUMemoryTotal,
	ReasonReqBandwidth, ReasonReqFP64, ReasonReqNVLink, ReasonReqNVENC, ReasonReqRDMA, ReasonReqNetwork, ReasonReqVCPUsPerGPU,
	ReasonReqHostMemoryPerGPU, ReasonReqLocalNVMe, ReasonPrefVCPUsPerGPU, ReasonPrefHostMemory, ReasonPrefLocalNVMe, ReasonPrefRDMA,
	ReasonCellNoOffers, ReasonCellNoneFits,
	ReasonSpeedReference, ReasonSpeedFromSpecs, ReasonSpecTerms, ReasonFigureUnknownFor, ReasonFigureZeroFor,
	ReasonSpeedMeasuredRun, ReasonSpeedFromBenchmarks,
	ReasonCostMeasured, ReasonCostEstimatedSame, ReasonCostEstimatedScaled, ReasonCostPartialInstance, ReasonCostRate, ReasonCostPublished,
	ReasonBreakEven, ReasonBreakEvenNever, ReasonTCOComparison, ReasonTCOLeftOut, ReasonTCOSuspectLeftOut,
	ReasonStepWorkPerMonth, ReasonStepBusyHours, ReasonStepNeededHours, ReasonStepHoursPerJob, ReasonStepHoursPerJobIO,
	ReasonStepCommitCeil, ReasonStepCommitFloor, ReasonStepCommitUse, ReasonStepCommitHourly, ReasonStepPAYGHours,
	ReasonStepPAYGOverhead, ReasonStepMonth, ReasonStepAfterHorizon, ReasonStepTotal, ReasonStepCostPerUnit,
	ReasonTermCommitMonthly, ReasonTermUpfront, ReasonTermPAYG, ReasonTermExtras, ReasonTermZero,
	ReasonStepSpotRiskBand, ReasonStepSpotRiskRate, ReasonStepPAYGRisk, ReasonStepHoursPerJobRisk, ReasonTCOSpotNeedsRate,
	ReasonModelNotIdentified, ReasonTrainingCapable, ReasonInferenceOnly, ReasonTrainingUnknown, ReasonNativePrecisionOK,
	ReasonNoNativeBF16, ReasonNoNativeFP8, ReasonNativePrecisionUnknown, ReasonReqTraining, ReasonReqNativePrecision,
}
