package catalog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

// SchemaVersion is the version of the snapshot format this build reads and writes.
// Bump it when a change would make an older reader misread a file.
const SchemaVersion = 1

// Snapshot is one complete catalog: everything crawled at one time, with the FX
// table its currency conversions use and what each provider's crawl achieved.
type Snapshot struct {
	Schema     int                   `json:"schema"`
	TakenAt    time.Time             `json:"taken_at"`
	FX         FXTable               `json:"fx"`
	Coverage   []Coverage            `json:"coverage"`
	Unmapped   []UnmappedAccelerator `json:"unmapped"`
	Regions    []Region              `json:"regions"`
	Instances  []InstanceType        `json:"instances"`
	Placements []Placement           `json:"placements"`
	Offers     []Offer               `json:"offers"`
}

// Placement says an instance type can be launched in a zone, and whether it is in
// stock there (AWS DescribeInstanceTypeOfferings, Alibaba DescribeAvailableResource,
// Tencent DescribeZoneInstanceConfigInfos).
type Placement struct {
	Provider     Provider     `json:"provider"`
	InstanceType string       `json:"instance_type"`
	Region       string       `json:"region"`
	Zone         string       `json:"zone"`
	Status       Availability `json:"status"`
}

// Key identifies a placement within a snapshot.
func (p Placement) Key() string {
	return string(p.Provider) + "/" + p.InstanceType + "/" + p.Region + "/" + p.Zone
}

// Sort puts every list of the snapshot in its canonical order, so that the same
// content always serializes to the same bytes.
func (s *Snapshot) Sort() {
	rank := map[Provider]int{}
	for i, p := range Providers {
		rank[p] = i
	}
	sort.SliceStable(s.Coverage, func(i, j int) bool { return rank[s.Coverage[i].Provider] < rank[s.Coverage[j].Provider] })
	for i := range s.Coverage {
		sort.Slice(s.Coverage[i].FailedRegions, func(a, b int) bool {
			return s.Coverage[i].FailedRegions[a].Region < s.Coverage[i].FailedRegions[b].Region
		})
		sort.Strings(s.Coverage[i].Sources)
	}
	for i := range s.Unmapped {
		sort.Strings(s.Unmapped[i].InstanceTypes)
	}
	sort.Slice(s.Unmapped, func(i, j int) bool {
		a, b := s.Unmapped[i], s.Unmapped[j]
		if a.Provider != b.Provider {
			return rank[a.Provider] < rank[b.Provider]
		}
		return a.Name < b.Name
	})
	sort.Slice(s.Regions, func(i, j int) bool { return s.Regions[i].Key() < s.Regions[j].Key() })
	sort.Slice(s.Instances, func(i, j int) bool { return s.Instances[i].Key() < s.Instances[j].Key() })
	sort.Slice(s.Placements, func(i, j int) bool { return s.Placements[i].Key() < s.Placements[j].Key() })
	billing := map[BillingKind]int{}
	for i, b := range BillingKinds {
		billing[b] = i
	}
	sort.Slice(s.Offers, func(i, j int) bool {
		a, b := s.Offers[i], s.Offers[j]
		switch {
		case a.Provider != b.Provider:
			return a.Provider < b.Provider
		case a.InstanceType != b.InstanceType:
			return a.InstanceType < b.InstanceType
		case a.Region != b.Region:
			return a.Region < b.Region
		case a.Zone != b.Zone:
			return a.Zone < b.Zone
		}
		return billing[a.Billing] < billing[b.Billing]
	})
}

// Validate checks the snapshot's internal consistency: a known schema, unique keys,
// offers that refer to known instance types, prices with a currency and unit.
func (s *Snapshot) Validate() error {
	if s.Schema != SchemaVersion {
		return fmt.Errorf("schema version %d is not supported (this build reads version %d)", s.Schema, SchemaVersion)
	}
	for c, r := range s.FX.Rates {
		if err := checkNumber(r); err != nil || !r.IsPositive() {
			return fmt.Errorf("fx rate for %s: must be a positive number below 1e15", c)
		}
	}
	types := map[string]bool{}
	for i, t := range s.Instances {
		if t.ID == "" {
			return fmt.Errorf("instances[%d]: empty id", i)
		}
		nums := []decimal.Decimal{t.MemoryGiB}
		if t.NetworkGbps != nil {
			nums = append(nums, *t.NetworkGbps)
		}
		for _, a := range t.Accelerators {
			nums = append(nums, a.Share, a.MemoryGiB)
		}
		for _, n := range nums {
			if err := checkNumber(n); err != nil {
				return fmt.Errorf("instances[%d] (%s): %w", i, t.Key(), err)
			}
		}
		if types[t.Key()] {
			return fmt.Errorf("instances[%d]: duplicate instance type %s", i, t.Key())
		}
		types[t.Key()] = true
	}
	offers := map[string]bool{}
	for i, o := range s.Offers {
		where := fmt.Sprintf("offers[%d] (%s)", i, o.Key())
		if offers[o.Key()] {
			return fmt.Errorf("%s: duplicate offer", where)
		}
		offers[o.Key()] = true
		if !types[o.InstanceKey()] {
			return fmt.Errorf("%s: instance type %s is not in the snapshot", where, o.InstanceKey())
		}
		if _, err := ParseBillingKind(string(o.Billing)); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if o.Price.Currency == "" || o.Price.Unit == "" {
			return fmt.Errorf("%s: price without currency or unit", where)
		}
		if o.Price.Amount.IsNegative() {
			return fmt.Errorf("%s: negative price %s", where, o.Price.Amount)
		}
		nums := []decimal.Decimal{o.Price.Amount}
		if o.Price.Upfront != nil {
			nums = append(nums, *o.Price.Upfront)
		}
		if o.Price.List != nil {
			nums = append(nums, *o.Price.List)
		}
		for _, n := range nums {
			if err := checkNumber(n); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
		}
	}
	return nil
}

