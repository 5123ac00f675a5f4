package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/shopspring/decimal"
)

// table is a CSV file read whole, with its columns by name.
type table struct {
	name string
	col  map[string]int
	rows [][]string
}

// maxArchiveBytes bounds an archive file: the largest is about 0.5 MB.
const maxArchiveBytes = 16 << 20

func readTable(dir, rel string, want ...string) (*table, error) {
	path := filepath.Join(dir, rel)
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.Size() > maxArchiveBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB", path, maxArchiveBytes>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty", path)
	}
	t := &table{name: rel, col: map[string]int{}, rows: recs[1:]}
	for i, h := range recs[0] {
		t.col[h] = i
	}
	for _, w := range want {
		if _, ok := t.col[w]; !ok {
			return nil, fmt.Errorf("%s: no column %q", path, w)
		}
	}
	return t, nil
}

func (t *table) get(row []string, col string) string { return row[t.col[col]] }

// where names a data row: its line in the file (the header is line 1).
func (t *table) where(i int) string { return fmt.Sprintf("%s:%d", t.name, i+2) }

func parseTime(s string) (time.Time, error) {
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, err
	}
	return tm.UTC(), nil
}

type decimalT = decimal.Decimal

func dec(s string) (decimal.Decimal, error) { return decimal.NewFromString(s) }
