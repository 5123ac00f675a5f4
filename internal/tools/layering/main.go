// Command layering checks the module's imports against the layering rules
// (internal/layering) and prints each violation; it exits 1 when there is one.
// `make lint` runs it.
package main

import (
	"fmt"
	"os"

	"github.com/gpuatlas/gpuatlas/internal/layering"
)

func main() {
	module, pkgs, err := layering.Load(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "layering:", err)
		os.Exit(2)
	}
	vs := layering.Check(module, pkgs)
	for _, v := range vs {
		fmt.Fprintln(os.Stderr, "layering:", v)
	}
	if len(vs) > 0 {
		os.Exit(1)
	}
	fmt.Printf("layering: %d packages follow every rule\n", len(pkgs))
}
