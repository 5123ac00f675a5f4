// Command cmdref writes the command reference, docs/reference.md, from the
// commands' own flag definitions (cli.Reference). `make docs` runs it;
// internal/cli's TestReference_UpToDate fails when the file drifts.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/gpuatlas/gpuatlas/internal/cli"
)

func main() {
	out := flag.String("out", "docs/reference.md", "file to write the reference to")
	flag.Parse()
	var b bytes.Buffer
	if err := cli.WriteReference(&b); err != nil {
		fmt.Fprintln(os.Stderr, "cmdref:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "cmdref:", err)
		os.Exit(1)
	}
	fmt.Printf("cmdref: wrote %s\n", *out)
}
