package catalog

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
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
	s.sortSmallLists()
	sortList(s.Regions, regionLess)
	sortList(s.Instances, instanceLess)
	sortList(s.Placements, placementLess)
	sortList(s.Offers, offerLess)
}

// sortSmallLists sorts coverage and unmapped accelerators, and the lists inside them.
func (s *Snapshot) sortSmallLists() {
	sort.SliceStable(s.Coverage, func(i, j int) bool {
		return providerRank(s.Coverage[i].Provider) < providerRank(s.Coverage[j].Provider)
	})
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
			return providerRank(a.Provider) < providerRank(b.Provider)
		}
		return a.Name < b.Name
	})
}

// providerRank is the provider's place in Providers; 0 for an unknown one.
func providerRank(p Provider) int {
	for i, q := range Providers {
		if p == q {
			return i
		}
	}
	return 0
}

// billingRank is the billing kind's place in BillingKinds; 0 for an unknown one.
func billingRank(b BillingKind) int {
	for i, k := range BillingKinds {
		if b == k {
			return i
		}
	}
	return 0
}

// regionLess, instanceLess and placementLess order by key. When the parts
// before the last are the same, the keys share those and the "/" after them, and
// the last parts decide without building the keys.
func regionLess(a, b *Region) bool {
	if a.Provider == b.Provider {
		return a.ID < b.ID
	}
	return a.Key() < b.Key()
}

func instanceLess(a, b *InstanceType) bool {
	if a.Provider == b.Provider {
		return a.ID < b.ID
	}
	return a.Key() < b.Key()
}

func placementLess(a, b *Placement) bool {
	if a.Provider == b.Provider && a.InstanceType == b.InstanceType && a.Region == b.Region {
		return a.Zone < b.Zone
	}
	return a.Key() < b.Key()
}

// offerLess is the canonical order of offers: by provider, instance type, region,
// zone and billing kind in display order.
func offerLess(a, b *Offer) bool { return compareOffers(a, b) < 0 }

// compareOffers is offerLess as a comparison: -1, 0 or +1.
func compareOffers(a, b *Offer) int {
	if c := strings.Compare(string(a.Provider), string(b.Provider)); c != 0 {
		return c
	}
	if c := strings.Compare(a.InstanceType, b.InstanceType); c != 0 {
		return c
	}
	if c := strings.Compare(a.Region, b.Region); c != 0 {
		return c
	}
	if c := strings.Compare(a.Zone, b.Zone); c != 0 {
		return c
	}
	if a.Billing == b.Billing {
		return 0
	}
	return cmp.Compare(billingRank(a.Billing), billingRank(b.Billing))
}

// sortList sorts list by less. A list already in strictly increasing order is
// left as it is without sorting: any sort would leave it so, and a snapshot read
// from its file is in order, so checking costs n comparisons instead of n log n.
func sortList[T any](list []T, less func(a, b *T) bool) {
	if !inStrictOrder(list, less) {
		sort.Slice(list, func(i, j int) bool { return less(&list[i], &list[j]) })
	}
}

// sortedList is list itself when it is in strictly increasing order, else a
// sorted copy: MarshalCanonical and History.Append need not copy 100,000 offers
// that are in order already.
func sortedList[T any](list []T, less func(a, b *T) bool) []T {
	if inStrictOrder(list, less) {
		return list
	}
	c := append([]T(nil), list...)
	sort.Slice(c, func(i, j int) bool { return less(&c[i], &c[j]) })
	return c
}

// inStrictOrder reports whether each item of list is less than the one after
// it, checking chunks of the list in parallel.
func inStrictOrder[T any](list []T, less func(a, b *T) bool) bool {
	bounds := chunks(len(list))
	ordered := make([]bool, len(bounds)-1)
	inParallel(len(ordered), func(k int) {
		for i := max(1, bounds[k]); i < bounds[k+1]; i++ {
			if !less(&list[i-1], &list[i]) {
				return
			}
		}
		ordered[k] = true
	})
	return !slices.Contains(ordered, false)
}

// offersKeyedInOrder reports whether the offers are in strictly increasing
// canonical order, with known billing kinds and no "/" inside the parts of their
// keys before the billing kind. Then the order tells their keys apart: two such
// offers compare equal exactly when their keys are equal, and no two offers of
// the list do. A snapshot read from its file is so.
func offersKeyedInOrder(offers []Offer) bool {
	for i := range offers {
		var prev *Offer
		if i > 0 {
			prev = &offers[i-1]
		}
		if !plainKeyParts(&offers[i], prev) || (prev != nil && !offerLess(prev, &offers[i])) {
			return false
		}
		if _, err := ParseBillingKind(string(offers[i].Billing)); err != nil {
			return false
		}
	}
	return true
}

// plainKeyParts reports whether o's key parts before the billing kind hold no
// "/". prev is the offer before (nil for the first), known to pass: a part the
// same as its part needs no search, and consecutive offers share most parts.
func plainKeyParts(o, prev *Offer) bool {
	if prev == nil {
		prev = &Offer{}
	}
	return (o.Provider == prev.Provider || strings.IndexByte(string(o.Provider), '/') < 0) &&
		(o.InstanceType == prev.InstanceType || strings.IndexByte(o.InstanceType, '/') < 0) &&
		(o.Region == prev.Region || strings.IndexByte(o.Region, '/') < 0) &&
		(o.Zone == prev.Zone || strings.IndexByte(o.Zone, '/') < 0)
}

