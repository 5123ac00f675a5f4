package catalog

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// FigureSource is one figure of the GPU reference with its own source
// (data/gpu_sources.csv): the finest grain a fact from outside is used at. A
// figure no primary source gives has an empty Value and says why in Note. A
// second source that disagrees is kept (SecondValue, SecondSource) and listed
// by `gpuatlas check` as a conflict.
type FigureSource struct {
	GPU          string `json:"gpu_id"`
	Field        string `json:"field"` // memory, memory_bandwidth, fp64_tflops, bf16_tflops_sparse …
	Value        string `json:"value"`
	Unit         string `json:"unit,omitempty"`
	Basis        string `json:"basis,omitempty"` // per_gpu, per_board, dense, sparse, n/a
	SourceURL    string `json:"source_url,omitempty"`
	SourceTitle  string `json:"source_title,omitempty"`
	Locator      string `json:"locator,omitempty"` // the table or page of the source
	SourceDate   string `json:"source_date,omitempty"`
	SecondValue  string `json:"second_value,omitempty"`
	SecondSource string `json:"second_source,omitempty"`
	Note         string `json:"note,omitempty"`
	Line         int    `json:"line"`
}

// FigureBases are the bases a figure may be stated on.
var FigureBases = []string{"per_gpu", "per_board", "dense", "sparse", "n/a"}

// Conflict reports whether a second source disagrees with the figure.
func (f FigureSource) Conflict() bool { return f.SecondValue != "" }

// Message says a conflict in a line: "nvidia-b200-180gb memory: 180 GB
// (source, locator) against 192 (second source)".
func (f FigureSource) Message() string {
	src := f.SourceURL
	if f.Locator != "" {
		src += ", " + f.Locator
	}
	return fmt.Sprintf("%s %s: %s %s (%s) against %s (%s)", f.GPU, f.Field, f.Value, f.Unit, src, f.SecondValue, f.SecondSource)
}

// FigureConflicts lists the figures a second source disagrees with, in file
// order.
func (r *GPUReference) FigureConflicts() []FigureSource {
	out := []FigureSource{}
	if r == nil {
		return out
	}
	for _, f := range r.Sources {
		if f.Conflict() {
			out = append(out, f)
		}
	}
	return out
}

// parseGPUSources reads data/gpu_sources.csv against the models already read:
// every row names a model of the reference and a field; a figure has a source,
// an empty figure a reason, a second value its source. Errors name file:line.
func parseGPUSources(name string, r io.Reader, ref *GPUReference) ([]FigureSource, error) {
	var out []FigureSource
	err := readCSV(name, r, []string{"gpu_id", "field", "value", "unit", "basis", "source_url", "source_title", "locator",
		"source_date", "second_value", "second_source", "note"}, func(line int, get func(string) string) error {
		f := FigureSource{GPU: get("gpu_id"), Field: get("field"), Value: get("value"), Unit: get("unit"), Basis: get("basis"),
			SourceURL: get("source_url"), SourceTitle: get("source_title"), Locator: get("locator"), SourceDate: get("source_date"),
			SecondValue: get("second_value"), SecondSource: get("second_source"), Note: get("note"), Line: line}
		if _, ok := ref.Model(f.GPU); !ok {
			return fmt.Errorf("gpu_id %q is not in data/gpus.csv", f.GPU)
		}
		if f.Field == "" || f.Field != strings.ToLower(f.Field) || strings.ContainsAny(f.Field, " ,") {
			return fmt.Errorf("field %q must be a non-empty lower-case name", f.Field)
		}
		if f.Basis != "" && !containsString(FigureBases, f.Basis) {
			return fmt.Errorf("basis %q is not one of %s", f.Basis, strings.Join(FigureBases, ", "))
		}
		switch {
		case f.Value == "" && f.Note == "":
			return errors.New("value is empty without a note: an empty figure says why")
		case f.Value != "" && f.SourceURL == "":
			return fmt.Errorf("%s %s has no source_url: every figure cites its source", f.GPU, f.Field)
		case f.SecondValue != "" && f.SecondSource == "":
			return fmt.Errorf("%s %s: second_value %q has no second_source", f.GPU, f.Field, f.SecondValue)
		}
		out = append(out, f)
		return nil
	})
	return out, err
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
