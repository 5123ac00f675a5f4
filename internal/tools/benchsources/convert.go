package main

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// sourceRow is one row of a source file of ../shared/realdata/benchmarks, by
// column name.
type sourceRow map[string]string

// record is one benchmark upload record (catalog.BenchmarkFields), by field.
type record map[string]string

// outputFields are the columns of the uploads this tool writes, in order.
var outputFields = []string{
	"submitter", "run_date", "round", "benchmark", "scenario", "system",
	"accelerator_model", "accelerator_count", "vendor_tuned", "provider", "instance_type",
	"workload", "metric", "unit", "value", "higher_is_better", "framework", "source_url", "notes", "notes_zh",
}

// source is one input file and how its rows are converted.
type source struct {
	File  string // name in the sources folder
	Out   string // upload file name
	Round string // the round as the uploads name it
	kind  sourceKind
}

type sourceKind int

const (
	mlperfInference sourceKind = iota
	mlperfTraining
	trtllm
	lambda
)

// sources are converted in this order, each to its own upload.
var sources = []source{
	{"mlperf_inference_v3.0.csv", "mlperf-inference-v3.0.csv", "MLPerf Inference v3.0", mlperfInference},
	{"mlperf_inference_v4.0_partial.csv", "mlperf-inference-v4.0.csv", "MLPerf Inference v4.0", mlperfInference},
	{"mlperf_inference_v4.1.csv", "mlperf-inference-v4.1.csv", "MLPerf Inference v4.1", mlperfInference},
	{"mlperf_inference_v5.0_partial.csv", "mlperf-inference-v5.0.csv", "MLPerf Inference v5.0", mlperfInference},
	{"mlperf_inference_v5.1.csv", "mlperf-inference-v5.1.csv", "MLPerf Inference v5.1", mlperfInference},
	{"mlperf_training_v4.0.csv", "mlperf-training-v4.0.csv", "MLPerf Training v4.0", mlperfTraining},
	{"mlperf_training_v4.1.csv", "mlperf-training-v4.1.csv", "MLPerf Training v4.1", mlperfTraining},
	{"mlperf_training_v5.0.csv", "mlperf-training-v5.0.csv", "MLPerf Training v5.0", mlperfTraining},
	{"mlperf_training_v5.1.csv", "mlperf-training-v5.1.csv", "MLPerf Training v5.1", mlperfTraining},
	{"tensorrt_llm_perf_overview.csv", "nvidia-tensorrt-llm.csv", "NVIDIA TensorRT-LLM performance overview (v1.0)", trtllm},
	{"lambda_deeplearning_benchmark_pytorch_training.csv", "lambda-pytorch-training.csv", "", lambda},
}

// noChinese starts the reason of a note that has no Chinese: not a row left
// out but an error, since every note is shown on the Chinese pages too.
const noChinese = "no Chinese for "

// skipped is why a source row was not converted: a short reason, counted.
type skipped string

