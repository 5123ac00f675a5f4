package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// positionError turns a JSON decoding error of the snapshot in data into one
// that names the file and the line and column where decoding failed, and says
// in words what was expected: never a Go type. An error that carries no
// position (a value its own decoder refuses, such as an amount "NaN", or an
// unknown field) is placed by decoding the document again record by record.
func positionError(name string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := LineCol(data, syn.Offset)
		return fmt.Errorf("%s:%d:%d: malformed JSON: %w", name, line, col, err)
	case errors.As(err, &typ):
		line, col := LineCol(data, typ.Offset)
		field := typ.Field
		if field == "" {
			field = "the document"
		}
		return fmt.Errorf("%s:%d:%d: %s: want %s, found JSON %s", name, line, col, field, jsonTypeWords(typ.Type), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		line, col := LineCol(data, int64(len(data)))
		return fmt.Errorf("%s:%d:%d: truncated JSON: the file ends before the document does", name, line, col)
	}
	if at, ok := locateSnapshotError(data); ok {
		line, col := LineCol(data, at.offset)
		if at.path == "" {
			return fmt.Errorf("%s:%d:%d: %s", name, line, col, jsonErrorWords(err))
		}
		return fmt.Errorf("%s:%d:%d: %s: %s", name, line, col, at.path, jsonErrorWords(err))
	}
	return fmt.Errorf("%s: %s", name, jsonErrorWords(err))
}

// jsonErrorWords is a decoding error's text as a message may repeat it: an
// unknown field's name as an excerpt (40 characters, escaped), any other
// error cut and escaped, so that no field name or value of a file that is not
// what it claims is printed whole.
func jsonErrorWords(err error) string {
	msg := err.Error()
	if field, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		if f, err := strconv.Unquote(field); err == nil {
			field = f
		}
		return "unknown field " + Excerpt(field)
	}
	return SafeLine(clip(msg))
}

// JSONError is positionError for other JSON documents than snapshots (a TCO
// input): file:line:column and what was expected, in words.
func JSONError(name string, data []byte, err error) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%s: the file is empty: want a JSON object", name)
	}
	if first := firstByte(data); first != '{' && json.Valid(data) {
		return fmt.Errorf("%s: the file holds %s, want a JSON object", name, jsonValueWords(first))
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return positionError(name, data, err)
	}
	return fmt.Errorf("%s: %s", name, jsonErrorWords(err))
}

// LineCol converts a byte offset into a 1-based line and column.
func LineCol(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	if offset < 0 {
		offset = 0
	}
	before := data[:offset]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}

var (
	timeType    = reflect.TypeFor[time.Time]()
	decimalType = reflect.TypeFor[decimal.Decimal]()
)

// jsonTypeWords says what JSON value a Go type takes, for a message.
func jsonTypeWords(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case timeType:
		return "a time (RFC 3339 text)"
	case decimalType:
		return "a decimal number (text or number)"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another value"
}

// firstByte is the first byte of data that is not JSON white space (0 if none).
func firstByte(data []byte) byte {
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 {
		return t[0]
	}
	return 0
}

// jsonValueWords names the kind of JSON value that starts with b.
func jsonValueWords(b byte) string {
	switch b {
	case '[':
		return "a JSON list"
	case '"':
		return "JSON text"
	case 't', 'f':
		return "a JSON true or false"
	case 'n':
		return "JSON null"
	case '{':
		return "a JSON object"
	}
	return "a JSON number"
}

// recordAt is where decoding a snapshot's record failed: its path
// ("offers[12]"; empty for a field of the document) and the offset of its
// first byte.
type recordAt struct {
	path   string
	offset int64
}

// locateSnapshotError decodes the snapshot in data again field by field, each
// list record by record, and returns the first field or record that does not
// decode; ok is false when every one does (or data is not laid out as an
// object of known fields).
func locateSnapshotError(data []byte) (at recordAt, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return at, false
	}
	lists := map[string]func(*json.Decoder) error{
		"coverage":   decodeOne[Coverage],
		"unmapped":   decodeOne[UnmappedAccelerator],
		"regions":    decodeOne[Region],
		"instances":  decodeOne[InstanceType],
		"placements": decodeOne[Placement],
		"offers":     decodeOne[Offer],
	}
	values := map[string]func(*json.Decoder) error{
		"schema":   decodeOne[int],
		"taken_at": decodeOne[time.Time],
		"fx":       decodeOne[FXTable],
	}
	for dec.More() {
		keyAt := valueStart(data, dec.InputOffset())
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey {
			return at, false
		}
		if decode, ok := values[key]; ok {
			start := valueStart(data, dec.InputOffset())
			if decode(dec) != nil {
				return recordAt{key, start}, true
			}
			continue
		}
		decode, ok := lists[key]
		if !ok {
			return recordAt{"", keyAt}, true // json: unknown field "key"
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return recordAt{key, keyAt}, true
		}
		for i := 0; dec.More(); i++ {
			start := valueStart(data, dec.InputOffset())
			if decode(dec) != nil {
				return recordAt{fmt.Sprintf("%s[%d]", key, i), start}, true
			}
		}
		if _, err := dec.Token(); err != nil {
			return at, false
		}
	}
	return at, false
}

func decodeOne[T any](dec *json.Decoder) error {
	var v T
	return dec.Decode(&v)
}

// valueStart skips the white space, commas and colon after offset: where the
// next value of a JSON stream starts.
func valueStart(data []byte, offset int64) int64 {
	for offset < int64(len(data)) {
		switch data[offset] {
		case ' ', '\t', '\r', '\n', ',', ':':
			offset++
		default:
			return offset
		}
	}
	return offset
}
