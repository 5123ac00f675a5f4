package providers

import (
	"fmt"
	"os"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// SDKLog returns where an adapter sends its SDK's own log output (the AWS
// SDK's warnings, the Tencent client's logger, Volcano Engine's and
// Huawei's): each line redacted (Redact, with secrets), made one printable
// line (catalog.SafeLine: a line break, an escape sequence or a "::error"
// workflow command from a vendor's text cannot start a line of its own) and
// prefixed with the provider, then handed to Config.Log, the CLI's reporter
// (issue 32.8). Without Log the lines go to standard error, made safe the
// same way.
func (c Config) SDKLog(p catalog.Provider, secrets ...string) func(msg string) {
	out := c.Log
	if out == nil {
		out = func(line string) { fmt.Fprintln(os.Stderr, line) }
	}
	return func(msg string) {
		msg = strings.TrimRight(msg, "\r\n")
		if strings.TrimSpace(msg) == "" {
			return
		}
		out(catalog.SafeLine(string(p) + " sdk: " + Redact(msg, secrets...)))
	}
}

// Printf is a logger with a Printf method (the Tencent SDK's common.Logger,
// the standard library's shape) over a line function such as SDKLog's.
type Printf func(msg string)

// Printf formats and logs one message.
func (f Printf) Printf(format string, args ...any) { f(fmt.Sprintf(format, args...)) }