// convert turns one source row into an upload record, or says why not.
func (s source) convert(r sourceRow) (record, skipped) {
	if r["in_brief_gpu_list"] != "yes" {
		return nil, "accelerator not rented by the five clouds (in_brief_gpu_list=no)"
	}
	variant := r["accelerator_variant"]
	if partialGPU.MatchString(variant) || partialGPU.MatchString(r["accelerator_model"]) || partialGPU.MatchString(r["notes"]) {
		return nil, "a MIG slice or virtualised GPU, not a whole device"
	}
	model, ok := gpuModels[variant]
	if !ok {
		if why, known := gpuLeftOut[variant]; known {
			return nil, skipped(why)
		}
		return nil, skipped("no canonical GPU model for variant " + variant)
	}
	count, err := strconv.Atoi(r["accelerator_count"])
	if err != nil || count < 1 {
		return nil, "no accelerator count"
	}
	rec := record{
		"submitter": r["submitter"], "system": r["system_name"],
		"accelerator_model": model, "accelerator_count": strconv.Itoa(count),
		"vendor_tuned": "false", "value": r["value"], "framework": r["software"],
		"source_url": sourceURL(r), "round": s.Round,
	}
	var notes []note
	var why skipped
	switch s.kind {
	case mlperfInference:
		notes, why = s.inference(r, rec)
	case mlperfTraining:
		notes, why = s.training(r, rec)
	case trtllm:
		notes, why = s.trtllm(r, rec)
	case lambda:
		notes, why = s.lambda(r, rec)
	}
	if why != "" {
		return nil, why
	}
	if strings.Contains(r["submitter"], "NVIDIA") || s.kind == trtllm {
		rec["vendor_tuned"] = "true"
	}
	if date, n, ok := s.runDate(r); ok {
		rec["run_date"] = date
		notes = append(notes, n)
	} else {
		return nil, "no date for the round"
	}
	// The sources' own notes matter for MLPerf Inference (a v4.0 value from a
	// pre-publication log); elsewhere they describe the copy, or repeat ours.
	if n := strings.TrimSpace(r["notes"]); n != "" && s.kind == mlperfInference && !strings.HasPrefix(n, "availability=") &&
		!strings.HasPrefix(n, "llama2-70b-interactive") {
		zh, ok := sourceNotesZH[n]
		if !ok {
			return nil, skipped(noChinese + "source note " + strconv.Quote(n) + ": add it to sourceNotesZH")
		}
		notes = append(notes, note{"source note: " + n, "来源附注：" + zh})
	}
	en, zh := make([]string, len(notes)), make([]string, len(notes))
	for i, n := range notes {
		en[i], zh[i] = n.en, n.zh
	}
	rec["notes"], rec["notes_zh"] = strings.Join(en, "; "), strings.Join(zh, "；")
	return rec, ""
}

// accuracySuffix is MLPerf's accuracy target on a benchmark name: -99 is 99% of
// the FP32 reference's accuracy, -99.9 is 99.9%.
var accuracySuffix = regexp.MustCompile(`-(99|99\.9)$`)

func (s source) inference(r sourceRow, rec record) ([]note, skipped) {
	if r["division"] != "closed" {
		return nil, "not the closed division (open results may change the model)"
	}
	bench := r["benchmark"]
	base := accuracySuffix.ReplaceAllString(bench, "")
	w, ok := inferenceWorkloads[base]
	if !ok {
		return nil, skipped("benchmark " + base + " has no workload")
	}
	scenario := r["scenario_or_task"]
	var notes []note
	if base == "llama2-70b-interactive" {
		// v5.0's interactive benchmark is the Server scenario under tighter
		// latency limits: v5.1 calls it the Interactive scenario of llama2-70b.
		if scenario != "Server" {
			return nil, "llama2-70b-interactive has only its Server (interactive) scenario"
		}
		scenario = "Interactive"
		notes = append(notes, note{"v5.0 benchmark llama2-70b-interactive: the Server scenario with the tighter TTFT/TPOT limits v5.1 calls Interactive",
			"v5.0 的基准 llama2-70b-interactive：即 TTFT/TPOT 限制更严的 Server 场景，v5.1 称之为 Interactive 场景"})
	}
	switch scenario {
	case "Offline", "Server", "Interactive":
	default:
		return nil, "a latency scenario (SingleStream, MultiStream), not a throughput"
	}
	unit := r["unit"]
	switch {
	case unit == "Tokens/s" && w.LLM:
	case unit == "Samples/s" && !w.LLM:
	case unit == "Queries/s" && !w.LLM && scenario == "Server":
		// MLPerf's Server scenario sends one sample per query.
		notes = append(notes, note{"Server: one sample per query, so queries/s are samples/s", "Server 场景每个查询一个样本，因此 queries/s 即 samples/s"})
	default:
		return nil, skipped("unit " + unit + " is not the workload's " + w.Unit + " (kept as the source gives it, not converted)")
	}
	rec["benchmark"], rec["scenario"] = bench, scenario
	rec["workload"], rec["metric"], rec["unit"], rec["higher_is_better"] = w.ID, w.Metric, w.Unit, "true"
	if m := accuracySuffix.FindStringSubmatch(bench); m != nil {
		notes = append(notes, note{"accuracy target " + m[1] + "% of the FP32 reference", "精度目标：FP32 参考模型精度的 " + m[1] + "%"})
	}
	more, why := mlperfNotes(r)
	return append(notes, more...), why
}

