package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"time"
)

// HistorySchemaVersion is the newest version of the history file format this
// build reads and writes. Bump it when a change would make an older reader
// misread a file. Version 2 adds the imported observations; a history without
// them is still written as version 1 (historyV1), byte for byte as before, so
// that older builds keep reading it.
const HistorySchemaVersion = 2

// historyV1 is the version of a history without imported observations.
const historyV1 = 1

// historyFormat names the file format in the header line, so that a snapshot or
// another JSON Lines file handed to the history reader is rejected clearly.
const historyFormat = "gpuatlas-history"

func formatHistoryTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// Marshal serializes the history deterministically: the header, the crawls oldest
// first, then the records sorted by kind, key and first crawl, one per line.
//
// The lines are encoded in parallel chunks, the records straight into their
// places in the result, whose size is known beforehand.
func (h *History) Marshal() ([]byte, error) {
	b := fmt.Appendf(nil, `{"format":%q,"schema_version":%d,"crawls":%d,"records":%d}`+"\n", historyFormat, historyV1, len(h.crawls), len(h.records))
	if len(h.observations) > 0 {
		b = fmt.Appendf(nil, `{"format":%q,"schema_version":%d,"crawls":%d,"records":%d,"observations":%d}`+"\n", historyFormat, HistorySchemaVersion, len(h.crawls), len(h.records), len(h.observations))
	}
	crawlLines := make([][]byte, len(h.crawls))
	bounds := chunks(len(h.crawls))
	errs := make([]error, len(bounds)-1)
	inParallel(len(errs), func(k int) {
		for i := bounds[k]; i < bounds[k+1]; i++ {
			c := h.crawls[i]
			line := crawlLine{Crawl: formatHistoryTime(c.at), FX: c.fx, Coverage: c.coverage, FetchedAt: c.fetched}
			if line.Coverage == nil {
				line.Coverage = []Coverage{}
			}
			if len(c.fetchedOffers) > 0 {
				line.FetchedAtOffers = c.fetchedOffers
			}
			if len(c.interruptionAt) > 0 {
				line.InterruptionAt = c.interruptionAt
			}
			enc, err := marshalNoEscape(line)
			if err != nil {
				errs[k] = fmt.Errorf("encode history crawl %s: %w", line.Crawl, err)
				return
			}
			crawlLines[i] = enc
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}

	// A record line is {"KIND":VALUE,"from":"TIME"} or {"KIND":VALUE,"from":"TIME","to":"TIME"}.
	var prefixes [len(recordKindNames)]string
	for k, name := range recordKindNames {
		prefixes[k] = "{" + strconv.Quote(name) + ":"
	}
	times := make([]string, len(h.crawls))
	for i, c := range h.crawls {
		times[i] = strconv.Quote(formatHistoryTime(c.at))
	}
	const from, to, end = `,"from":`, `,"to":`, "}\n"
	size := func(r *historyRecord) int {
		n := len(prefixes[r.kind]) + len(r.value) + len(from) + len(times[r.from]) + len(end)
		if r.to != openInterval {
			n += len(to) + len(times[r.to])
		}
		return n
	}
	start := len(b)
	for _, line := range crawlLines {
		start += len(line) + 1
	}
	offsets := make([]int, len(h.records)+1) // where each record line starts
	offsets[0] = start
	for i := range h.records {
		offsets[i+1] = offsets[i] + size(&h.records[i])
	}
	out := make([]byte, 0, offsets[len(h.records)])
	out = append(out, b...)
	for _, line := range crawlLines {
		out = append(append(out, line...), '\n')
	}
	out = out[:cap(out)]
	bounds = chunks(len(h.records))
	inParallel(len(bounds)-1, func(k int) {
		lo, hi := bounds[k], bounds[k+1]
		w := out[offsets[lo]:offsets[lo]]
		for i := lo; i < hi; i++ {
			r := &h.records[i]
			w = append(w, prefixes[r.kind]...)
			w = append(w, r.value...)
			w = append(w, from...)
			w = append(w, times[r.from]...)
			if r.to != openInterval {
				w = append(w, to...)
				w = append(w, times[r.to]...)
			}
			w = append(w, end...)
		}
		if len(w) != offsets[hi]-offsets[lo] {
			panic("history: record lines sized wrong") // a bug in size
		}
	})
	for i := range h.observations {
		line, err := MarshalObservation(h.observations[i])
		if err != nil {
			return nil, fmt.Errorf("encode history observation %s: %w", h.observations[i].SeriesKey(), err)
		}
		out = append(append(append(out, observationPrefix...), line...), "}\n"...)
	}
	return out, nil
}

// observationPrefix starts an observation line of the history file.
const observationPrefix = `{"observation":`

// WriteHistory writes the history to path atomically.
func WriteHistory(path string, h *History) error {
	data, err := h.Marshal()
	if err != nil {
		return fmt.Errorf("write history %s: %w", path, err)
	}
	return WriteFileAtomic(path, data)
}

// ReadHistory reads and checks the history file at path, of at most
// MaxHistoryBytes. A missing file gives an error that matches fs.ErrNotExist
// (errors.Is), so a caller can start a new one.
func ReadHistory(path string) (*History, error) {
	data, err := ReadFileLimit(path, MaxHistoryBytes)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	return DecodeHistory(path, data)
}

type historyHeader struct {
	Format        string `json:"format"`
	SchemaVersion *int   `json:"schema_version"`
	Crawls        *int   `json:"crawls"`
	Records       *int   `json:"records"`
	Observations  *int   `json:"observations,omitempty"` // version 2
}

type crawlLine struct {
	Crawl           string            `json:"crawl"`
	FX              *FXTable          `json:"fx,omitempty"`
	Coverage        []Coverage        `json:"coverage"`
	FetchedAt       map[string]string `json:"fetched_at"`
	FetchedAtOffers map[string]string `json:"fetched_at_offers,omitempty"`
	// InterruptionAt is, per provider, when most of its spot offers'
	// interruption bands were observed (history_interruption.go).
	InterruptionAt map[string]string `json:"interruption_at,omitempty"`
}

type recordLine struct {
	Region    *Region              `json:"region"`
	Instance  *InstanceType        `json:"instance"`
	Placement *Placement           `json:"placement"`
	Offer     *offerState          `json:"offer"`
	Unmapped  *UnmappedAccelerator `json:"unmapped"`
	From      string               `json:"from"`
	To        string               `json:"to"`
}

// DecodeHistory reads a history from data; name is used in error messages, which
// give the line (and column, for malformed JSON) of the first problem.
//
// The crawl lines, which come first, are read in order; the record lines, each
// on its own, in parallel chunks, the offers and placements in the layout
// Marshal writes without encoding/json (readOfferJSON).
func DecodeHistory(name string, data []byte) (*History, error) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s: empty file: not a GPU Atlas history (the first line must be its header)", name)
	}
	d := &historyDecoder{name: name, lastLine: len(lines), crawlIndex: map[string]int{}}

	var head historyHeader
	if err := json.Unmarshal(lines[0], &head); err != nil {
		return nil, d.lineError(1, lines[0], err)
	}
	if head.Format != historyFormat || head.SchemaVersion == nil || head.Crawls == nil || head.Records == nil {
		return nil, fmt.Errorf("%s:1: not a GPU Atlas history: the first line must be {\"format\":%q,\"schema_version\":...,\"crawls\":...,\"records\":...}", name, historyFormat)
	}
	if *head.SchemaVersion != historyV1 && *head.SchemaVersion != HistorySchemaVersion {
		return nil, fmt.Errorf("%s:1: history schema version %d is not supported (this build reads versions 1 and %d); use a gpuatlas build that matches the file", name, *head.SchemaVersion, HistorySchemaVersion)
	}
	if err := decodeHistoryLine(lines[0], &head); err != nil {
		return nil, d.lineError(1, lines[0], err)
	}
	if *head.Crawls < 0 || *head.Records < 0 {
		return nil, fmt.Errorf("%s:1: negative counts in the header", name)
	}
	wantObs := 0
	switch {
	case *head.SchemaVersion == historyV1 && head.Observations != nil:
		return nil, fmt.Errorf("%s:1: a version 1 history has no observations count", name)
	case *head.SchemaVersion == HistorySchemaVersion && head.Observations == nil:
		return nil, fmt.Errorf("%s:1: a version %d history header must count its observations", name, HistorySchemaVersion)
	case head.Observations != nil:
		if wantObs = *head.Observations; wantObs < 0 {
			return nil, fmt.Errorf("%s:1: negative counts in the header", name)
		}
	}
	// The observation lines come last; they are read apart from the records.
	obsStart := len(lines)
	for obsStart > 1 && bytes.HasPrefix(lines[obsStart-1], []byte(observationPrefix)) {
		obsStart--
	}
	obsLines := lines[obsStart:]
	lines = lines[:obsStart]
	if err := checkHistoryLineLengths(name, lines, obsLines, obsStart); err != nil {
		return nil, err
	}

	h := &History{}
	n := 1 // lines[n] is line n+1
	for ; n < len(lines) && bytes.HasPrefix(lines[n], []byte(`{"crawl":`)); n++ {
		if err := d.line(h, n+1, lines[n]); err != nil {
			return nil, err
		}
	}
	if err := d.recordLines(h, n+1, lines[n:]); err != nil {
		return nil, err
	}
	if len(h.crawls) != *head.Crawls || len(h.records) != *head.Records {
		return nil, fmt.Errorf("%s:%d: the file has %d crawls and %d records, its header says %d and %d: it is truncated or was edited; restore it from git", name, len(lines), len(h.crawls), len(h.records), *head.Crawls, *head.Records)
	}
	if err := d.observations(h, obsStart+1, obsLines, wantObs, *head.SchemaVersion); err != nil {
		return nil, err
	}
	if err := checkOverlaps(name, h.records, d.lineNos); err != nil {
		return nil, err
	}
	h.sortRecords()
	return h, nil
}

