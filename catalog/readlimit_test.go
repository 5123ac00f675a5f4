package catalog

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// ReadFileLimit reads a file or a pipe to at most its limit and says so past
// it; it refuses a device or a folder without reading.
func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	feed := func(n int) {
		go func() {
			f, err := os.OpenFile(pipe, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			defer func() { _ = f.Close() }()
			_, _ = f.Write([]byte(strings.Repeat("x", n))) // the reader may stop early
		}()
	}
	tests := []struct {
		name, path string
		limit      int64
		feed       int
		want       string // data, or the error
	}{
		{"under the limit", small, 10, 0, "0123456789"},
		{"over the limit", small, 9, 0, small + ": larger than 9 bytes"},
		{"pipe under the limit", pipe, 10, 10, "xxxxxxxxxx"},
		{"pipe over the limit", pipe, 10, 11, pipe + ": larger than 10 bytes"},
		{"a device", "/dev/zero", 10, 0, "/dev/zero: not a file (a character device)"},
		{"a folder", dir, 10, 0, dir + ": not a file (a folder)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.feed > 0 {
				feed(tt.feed)
			}
			b, err := ReadFileLimit(tt.path, tt.limit)
			got := string(b)
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	_, err := ReadFileLimit(filepath.Join(dir, "none"), 10)
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v, want an error that is fs.ErrNotExist", err)
	}
}

func TestTooLargeError_MB(t *testing.T) {
	if got, want := (&TooLargeError{Name: "data/x.csv", Limit: MaxUploadBytes}).Error(), "data/x.csv: larger than 10 MB"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// LimitReader gives a stream's reader (the CSV tables) the same limit.
func TestLimitReader(t *testing.T) {
	b, err := io.ReadAll(LimitReader("t.csv", strings.NewReader("abcd"), 4))
	if err != nil || string(b) != "abcd" {
		t.Errorf("at the limit: %q, %v", b, err)
	}
	_, err = io.ReadAll(LimitReader("t.csv", strings.NewReader("abcde"), 4))
	var big *TooLargeError
	if !errors.As(err, &big) || err.Error() != "t.csv: larger than 4 bytes" {
		t.Errorf("over the limit: %v", err)
	}
	_, err = ParseWorkloads("workloads.csv", io.LimitReader(zeros{}, MaxDataFileBytes+1))
	if err == nil || err.Error() != "workloads.csv: larger than 10 MB" {
		t.Errorf("ParseWorkloads of 10 MB of zeros: %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