func (s source) training(r sourceRow, rec record) ([]note, skipped) {
	if r["division"] != "closed" {
		return nil, "not the closed division"
	}
	id, ok := trainingWorkloads[r["benchmark"]]
	if !ok {
		return nil, skipped("benchmark " + r["benchmark"] + " has no workload")
	}
	if r["unit"] != "minutes" {
		return nil, skipped("unit " + r["unit"] + " is not minutes")
	}
	// Training has one scenario, time to train: the scenario stays empty.
	rec["benchmark"] = r["benchmark"]
	rec["workload"], rec["metric"], rec["unit"], rec["higher_is_better"] = id, "time_to_train", "min/run", "false"
	notes := []note{{"minutes to the reference quality: olympic mean of the runs × the RCP factor (mlperf_logging result_summarizer)",
		"达到参考质量所需的分钟数：各次运行去掉最高和最低后的平均值（olympic mean）× RCP 系数（mlperf_logging result_summarizer）"}}
	if n := r["nodes"]; n != "" && n != "1" {
		notes = append(notes, note{n + " nodes", n + " 个节点"})
	}
	more, why := mlperfNotes(r)
	return append(notes, more...), why
}

func (s source) trtllm(r sourceRow, rec record) ([]note, skipped) {
	id, ok := trtllmWorkloads[r["benchmark"]]
	if !ok {
		return nil, skipped("model " + r["benchmark"] + " has no workload")
	}
	isl, osl, ok := islOSL(r["benchmark_variant"])
	if !ok {
		return nil, skipped("sequence lengths " + r["benchmark_variant"] + " not understood")
	}
	rec["benchmark"], rec["scenario"] = r["benchmark"], "ISL "+isl+" / OSL "+osl
	rec["system"] = r["system_name"] + ", " + r["system_id"]
	rec["workload"], rec["metric"], rec["unit"], rec["higher_is_better"] = id, "throughput", "tokens/s", "true"
	return []note{
		{"NVIDIA's reference figures, not peak (per the page): trtllm-bench throughput at an infinite request rate, synthetic requests of fixed lengths; output tokens/s of the TP×PP group",
			"NVIDIA 的参考数据，并非峰值（据该页面）：trtllm-bench 在无限请求速率下的吞吐量，请求为固定长度的合成请求；数值为 TP×PP 组的输出 tokens/s"},
		{"weights " + r["precision_or_weights"], "权重 " + r["precision_or_weights"]},
	}, ""
}

func (s source) lambda(r sourceRow, rec record) ([]note, skipped) {
	// Only ResNet-50's unit is confirmed (images/s, the raw logs' train.total_ips);
	// the other models' throughput is in a unit the tables do not state.
	if r["benchmark"] != "resnet50" {
		return nil, "not ResNet-50: the unit of Lambda's other models is not stated"
	}
	prec := r["precision_or_weights"]
	if prec != "fp16" && prec != "fp32" {
		return nil, skipped("precision " + prec + " not understood")
	}
	rec["round"] = "Lambda deeplearning-benchmark (" + r["round"] + ")"
	rec["benchmark"], rec["scenario"] = "resnet50", prec
	rec["workload"], rec["metric"], rec["unit"], rec["higher_is_better"] = "resnet50-train", "throughput", "images/s", "true"
	return []note{{"ResNet-50 v1.5 training (NVIDIA DeepLearningExamples, NGC PyTorch), whole machine, short benchmark-mode runs",
		"ResNet-50 v1.5 训练（NVIDIA DeepLearningExamples，NGC PyTorch），整机，短时的基准模式运行"}}, ""
}

// note is one part of a record's notes, in English and in Chinese.
type note struct{ en, zh string }

// mlperfNotes are the row's facts worth keeping beside the value.
func mlperfNotes(r sourceRow) ([]note, skipped) {
	var out []note
	if a := r["availability"]; a != "" {
		zh, ok := availabilityZH[a]
		if !ok {
			return nil, skipped(noChinese + "availability " + strconv.Quote(a) + ": add it to availabilityZH")
		}
		out = append(out, note{"availability " + a, "可用性：" + zh})
	}
	if p := r["precision_or_weights"]; p != "" {
		out = append(out, note{"precision " + p, "精度 " + precisionZH(p)})
	}
	return out, ""
}

