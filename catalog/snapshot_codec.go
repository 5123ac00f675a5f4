package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// MarshalCanonical serializes the snapshot deterministically: lists sorted, one
// record per line, so that the same content gives the same bytes and a `git diff`
// of two snapshots reads record by record.
//
// The records of each list are encoded in parallel, a chunk per processor.
func (s *Snapshot) MarshalCanonical() ([]byte, error) {
	c := *s
	c.Coverage = append([]Coverage(nil), s.Coverage...)
	c.Unmapped = append([]UnmappedAccelerator(nil), s.Unmapped...)
	c.sortSmallLists()
	c.Regions = sortedList(s.Regions, regionLess)
	c.Instances = sortedList(s.Instances, instanceLess)
	c.Placements = sortedList(s.Placements, placementLess)
	c.Offers = sortedList(s.Offers, offerLess)

	b := []byte("{\n")
	field := func(name string, v any) error {
		enc, err := marshalNoEscape(v)
		if err != nil {
			return fmt.Errorf("encode %s: %w", name, err)
		}
		b = fmt.Appendf(b, "%q: %s,\n", name, enc)
		return nil
	}
	if err := field("schema", c.Schema); err != nil {
		return nil, err
	}
	if err := field("taken_at", c.TakenAt.UTC()); err != nil {
		return nil, err
	}
	if err := field("fx", c.FX); err != nil {
		return nil, err
	}
	var err error
	if b, err = appendList(b, "coverage", c.Coverage, marshalItem); err != nil {
		return nil, err
	}
	if b, err = appendList(b, "unmapped", c.Unmapped, marshalItem); err != nil {
		return nil, err
	}
	if b, err = appendList(b, "regions", c.Regions, marshalItem); err != nil {
		return nil, err
	}
	if b, err = appendList(b, "instances", c.Instances, marshalItem); err != nil {
		return nil, err
	}
	if b, err = appendList(b, "placements", c.Placements, func(dst []byte, p *Placement) ([]byte, error) {
		if out, ok := appendPlacementJSON(dst, p); ok {
			return out, nil
		}
		return marshalItem(dst, p)
	}); err != nil {
		return nil, err
	}
	if b, err = appendList(b, "offers", c.Offers, func(dst []byte, o *Offer) ([]byte, error) {
		if out, ok := appendOfferJSON(dst, o, true); ok {
			return out, nil
		}
		return marshalItem(dst, o)
	}); err != nil {
		return nil, err
	}
	// Every list but the last is followed by a comma: take the offers' off.
	b = append(b[:len(b)-2], "\n}\n"...)
	return b, nil
}

func marshalItem[T any](dst []byte, v *T) ([]byte, error) {
	enc, err := marshalNoEscape(*v)
	return append(dst, enc...), err
}

// appendList appends `"name": [` and one item per line, the items encoded by enc,
// and `],` after them. The error is the first item's in order.
//
// The items are encoded in rounds of one batch per processor, in parallel, into
// buffers each worker keeps; each round's batches are then appended in order. So
// the list is written once into the result, which is sized after the first round,
// plus a few batches: memory fresh from the system costs a page fault per page.
func appendList[T any](b []byte, name string, items []T, enc func(dst []byte, v *T) ([]byte, error)) ([]byte, error) {
	const batch = 2048
	b = fmt.Appendf(b, "%q: [", name)
	workers := len(chunks(len(items))) - 1
	bufs := make([][]byte, workers)
	errs := make([]error, workers)
	for start := 0; start < len(items); start += workers * batch {
		inParallel(workers, func(w int) {
			buf := bufs[w][:0]
			lo := min(start+w*batch, len(items))
			for i := lo; i < min(lo+batch, len(items)); i++ {
				buf = append(buf, "\n  "...)
				var err error
				if buf, err = enc(buf, &items[i]); err != nil {
					errs[w] = fmt.Errorf("encode %s[%d]: %w", name, i, err)
					break
				}
				if i < len(items)-1 {
					buf = append(buf, ',')
				}
			}
			bufs[w] = buf
		})
		round := 0
		for w := range workers {
			if errs[w] != nil {
				return nil, errs[w]
			}
			round += len(bufs[w])
		}
		if start == 0 && len(items) > workers*batch {
			// Room for the rest, at this round's bytes per item and a tenth more.
			rest := round / (workers * batch) * (len(items) - workers*batch) * 11 / 10
			b = append(make([]byte, 0, len(b)+round+rest+16), b...)
		}
		for _, buf := range bufs {
			b = append(b, buf...)
		}
	}
	if len(items) > 0 {
		b = append(b, '\n')
	}
	return append(b, "],\n"...), nil
}

