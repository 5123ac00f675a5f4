package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A file under /proc, /sys or /dev is refused whatever path leads to it (a
// symbolic link included), before it is read: /proc/self/environ holds the
// environment's secrets.
func TestReadFileLimit_RefusesSystemFiles(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "observations.csv")
	if err := os.Symlink("/proc/self/environ", link); err != nil {
		t.Fatal(err)
	}
	for _, read := range []struct {
		name string
		f    func(string, int64) ([]byte, error)
	}{{"ReadFileLimit", ReadFileLimit}, {"ReadRegularFile", ReadRegularFile}} {
		for _, path := range []string{link, "/proc/self/environ", "/sys/kernel/mm/transparent_hugepage/enabled", "/proc/self/status"} {
			if _, err := os.Stat(path); err != nil {
				continue
			}
			_, err := read.f(path, MaxDataFileBytes)
			if err == nil || !strings.Contains(err.Error(), "refused") {
				t.Errorf("%s(%s): %v, want a refusal", read.name, path, err)
			}
		}
	}
}

// The readers of files a user writes refuse what is not a regular file before
// they open it: a FIFO nobody writes to (opening it would wait forever), a
// device, a folder; and a sparse file over the limit without reading it.
func TestReadRegularFile_RefusesEndlessInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse.csv")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(4 << 30); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	zero := filepath.Join(dir, "zero.csv")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, fifo + ": not a file (a named pipe)"},
		{dir, dir + ": not a file (a folder)"},
		{zero, zero + ": not a file (a character device)"},
		{sparse, sparse + ": larger than 10 MB"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := ReadRegularFile(tc.path, MaxDataFileBytes)
			done <- err
		}()
		err := <-done
		if err == nil || err.Error() != tc.want {
			t.Errorf("ReadRegularFile(%s): %v, want %q", tc.path, err, tc.want)
		}
		rc, err := OpenRegularFile(tc.path, MaxDataFileBytes)
		if err == nil {
			_ = rc.Close()
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("OpenRegularFile(%s): %v, want %q", tc.path, err, tc.want)
		}
	}
}

// An error about an observation file never repeats the file's content: a
// header read from a file that is not an observation table (here, an
// environment with a secret) is named by its column, and a JSON Lines line
// that is not JSON by its column.
func TestParseObservations_ErrorsDoNotEchoContent(t *testing.T) {
	const secret = "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI"
	for _, tc := range []struct{ name, data string }{
		{"env.csv", secret + "\x00HOME=/root\x00"},
		{"env.csv", "provider," + secret + "\n"},
		{"env.jsonl", secret + "\n"},
		{"env.jsonl", `{"provider":"aws",` + secret + "}\n"},
		{"env.jsonl", `{"price":{"x":"` + secret + `"}}` + "\n"},
	} {
		_, err := ParseObservations(tc.name, []byte(tc.data))
		if err == nil {
			t.Fatalf("%q: no error", tc.data)
		}
		if strings.Contains(err.Error(), "wJalr") || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%q: the error repeats the file: %v", tc.data, err)
		}
		if !strings.Contains(err.Error(), tc.name+":1:") {
			t.Errorf("%q: the error does not name the file and line: %v", tc.data, err)
		}
	}
}

// A snapshot or a history with an unknown field names it as an excerpt: a
// file that is not what it claims never has a whole key repeated.
func TestDecodeErrors_UnknownFieldIsAnExcerpt(t *testing.T) {
	key := "AWS_SECRET_ACCESS_KEY=" + strings.Repeat("s", 5000)
	_, err := DecodeSnapshot("cat.json", []byte(`{"schema":`+itoa(SchemaVersion)+`,"`+key+`":1}`))
	if err == nil || !strings.HasPrefix(err.Error(), "cat.json") || !strings.Contains(err.Error(), `unknown field "AWS_SECRET_ACCESS_KEY=sssss`) || len(err.Error()) > 200 {
		t.Errorf("snapshot: %.300v", err)
	}
	h := buildHistory(t, historyCrawls()[:1])
	data, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(data), `{"region":{`, `{"region":{"`+key+`":1,`, 1)
	_, err = DecodeHistory("h.jsonl", []byte(bad))
	if err == nil || !strings.HasPrefix(err.Error(), "h.jsonl:") || len(err.Error()) > 200 {
		t.Errorf("history: %.300v", err)
	}
}