// precisionZH is a precision_or_weights value for the Chinese notes: a list of
// part:precision pairs (clip1:fp32,unet:fp8, or a Python dict of them:
// {'clip1': 'fp32', 'unet': 'fp8'}) said part by part, else as given.
func precisionZH(p string) string {
	list := p
	if strings.HasPrefix(list, "{") && strings.HasSuffix(list, "}") {
		list = strings.ReplaceAll(list[1:len(list)-1], "'", "")
	}
	parts := strings.Split(list, ",")
	for i, part := range parts {
		name, prec, ok := strings.Cut(part, ":")
		if !ok {
			return p
		}
		parts[i] = strings.TrimSpace(name) + " 为 " + strings.TrimSpace(prec)
	}
	return strings.Join(parts, "、")
}

var islOSLSyntax = regexp.MustCompile(`^ISL (\d+) / OSL (\d+)$`)

func islOSL(s string) (string, string, bool) {
	m := islOSLSyntax.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

var isoDate = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)

// runDate is the record's run_date and the note that says what it is.
func (s source) runDate(r sourceRow) (string, note, bool) {
	if d, ok := roundDates[s.File]; ok {
		return d.Date, note{d.Note, d.NoteZH}, true
	}
	switch s.kind {
	case mlperfInference: // v4.0: each submitter's checker run
		if d := isoDate.FindString(r["source_commit_date"]); d != "" {
			return d, note{"run_date: the submitter's submission-checker run", "run_date：提交者运行提交检查器（submission checker）的日期"}, true
		}
	case lambda:
		if d := isoDate.FindString(r["source_commit_date"]); d != "" {
			return d, note{"run_date: the commit of the table the value is in", "run_date：该数值所在表格的提交日期"}, true
		}
	}
	return "", note{}, false
}

// sourceURL is where the value can be read: the result's folder or the file
// the value is in, in the source repository at the commit it was read at.
func sourceURL(r sourceRow) string {
	repo, _, _ := strings.Cut(r["source_repo"], " ")
	commit := r["source_commit"]
	loc := r["result_location"]
	switch {
	case repo == "" || commit == "":
		return r["details_url"]
	case strings.HasPrefix(r["source_path"], "<") || strings.HasSuffix(r["source_path"], "summary_results.json"):
		// Training logs and summary files: the result's own folder.
		return fmt.Sprintf("https://github.com/%s/tree/%s/%s", repo, commit, escapePath(loc))
	default:
		return fmt.Sprintf("https://github.com/%s/blob/%s/%s", repo, commit, escapePath(r["source_path"]))
	}
}

// escapePath escapes each segment of a repository path for a URL (a submitter
// folder may hold spaces: "Sustainable Metal Cloud").
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// onInstance fills provider and instance_type when the system is an instance
// type of one of the five clouds, and fails on a row that mentions one of them
// without being known: a cloud's own result must never become an estimate by
// oversight.
func onInstance(r sourceRow, rec record) error {
	for _, s := range instanceSystems {
		if s.SystemID.MatchString(r["system_id"]) {
			rec["provider"], rec["instance_type"] = s.Provider, s.InstanceType
			rec["notes"] = strings.TrimPrefix(rec["notes"]+"; measured on "+s.Provider+" "+s.InstanceType+": "+s.Evidence, "; ")
			rec["notes_zh"] = strings.TrimPrefix(rec["notes_zh"]+"；测于 "+s.Provider+" "+s.InstanceType+"："+s.EvidenceZH, "；")
			return nil
		}
	}
	for _, f := range []string{"submitter", "system_name", "system_id"} {
		if ourClouds.MatchString(r[f]) {
			return fmt.Errorf("%s %q names one of GPU Atlas's clouds but is not in instanceSystems: add it (or say why it is not an instance type)", f, r[f])
		}
	}
	return nil
}
