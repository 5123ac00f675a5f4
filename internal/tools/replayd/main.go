// Command replayd serves every provider's recorded responses on loopback ports
// until it is stopped, and writes the crawl flags (for the providers whose
// recordings are wholly real) and test credentials that reach them to a file
// that a shell can source. `make nightly` uses it to run the whole
// nightly job offline; -latency delays every answer, as a distant API would.
//
//	go run ./internal/tools/replayd -env FILE [-latency 50ms]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/replayset"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

func main() {
	envFile := flag.String("env", "", "write `export` lines (credentials, GPUATLAS_REPLAY_ARGS) to this file")
	root := flag.String("root", ".", "repository root holding the fixture folders")
	latency := flag.Duration("latency", 0, "delay every answer by this long (e.g. 50ms)")
	flag.Parse()
	if *envFile == "" {
		fmt.Fprintln(os.Stderr, "replayd: -env FILE is required")
		os.Exit(2)
	}
	if *latency < 0 {
		fmt.Fprintln(os.Stderr, "replayd: -latency must not be negative")
		os.Exit(2)
	}
	if err := serve(*envFile, *root, *latency); err != nil {
		fmt.Fprintln(os.Stderr, "replayd:", err)
		os.Exit(1)
	}
}

// serve starts the replay servers of every provider under root, writes the
// export lines that reach them to envFile, and serves until SIGINT or SIGTERM;
// the servers are closed on the way out.
func serve(envFile, root string, latency time.Duration) error {
	set, err := replayset.Start(root, replay.WithLatency(latency))
	if err != nil {
		return err
	}
	defer set.Close()
	var b strings.Builder
	keys := make([]string, 0, len(set.Env))
	for k := range set.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "export %s=%s\n", k, shellQuote(set.Env[k]))
	}
	// Only the wholly real replays are crawled: the made-up ones (Huawei's
	// prices and regions, all of Volcano Engine) serve their adapters' tests,
	// and a crawl of them would put made-up data in the job's catalog and site.
	fmt.Fprintf(&b, "export GPUATLAS_REPLAY_ARGS=%s\n", shellQuote(strings.Join(set.ArgsFor(set.Real()), " ")))
	if err := catalog.WriteFileAtomic(envFile, []byte(b.String())); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "replayd: serving %d providers (latency %s); flags in %s\n", len(set.Servers), latency, envFile)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	return nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
