// Command bench takes the measurements of `make bench` that time the gpuatlas
// command itself (bench/run.sh runs the rest) and prints the table of every
// figure beside its target.
//
//	bench build   -gpuatlas BIN [-catalog FILE] [-history FILE] -name NAME -work DIR -rows FILE
//	bench diff    -gpuatlas BIN -old FILE -new FILE -work DIR -rows FILE
//	bench history -history FILE -catalog FILE -rows FILE
//	bench table   FILE...
//
// Each measurement appends rows (internal/benchrow) to -rows; `table` prints them.
// A missed target is reported in its row, not as an exit status: bench exits 1
// only when a measurement cannot be taken.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "build":
		err = runBuild(args)
	case "diff":
		err = runDiff(args)
	case "history":
		err = runHistory(args)
	case "binary":
		err = runBinary(args)
	case "table":
		err = runTable(os.Stdout, args)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: bench build|diff|history|binary|table ... (see go doc ./internal/tools/bench)")
	os.Exit(2)
}
