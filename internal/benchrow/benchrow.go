// Package benchrow is the one format the benchmark tools of `make bench` report
// in: each tool appends rows (one JSON object per line) to a shared file, and
// bench/run.sh prints them as one table with the targets beside the figures.
package benchrow

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Row is one measured figure.
type Row struct {
	// Stage groups rows: crawl, build, diff, snapshot, history, page.
	Stage string `json:"stage"`
	// Name says what was measured ("aws", "embedded catalog", "100,000 offers").
	Name string `json:"name"`
	// Measure names the figure ("wall / lower bound", "build / cp -r").
	Measure string `json:"measure"`
	// Value is the figure, formatted with its unit.
	Value string `json:"value"`
	// Target is the target, formatted ("≤ 1.25×"); empty for a figure reported
	// without one.
	Target string `json:"target,omitempty"`
	// Met says whether the target is met; nil without a target.
	Met *bool `json:"met,omitempty"`
	// Note explains the figure: its inputs, the bound, why a target is missed.
	Note string `json:"note,omitempty"`
}

// Check returns a row's Met for a figure against a target.
func Check(ok bool) *bool { return &ok }

// Append adds rows to the file at path (created if missing).
func Append(path string, rows ...Row) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("bench rows: %w", err)
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			_ = f.Close() // the encode error is the one to report
			return fmt.Errorf("bench rows: %w", err)
		}
	}
	return f.Close()
}

// Read reads the rows of the file at path.
func Read(path string) ([]Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bench rows: %w", err)
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	var rows []Row
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}