// Validate checks the snapshot's internal consistency: a known schema, unique keys,
// offers that refer to known instance types, prices with a currency and unit.
func (s *Snapshot) Validate() error { return s.validate(nil, false) }

// validate is Validate, told what History.Append knows already. priced, when not
// nil, reports the offers whose billing kind and price are known to be valid:
// those as they were in the last crawl, whose prices need not be read again (a
// cache miss each, 100,000 a day). ordered says the offers are known to be in
// strictly increasing canonical order.
func (s *Snapshot) validate(priced func(i int) bool, ordered bool) error {
	if s.Schema != SchemaVersion {
		return fmt.Errorf("schema version %d is not supported (this build reads version %d)", s.Schema, SchemaVersion)
	}
	for c, r := range s.FX.Rates {
		if err := checkNumber(r); err != nil || !r.IsPositive() {
			return fmt.Errorf("fx rate for %s: must be a positive number below 1e15", c)
		}
	}
	types := make(map[string]bool, len(s.Instances))
	for i := range s.Instances {
		t := &s.Instances[i]
		if t.ID == "" {
			return fmt.Errorf("instances[%d]: empty id", i)
		}
		key := t.Key()
		check := func(n decimal.Decimal) error {
			if err := checkNumber(n); err != nil {
				return fmt.Errorf("instances[%d] (%s): %w", i, key, err)
			}
			return nil
		}
		if err := check(t.MemoryGiB); err != nil {
			return err
		}
		if t.NetworkGbps != nil {
			if err := check(*t.NetworkGbps); err != nil {
				return err
			}
		}
		for _, a := range t.Accelerators {
			if err := check(a.Share); err != nil {
				return err
			}
			if err := check(a.MemoryGiB); err != nil {
				return err
			}
		}
		if types[key] {
			return fmt.Errorf("instances[%d]: duplicate instance type %s", i, key)
		}
		types[key] = true
	}
	// The offers are checked in parallel chunks; only when that finds a problem,
	// or the offers out of canonical order, are they checked again in order
	// with a set of their keys, to report the first problem.
	if !s.offersValid(types, priced, ordered) {
		return s.validateOffers(types, priced)
	}
	return nil
}

// offersValid reports whether every offer passes checkOffer and the offers are
// in strictly increasing canonical order without "/" inside the parts of their
// keys, so that their keys differ (offersKeyedInOrder). It checks chunks of the
// offers in parallel.
func (s *Snapshot) offersValid(types map[string]bool, priced func(i int) bool, ordered bool) bool {
	bounds := chunks(len(s.Offers))
	valid := make([]bool, len(bounds)-1)
	inParallel(len(valid), func(k int) {
		for i := bounds[k]; i < bounds[k+1]; i++ {
			o := &s.Offers[i]
			var prev *Offer
			if i > 0 {
				prev = &s.Offers[i-1]
			}
			if !plainKeyParts(o, prev) || (prev != nil && !ordered && !offerLess(prev, o)) || s.checkOffer(i, types, priced) != nil {
				return
			}
		}
		valid[k] = true
	})
	return !slices.Contains(valid, false)
}

// validateOffers returns the first problem of the offers, in order.
func (s *Snapshot) validateOffers(types map[string]bool, priced func(i int) bool) error {
	seen := make(map[string]bool, len(s.Offers))
	for i := range s.Offers {
		key := s.Offers[i].Key()
		if seen[key] {
			return fmt.Errorf("offers[%d] (%s): duplicate offer", i, key)
		}
		seen[key] = true
		if err := s.checkOffer(i, types, priced); err != nil {
			return err
		}
	}
	return nil
}

// checkOffer checks offer i but for its key being unique: a known instance
// type and billing kind, and a price with a currency and unit.
func (s *Snapshot) checkOffer(i int, types map[string]bool, priced func(i int) bool) error {
	o := &s.Offers[i]
	where := func() string { return fmt.Sprintf("offers[%d] (%s)", i, o.Key()) }
	// Offers of one instance type come together; an offer with the same type as
	// the one before needs no look-up: that one is checked too (before it, in
	// validateOffers; by its own chunk, in offersValid).
	if i == 0 || o.Provider != s.Offers[i-1].Provider || o.InstanceType != s.Offers[i-1].InstanceType {
		if !types[o.InstanceKey()] {
			return fmt.Errorf("%s: instance type %s is not in the snapshot", where(), o.InstanceKey())
		}
	}
	if priced != nil && priced(i) {
		return nil
	}
	if _, err := ParseBillingKind(string(o.Billing)); err != nil {
		return fmt.Errorf("%s: %w", where(), err)
	}
	if o.Price.Currency == "" || o.Price.Unit == "" {
		return fmt.Errorf("%s: price without currency or unit", where())
	}
	if o.Price.Amount.IsNegative() {
		return fmt.Errorf("%s: negative price %s", where(), o.Price.Amount)
	}
	for _, n := range [...]*decimal.Decimal{&o.Price.Amount, o.Price.Upfront, o.Price.List} {
		if n == nil {
			continue
		}
		if err := checkNumber(*n); err != nil {
			return fmt.Errorf("%s: %w", where(), err)
		}
	}
	return nil
}

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