// historyDecoder holds what DecodeHistory knows while it reads the lines.
type historyDecoder struct {
	name       string
	lastLine   int
	crawlIndex map[string]int // crawl time as formatHistoryTime writes it: crawl index
	lineNos    []int          // each record's line
}

func (d *historyDecoder) lineError(n int, line []byte, err error) error {
	return historyLineError(d.name, n, line, n == d.lastLine && !bytes.HasSuffix(line, []byte("\n")), err)
}

// decodeHistoryLine decodes one line strictly: known fields only, one value.
func decodeHistoryLine(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value on the line")
	}
	return nil
}

// line reads line n, a crawl or a record, into h.
func (d *historyDecoder) line(h *History, n int, line []byte) error {
	r, isCrawl, err := d.record(n, line, len(h.records) > 0)
	switch {
	case err != nil:
		return err
	case isCrawl:
		return d.crawl(h, n, line)
	}
	h.records = append(h.records, r)
	d.lineNos = append(d.lineNos, n)
	return nil
}

// recordLines reads lines, which start at line first, into h: each on its own,
// in parallel chunks, as long as they are all records. A crawl line among them
// is read as the lines before it say (an error after a record), so then they are
// all read again in order.
func (d *historyDecoder) recordLines(h *History, first int, lines [][]byte) error {
	records := make([]historyRecord, len(lines))
	bounds := chunks(len(lines))
	type stop struct {
		isCrawl bool
		err     error
	}
	stops := make([]stop, len(bounds)-1)
	inParallel(len(stops), func(k int) {
		fast := recordLineReader{d: d, strings: interner{}}
		for i := bounds[k]; i < bounds[k+1]; i++ {
			if r, ok := fast.read(lines[i]); ok {
				records[i] = r
				continue
			}
			// A crawl line after the first line is an error here, as the lines
			// before it are records (or the first problem is before it).
			r, isCrawl, err := d.record(first+i, lines[i], i > 0)
			if isCrawl || err != nil {
				stops[k] = stop{isCrawl, err}
				return
			}
			records[i] = r
		}
	})
	for _, st := range stops {
		switch {
		case st.isCrawl:
			for i, line := range lines {
				if err := d.line(h, first+i, line); err != nil {
					return err
				}
			}
			return nil
		case st.err != nil:
			return st.err
		}
	}
	h.records = append(h.records, records...)
	for i := range lines {
		d.lineNos = append(d.lineNos, first+i)
	}
	return nil
}

