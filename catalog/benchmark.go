package catalog

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"
	"gopkg.in/yaml.v3"
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
}

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
}

// RequiredBenchmarkFields must be set in every record.
var RequiredBenchmarkFields = []string{
	"submitter", "run_date", "provider", "instance_type", "workload", "metric", "unit", "value",
}

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
// message of a warning.
func (p Problem) String() string {
	msg := p.Message
	if p.Severity == SeverityWarning {
		msg = "warning: " + msg
	}
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, msg)
	}
	return fmt.Sprintf("%s: %s", p.File, msg)
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

var knownField = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range BenchmarkFields {
		m[f] = true
	}
	return m
}()

func unknownFieldMessage(name string) string {
	msg := fmt.Sprintf("unknown field %q", name)
	if s := closest(name, BenchmarkFields, 1); len(s) > 0 && editDistance(name, s[0]) <= 3 {
		msg += fmt.Sprintf("; did you mean %q?", s[0])
	}
	return msg
}

// ParseBenchmarkFile reads the records of one upload; the format follows the name's
// extension (.csv, .yaml, .yml). It never fails as a whole: every problem is
// returned with its line, and the records that could be read are returned.
func ParseBenchmarkFile(name string, data []byte) ([]BenchmarkRecord, []Problem) {
	switch strings.ToLower(path.Ext(filepath.ToSlash(name))) {
	case ".csv":
		return ParseBenchmarksCSV(name, data)
	case ".yaml", ".yml":
		return ParseBenchmarksYAML(name, data)
	}
	return nil, []Problem{{File: name, Severity: SeverityError, Message: "not a benchmark file: want a .csv, .yaml or .yml extension"}}
}

// ParseBenchmarksCSV reads a CSV upload: a header row naming the fields (any order)
// and one run per row.
func ParseBenchmarksCSV(name string, data []byte) ([]BenchmarkRecord, []Problem) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var probs []Problem
	errAt := func(line int, format string, args ...any) {
		probs = append(probs, Problem{File: name, Line: line, Severity: SeverityError, Message: fmt.Sprintf(format, args...)})
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, []Problem{{File: name, Line: 1, Severity: SeverityWarning, Message: "file has no records"}}
	}
	if !utf8.Valid(data) {
		errAt(1, "file is not UTF-8 text")
		return nil, probs
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		errAt(csvErrorLine(err, 1), "malformed CSV header: %v", csvErrorText(err))
		return nil, probs
	}
	headerLine, _ := cr.FieldPos(0)
	cols := make([]string, len(header))
	seen := map[string]bool{}
	broken := false
	for i, h := range header {
		h = strings.TrimSpace(h)
		cols[i] = h
		switch {
		case h == "":
			errAt(headerLine, "column %d has no name", i+1)
			broken = true
		case seen[h]:
			errAt(headerLine, "field %q appears twice in the header", h)
			broken = true
		case !knownField[h]:
			errAt(headerLine, "%s", unknownFieldMessage(h))
			broken = true
		}
		seen[h] = true
	}
	missing := false
	for _, f := range RequiredBenchmarkFields {
		if !seen[f] {
			errAt(headerLine, "missing required field %q (no such column)", f)
			missing = true
		}
	}
	if missing {
		// Every row would lack the field: one message at the header says it all.
		return nil, probs
	}
	var recs []BenchmarkRecord
	for {
		row, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			// After a quoting error the reader's position in the file is no longer
			// trustworthy: report it and stop reading this file.
			errAt(csvErrorLine(err, headerLine), "malformed CSV: %v", csvErrorText(err))
			break
		}
		line, _ := cr.FieldPos(0)
		if len(row) != len(cols) {
			errAt(line, "row has %d fields, the header has %d", len(row), len(cols))
			continue
		}
		blank := true
		for _, v := range row {
			if strings.TrimSpace(v) != "" {
				blank = false
				break
			}
		}
		if blank {
			continue
		}
		rec := BenchmarkRecord{File: name, Line: line, Fields: map[string]string{}, FieldLines: map[string]int{}, broken: broken}
		for i, c := range cols {
			if c == "" || !knownField[c] {
				continue
			}
			rec.Fields[c] = strings.TrimSpace(row[i])
			l, _ := cr.FieldPos(i)
			rec.FieldLines[c] = l
		}
		recs = append(recs, rec)
	}
	return recs, probs
}

