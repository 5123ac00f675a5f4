// Command gpuatlas crawls cloud GPU instance catalogs into one normalized catalog
// and renders a static comparison site. See README.md and docs/cli.md for the commands.
package main

import (
	"net/http"
	"os"

	"github.com/gpuatlas/gpuatlas/internal/cli"
)

func main() {
	os.Exit(cli.Main(cli.OSEnv(), os.Args[1:]))
}

// newServeHandler serves a built site folder as `gpuatlas serve` does.
func newServeHandler(root string) http.Handler { return cli.NewServeHandler(root) }