// record reads line n as a record; isCrawl reports a crawl line instead, which is
// an error when afterRecords.
func (d *historyDecoder) record(n int, line []byte, afterRecords bool) (r historyRecord, isCrawl bool, err error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(line, &probe); err != nil {
		if len(bytes.TrimSpace(line)) == 0 {
			return r, false, fmt.Errorf("%s:%d: empty line (every line must be one record)", d.name, n)
		}
		return r, false, d.lineError(n, line, err)
	}
	if _, ok := probe["crawl"]; ok {
		if afterRecords {
			return r, false, fmt.Errorf("%s:%d: crawl line after the records (crawls come first, oldest first)", d.name, n)
		}
		return r, true, nil
	}
	var rl recordLine
	if err := decodeHistoryLine(line, &rl); err != nil {
		return r, false, d.lineError(n, line, err)
	}
	if r, err = rl.record(); err != nil {
		return r, false, fmt.Errorf("%s:%d: %w", d.name, n, err)
	}
	from, ok := d.crawlIndex[canonicalTime(rl.From)]
	if !ok {
		return r, false, fmt.Errorf("%s:%d: %s %s: \"from\" %q is not a recorded crawl", d.name, n, r.kind, r.key, rl.From)
	}
	r.from, r.to = from, openInterval
	if rl.To != "" {
		to, ok := d.crawlIndex[canonicalTime(rl.To)]
		if !ok {
			return r, false, fmt.Errorf("%s:%d: %s %s: \"to\" %q is not a recorded crawl", d.name, n, r.kind, r.key, rl.To)
		}
		if to <= from {
			return r, false, fmt.Errorf("%s:%d: %s %s: \"to\" %s is not after \"from\" %s", d.name, n, r.kind, r.key, rl.To, rl.From)
		}
		r.to = to
	}
	return r, false, nil
}

