package main

import "regexp"

// The mapping tables of the conversion: which accelerator is which canonical
// GPU model, which benchmark is which workload, when each round was published,
// and which submitted system is an instance type of one of GPU Atlas's clouds.
// Each entry says why; what is not here is left out and counted.

// gpuModels maps the sources' normalised accelerator_variant to a canonical GPU
// model id of data/gpus.csv. Only GPUs the five clouds rent are in the sources'
// in_brief_gpu_list; of those, a variant is mapped only where the variant names
// the form factor and memory that tell the reference's rows apart.
var gpuModels = map[string]string{
	"H100-SXM-80GB":  "nvidia-h100-sxm-80gb",
	"H100-PCIe-80GB": "nvidia-h100-pcie-80gb",
	"H100-NVL-94GB":  "nvidia-h100-nvl-94gb",
	"H200-SXM-141GB": "nvidia-h200-sxm-141gb",
	"B200-SXM-180GB": "nvidia-b200-180gb",
	// Lambda's "B200 192GB": the B200 carries 192 GB of HBM3e, of which HGX
	// B200 systems expose 180 GB; it is the one B200 of the reference.
	"B200":           "nvidia-b200-180gb",
	"A100-SXM-80GB":  "nvidia-a100-sxm-80gb",
	"A100-PCIe-80GB": "nvidia-a100-pcie-80gb",
	"L4":             "nvidia-l4-24gb",
	"L40S":           "nvidia-l40s-48gb",
	"T4":             "nvidia-t4-16gb",
	"A10":            "nvidia-a10-24gb", // the A10 exists in one form: 24 GB PCIe
}

// gpuLeftOut says why a variant of the in_brief_gpu_list has no model.
var gpuLeftOut = map[string]string{
	"H200-NVL-141GB": "H200 NVL: no row in data/gpus.csv (no cloud of the five lists it)",
	"MI300X":         "AMD MI300X: no row in data/gpus.csv (no cloud of the five lists it)",
	"V100":           "V100 16GB: the source names neither form factor (SXM2 or PCIe) nor the reference's variant",
	"A100-PCIe-40GB": "A100 40GB PCIe: no row in data/gpus.csv",
}

// partialGPU matches accelerator descriptions of a slice or a virtualised GPU
// (MIG profiles, vGPU profiles): not a whole device of the model.
var partialGPU = regexp.MustCompile(`(?i)\bMIG\b|vGPU|virtuali[sz]ed|-80C\b`)

// workload is where a source's benchmark goes in data/workloads.csv, and in
// which unit.
type workload struct {
	ID     string
	Metric string
	Unit   string // the workload's unit
	// LLM says the benchmark's throughput is generated tokens; a result in
	// samples or queries per second is then a different quantity.
	LLM bool
}

// inferenceWorkloads maps MLPerf Inference benchmark names (without the
// accuracy suffix -99 / -99.9, which goes into the benchmark field) to
// workloads. Benchmarks not listed (3d-unet, dlrm, rnnt, rgat, whisper) are left
// out: no workload of GPU Atlas prices their work.
var inferenceWorkloads = map[string]workload{
	"llama2-70b":             {"mlperf-llama2-70b", "throughput", "tokens/s", true},
	"llama2-70b-interactive": {"mlperf-llama2-70b", "throughput", "tokens/s", true},
	"llama3.1-405b":          {"mlperf-llama31-405b", "throughput", "tokens/s", true},
	"llama3_1-405b":          {"mlperf-llama31-405b", "throughput", "tokens/s", true},
	"llama3.1-8b":            {"mlperf-llama31-8b", "throughput", "tokens/s", true},
	"mixtral-8x7b":           {"mlperf-mixtral-8x7b", "throughput", "tokens/s", true},
	"gptj":                   {"mlperf-gptj", "throughput", "tokens/s", true},
	"deepseek-r1":            {"mlperf-deepseek-r1", "throughput", "tokens/s", true},
	"resnet50":               {"mlperf-resnet50", "throughput", "images/s", false},
	"retinanet":              {"mlperf-retinanet", "throughput", "images/s", false},
	"bert":                   {"mlperf-bert", "throughput", "sequences/s", false},
	"stable-diffusion-xl":    {"mlperf-sdxl", "throughput", "images/s", false},
}

// trainingWorkloads maps MLPerf Training benchmark names to workloads. A
// renamed benchmark keeps its own workload (gnn and rgat, ssd and retinanet):
// nothing in the sources says the task stayed the same.
var trainingWorkloads = map[string]string{
	"bert":             "mlperf-train-bert",
	"dlrm_dcnv2":       "mlperf-train-dlrm-dcnv2",
	"gnn":              "mlperf-train-gnn",
	"rgat":             "mlperf-train-rgat",
	"gpt3":             "mlperf-train-gpt3",
	"llama2_70b_lora":  "mlperf-train-llama2-70b-lora",
	"llama31_405b":     "mlperf-train-llama31-405b",
	"llama31_8b":       "mlperf-train-llama31-8b",
	"resnet":           "mlperf-train-resnet",
	"ssd":              "mlperf-train-ssd",
	"retinanet":        "mlperf-train-retinanet",
	"stable_diffusion": "mlperf-train-stable-diffusion",
	"unet3d":           "mlperf-train-unet3d",
	"flux1":            "mlperf-train-flux1",
}