func csvErrorLine(err error, fallback int) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) && pe.Line > 0 {
		return pe.Line
	}
	return fallback
}

func csvErrorText(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

var yamlErrorLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// ParseBenchmarksYAML reads a YAML upload: one document holding a list of records,
// each a mapping of field: value.
func ParseBenchmarksYAML(name string, data []byte) ([]BenchmarkRecord, []Problem) {
	var probs []Problem
	errAt := func(line int, format string, args ...any) {
		probs = append(probs, Problem{File: name, Line: line, Severity: SeverityError, Message: fmt.Sprintf(format, args...)})
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, []Problem{{File: name, Line: 1, Severity: SeverityWarning, Message: "file has no records"}}
	}
	docs, err := decodeYAMLDocuments(data)
	if err != nil {
		line, msg := 1, err.Error()
		if m := yamlErrorLine.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		} else {
			msg = strings.TrimPrefix(msg, "yaml: ")
		}
		errAt(line, "malformed YAML: %s", msg)
		return nil, probs
	}
	if len(docs) == 0 || docs[0].Kind != yaml.DocumentNode || len(docs[0].Content) == 0 {
		return nil, []Problem{{File: name, Line: 1, Severity: SeverityWarning, Message: "file has no records"}}
	}
	if len(docs) > 1 {
		errAt(docs[1].Line, "more than one YAML document: put every record in one list")
	}
	root := resolveAlias(docs[0].Content[0])
	if root.Kind != yaml.SequenceNode {
		errAt(root.Line, "want a list of records (a YAML sequence), found %s", yamlKind(root))
		return nil, probs
	}
	var recs []BenchmarkRecord
	for _, item := range root.Content {
		n := resolveAlias(item)
		if n.Kind != yaml.MappingNode {
			errAt(item.Line, "record must be a mapping of field: value, found %s", yamlKind(n))
			continue
		}
		rec := BenchmarkRecord{File: name, Line: item.Line, Fields: map[string]string{}, FieldLines: map[string]int{}}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := resolveAlias(n.Content[i]), resolveAlias(n.Content[i+1])
			if k.Kind != yaml.ScalarNode {
				errAt(n.Content[i].Line, "field name must be text, found %s", yamlKind(k))
				rec.broken = true
				continue
			}
			key := strings.TrimSpace(k.Value)
			if !knownField[key] {
				errAt(n.Content[i].Line, "%s", unknownFieldMessage(key))
				rec.broken = true
				continue
			}
			if first, dup := rec.FieldLines[key]; dup {
				errAt(n.Content[i].Line, "field %q given twice (first on line %d)", key, first)
				rec.broken = true
				continue
			}
			// A field's line is its key's: the value of a list or a block scalar
			// starts on a later line, but the field is where the key is.
			rec.FieldLines[key] = n.Content[i].Line
			switch {
			case v.Kind != yaml.ScalarNode:
				errAt(n.Content[i].Line, "field %q must be a single value, found %s", key, yamlKind(v))
				rec.broken = true
				rec.Fields[key] = ""
			case v.ShortTag() == "!!null":
				rec.Fields[key] = ""
			default:
				rec.Fields[key] = strings.TrimSpace(v.Value)
			}
		}
		recs = append(recs, rec)
	}
	return recs, probs
}

// decodeYAMLDocuments decodes every document of data into nodes. yaml.v3 is
// third-party code fed with user input: a panic inside it is turned into an error
// so that one bad file cannot stop the others from loading.
func decodeYAMLDocuments(data []byte) (docs []*yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			docs, err = nil, fmt.Errorf("yaml: the parser failed on this file (%v)", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if err == io.EOF {
				return docs, nil
			}
			return nil, err
		}
		docs = append(docs, &n)
	}
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; i < 16 && n.Kind == yaml.AliasNode && n.Alias != nil; i++ {
		n = n.Alias
	}
	return n
}

func yamlKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		return "a single value"
	case yaml.AliasNode:
		return "an alias"
	}
	return "nothing"
}

// benchmarkIndex is what validation looks up in the snapshot.
type benchmarkIndex struct {
	types   map[string]InstanceType // provider/id
	ids     map[Provider][]string   // sorted ids per provider
	regions map[Provider]map[string]bool
}

