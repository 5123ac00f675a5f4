package catalog

import (
	"fmt"
	"sort"

	"github.com/shopspring/decimal"
)

// BenchmarkRun is one validated benchmark result: a workload measured on an
// instance type, with who ran it, when, how and where it was published.
type BenchmarkRun struct {
	// File and Line say where the run was read: its identity in messages and on
	// the site ("data/benchmarks/aws-neuron.csv:4").
	File string `json:"file"`
	Line int    `json:"line"`

	Submitter      string          `json:"submitter"`
	RunDate        string          `json:"run_date"` // YYYY-MM-DD
	Provider       Provider        `json:"provider"`
	InstanceType   string          `json:"instance_type"`
	Region         string          `json:"region,omitempty"`
	GPUCountUsed   int             `json:"gpu_count_used"` // devices used; the instance's count when not given
	Workload       string          `json:"workload"`
	Metric         string          `json:"metric"`
	Unit           string          `json:"unit"`
	Value          decimal.Decimal `json:"value"`
	HigherIsBetter bool            `json:"higher_is_better"`

	DurationS     *decimal.Decimal `json:"duration_s,omitempty"`
	GPUUtilPct    *decimal.Decimal `json:"gpu_util_pct,omitempty"`
	GPUMemPeakGiB *decimal.Decimal `json:"gpu_mem_peak_gib,omitempty"`
	Driver        string           `json:"driver,omitempty"`
	CUDA          string           `json:"cuda,omitempty"`
	Framework     string           `json:"framework,omitempty"`
	Image         string           `json:"image,omitempty"`
	SourceURL     string           `json:"source_url,omitempty"`
	Notes         string           `json:"notes,omitempty"`
	// NotesZH is Notes in Chinese, for the Chinese pages: a record with notes
	// has both.
	NotesZH string `json:"notes_zh,omitempty"`

	// A published result (MLPerf, a vendor's performance table) names the round
	// it belongs to, the benchmark as the source names it ("llama2-70b-99"), its
	// scenario or setting ("Offline", "Server", "ISL 1000 / OSL 1000"), the system
	// it ran on and that system's accelerators. A result on a system that is not
	// an instance type of the catalog has no provider or instance type: its
	// accelerator model and count say what it can be compared with.
	Round            string `json:"round,omitempty"`
	Benchmark        string `json:"benchmark,omitempty"`
	Scenario         string `json:"scenario,omitempty"`
	System           string `json:"system,omitempty"`
	AcceleratorModel string `json:"accelerator_model,omitempty"` // canonical GPU model id
	AcceleratorCount int    `json:"accelerator_count,omitempty"` // accelerators of the system
	// VendorTuned marks results the accelerator's vendor ran and tuned itself
	// (NVIDIA's submissions and tables): a reference point, not a typical run.
	VendorTuned bool `json:"vendor_tuned,omitempty"`
}

// OnInstance reports whether the run was on an instance type of a provider (as
// opposed to a published result on another system).
func (r BenchmarkRun) OnInstance() bool { return r.Provider != "" && r.InstanceType != "" }

// Published reports whether the run is a published result of a benchmark
// suite (it names its round) or was run on a system that is not an instance
// type: cost per unit of work uses such results only from the same accelerator
// model and count, never scaled.
func (r BenchmarkRun) Published() bool { return r.Round != "" || !r.OnInstance() }

// Ref is the run's file:line, which names it in explanations and messages.
func (r BenchmarkRun) Ref() string { return fmt.Sprintf("%s:%d", r.File, r.Line) }

// InstanceKey is the key of the instance type the run was measured on.
func (r BenchmarkRun) InstanceKey() string { return string(r.Provider) + "/" + r.InstanceType }

// BenchmarkFields are the fields of an upload record, in the documented order.
// They are a public contract: uploads use these names as CSV columns or YAML keys.
var BenchmarkFields = []string{
	"submitter", "run_date", "provider", "instance_type", "region", "gpu_count_used",
	"workload", "metric", "unit", "value", "higher_is_better", "duration_s",
	"gpu_util_pct", "gpu_mem_peak_gib", "driver", "cuda", "framework", "image",
	"source_url", "notes",
	"round", "benchmark", "scenario", "system", "accelerator_model", "accelerator_count", "vendor_tuned",
	"notes_zh",
}

// RequiredBenchmarkFields must be set in every record. Besides them a record
// names where it ran: provider and instance_type (InstanceFields), or, for a
// published result on another system, system, accelerator_model and
// accelerator_count (SystemFields).
var RequiredBenchmarkFields = []string{
	"submitter", "run_date", "workload", "metric", "unit", "value",
}

// InstanceFields name the instance type a run was on.
var InstanceFields = []string{"provider", "instance_type"}

// SystemFields name the system of a published result that was not run on an
// instance type of the catalog.
var SystemFields = []string{"system", "accelerator_model", "accelerator_count"}

// Severity says whether a problem makes a record invalid (error) or only asks for a
// second look (warning).
type Severity string

// Severities.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Problem is one finding about a benchmark file, at a line of it (0 when the
// problem concerns the whole file, e.g. it cannot be read).
type Problem struct {
	File     string
	Line     int
	Severity Severity
	Message  string
}

// String formats the problem as "file:line: message", with "warning: " before the
// message of a warning. It is one line whatever the file is called or the
// message holds: control and format characters are escaped (SafeLine), so that
// a file named "x\n::error::…" cannot start a line of its own, which a CI log
// would read as a command.
func (p Problem) String() string {
	msg := SafeLine(p.Message)
	if p.Severity == SeverityWarning {
		msg = "warning: " + msg
	}
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", SafeLine(p.File), p.Line, msg)
	}
	return fmt.Sprintf("%s: %s", SafeLine(p.File), msg)
}

// HasErrors reports whether any problem is an error.
func HasErrors(problems []Problem) bool {
	for _, p := range problems {
		if p.Severity == SeverityError {
			return true
		}
	}
	return false
}

// SortProblems orders problems by file, then line, keeping the order in which
// problems on the same line were found.
func SortProblems(p []Problem) {
	sort.SliceStable(p, func(i, j int) bool {
		if p[i].File != p[j].File {
			return p[i].File < p[j].File
		}
		return p[i].Line < p[j].Line
	})
}

// BenchmarkRecord is one record of an upload as read, before validation: field
// values as text with the line each came from.
type BenchmarkRecord struct {
	File       string
	Line       int
	Fields     map[string]string
	FieldLines map[string]int
	// broken is set when reading the record already found an error (an unknown or
	// repeated field, a list where a value belongs): the record is not loaded.
	broken bool
}

func (r BenchmarkRecord) lineOf(field string) int {
	if l, ok := r.FieldLines[field]; ok && l > 0 {
		return l
	}
	return r.Line
}
