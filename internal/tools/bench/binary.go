package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gpuatlas/gpuatlas/internal/benchrow"
)

// binaryTarget is the size of the release binary (`make build`: stripped and
// trimmed) that issue 29 set: at most 60 MB.
const binaryTarget = 60_000_000

// runBinary reports the size of a release binary against its target.
func runBinary(args []string) error {
	fs := flag.NewFlagSet("binary", flag.ExitOnError)
	path := fs.String("path", "", "the binary built by make build")
	rows := fs.String("rows", "", "file to append the rows to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *path == "" || *rows == "" {
		return fmt.Errorf("binary: -path and -rows are required")
	}
	st, err := os.Stat(*path)
	if err != nil {
		return fmt.Errorf("binary: %w", err)
	}
	return benchrow.Append(*rows, binaryRow(st.Size()))
}

func binaryRow(size int64) benchrow.Row {
	return benchrow.Row{
		Stage:   "binary",
		Name:    "gpuatlas (make build)",
		Measure: "size",
		Value:   fmt.Sprintf("%.1f MB", float64(size)/1e6),
		Target:  "≤ 60 MB",
		Met:     benchrow.Check(size <= binaryTarget),
		Note: "stripped and trimmed (go build -trimpath -ldflags='-s -w'); the adapters hold their SDK clients' " +
			"calls as func values, never the clients in an interface, so the linker drops the operations they never call",
	}
}