func newBenchmarkIndex(s *Snapshot) benchmarkIndex {
	ix := benchmarkIndex{types: map[string]InstanceType{}, ids: map[Provider][]string{}, regions: map[Provider]map[string]bool{}}
	if s == nil {
		return ix
	}
	for _, t := range s.Instances {
		ix.types[t.Key()] = t
		ix.ids[t.Provider] = append(ix.ids[t.Provider], t.ID)
	}
	for p := range ix.ids {
		sort.Strings(ix.ids[p])
	}
	addRegion := func(p Provider, r string) {
		if ix.regions[p] == nil {
			ix.regions[p] = map[string]bool{}
		}
		ix.regions[p][r] = true
	}
	for _, r := range s.Regions {
		addRegion(r.Provider, r.ID)
	}
	for _, o := range s.Offers {
		addRegion(o.Provider, o.Region)
	}
	for _, p := range s.Placements {
		addRegion(p.Provider, p.Region)
	}
	return ix
}

// DeviceCount is the number of accelerator devices an instance type has (whole or
// partitioned): the most GPUs a run on it can use.
func (t InstanceType) DeviceCount() int {
	n := 0
	for _, a := range t.Accelerators {
		n += a.Count
	}
	return n
}

var numberSyntax = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?$`)

// parseNumber reads a decimal number as written in an upload: digits with an
// optional fraction and exponent, no thousands separators, at most 40 characters
// (which also keeps exponents from producing absurdly large values).
func parseNumber(s string) (decimal.Decimal, bool) {
	if len(s) > 40 || !numberSyntax.MatchString(s) {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil
}

// ValidateBenchmarks checks records against the snapshot and the workload registry
// and returns the valid runs (in file, line order) and every problem found
// (sorted by file and line). now is the clock: run dates after its day are in the
// future. A nil snapshot skips the catalog checks.
func ValidateBenchmarks(records []BenchmarkRecord, snap *Snapshot, workloads *WorkloadRegistry, now time.Time) ([]BenchmarkRun, []Problem) {
	ix := newBenchmarkIndex(snap)
	today := now.UTC().Format("2006-01-02")
	var probs []Problem
	type checked struct {
		run   BenchmarkRun
		model string // GPU model of the instance type, for outliers
	}
	var valid []checked
	firstSeen := map[string]string{} // duplicate key -> ref
	for _, rec := range records {
		bad := rec.broken
		errAt := func(field, format string, args ...any) {
			probs = append(probs, Problem{File: rec.File, Line: rec.lineOf(field), Severity: SeverityError, Message: fmt.Sprintf(format, args...)})
			bad = true
		}
		warnAt := func(field, format string, args ...any) {
			probs = append(probs, Problem{File: rec.File, Line: rec.lineOf(field), Severity: SeverityWarning, Message: fmt.Sprintf(format, args...)})
		}
		get := func(f string) string { return rec.Fields[f] }
		for _, f := range RequiredBenchmarkFields {
			if get(f) == "" {
				errAt(f, "missing required field %q", f)
			}
		}
		run := BenchmarkRun{File: rec.File, Line: rec.Line, Submitter: get("submitter"), RunDate: get("run_date"),
			InstanceType: get("instance_type"), Region: get("region"), Workload: get("workload"),
			Metric: get("metric"), Unit: get("unit"), Driver: get("driver"), CUDA: get("cuda"),
			Framework: get("framework"), Image: get("image"), SourceURL: get("source_url"), Notes: get("notes")}

		if d := run.RunDate; d != "" {
			t, err := time.Parse("2006-01-02", d)
			switch {
			case err != nil || t.Format("2006-01-02") != d:
				errAt("run_date", "run_date %q is not a date (want YYYY-MM-DD)", d)
			case d > today:
				errAt("run_date", "run_date %s is in the future (today is %s)", d, today)
			}
		}

		var inst InstanceType
		haveInst := false
		if p := get("provider"); p != "" {
			prov, err := ParseProvider(p)
			if err != nil {
				errAt("provider", "%v", err)
			} else {
				run.Provider = prov
				if snap != nil && run.InstanceType != "" {
					inst, haveInst = ix.types[string(prov)+"/"+run.InstanceType]
					if !haveInst {
						errAt("instance_type", "%s", unknownInstanceMessage(prov, run.InstanceType, ix.ids[prov]))
					}
				}
				if run.Region != "" && len(ix.regions[prov]) > 0 && !ix.regions[prov][run.Region] {
					warnAt("region", "region %q is not a %s region in the catalog", run.Region, prov)
				}
			}
		}

		if s := get("gpu_count_used"); s != "" {
			n, err := strconv.Atoi(s)
			switch {
			case err != nil || len(s) > 9:
				errAt("gpu_count_used", "gpu_count_used %q is not a whole number", s)
			case n < 1:
				errAt("gpu_count_used", "gpu_count_used %d must be at least 1", n)
			case haveInst && n > inst.DeviceCount():
				errAt("gpu_count_used", "gpu_count_used %d is more than the %d GPUs of %s", n, inst.DeviceCount(), inst.ID)
			default:
				run.GPUCountUsed = n
			}
		} else if haveInst {
			run.GPUCountUsed = inst.DeviceCount()
		}

		var wl Workload
		haveWL := false
		if id := run.Workload; id != "" {
			wl, haveWL = workloads.Workload(id)
			if !haveWL {
				msg := fmt.Sprintf("unknown workload %q", id)
				if s := closest(id, workloads.IDs(), 1); len(s) > 0 && editDistance(id, s[0]) <= 4 {
					msg += fmt.Sprintf("; did you mean %q?", s[0])
				}
				errAt("workload", "%s (known workloads are listed in data/workloads.csv)", msg)
			}
		}
		if haveWL {
			if run.Metric != "" && run.Metric != wl.Metric {
				errAt("metric", "metric %q does not match workload %s (want %q)", run.Metric, wl.ID, wl.Metric)
			}
			if run.Unit != "" && run.Unit != wl.Unit {
				errAt("unit", "unit %q does not match workload %s (want %q)", run.Unit, wl.ID, wl.Unit)
			}
			run.HigherIsBetter = wl.HigherIsBetter
		}
		if s := get("higher_is_better"); s != "" {
			switch strings.ToLower(s) {
			case "true", "false":
				h := strings.ToLower(s) == "true"
				if haveWL && h != wl.HigherIsBetter {
					errAt("higher_is_better", "higher_is_better %s does not match workload %s (%s is better)", strings.ToLower(s), wl.ID, betterWord(wl.HigherIsBetter))
				}
				run.HigherIsBetter = h
			default:
				errAt("higher_is_better", "higher_is_better %q is not true or false", s)
			}
		}

		if s := get("value"); s != "" {
			v, ok := parseNumber(s)
			switch {
			case !ok:
				errAt("value", "value %q is not a number", s)
			case !v.IsPositive():
				errAt("value", "value %s must be positive", s)
			default:
				run.Value = v
			}
		}
		optional := []struct {
			field string
			dst   **decimal.Decimal
			max   *decimal.Decimal
		}{
			{"duration_s", &run.DurationS, nil},
			{"gpu_util_pct", &run.GPUUtilPct, DecPtr("100")},
			{"gpu_mem_peak_gib", &run.GPUMemPeakGiB, nil},
		}
		for _, o := range optional {
			s := get(o.field)
			if s == "" {
				continue
			}
			v, ok := parseNumber(s)
			switch {
			case !ok:
				errAt(o.field, "%s %q is not a number", o.field, s)
			case v.IsNegative():
				errAt(o.field, "%s %s must not be negative", o.field, s)
			case o.max != nil && v.GreaterThan(*o.max):
				errAt(o.field, "%s %s must not be more than %s", o.field, s, o.max)
			default:
				*o.dst = &v
			}
		}
		if u := run.SourceURL; u != "" && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
			errAt("source_url", "source_url %q is not an http(s) URL", u)
		}
		if bad {
			continue
		}
		key := strings.Join([]string{run.Submitter, run.RunDate, string(run.Provider), run.InstanceType, run.Region,
			strconv.Itoa(run.GPUCountUsed), run.Workload, run.Unit, run.Value.String()}, "\x00")
		if first, dup := firstSeen[key]; dup {
			probs = append(probs, Problem{File: rec.File, Line: rec.Line, Severity: SeverityError,
				Message: fmt.Sprintf("duplicate of the run at %s", first)})
			continue
		}
		firstSeen[key] = run.Ref()
		c := checked{run: run}
		if a, ok := inst.PrimaryAccelerator(); ok && haveInst {
			c.model = a.Model
		}
		valid = append(valid, c)
	}

	// Outliers: a run far from the others of the same workload on the same GPU
	// model, compared per GPU so that 1-GPU and 8-GPU runs line up. Each group is
	// sorted once, so that the median of "all but this run" is an index lookup and
	// a large upload stays O(n log n).
	groups := map[string][]int{}
	var groupKeys []string
	for i, c := range valid {
		if c.model == "" {
			continue
		}
		k := c.model + "\x00" + c.run.Workload + "\x00" + c.run.Unit
		if _, ok := groups[k]; !ok {
			groupKeys = append(groupKeys, k)
		}
		groups[k] = append(groups[k], i)
	}
	three := decimal.NewFromInt(3)
	for _, k := range groupKeys {
		members := groups[k]
		if len(members) < 4 {
			continue // fewer than 3 others for every member
		}
		vals := make([]decimal.Decimal, len(members))
		for j, i := range members {
			vals[j] = perGPUValue(valid[i].run)
		}
		sorted := append([]decimal.Decimal(nil), vals...)
		sort.Slice(sorted, func(a, b int) bool { return sorted[a].LessThan(sorted[b]) })
		for j, i := range members {
			c, v := valid[i], vals[j]
			pos := sort.Search(len(sorted), func(x int) bool { return !sorted[x].LessThan(v) })
			med := medianWithout(sorted, pos)
			if !med.IsPositive() {
				continue
			}
			if v.GreaterThan(med.Mul(three)) || v.Mul(three).LessThan(med) {
				probs = append(probs, Problem{File: c.run.File, Line: c.run.Line, Severity: SeverityWarning,
					Message: fmt.Sprintf("outlier: %s %s per GPU is %sx the median (%s per GPU) of %d other %s runs on %s; check the value, unit and gpu_count_used",
						v.Round(2), c.run.Unit, v.DivRound(med, 2), med.Round(2), len(members)-1, c.run.Workload, c.model)})
			}
		}
	}

	runs := make([]BenchmarkRun, len(valid))
	for i, c := range valid {
		runs[i] = c.run
	}
	sort.SliceStable(runs, func(i, j int) bool {
		if runs[i].File != runs[j].File {
			return runs[i].File < runs[j].File
		}
		return runs[i].Line < runs[j].Line
	})
	SortProblems(probs)
	return runs, probs
}

// perGPUValue is the run's value for one GPU under linear scaling: a rate divided
// by the GPUs used, a time per unit of work multiplied by them.
func perGPUValue(r BenchmarkRun) decimal.Decimal {
	n := r.GPUCountUsed
	if n < 1 {
		n = 1
	}
	g := decimal.NewFromInt(int64(n))
	if !r.HigherIsBetter {
		return r.Value.Mul(g)
	}
	return r.Value.DivRound(g, 6)
}

// medianWithout is the median of sorted with the element at index skip left out.
func medianWithout(sorted []decimal.Decimal, skip int) decimal.Decimal {
	at := func(i int) decimal.Decimal {
		if i >= skip {
			i++
		}
		return sorted[i]
	}
	n := len(sorted) - 1
	if n%2 == 1 {
		return at(n / 2)
	}
	return at(n/2 - 1).Add(at(n / 2)).Div(decimal.NewFromInt(2))
}

func betterWord(higher bool) string {
	if higher {
		return "higher"
	}
	return "lower"
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

func unknownInstanceMessage(p Provider, id string, known []string) string {
	msg := fmt.Sprintf("unknown %s instance type %q", p, id)
	if len(known) == 0 {
		return msg + fmt.Sprintf(" (the catalog has no %s instance types)", p)
	}
	if s := closest(id, known, 3); len(s) > 0 {
		msg += "; closest: " + strings.Join(s, ", ")
	}
	return msg
}

// closest returns up to n candidates nearest to s by edit distance (ties by name).
// Names longer than 100 bytes get no suggestion: the distance is quadratic.
func closest(s string, candidates []string, n int) []string {
	if len(s) > 100 || len(candidates) == 0 {
		return nil
	}
	type cand struct {
		name string
		d    int
	}
	cs := make([]cand, 0, len(candidates))
	for _, c := range candidates {
		if len(c) > 100 {
			continue
		}
		cs = append(cs, cand{c, editDistance(strings.ToLower(s), strings.ToLower(c))})
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, over runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// benchmarkFile is one upload read into memory.
type benchmarkFile struct {
	name string
	data []byte
}

func isBenchmarkName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".csv", ".yaml", ".yml":
		return true
	}
	return false
}

// LoadBenchmarks reads the uploads at paths (files, or folders searched
// recursively for .csv, .yaml and .yml files; names starting with "." are skipped)
// and validates every record. A file that cannot be read or parsed is reported and
// never stops the others from loading. Runs with errors are left out of the
// returned runs; the problems name each of them.
func LoadBenchmarks(paths []string, snap *Snapshot, workloads *WorkloadRegistry, now time.Time) ([]BenchmarkRun, []Problem) {
	var files []benchmarkFile
	var probs []Problem
	seen := map[string]bool{}
	add := func(name string) {
		name = filepath.ToSlash(filepath.Clean(name))
		if seen[name] {
			return
		}
		seen[name] = true
		data, err := os.ReadFile(filepath.FromSlash(name))
		if err != nil {
			probs = append(probs, Problem{File: name, Severity: SeverityError, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))})
			return
		}
		files = append(files, benchmarkFile{name, data})
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			probs = append(probs, Problem{File: filepath.ToSlash(p), Severity: SeverityError, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))})
			continue
		}
		if !info.IsDir() {
			add(p)
			continue
		}
		var names []string
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				probs = append(probs, Problem{File: filepath.ToSlash(q), Severity: SeverityError, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if q != p && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !d.IsDir() && isBenchmarkName(d.Name()) {
				names = append(names, q)
			}
			return nil
		})
		if err != nil {
			probs = append(probs, Problem{File: filepath.ToSlash(p), Severity: SeverityError, Message: fmt.Sprintf("cannot read: %v", err)})
		}
		sort.Strings(names)
		for _, n := range names {
			add(n)
		}
	}
	runs, more := loadBenchmarkFiles(files, snap, workloads, now)
	probs = append(probs, more...)
	SortProblems(probs)
	return runs, probs
}

// LoadBenchmarksFS is LoadBenchmarks over a file system (the embedded data
// folder): every .csv, .yaml and .yml file under dir. Messages name files as
// prefix + their path in fsys (e.g. prefix "data/").
func LoadBenchmarksFS(fsys fs.FS, dir, prefix string, snap *Snapshot, workloads *WorkloadRegistry, now time.Time) ([]BenchmarkRun, []Problem) {
	var files []benchmarkFile
	var probs []Problem
	err := fs.WalkDir(fsys, dir, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			probs = append(probs, Problem{File: prefix + q, Severity: SeverityError, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))})
			return nil
		}
		if q != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !isBenchmarkName(d.Name()) {
			return nil
		}
		data, err := fs.ReadFile(fsys, q)
		if err != nil {
			probs = append(probs, Problem{File: prefix + q, Severity: SeverityError, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))})
			return nil
		}
		files = append(files, benchmarkFile{prefix + q, data})
		return nil
	})
	if err != nil {
		probs = append(probs, Problem{File: prefix + dir, Severity: SeverityError, Message: fmt.Sprintf("cannot read: %v", err)})
	}
	runs, more := loadBenchmarkFiles(files, snap, workloads, now)
	probs = append(probs, more...)
	SortProblems(probs)
	return runs, probs
}

func loadBenchmarkFiles(files []benchmarkFile, snap *Snapshot, workloads *WorkloadRegistry, now time.Time) ([]BenchmarkRun, []Problem) {
	var recs []BenchmarkRecord
	var probs []Problem
	for _, f := range files {
		r, p := ParseBenchmarkFile(f.name, f.data)
		recs = append(recs, r...)
		probs = append(probs, p...)
	}
	runs, more := ValidateBenchmarks(recs, snap, workloads, now)
	return runs, append(probs, more...)
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
