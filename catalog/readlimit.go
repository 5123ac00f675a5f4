package catalog

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MB is the unit of the size limits: a million bytes, as the messages say
// ("larger than 10 MB").
const MB = 1_000_000

// The size limits of the files GPU Atlas reads. Each is well above the largest
// real file of its kind, so that only a wrong or hostile file meets it, and low
// enough that reading what it accepts stays within the memory of a CI runner.
// The README's security section lists them.
const (
	// MaxSnapshotBytes: a made-up catalog of 100,000 offers is 35 MB (33 MiB),
	// about thirty times the embedded catalog.
	MaxSnapshotBytes = 256 * MB
	// MaxHistoryBytes: three years of daily crawls of that catalog are 115 MB
	// (110 MiB); decoding one takes about five times its size in memory.
	MaxHistoryBytes = 512 * MB
	// MaxUploadBytes: a benchmark upload (one CSV or YAML file). The seed
	// uploads are a few kilobytes; 10 MB holds some 50,000 records.
	MaxUploadBytes = 10 * MB
	// MaxDataFileBytes: the other files read from the command line: scenario
	// definitions, the workload registry, the GPU reference and alias tables,
	// the region table, an FX rates file and a TCO input. Each real one is under
	// 100 kB.
	MaxDataFileBytes = 10 * MB
)

// TooLargeError is a file, or a stream, over its size limit.
type TooLargeError struct {
	Name  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Limit%MB != 0 {
		return fmt.Sprintf("%s: larger than %d bytes", e.Name, e.Limit)
	}
	return fmt.Sprintf("%s: larger than %d MB", e.Name, e.Limit/MB)
}

// ReadFileLimit reads the file at path whole, refusing one over limit bytes
// (TooLargeError, "FILE: larger than N MB") without reading more than limit+1
// bytes of it: an endless stream costs what the limit allows, no more. A
// regular file or a pipe (`<(zcat catalog.json.gz)`) is read; a device
// (/dev/zero), a socket or a folder is refused at once. The errors name path.
func ReadFileLimit(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	mode := info.Mode()
	switch {
	case mode.IsRegular():
		if info.Size() > limit {
			return nil, &TooLargeError{Name: path, Limit: limit}
		}
	case mode&fs.ModeNamedPipe != 0:
	default:
		return nil, fmt.Errorf("%s: not a file (%s)", path, fileKind(mode))
	}
	return readAllLimit(path, f, info.Size(), limit)
}

// readAllLimit reads r to its end, at most limit bytes (TooLargeError past
// them); size is what the file says it holds, the first guess of the buffer.
func readAllLimit(name string, r io.Reader, size, limit int64) ([]byte, error) {
	buf := make([]byte, 0, min(max(size, 512), limit)+1)
	lr := io.LimitReader(r, limit+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, &TooLargeError{Name: name, Limit: limit}
		}
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
}

// LimitReader is r that fails with a TooLargeError naming name once more than
// limit bytes were read from it: for the parsers that read a stream (the CSV
// tables).
func LimitReader(name string, r io.Reader, limit int64) io.Reader {
	return &limitedReader{name: name, r: r, left: limit, limit: limit}
}

type limitedReader struct {
	name        string
	r           io.Reader
	left, limit int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, &TooLargeError{Name: l.name, Limit: l.limit}
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return 0, &TooLargeError{Name: l.name, Limit: l.limit}
	}
	return n, err
}

// fileKind names what a file that is not a regular file is, for messages.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
