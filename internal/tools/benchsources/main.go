// Command benchsources turns the published benchmark results kept in
// ../shared/realdata/benchmarks (MLPerf Inference and Training rounds, NVIDIA's
// TensorRT-LLM performance tables, Lambda's PyTorch training throughput) into
// benchmark uploads under data/benchmarks/published, one file per source and
// round, each record with its source_url, round, system, submitter, scenario and
// accelerator model and count. The mapping tables (tables.go) say which rows are
// kept and why the others are not; a summary of both is printed.
//
//	go run ./internal/tools/benchsources [-src ../shared/realdata/benchmarks] [-out data/benchmarks/published]
//
// `make benchmark-sources` runs it. The output is deterministic: the same
// sources give the same files, byte for byte.
package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func main() {
	src := flag.String("src", "../shared/realdata/benchmarks", "folder of the source CSV files")
	out := flag.String("out", "data/benchmarks/published", "folder the uploads are written to")
	flag.Parse()
	if err := run(*src, *out, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchsources:", err)
		os.Exit(1)
	}
}

// run converts every source of srcDir into its upload in outDir and prints
// what was kept and left out to log.
func run(srcDir, outDir string, log io.Writer) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	seenTraining := map[string]string{} // a training result's identity -> the round it was first in
	for _, s := range sources {
		rows, err := readSource(filepath.Join(srcDir, s.File))
		if err != nil {
			return err
		}
		var recs []record
		reasons := map[skipped]int{}
		for _, r := range rows {
			rec, why := s.convert(r)
			if why == "" && s.kind == mlperfTraining {
				// Some v4.1 entries reuse v4.0 runs (same logs, same score):
				// the result is kept once, in the round it first appeared in. The same
				// score of one submitter on as many GPUs is one result listed under
				// several system ids (power-measured variants).
				id := strings.Join([]string{r["submitter"], r["benchmark"], r["accelerator_count"], r["value"]}, "\x00")
				switch first, dup := seenTraining[id]; {
				case dup && first == s.Round:
					why = "the same result again, under another system name"
				case dup:
					why = skipped("the same runs as in " + first)
				default:
					seenTraining[id] = s.Round
				}
			}
			if strings.HasPrefix(string(why), noChinese) {
				return fmt.Errorf("%s: %s", s.File, why)
			}
			if why != "" {
				reasons[why]++
				continue
			}
			if err := onInstance(r, rec); err != nil {
				return fmt.Errorf("%s: %w", s.File, err)
			}
			recs = append(recs, rec)
		}
		data, err := encode(recs)
		if err != nil {
			return fmt.Errorf("%s: %w", s.File, err)
		}
		if err := catalog.WriteFileAtomic(filepath.Join(outDir, s.Out), data); err != nil {
			return err
		}
		fmt.Fprintf(log, "%s: %d rows, %d kept -> %s\n", s.File, len(rows), len(recs), filepath.Join(outDir, s.Out))
		for _, why := range sortedReasons(reasons) {
			fmt.Fprintf(log, "  left out %5d: %s\n", reasons[why], why)
		}
	}
	return nil
}

// maxSourceBytes bounds a source file: the largest is about 2 MB.
const maxSourceBytes = 64 << 20

func readSource(path string) ([]sourceRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	data, err := io.ReadAll(io.LimitReader(f, maxSourceBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > maxSourceBytes {
		return nil, fmt.Errorf("read %s: larger than %d bytes", path, maxSourceBytes)
	}
	cr := csv.NewReader(bytes.NewReader(data))
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("read %s: header: %w", path, err)
	}
	var rows []sourceRow
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		r := sourceRow{}
		for i, h := range header {
			r[h] = strings.TrimSpace(rec[i])
		}
		rows = append(rows, r)
	}
}

func encode(recs []record) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(outputFields); err != nil {
		return nil, err
	}
	row := make([]string, len(outputFields))
	for _, r := range recs {
		for i, f := range outputFields {
			row[i] = r[f]
		}
		if err := w.Write(row); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

func sortedReasons(m map[skipped]int) []skipped {
	out := make([]skipped, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if m[out[i]] != m[out[j]] {
			return m[out[i]] > m[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}