// trtllmWorkloads maps the models of NVIDIA's TensorRT-LLM tables to workloads.
var trtllmWorkloads = map[string]string{
	"Llama 3.1 8B":     "trtllm-llama31-8b",
	"Llama 3.3 70B":    "trtllm-llama33-70b",
	"Llama 3.1 405B":   "trtllm-llama31-405b",
	"Llama 4 Scout":    "trtllm-llama4-scout",
	"Llama 4 Maverick": "trtllm-llama4-maverick",
	"Qwen3-235B-A22B":  "trtllm-qwen3-235b",
	"Qwen3-30B-A3B":    "trtllm-qwen3-30b",
}

// roundDate is the run_date of a round's results: the sources give the date
// the results were published or committed, not when each ran. note says which;
// the README of data/benchmarks/published gives each date's source.
type roundDate struct{ Date, Note, NoteZH string }

var roundDates = map[string]roundDate{
	"mlperf_inference_v3.0.csv":         {"2023-04-04", "run_date: the results' commit", "run_date：结果的提交日期"},
	"mlperf_inference_v4.1.csv":         {"2024-08-28", "run_date: the results' commit", "run_date：结果的提交日期"},
	"mlperf_inference_v5.0_partial.csv": {"2025-04-02", "run_date: the round's publication (the system pages say February 2025)", "run_date：该轮结果的发布日期（系统页面写的是 2025 年 2 月）"},
	"mlperf_inference_v5.1.csv":         {"2025-09-04", "run_date: the results' commit", "run_date：结果的提交日期"},
	"mlperf_training_v4.0.csv":          {"2024-06-11", "run_date: the results' commit", "run_date：结果的提交日期"},
	"mlperf_training_v4.1.csv":          {"2024-11-13", "run_date: the results' commit", "run_date：结果的提交日期"},
	"mlperf_training_v5.0.csv":          {"2025-05-30", "run_date: the commit the results were read at", "run_date：读取结果时所在的提交"},
	"mlperf_training_v5.1.csv":          {"2025-11-05", "run_date: the results' commit", "run_date：结果的提交日期"},
	"tensorrt_llm_perf_overview.csv":    {"2026-12-01", "run_date: the page gives none (it says NEW for v1.0): the day this copy was added to GPU Atlas's sources", "run_date：该页面没有给出日期（只标注 v1.0 为 NEW）：取此副本加入 GPU Atlas 数据来源的日期"},
	// mlperf_inference_v4.0_partial.csv: the date of each submitter's checker
	// run, read from the row (checkerDate). Lambda: the row's commit date.
}

// instanceSystems are submitted systems that are an instance type of one of
// the five clouds: their results are measurements on that type. The match is
// on the system id; evidence says why it is that type.
var instanceSystems = []struct {
	SystemID     *regexp.Regexp
	Provider     string
	InstanceType string
	Evidence     string
	EvidenceZH   string
}{
	{regexp.MustCompile(`^aws_g4dn\.xlarge(\.|-)`), "aws", "g4dn.xlarge",
		"system \"AWS cloud instance g4dn.xlarge\" (cTuning's MLPerf Inference v3.0 submission, 1x T4)",
		"系统名为“AWS cloud instance g4dn.xlarge”（cTuning 提交的 MLPerf Inference v3.0 结果，1 块 T4）"},
}

// availabilityZH is MLPerf's availability category of a system in Chinese.
var availabilityZH = map[string]string{
	"available": "已上市", "Available on-premise": "已上市（本地部署）", "Available cloud": "已上市（云上）",
	"preview": "预览", "Preview": "预览",
	"rdi": "研究、开发或内部（RDI）", "RDI": "研究、开发或内部（RDI）",
}

// sourceNotesZH are the sources' own notes kept beside a value, in Chinese.
var sourceNotesZH = map[string]string{
	"v4.0 submission-checker value as logged by submitter before publication (not the final MLCommons results table)":                                                                "v4.0 提交检查器的数值，由提交者在发布前记录（并非 MLCommons 最终结果表）",
	"v4.0 submission-checker value as logged by submitter before publication (not the final MLCommons results table); MaxQ = power-constrained configuration with power measurement": "v4.0 提交检查器的数值，由提交者在发布前记录（并非 MLCommons 最终结果表）；MaxQ 即限制功耗并测量功耗的配置",
}

// ourClouds finds a mention of one of the five clouds in a submitter or system
// name: such a row must be in instanceSystems or the conversion stops, so that
// a cloud's own result is never turned into an estimate silently.
var ourClouds = regexp.MustCompile(`(?i)\b(aws|amazon|alibaba|aliyun|tencent|huawei|volcengine|volcano|bytedance)\b|\baws_`)