// crawl reads crawl line n into h.
func (d *historyDecoder) crawl(h *History, n int, line []byte) error {
	var cl crawlLine
	if err := decodeHistoryLine(line, &cl); err != nil {
		return d.lineError(n, line, err)
	}
	at, err := time.Parse(time.RFC3339Nano, cl.Crawl)
	if err != nil {
		return fmt.Errorf("%s:%d: crawl time %q: want an RFC 3339 time such as 2025-11-30T00:00:00Z", d.name, n, cl.Crawl)
	}
	at = at.UTC()
	if k := len(h.crawls); k > 0 && !at.After(h.crawls[k-1].at) {
		return fmt.Errorf("%s:%d: crawl %s is not after the crawl before it (%s): crawls must be in time order", d.name, n, cl.Crawl, formatHistoryTime(h.crawls[k-1].at))
	}
	if len(h.crawls) == 0 && cl.FX == nil {
		cl.FX = &FXTable{}
	}
	for k, t := range cl.FetchedAt {
		if err := new(time.Time).UnmarshalText([]byte(t)); err != nil {
			return fmt.Errorf("%s:%d: fetched_at %q: %q is not an RFC 3339 time", d.name, n, k, t)
		}
	}
	for k, t := range cl.FetchedAtOffers {
		if err := new(time.Time).UnmarshalText([]byte(t)); err != nil {
			return fmt.Errorf("%s:%d: fetched_at_offers %q: %q is not an RFC 3339 time", d.name, n, k, t)
		}
	}
	for k, t := range cl.InterruptionAt {
		if err := new(time.Time).UnmarshalText([]byte(t)); err != nil {
			return fmt.Errorf("%s:%d: interruption_at %q: %q is not an RFC 3339 time", d.name, n, k, t)
		}
	}
	c := historyCrawl{at: at, fx: cl.FX, coverage: cl.Coverage, fetched: cl.FetchedAt, fetchedOffers: cl.FetchedAtOffers, interruptionAt: cl.InterruptionAt}
	if c.fetched == nil {
		c.fetched = map[string]string{}
	}
	if c.fetchedOffers == nil {
		c.fetchedOffers = map[string]string{}
	}
	d.crawlIndex[formatHistoryTime(at)] = len(h.crawls)
	h.crawls = append(h.crawls, c)
	return nil
}

// recordLineReader reads the offer and placement lines Marshal writes, the
// great most of a history, without encoding/json. read reports ok false for any
// other line, or anything in it it does not take; record then reads that line.
type recordLineReader struct {
	d       *historyDecoder
	strings interner
	scratch []byte // the value being read
	keyBuf  []byte
	slab    []byte // the values of many records share one allocation
	lastKey string
}

