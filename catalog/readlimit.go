package catalog

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
// (/dev/zero), a socket, a folder or a file under /proc, /sys or /dev (after
// symbolic links are resolved: /proc/self/environ holds secrets) is refused
// before it is opened. The errors name path.
func ReadFileLimit(path string, limit int64) ([]byte, error) {
	return readUserFile(path, limit, true)
}

// ReadRegularFile is ReadFileLimit for the inputs that must be a file a user
// wrote (an observation file, a TCO input, a models table): a pipe is
// refused too, before it is opened (opening a FIFO nobody writes waits
// forever).
func ReadRegularFile(path string, limit int64) ([]byte, error) {
	return readUserFile(path, limit, false)
}

// OpenRegularFile opens path as ReadRegularFile reads it, for a parser that
// reads a stream: the reader fails with a TooLargeError past limit bytes.
func OpenRegularFile(path string, limit int64) (io.ReadCloser, error) {
	f, _, err := openUserFile(path, limit, false)
	if err != nil {
		return nil, err
	}
	return &limitedFile{Reader: LimitReader(path, f, limit), f: f}, nil
}

type limitedFile struct {
	io.Reader
	f *os.File
}

func (l *limitedFile) Close() error { return l.f.Close() }

func readUserFile(path string, limit int64, pipes bool) ([]byte, error) {
	f, info, err := openUserFile(path, limit, pipes)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	return readAllLimit(path, f, info.Size(), limit)
}

// openUserFile checks what path is before it opens it (stat: a device, a
// folder, a socket, a pipe unless pipes, a file under /proc, /sys or /dev, a
// regular file over limit are refused unopened) and again after (fstat: the
// same file, still of an accepted kind and size), so that a file swapped
// between the two is refused too.
func openUserFile(path string, limit int64, pipes bool) (*os.File, fs.FileInfo, error) {
	before, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := checkUserFile(path, before, limit, pipes); err != nil {
		return nil, nil, err
	}
	if err := checkSystemPath(path, before, pipes); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	after, err := f.Stat()
	if err == nil && !os.SameFile(before, after) {
		err = fmt.Errorf("%s: the file changed while it was opened; try again", SafeLine(path))
	}
	if err == nil {
		err = checkUserFile(path, after, limit, pipes)
	}
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	return f, after, nil
}

// checkUserFile refuses what is not a regular file (or a pipe, where pipes
// are read) and a regular file over limit.
func checkUserFile(path string, info fs.FileInfo, limit int64, pipes bool) error {
	mode := info.Mode()
	switch {
	case mode.IsRegular():
		if info.Size() > limit {
			return &TooLargeError{Name: path, Limit: limit}
		}
	case mode&fs.ModeNamedPipe != 0 && pipes:
	default:
		return fmt.Errorf("%s: not a file (%s)", SafeLine(path), fileKind(mode))
	}
	return nil
}

// systemDirs are the folders whose files are the kernel's, not data: reading
// them is refused whatever path leads there (/proc/self/environ holds the
// environment's secrets; /dev/zero never ends).
var systemDirs = []string{"/proc", "/sys", "/dev"}

// checkSystemPath refuses a path that resolves (through every symbolic link)
// to a file under /proc, /sys or /dev. What is judged is where the path
// leads: /dev/stdin redirected from a file is that file. A pipe that has no
// path to resolve to (bash's `<(zcat catalog.json.gz)`, /dev/fd/63) is left to
// the caller's pipes rule.
func checkSystemPath(path string, info fs.FileInfo, pipes bool) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("%s: %w", SafeLine(path), err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if pipes && info.Mode()&fs.ModeNamedPipe != 0 {
			return nil
		}
		return fmt.Errorf("%s: resolve symbolic links: %w", SafeLine(path), err)
	}
	for _, sys := range systemDirs {
		if resolved == sys || strings.HasPrefix(resolved, sys+"/") {
			return fmt.Errorf("%s: refused: it is (or links to) a file under %s, which holds the system's state, not data", SafeLine(path), sys)
		}
	}
	return nil
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
