package compare

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Limits of a TCO input file's tokens, checked before it is decoded: reading
// a number into an exact decimal takes time that grows with the square of its
// digits (a million digits take seconds, a 10 MB file's would take hours),
// so a figure longer than any real one is refused unread. Strings (ids,
// labels, notes, and figures written as strings) get a wider limit.
const (
	MaxTCONumberChars = 64
	MaxTCOStringChars = 4096
)

// ScanTCOInput checks the tokens of a TCO input file (name for messages)
// without decoding it: no number longer than MaxTCONumberChars characters and
// no string longer than MaxTCOStringChars bytes; the error says where
// (name:line:col). A document that is not JSON is left to the decoder, which
// says what is wrong with it.
func ScanTCOInput(name string, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return nil // not JSON: the decoder's message is the better one
		}
		var kind string
		var n, limit int
		switch v := tok.(type) {
		case json.Number:
			kind, n, limit = "a number", len(v), MaxTCONumberChars
		case string:
			kind, n, limit = "a string", len(v), MaxTCOStringChars
		default:
			continue
		}
		if n > limit {
			line, col := catalog.LineCol(data, start+int64(leadingSpace(data[start:])))
			return fmt.Errorf("%s:%d:%d: %s of %d characters: at most %d", name, line, col, kind, n, limit)
		}
	}
}

// leadingSpace counts the blanks, commas and colons before a token (the
// offset Token starts from is the end of the one before).
func leadingSpace(b []byte) int {
	n := 0
	for n < len(b) && bytes.IndexByte([]byte(" \t\r\n,:"), b[n]) >= 0 {
		n++
	}
	return n
}
