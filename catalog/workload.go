package catalog

import (
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// Workload is one entry of the workload registry (data/workloads.csv): what a
// benchmark run measured, in which canonical metric and unit, and the unit of work
// its cost is quoted in.
type Workload struct {
	ID             string
	Name           string
	Category       string // training, inference, rendering, video, hpc
	Metric         string // e.g. throughput, render_time
	Unit           string // canonical unit, e.g. tokens/s, s/frame
	Rate           RateUnit
	HigherIsBetter bool
	// CostPer is how many units of work (in the unit's own work, e.g. tokens) one
	// cost figure is quoted for; CostUnit names that quantity ("1M tokens").
	CostPer     decimal.Decimal
	CostUnit    string
	Description string
	Line        int
}

// CostLabel is how a cost figure of this workload is labelled: "USD per 1M tokens".
func (w Workload) CostLabel() string { return "USD per " + w.CostUnit }

// RateUnit is a benchmark unit read either as work over time ("tokens/s", a rate:
// higher is better) or as time over work ("s/frame", a duration: lower is better).
type RateUnit struct {
	Work string // the unit of work: tokens, images, frame, TFLOP
	// TimeSeconds is the length of the time part in seconds: ms 0.001, s 1,
	// min 60, h 3600.
	TimeSeconds decimal.Decimal
	// TimePerWork is true for time over work ("s/frame").
	TimePerWork bool
}

var timeUnits = map[string]decimal.Decimal{
	"ms":  decimal.New(1, -3),
	"s":   decimal.NewFromInt(1),
	"min": decimal.NewFromInt(60),
	"h":   decimal.NewFromInt(3600),
}

var workName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// ParseRateUnit reads a unit such as "tokens/s" or "s/frame". Exactly one side of
// the slash is a time unit (ms, s, min, h); the other names the unit of work.
func ParseRateUnit(s string) (RateUnit, error) {
	num, den, ok := strings.Cut(s, "/")
	if !ok || strings.Contains(den, "/") {
		return RateUnit{}, fmt.Errorf("unit %q is not work/time (tokens/s) or time/work (s/frame)", s)
	}
	if t, isTime := timeUnits[den]; isTime && workName.MatchString(num) {
		if _, both := timeUnits[num]; !both {
			return RateUnit{Work: num, TimeSeconds: t}, nil
		}
	}
	if t, isTime := timeUnits[num]; isTime && workName.MatchString(den) {
		if _, both := timeUnits[den]; !both {
			return RateUnit{Work: den, TimeSeconds: t, TimePerWork: true}, nil
		}
	}
	return RateUnit{}, fmt.Errorf("unit %q is not work/time (tokens/s) or time/work (s/frame) with time in ms, s, min or h", s)
}

// WorkloadRegistry is the table of known workloads.
type WorkloadRegistry struct {
	Workloads []Workload
	byID      map[string]int
}

// NewWorkloadRegistry builds a registry from workloads, checking each the way
// ParseWorkloads does. Rate is derived from Unit.
func NewWorkloadRegistry(ws []Workload) (*WorkloadRegistry, error) {
	r := &WorkloadRegistry{byID: map[string]int{}}
	for _, w := range ws {
		if err := r.add(w); err != nil {
			return nil, fmt.Errorf("workload %q: %w", w.ID, err)
		}
	}
	return r, nil
}

func (r *WorkloadRegistry) add(w Workload) error {
	if w.ID == "" || w.ID != strings.ToLower(w.ID) || strings.ContainsAny(w.ID, " /,") {
		return fmt.Errorf("id %q must be a non-empty lower-case slug", w.ID)
	}
	if prev, dup := r.byID[w.ID]; dup {
		return fmt.Errorf("duplicate workload %q (first on line %d)", w.ID, r.Workloads[prev].Line)
	}
	if w.Metric == "" {
		return fmt.Errorf("metric is empty")
	}
	rate, err := ParseRateUnit(w.Unit)
	if err != nil {
		return err
	}
	w.Rate = rate
	// A rate (work per time) is better when higher, a duration per unit of work
	// when lower; a registry row that says otherwise is a typo.
	if w.HigherIsBetter == rate.TimePerWork {
		want := "true"
		if rate.TimePerWork {
			want = "false"
		}
		return fmt.Errorf("higher_is_better must be %s for unit %s", want, w.Unit)
	}
	if !w.CostPer.IsPositive() {
		return fmt.Errorf("cost_per %s must be positive", w.CostPer)
	}
	if w.CostUnit == "" {
		return fmt.Errorf("cost_unit is empty")
	}
	r.byID[w.ID] = len(r.Workloads)
	r.Workloads = append(r.Workloads, w)
	return nil
}

// Workload returns the workload with the given id.
func (r *WorkloadRegistry) Workload(id string) (Workload, bool) {
	if r == nil {
		return Workload{}, false
	}
	i, ok := r.byID[id]
	if !ok {
		return Workload{}, false
	}
	return r.Workloads[i], true
}

// IDs lists the workload ids, sorted.
func (r *WorkloadRegistry) IDs() []string {
	if r == nil {
		return nil
	}
	ids := make([]string, 0, len(r.Workloads))
	for _, w := range r.Workloads {
		ids = append(ids, w.ID)
	}
	sort.Strings(ids)
	return ids
}

// ParseWorkloads reads the workload registry (workloads.csv); errors name the file
// and line.
func ParseWorkloads(name string, rd io.Reader) (*WorkloadRegistry, error) {
	r := &WorkloadRegistry{byID: map[string]int{}}
	required := []string{"id", "name", "category", "metric", "unit", "higher_is_better", "cost_per", "cost_unit", "description"}
	err := readCSV(name, rd, required, func(line int, get func(string) string) error {
		w := Workload{ID: get("id"), Name: get("name"), Category: get("category"), Metric: get("metric"),
			Unit: get("unit"), CostUnit: get("cost_unit"), Description: get("description"), Line: line}
		switch get("higher_is_better") {
		case "true":
			w.HigherIsBetter = true
		case "false":
		default:
			return fmt.Errorf("higher_is_better %q is not true or false", get("higher_is_better"))
		}
		c, err := decimal.NewFromString(get("cost_per"))
		if err != nil {
			return fmt.Errorf("cost_per %q is not a number", get("cost_per"))
		}
		w.CostPer = c
		if w.Name == "" || w.Description == "" {
			return fmt.Errorf("name and description must be set")
		}
		return r.add(w)
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// LoadWorkloads reads workloads.csv from fsys (the data folder).
func LoadWorkloads(fsys fs.FS) (*WorkloadRegistry, error) {
	f, err := fsys.Open("workloads.csv")
	if err != nil {
		return nil, fmt.Errorf("load workloads: %w", err)
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	return ParseWorkloads("data/workloads.csv", f)
}
