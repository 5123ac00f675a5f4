package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

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