// marshalNoEscape encodes like json.Marshal but leaves <, > and & as they are: the
// snapshot is data, not HTML, and the site escapes on output.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// DecodeSnapshot reads a snapshot from data; name is used in error messages, which
// give the position (line:column) of a malformed or mistyped value.
func DecodeSnapshot(name string, data []byte) (*Snapshot, error) {
	s, ok := decodeCanonical(data)
	if !ok {
		var err error
		if s, err = decodeSnapshotJSON(name, data); err != nil {
			return nil, err
		}
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// decodeSnapshotJSON decodes a snapshot of any layout with one json.Decoder.
func decodeSnapshotJSON(name string, data []byte) (*Snapshot, error) {
	if first := firstByte(data); first != '{' && json.Valid(data) {
		return nil, fmt.Errorf("%s: not a GPU Atlas snapshot: the file holds %s, not a JSON object", name, jsonValueWords(first))
	}
	var head struct {
		Schema *int `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, positionError(name, data, err)
	}
	if head.Schema == nil {
		return nil, fmt.Errorf("%s: not a GPU Atlas snapshot: no \"schema\" field", name)
	}
	if *head.Schema != SchemaVersion {
		return nil, fmt.Errorf("%s: snapshot schema version %d is not supported (this build reads version %d); use a gpuatlas build that matches the file", name, *head.Schema, SchemaVersion)
	}
	var s Snapshot
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, positionError(name, data, err)
	}
	return &s, nil
}

// decodeCanonical decodes a snapshot laid out as MarshalCanonical writes it, one
// record per line, decoding the lines of each list in parallel. It reports ok
// false when data is laid out otherwise or anything in it does not decode;
// decodeSnapshotJSON then reads it whole, which gives the same snapshot and, for
// a bad file, the error with its position.
func decodeCanonical(data []byte) (s *Snapshot, ok bool) {
	r := canonicalLines{data: data}
	s = &Snapshot{}
	if line, _ := r.next(); string(line) != "{" {
		return nil, false
	}
	if v, _ := r.value("schema"); string(v) != strconv.Itoa(SchemaVersion) {
		return nil, false
	}
	s.Schema = SchemaVersion
	if v, ok := r.value("taken_at"); !ok || decodeStrict(v, &s.TakenAt) != nil {
		return nil, false
	}
	if v, ok := r.value("fx"); !ok || decodeStrict(v, &s.FX) != nil {
		return nil, false
	}
	ok = decodeLines(r.list("coverage", false), &s.Coverage, decodeItemJSON) &&
		decodeLines(r.list("unmapped", false), &s.Unmapped, decodeItemJSON) &&
		decodeLines(r.list("regions", false), &s.Regions, decodeItemJSON) &&
		decodeLines(r.list("instances", false), &s.Instances, decodeItemJSON) &&
		decodeLines(r.list("placements", false), &s.Placements, func(line []byte, p *Placement, strs interner) bool {
			var end int
			var ok bool
			if *p, end, ok = readPlacementJSON(line, 0, strs); ok && end == len(line) {
				return true
			}
			*p = Placement{}
			return decodeItemJSON(line, p, strs)
		}) &&
		decodeLines(r.list("offers", true), &s.Offers, func(line []byte, o *Offer, strs interner) bool {
			var end int
			var ok bool
			if *o, end, ok = readOfferJSON(line, 0, true, strs); ok && end == len(line) {
				return true
			}
			*o = Offer{}
			return decodeItemJSON(line, o, strs)
		})
	if line, _ := r.next(); !ok || string(line) != "}" || r.pos != len(data) {
		return nil, false
	}
	return s, true
}

func decodeItemJSON[T any](line []byte, v *T, _ interner) bool { return decodeStrict(line, v) == nil }

// decodeLines decodes one record per line into a new list, in parallel chunks.
// lines is nil when the list was not laid out as expected.
func decodeLines[T any](lines [][]byte, list *[]T, decode func(line []byte, v *T, strs interner) bool) bool {
	if lines == nil {
		return false
	}
	items := make([]T, len(lines))
	bounds := chunks(len(lines))
	failed := make([]bool, len(bounds)-1)
	inParallel(len(failed), func(k int) {
		strs := interner{}
		for i := bounds[k]; i < bounds[k+1]; i++ {
			if !decode(lines[i], &items[i], strs) {
				failed[k] = true
				return
			}
		}
	})
	for _, f := range failed {
		if f {
			return false
		}
	}
	*list = items
	return true
}

// canonicalLines reads data line by line, in MarshalCanonical's layout.
type canonicalLines struct {
	data []byte
	pos  int
}

// next returns the next line without its newline; ok is false when no complete
// line is left.
func (r *canonicalLines) next() (line []byte, ok bool) {
	i := bytes.IndexByte(r.data[r.pos:], '\n')
	if i < 0 {
		return nil, false
	}
	line = r.data[r.pos : r.pos+i]
	r.pos += i + 1
	return line, true
}

// value reads the line `"name": VALUE,` and returns VALUE.
func (r *canonicalLines) value(name string) ([]byte, bool) {
	line, ok := r.next()
	prefix := `"` + name + `": `
	if !ok || !bytes.HasPrefix(line, []byte(prefix)) || !bytes.HasSuffix(line, []byte(",")) {
		return nil, false
	}
	return line[len(prefix) : len(line)-1], true
}

// list reads `"name": [`, the items, one per line indented by two spaces and
// followed by a comma but the last, and `]` (with a comma unless last). It
// returns the items without indent or comma, an empty non-nil list for `[]`, and
// nil when the lines are not so.
func (r *canonicalLines) list(name string, last bool) [][]byte {
	end := "],"
	if last {
		end = "]"
	}
	line, ok := r.next()
	head := `"` + name + `": [`
	switch {
	case !ok || !bytes.HasPrefix(line, []byte(head)):
		return nil
	case string(line[len(head):]) == end:
		return [][]byte{}
	case len(line) != len(head):
		return nil
	}
	// Size the list from the lines up to the first that starts with "]".
	var items [][]byte
	if end := bytes.Index(r.data[r.pos:], []byte("\n]")); end >= 0 {
		items = make([][]byte, 0, bytes.Count(r.data[r.pos:r.pos+end], []byte("\n"))+1)
	}
	for {
		line, ok := r.next()
		switch {
		case !ok:
			return nil
		case string(line) == end:
			if len(items) == 0 {
				return nil
			}
			last := items[len(items)-1]
			if bytes.HasSuffix(last, []byte(",")) {
				return nil
			}
			return items
		case !bytes.HasPrefix(line, []byte("  ")):
			return nil
		}
		if n := len(items); n > 0 {
			prev := items[n-1]
			if !bytes.HasSuffix(prev, []byte(",")) {
				return nil
			}
			items[n-1] = prev[:len(prev)-1]
		}
		items = append(items, line[2:])
	}
}

// ReadSnapshot reads and validates the snapshot file at path, of at most
// MaxSnapshotBytes.
func ReadSnapshot(path string) (*Snapshot, error) {
	data, err := ReadFileLimit(path, MaxSnapshotBytes)
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	return DecodeSnapshot(path, data)
}

// WriteSnapshot writes the snapshot to path atomically: a reader sees either the
// old file or the complete new one, never a partial write.
func WriteSnapshot(path string, s *Snapshot) error {
	if err := s.Validate(); err != nil {
		return fmt.Errorf("write snapshot %s: %w", path, err)
	}
	data, err := s.MarshalCanonical()
	if err != nil {
		return fmt.Errorf("write snapshot %s: %w", path, err)
	}
	return WriteFileAtomic(path, data)
}
