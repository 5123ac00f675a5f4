package catalog

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// benchmarkIndex is what validation looks up in the snapshot.
type benchmarkIndex struct {
	types   map[string]InstanceType // provider/id
	ids     map[Provider][]string   // sorted ids per provider
	regions map[Provider]map[string]bool
	models  map[string]bool // GPU models of the instance types
}

func newBenchmarkIndex(s *Snapshot) benchmarkIndex {
	ix := benchmarkIndex{types: map[string]InstanceType{}, ids: map[Provider][]string{}, regions: map[Provider]map[string]bool{}, models: map[string]bool{}}
	if s == nil {
		return ix
	}
	for _, t := range s.Instances {
		ix.types[t.Key()] = t
		ix.ids[t.Provider] = append(ix.ids[t.Provider], t.ID)
		for _, a := range t.Accelerators {
			if a.Model != "" {
				ix.models[a.Model] = true
			}
		}
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
	s.EachNamedRegion(addRegion)
	return ix
}

var numberSyntax = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?$`)

// parseNumber reads a decimal number as written in an upload: digits with an
// optional fraction and exponent, no thousands separators, at most 40 characters.
func parseNumber(s string) (decimal.Decimal, bool) {
	if len(s) > 40 || !numberSyntax.MatchString(s) {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil
}

// maxSuggestions is how many unknown instance types get the closest known ones
// named; the rest are named alone.
const maxSuggestions = 1000

// maxGPUCountUsed bounds gpu_count_used where the catalog does not say how many
// GPUs the instance type has: more than any instance has.
const maxGPUCountUsed = 1024

// maxNumberPlaces is the most digits after the point a number of an upload may
// have (after its exponent is applied): as many as a snapshot's numbers, and
// enough for a float64 written in full (published results converted from
// minutes carry 17 significant digits: 17.644722222222224).
const maxNumberPlaces = 18

// numberField is a numeric field of an upload and the range it must lie in:
// far beyond any real measurement, so that only a typo or a hostile value is
// refused (1e999 tokens/s would show as a cost per unit of work of a thousand
// digits). The README lists them.
type numberField struct {
	field    string
	min, max decimal.Decimal
}

var numberFields = []numberField{
	{"value", Dec("0.000001"), Dec("1000000000")},
	{"duration_s", Dec("0"), Dec("31622400")}, // a year of 366 days
	{"gpu_util_pct", Dec("0"), Dec("100")},
	{"gpu_mem_peak_gib", Dec("0"), Dec("16384")}, // 16 TiB: more than any instance's GPUs hold
}

// parse reads s and checks it against the range; the error completes a
// message that starts with the field's name.
func (b numberField) parse(s string) (decimal.Decimal, error) {
	v, ok := parseNumber(s)
	switch {
	case !ok:
		return decimal.Zero, fmt.Errorf("%s is not a number", Excerpt(s))
	case b.min.IsPositive() && !v.IsPositive():
		return decimal.Zero, fmt.Errorf("%s must be positive", s)
	case v.IsNegative():
		return decimal.Zero, fmt.Errorf("%s must not be negative", s)
	case v.LessThan(b.min) || v.GreaterThan(b.max):
		return decimal.Zero, fmt.Errorf("%s is out of range: want %s to %s", s, groupThousands(b.min), groupThousands(b.max))
	case v.Exponent() < -maxNumberPlaces && !v.Equal(v.Round(maxNumberPlaces)):
		return decimal.Zero, fmt.Errorf("%s has more than %d digits after the point", s, maxNumberPlaces)
	}
	return v, nil
}

// groupThousands writes d with commas between groups of three digits
// (1,000,000,000), as the messages give ranges.
func groupThousands(d decimal.Decimal) string {
	s := d.String()
	intPart, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	return b.String()
}

// ValidateBenchmarks checks records against the snapshot and the workload registry
// and returns the valid runs (in file, line order) and every problem found
// (sorted by file and line). now is the clock: run dates after its day are in the
// future. A nil snapshot skips the catalog checks.
func ValidateBenchmarks(records []BenchmarkRecord, snap *Snapshot, workloads *WorkloadRegistry, now time.Time) ([]BenchmarkRun, []Problem) {
	ix := newBenchmarkIndex(snap)
	today := now.UTC().Format("2006-01-02")
	var probs []Problem
	var valid []checkedRun
	firstSeen := map[string]string{} // duplicate key -> ref
	suggested := 0                   // unknown instance types so far
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
		for _, f := range BenchmarkFields {
			if limit := benchmarkFieldLimit(f); len(get(f)) > limit {
				errAt(f, "%s: longer than %d bytes (%d)", f, limit, len(get(f)))
			}
		}
		// A run names the instance type it ran on, or (a published result on
		// another system) that system and its accelerators.
		if get("provider") != "" || get("instance_type") != "" {
			for _, f := range InstanceFields {
				if get(f) == "" {
					errAt(f, "missing required field %q", f)
				}
			}
		} else {
			for _, f := range SystemFields {
				if get(f) == "" {
					errAt(f, "missing required field %q (a run names its provider and instance_type, or, run on another system, that system's name, accelerator_model and accelerator_count)", f)
				}
			}
		}
		// The notes are shown on the Chinese pages too: a record has them in
		// both languages (the committed data must: its test fails on a
		// warning), or neither.
		switch {
		case get("notes") != "" && get("notes_zh") == "":
			warnAt("notes", "notes without notes_zh: the Chinese pages show the notes in English: add them in Chinese")
		case get("notes") == "" && get("notes_zh") != "":
			errAt("notes_zh", "notes_zh without notes: add the notes in English")
		}
		run := BenchmarkRun{File: rec.File, Line: rec.Line, Submitter: get("submitter"), RunDate: get("run_date"),
			InstanceType: get("instance_type"), Region: get("region"), Workload: get("workload"),
			Metric: get("metric"), Unit: get("unit"), Driver: get("driver"), CUDA: get("cuda"),
			Framework: get("framework"), Image: get("image"), SourceURL: get("source_url"), Notes: get("notes"), NotesZH: get("notes_zh"),
			Round: get("round"), Benchmark: get("benchmark"), Scenario: get("scenario"), System: get("system")}

		if d := run.RunDate; d != "" {
			t, err := time.Parse("2006-01-02", d)
			switch {
			case err != nil || t.Format("2006-01-02") != d:
				errAt("run_date", "run_date %s is not a date (want YYYY-MM-DD)", Excerpt(d))
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
						// Each suggestion scans every id: 20,000 would take seconds.
						suggested++
						errAt("instance_type", "%s", unknownInstanceMessage(prov, run.InstanceType, ix.ids[prov], suggested <= maxSuggestions))
					}
				}
				if run.Region != "" && len(ix.regions[prov]) > 0 && !ix.regions[prov][run.Region] {
					warnAt("region", "region %s is not a %s region in the catalog", Excerpt(run.Region), prov)
				}
			}
		}

		checkSystem(&run, rec.Fields, inst, haveInst, ix, snap != nil, errAt, warnAt)

		if s := get("gpu_count_used"); s != "" {
			n, err := strconv.Atoi(s)
			switch {
			case err != nil || len(s) > 9:
				errAt("gpu_count_used", "gpu_count_used %s is not a whole number", Excerpt(s))
			case n < 1:
				errAt("gpu_count_used", "gpu_count_used %d must be at least 1", n)
			case n > maxGPUCountUsed:
				errAt("gpu_count_used", "gpu_count_used %d is out of range: want 1 to %s", n, groupThousands(decimal.NewFromInt(maxGPUCountUsed)))
			case haveInst && n > inst.DeviceCount():
				errAt("gpu_count_used", "gpu_count_used %d is more than the %d GPUs of %s", n, inst.DeviceCount(), inst.ID)
			case !run.OnInstance() && run.AcceleratorCount > 0 && n > run.AcceleratorCount:
				errAt("gpu_count_used", "gpu_count_used %d is more than the system's accelerator_count %d", n, run.AcceleratorCount)
			default:
				run.GPUCountUsed = n
			}
		} else if haveInst {
			run.GPUCountUsed = inst.DeviceCount()
		} else {
			run.GPUCountUsed = run.AcceleratorCount
		}

		var wl Workload
		haveWL := false
		if id := run.Workload; id != "" {
			wl, haveWL = workloads.Workload(id)
			if !haveWL {
				msg := fmt.Sprintf("unknown workload %s", Excerpt(id))
				if s := closest(id, workloads.IDs(), 1); len(s) > 0 && editDistance(id, s[0]) <= 4 {
					msg += fmt.Sprintf("; did you mean %q?", s[0])
				}
				errAt("workload", "%s (known workloads are listed in data/workloads.csv)", msg)
			}
		}
		if haveWL {
			if run.Metric != "" && run.Metric != wl.Metric {
				errAt("metric", "metric %s does not match workload %s (want %q)", Excerpt(run.Metric), wl.ID, wl.Metric)
			}
			if run.Unit != "" && run.Unit != wl.Unit {
				errAt("unit", "unit %s does not match workload %s (want %q)", Excerpt(run.Unit), wl.ID, wl.Unit)
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
				errAt("higher_is_better", "higher_is_better %s is not true or false", Excerpt(s))
			}
		}

		for _, b := range numberFields {
			s := get(b.field)
			if s == "" {
				continue
			}
			v, err := b.parse(s)
			if err != nil {
				errAt(b.field, "%s %s", b.field, err)
				continue
			}
			switch b.field {
			case "value":
				run.Value = v
			case "duration_s":
				run.DurationS = &v
			case "gpu_util_pct":
				run.GPUUtilPct = &v
			case "gpu_mem_peak_gib":
				run.GPUMemPeakGiB = &v
			}
		}
		if u := run.SourceURL; u != "" && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
			errAt("source_url", "source_url %s is not an http(s) URL", Excerpt(u))
		}
		if bad {
			continue
		}
		key := strings.Join([]string{run.Submitter, run.RunDate, string(run.Provider), run.InstanceType, run.Region,
			strconv.Itoa(run.GPUCountUsed), run.Workload, run.Unit, run.Value.String(),
			run.Round, run.Benchmark, run.Scenario, run.System, run.AcceleratorModel, strconv.Itoa(run.AcceleratorCount)}, "\x00")
		if first, dup := firstSeen[key]; dup {
			probs = append(probs, Problem{File: rec.File, Line: rec.Line, Severity: SeverityError,
				Message: fmt.Sprintf("duplicate of the run at %s", first)})
			continue
		}
		firstSeen[key] = run.Ref()
		c := checkedRun{run: run}
		if a, ok := inst.PrimaryAccelerator(); ok && haveInst {
			c.model = a.Model
		}
		valid = append(valid, c)
	}

	probs = append(probs, outlierWarnings(valid)...)

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

func betterWord(higher bool) string {
	if higher {
		return "higher"
	}
	return "lower"
}

// benchmarkFieldLimit is the most bytes a field of an upload record may hold
// (record_limits.go): free text for the notes and the source URL, a name for
// every other field.
func benchmarkFieldLimit(field string) int {
	switch field {
	case "notes", "notes_zh", "source_url":
		return MaxTextBytes
	}
	return MaxNameBytes
}