// MarshalCanonical serializes the snapshot deterministically: lists sorted, one
// record per line, so that the same content gives the same bytes and a `git diff`
// of two snapshots reads record by record.
func (s *Snapshot) MarshalCanonical() ([]byte, error) {
	c := *s
	c.Coverage = append([]Coverage(nil), s.Coverage...)
	c.Unmapped = append([]UnmappedAccelerator(nil), s.Unmapped...)
	c.Regions = append([]Region(nil), s.Regions...)
	c.Instances = append([]InstanceType(nil), s.Instances...)
	c.Placements = append([]Placement(nil), s.Placements...)
	c.Offers = append([]Offer(nil), s.Offers...)
	c.Sort()
	var b bytes.Buffer
	b.WriteString("{\n")
	field := func(name string, v any, last bool) error {
		enc, err := marshalNoEscape(v)
		if err != nil {
			return fmt.Errorf("encode %s: %w", name, err)
		}
		fmt.Fprintf(&b, "%q: %s", name, enc)
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		return nil
	}
	list := func(name string, n int, item func(int) any, last bool) error {
		fmt.Fprintf(&b, "%q: [", name)
		for i := 0; i < n; i++ {
			enc, err := marshalNoEscape(item(i))
			if err != nil {
				return fmt.Errorf("encode %s[%d]: %w", name, i, err)
			}
			b.WriteString("\n  ")
			b.Write(enc)
			if i < n-1 {
				b.WriteByte(',')
			}
		}
		if n > 0 {
			b.WriteByte('\n')
		}
		b.WriteByte(']')
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		return nil
	}
	steps := []func() error{
		func() error { return field("schema", c.Schema, false) },
		func() error { return field("taken_at", c.TakenAt.UTC(), false) },
		func() error { return field("fx", c.FX, false) },
		func() error {
			return list("coverage", len(c.Coverage), func(i int) any { return c.Coverage[i] }, false)
		},
		func() error {
			return list("unmapped", len(c.Unmapped), func(i int) any { return c.Unmapped[i] }, false)
		},
		func() error { return list("regions", len(c.Regions), func(i int) any { return c.Regions[i] }, false) },
		func() error {
			return list("instances", len(c.Instances), func(i int) any { return c.Instances[i] }, false)
		},
		func() error {
			return list("placements", len(c.Placements), func(i int) any { return c.Placements[i] }, false)
		},
		func() error { return list("offers", len(c.Offers), func(i int) any { return c.Offers[i] }, true) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
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
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &s, nil
}

// ReadSnapshot reads and validates the snapshot file at path.
func ReadSnapshot(path string) (*Snapshot, error) {
	data, err := os.ReadFile(path)
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

// WriteFileAtomic writes data to a temporary file beside path, syncs it and renames
// it over path.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	cleanup := func() { f.Close(); os.Remove(tmp) }
	w := bufio.NewWriter(f)
	if _, err := w.Write(data); err != nil {
		cleanup()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		cleanup()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		cleanup()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		cleanup()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// positionError turns a JSON decoding error into one that names the file and the
// line and column where decoding failed.
func positionError(name string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := LineCol(data, syn.Offset)
		return fmt.Errorf("%s:%d:%d: malformed JSON: %v", name, line, col, err)
	case errors.As(err, &typ):
		line, col := LineCol(data, typ.Offset)
		field := typ.Field
		if field == "" {
			field = "value"
		}
		return fmt.Errorf("%s:%d:%d: %s: cannot use JSON %s as %s", name, line, col, field, typ.Value, typ.Type)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		line, col := LineCol(data, int64(len(data)))
		return fmt.Errorf("%s:%d:%d: truncated JSON: the file ends before the document does", name, line, col)
	}
	return fmt.Errorf("%s: %w", name, err)
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