func (rr *recordLineReader) read(line []byte) (r historyRecord, ok bool) {
	var end int
	b := rr.scratch[:0]
	switch {
	case bytes.HasPrefix(line, []byte(`{"offer":`)):
		var o Offer
		if o, end, ok = readOfferJSON(line, len(`{"offer":`), false, rr.strings); !ok || checkOfferLimits(&o) != nil {
			return r, false // record says what is wrong
		}
		r.kind = recOffer
		if b, ok = appendOfferJSON(b, &o, false); !ok {
			return r, false
		}
		r.key = rr.key(string(o.Provider), o.InstanceType, o.Region, o.Zone, string(o.Billing))
	case bytes.HasPrefix(line, []byte(`{"placement":`)):
		var p Placement
		if p, end, ok = readPlacementJSON(line, len(`{"placement":`), rr.strings); !ok || checkPlacementLimits(&p) != nil {
			return r, false // record says what is wrong
		}
		r.kind = recPlacement
		if b, ok = appendPlacementJSON(b, &p); !ok {
			return r, false
		}
		r.key = rr.key(string(p.Provider), p.InstanceType, p.Region, p.Zone)
	default:
		return r, false
	}
	rr.scratch = b
	rest := line[end:]
	from, rest, ok := rr.time(rest, `,"from":"`)
	if !ok {
		return r, false
	}
	r.from, r.to = from, openInterval
	if bytes.HasPrefix(rest, []byte(`,"to":"`)) {
		var to int
		if to, rest, ok = rr.time(rest, `,"to":"`); !ok || to <= from {
			return r, false
		}
		r.to = to
	}
	if string(rest) != "}\n" {
		return r, false
	}
	// The record's value is its JSON as Marshal would write it again.
	if len(rr.slab)+len(b) > cap(rr.slab) {
		rr.slab = make([]byte, 0, max(64<<10, len(b)))
	}
	at := len(rr.slab)
	rr.slab = append(rr.slab, b...)
	r.value = rr.slab[at:len(rr.slab):len(rr.slab)]
	return r, true
}

// key joins parts with "/" as the records' Key methods do; consecutive records
// of one key share the string.
func (rr *recordLineReader) key(parts ...string) string {
	b := rr.keyBuf[:0]
	for i, p := range parts {
		if i > 0 {
			b = append(b, '/')
		}
		b = append(b, p...)
	}
	rr.keyBuf = b
	if string(b) != rr.lastKey {
		rr.lastKey = string(b)
	}
	return rr.lastKey
}

// time reads `prefix` and a crawl time as Marshal writes it up to its closing
// quote, and returns the crawl's index.
func (rr *recordLineReader) time(b []byte, prefix string) (crawl int, rest []byte, ok bool) {
	if !bytes.HasPrefix(b, []byte(prefix)) {
		return 0, nil, false
	}
	b = b[len(prefix):]
	end := bytes.IndexByte(b, '"')
	if end < 0 {
		return 0, nil, false
	}
	crawl, ok = rr.d.crawlIndex[string(b[:end])]
	return crawl, b[end+1:], ok
}

// record checks that the line holds exactly one record and returns it with its
// key and canonical value (from and to are set by the caller).
func (rl recordLine) record() (historyRecord, error) {
	var r historyRecord
	var v any
	var limits error
	n := 0
	if rl.Region != nil {
		n++
		r.kind, r.key, v = recRegion, rl.Region.Key(), rl.Region
		limits = checkRegionLimits(rl.Region)
	}
	if rl.Instance != nil {
		n++
		r.kind, r.key, v = recInstance, rl.Instance.Key(), rl.Instance
		limits = checkInstanceLimits(rl.Instance)
	}
	if rl.Placement != nil {
		n++
		r.kind, r.key, v = recPlacement, rl.Placement.Key(), rl.Placement
		limits = checkPlacementLimits(rl.Placement)
	}
	if rl.Offer != nil {
		n++
		o, err := rl.Offer.offer(time.Time{})
		if err != nil {
			return r, fmt.Errorf("offer %s: %w", shortKey(o.Key()), err)
		}
		r.kind, r.key, v = recOffer, o.Key(), rl.Offer
		limits = checkOfferLimits(&o)
	}
	if rl.Unmapped != nil {
		n++
		r.kind, r.key, v = recUnmapped, unmappedKey(*rl.Unmapped), rl.Unmapped
		limits = checkUnmappedLimits(rl.Unmapped)
	}
	if n != 1 {
		return r, fmt.Errorf("a record line must hold exactly one of crawl, region, instance, placement, offer, unmapped (found %d)", n)
	}
	if limits != nil {
		return r, fmt.Errorf("%s %s: %w", r.kind, shortKey(r.key), limits)
	}
	if rl.From == "" {
		return r, fmt.Errorf("%s %s: no \"from\" crawl", r.kind, r.key)
	}
	b, err := marshalNoEscape(v)
	if err != nil {
		return r, fmt.Errorf("%s %s: %w", r.kind, r.key, err)
	}
	r.value = b
	return r, nil
}

