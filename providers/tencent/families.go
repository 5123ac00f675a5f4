package tencent

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// family is a row of data/tencent_gpu_families.csv: the GPU model an instance
// family carries. The CVM API names no GPU, only the family.
type family struct {
	name, model, confidence, source string
}

// Families is the GPU family table by family (familyKey): the only way the
// adapter learns which GPU a CVM instance type carries.
type Families map[string]family

// familiesFile is the table's name in the data folder.
const familiesFile = "tencent_gpu_families.csv"

// LoadFamilies reads the family table from tables (the data folder: data.FS
// in the registry). A missing file is an empty table, which leaves every
// family unmapped (reported by the runner), not a failed crawl.
func LoadFamilies(tables fs.FS) (Families, error) {
	f, err := tables.Open(familiesFile)
	if errors.Is(err, fs.ErrNotExist) {
		return Families{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tencent: read data/%s: %w", familiesFile, err)
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	return parseFamilies(f)
}

func parseFamilies(r io.Reader) (Families, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("tencent: data/%s:1: %w", familiesFile, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(h)] = i
	}
	for _, c := range []string{"family", "model", "confidence"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("tencent: data/%s:1: no %s column", familiesFile, c)
		}
	}
	out := Families{}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("tencent: data/%s:%d: %w", familiesFile, line, err)
		}
		get := func(c string) string {
			if i, ok := col[c]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		fam := family{name: get("family"), model: get("model"), confidence: get("confidence"), source: get("source")}
		if fam.name == "" {
			return nil, fmt.Errorf("tencent: data/%s:%d: empty family", familiesFile, line)
		}
		out[familyKey(fam.name)] = fam
	}
}

// familyKey compares families as the API and the table may spell them:
// GN7vi, GN7VI and GN7-VI are one family.
func familyKey(s string) string { return strings.ToUpper(strings.ReplaceAll(s, "-", "")) }
