package catalog

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHelperKilledWriter is not a test: TestWriteFileAtomic_RemovesStaleTemporaries
// runs the test binary with it to have a writer it can kill while the
// temporary file is written.
func TestHelperKilledWriter(t *testing.T) {
	path := os.Getenv("GPUATLAS_TEST_KILLED_WRITER")
	if path == "" {
		t.Skip("a helper process, run by TestWriteFileAtomic_RemovesStaleTemporaries")
	}
	afterTempWrite = func(tmp string) {
		fmt.Printf("written %s\n", tmp)
		time.Sleep(time.Hour)
	}
	_ = WriteFileAtomic(path, []byte(strings.Repeat("half a snapshot\n", 1000)))
}

// A run killed while it writes leaves its temporary file (named with its pid)
// beside the target; the next write removes it, since no process has that pid
// any more. A temporary of a process that still runs is left alone.
func TestWriteFileAtomic_RemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "catalog.json")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperKilledWriter$")
	cmd.Env = append(os.Environ(), "GPUATLAS_TEST_KILLED_WRITER="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		t.Fatalf("the writer did not write: %v", err)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	tmp := strings.TrimSpace(strings.TrimPrefix(line, "written "))
	if _, err := os.Stat(tmp); err != nil {
		t.Fatalf("the killed run left no temporary file: %v", err)
	}
	if want := ".catalog.json.tmp-" + strconv.Itoa(cmd.Process.Pid) + "-"; !strings.HasPrefix(filepath.Base(tmp), want) {
		t.Errorf("temporary file %s: want its name to start with %s", filepath.Base(tmp), want)
	}
	// An older build's leftover (no pid) and the temporary of a live process
	// (pid 1 always runs).
	old := filepath.Join(dir, ".catalog.json.tmp-2837465019")
	live := filepath.Join(dir, ".catalog.json.tmp-1-123")
	other := filepath.Join(dir, ".history.jsonl.tmp-999999-1")
	for _, p := range []string{old, live, other} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	if err := WriteFileAtomic(path, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{tmp, old} {
		if _, err := os.Stat(gone); err == nil {
			t.Errorf("%s: the stale temporary is still there", filepath.Base(gone))
		}
	}
	for _, kept := range []string{live, other} {
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("%s: removed, but its process runs (or it is another file's)", filepath.Base(kept))
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "new\n" {
		t.Errorf("the file holds %q", b)
	}
}

// An output path that is a device, a FIFO, a symbolic link or a folder is
// refused: the rename would replace it (as root, /dev/null itself).
func TestWriteFileAtomic_RefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(filepath.Join(dir, "elsewhere.json"), link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{"/dev/null", "write /dev/null: it is a character device, not a regular file: refusing to replace it"},
		{fifo, "write " + fifo + ": it is a named pipe, not a regular file"},
		{link, "write " + link + ": it is a symbolic link, not a regular file"},
		{dir, "write " + dir + ": it is a folder"},
	} {
		err := WriteFileAtomic(tc.path, []byte("x"))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("WriteFileAtomic(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "elsewhere.json")); err == nil {
		t.Error("the write followed the symbolic link")
	}
	if err := CheckOutputFolder(link); err == nil || !strings.Contains(err.Error(), "symbolic link: refusing to follow it") {
		t.Errorf("CheckOutputFolder(link) = %v", err)
	}
}

func TestTempFilePID(t *testing.T) {
	const p = ".catalog.json.tmp-"
	for _, tc := range []struct {
		name string
		pid  int
		ok   bool
	}{
		{p + "1234-5678", 1234, true},
		{p + "2837465019", 0, true}, // an older name: no such pid
		{p + "4242", 4242, true},
		{p + "12a-1", 0, false},
		{p + "1234-", 0, false},
		{p + "-1", 0, false},
		{p, 0, false},
		{".other.tmp-1-1", 0, false},
		{p + "99999999-1", 0, false},
	} {
		pid, ok := TempFilePID(tc.name, p)
		if pid != tc.pid || ok != tc.ok {
			t.Errorf("TempFilePID(%q) = %d, %v; want %d, %v", tc.name, pid, ok, tc.pid, tc.ok)
		}
	}
}

// FuzzTempFilePID: any name gives a pid in range, or none; a name made from a
// pid reads back as it.
func FuzzTempFilePID(f *testing.F) {
	for _, s := range []string{"1234-5678", "2837465019", "", "-", "0-0", "4194303-1"} {
		f.Add(s, 1234)
	}
	f.Fuzz(func(t *testing.T, rest string, n int) {
		const p = ".h.tmp-"
		pid, ok := TempFilePID(p+rest, p)
		if pid < 0 || pid >= 1<<22 || (!ok && pid != 0) {
			t.Fatalf("TempFilePID(%q) = %d, %v", rest, pid, ok)
		}
		if n >= 1 && n < 1<<22 {
			if got, ok := TempFilePID(p+strconv.Itoa(n)+"-42", p); !ok || got != n {
				t.Fatalf("pid %d reads back as %d, %v", n, got, ok)
			}
		}
		if pid, err := ParsePID(rest); err == nil && strconv.Itoa(pid) != strings.TrimSuffix(rest, "\n") {
			t.Fatalf("ParsePID(%q) = %d", rest, pid)
		}
	})
}