// checkOverlaps rejects two records of one key that hold in the same crawl: the
// history would not say which value held.
func checkOverlaps(name string, records []historyRecord, lineNos []int) error {
	idx := make([]int, len(records))
	for i := range idx {
		idx[i] = i
	}
	if !slices.IsSortedFunc(records, compareRecords) { // a file's records are in order
		sort.SliceStable(idx, func(a, b int) bool { return recordLess(&records[idx[a]], &records[idx[b]]) })
	}
	for k := 1; k < len(idx); k++ {
		prev, cur := records[idx[k-1]], records[idx[k]]
		if prev.kind != cur.kind || prev.key != cur.key {
			continue
		}
		if prev.to == openInterval || prev.to > cur.from {
			return fmt.Errorf("%s:%d: %s %s holds in the same crawls as the record on line %d: a key has one value per crawl", name, lineNos[idx[k]], cur.kind, cur.key, lineNos[idx[k-1]])
		}
	}
	return nil
}

func canonicalTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return formatHistoryTime(t)
}

// historyLineError names the file, line and, where JSON gives one, the column of
// a line that does not decode.
func historyLineError(name string, n int, line []byte, last bool, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case last && (errors.Is(err, io.ErrUnexpectedEOF) || (errors.As(err, &syn) && syn.Offset >= int64(len(bytes.TrimRight(line, " \t\r"))))):
		return fmt.Errorf("%s:%d: truncated: the file ends inside a record; restore it from git", name, n)
	case errors.As(err, &syn):
		return fmt.Errorf("%s:%d:%d: malformed JSON: %w", name, n, syn.Offset, err)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "value"
		}
		return fmt.Errorf("%s:%d:%d: %s: want %s, found JSON %s", name, n, typ.Offset, field, jsonTypeWords(typ.Type), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return fmt.Errorf("%s:%d: malformed JSON: the line ends before the record does", name, n)
	}
	return fmt.Errorf("%s:%d: %s", name, n, jsonErrorWords(err))
}

// observations reads the observation lines, which start at line first, into h:
// each must be one observation object, valid, with its retrieved_at, in
// canonical order, and their number what the header says.
func (d *historyDecoder) observations(h *History, first int, lines [][]byte, want, version int) error {
	if version == historyV1 && len(lines) > 0 {
		return fmt.Errorf("%s:%d: an observation line in a version 1 history", d.name, first)
	}
	obs := make([]Observation, 0, len(lines))
	for i, line := range lines {
		n := first + i
		var wrap struct {
			Observation *observationJSON `json:"observation"`
		}
		if err := decodeHistoryLine(line, &wrap); err != nil {
			return d.lineError(n, line, err)
		}
		if wrap.Observation == nil {
			return fmt.Errorf("%s:%d: an observation line without its observation", d.name, n)
		}
		o, err := wrap.Observation.observation()
		if err != nil {
			return fmt.Errorf("%s:%d: observation: %w", d.name, n, err)
		}
		if o.RetrievedAt.IsZero() {
			// Import stamps every observation: without the time there is no
			// fetched_at for the offers rebuilt from it.
			return fmt.Errorf("%s:%d: observation: retrieved_at: required in a history (when GPU Atlas retrieved the archive; history import records it)", d.name, n)
		}
		if k := len(obs); k > 0 {
			prev := &obs[k-1]
			if compareObservations(prev, &o) >= 0 {
				return fmt.Errorf("%s:%d: observation out of order or repeated (observations are sorted by series, time and source)", d.name, n)
			}
			if prev.SeriesKey() == o.SeriesKey() && prev.ObservedAt.Equal(o.ObservedAt) && !samePriceFigures(*prev, o) {
				return fmt.Errorf("%s:%d: %s at %s: %s here, %s on the line before: two observations of one series at one instant must agree", d.name, n, o.SeriesKey(), formatHistoryTime(o.ObservedAt), o.PriceText(), prev.PriceText())
			}
		}
		obs = append(obs, o)
	}
	if len(obs) != want {
		return fmt.Errorf("%s:%d: the file has %d observations, its header says %d: it is truncated or was edited; restore it from git", d.name, first+len(lines)-1, len(obs), want)
	}
	if len(obs) > 0 {
		h.observations = obs
		h.series = buildSeries(obs)
	}
	return nil
}
