package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"

	"github.com/gpuatlas/gpuatlas/internal/testlane"
)

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// gpuatlasBinary builds cmd/gpuatlas once per test run (a warm build cache
// makes this a relink of a few seconds).
func gpuatlasBinary(t testing.TB) string {
	t.Helper()
	testlane.Long(t, "builds and runs the gpuatlas binary")
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "gpuatlas-e2e-bin-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "gpuatlas")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/gpuatlas")
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			binErr = &buildError{out: string(out), err: err}
		}
	})
	if binErr != nil {
		t.Fatalf("build gpuatlas: %v", binErr)
	}
	return binPath
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// childEnv is the environment of a gpuatlas child process: the given variables
// and nothing of this machine's credentials or configuration.
func childEnv(t testing.TB, vars map[string]string) []string {
	home := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + os.TempDir(), "NO_PROXY=127.0.0.1,localhost"}
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+vars[k])
	}
	return env
}
