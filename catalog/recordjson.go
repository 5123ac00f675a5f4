package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// Snapshots and histories hold offers and placements by the hundred thousand, one
// per line. encoding/json spends most of its time on them in reflection, so the
// functions below write and read those two records directly: in exactly the bytes
// marshalNoEscape writes, and to exactly the values encoding/json reads. They take
// only the plain case (the field order and form MarshalCanonical writes, strings
// that need no escaping) and report ok false for anything else, and the caller then
// uses encoding/json, which is exact and slower. TestRecordJSON_* hold them to
// encoding/json.

// recordWriter appends one record's JSON; ok turns false at the first value it
// cannot write exactly as encoding/json would.
type recordWriter struct {
	b  []byte
	ok bool
}

func (w *recordWriter) raw(s string) { w.b = append(w.b, s...) }

func (w *recordWriter) str(s string) {
	if !plainJSONString(s) {
		w.ok = false
		return
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, s...)
	w.b = append(w.b, '"')
}

// dec writes what Decimal.MarshalJSON writes: the decimal's String in quotes.
func (w *recordWriter) dec(d decimal.Decimal) {
	if decimal.MarshalJSONWithoutQuotes {
		w.ok = false
		return
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, d.String()...)
	w.b = append(w.b, '"')
}

// time writes what Time.MarshalJSON writes: RFC 3339 with nanoseconds, in quotes.
func (w *recordWriter) time(t time.Time) {
	w.b = append(w.b, '"')
	b, err := t.AppendText(w.b)
	if err != nil {
		w.ok = false
		return
	}
	b = append(b, '"')
	w.b = b
}

// plainJSONString reports whether encoding/json writes s as it is between quotes:
// no quote, backslash or control character, valid UTF-8, and neither U+2028 nor
// U+2029 (which it escapes for JavaScript).
func plainJSONString[S string | []byte](s S) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune([]byte(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
			return false
		}
		i += size
	}
	return true
}

// appendOfferJSON appends the offer as marshalNoEscape writes it, with its
// fetched_at when withFetched, or as its history record (offerState) without:
// observed_at then relative to the fetch time (observedMark), and a band's
// observed_at left out where the record leaves it out (interruptionWithCrawl).
func appendOfferJSON(b []byte, o *Offer, withFetched bool) ([]byte, bool) {
	return appendOfferValue(b, o, withFetched, time.Time{})
}

// appendOfferValue is appendOfferJSON; a history record (not withFetched) also
// leaves out the observed_at of a band observed at interruptionAt, the time
// the crawl's bands of its provider share (history_interruption.go).
func appendOfferValue(b []byte, o *Offer, withFetched bool, interruptionAt time.Time) ([]byte, bool) {
	w := recordWriter{b: b, ok: true}
	w.raw(`{"provider":`)
	w.str(string(o.Provider))
	w.raw(`,"instance_type":`)
	w.str(o.InstanceType)
	w.raw(`,"region":`)
	w.str(o.Region)
	if o.Zone != "" {
		w.raw(`,"zone":`)
		w.str(o.Zone)
	}
	w.raw(`,"billing":`)
	w.str(string(o.Billing))
	w.raw(`,"price":{"amount":`)
	w.dec(o.Price.Amount)
	w.raw(`,"currency":`)
	w.str(string(o.Price.Currency))
	w.raw(`,"unit":`)
	w.str(string(o.Price.Unit))
	if o.Price.Upfront != nil {
		w.raw(`,"upfront":`)
		w.dec(*o.Price.Upfront)
	}
	if o.Price.List != nil {
		w.raw(`,"list":`)
		w.dec(*o.Price.List)
	}
	w.raw(`}`)
	if o.PriceRange != nil {
		w.raw(`,"price_range":{"min":`)
		w.dec(o.PriceRange.Min)
		w.raw(`,"max":`)
		w.dec(o.PriceRange.Max)
		w.raw(`}`)
	}
	w.raw(`,"availability":`)
	w.str(string(o.Availability))
	if len(o.Zones) > 0 {
		w.raw(`,"zones":[`)
		for i, z := range o.Zones {
			if i > 0 {
				w.raw(",")
			}
			w.str(z)
		}
		w.raw("]")
	}
	if o.Includes != "" {
		w.raw(`,"includes":`)
		w.str(o.Includes)
	}
	w.raw(`,"source":`)
	w.str(o.Source)
	if withFetched {
		w.raw(`,"fetched_at":`)
		w.time(o.FetchedAt)
		if !o.ObservedAt.IsZero() {
			w.raw(`,"observed_at":`)
			w.time(o.ObservedAt)
		}
	} else if mark, err := markObserved(o); err != nil {
		w.ok = false
	} else if mark != "" {
		w.raw(`,"observed_at":`)
		w.str(string(mark))
	}
	if o.Synthetic {
		w.raw(`,"synthetic":true`)
	}
	if o.Reported {
		w.raw(`,"reported":true`)
	}
	if o.Estimated {
		w.raw(`,"estimated":true`)
	}
	if o.Suspect != "" {
		w.raw(`,"suspect":`)
		w.str(o.Suspect)
	}
	if in := o.Interruption; in != nil {
		w.raw(`,"interruption":{"band":`)
		w.str(string(in.Band))
		w.raw(`,"savings_pct":`)
		w.b = strconv.AppendInt(w.b, int64(in.SavingsPct), 10)
		if withFetched || !omitInterruptionTime(in.ObservedAt, interruptionAt) {
			w.raw(`,"observed_at":`)
			w.time(in.ObservedAt)
		}
		w.raw(`,"source":`)
		w.str(in.Source)
		w.raw(`}`)
	}
	if len(o.Parts) > 0 {
		w.raw(`,"parts":[`)
		for i, p := range o.Parts {
			if i > 0 {
				w.raw(",")
			}
			w.raw(`{"part":`)
			w.str(p.Part)
			w.raw(`,"amount":`)
			w.dec(p.Amount)
			w.raw(`}`)
		}
		w.raw("]")
	}
	w.raw("}")
	return w.b, w.ok
}

// appendPlacementJSON appends the placement as marshalNoEscape writes it.
func appendPlacementJSON(b []byte, p *Placement) ([]byte, bool) {
	w := recordWriter{b: b, ok: true}
	w.raw(`{"provider":`)
	w.str(string(p.Provider))
	w.raw(`,"instance_type":`)
	w.str(p.InstanceType)
	w.raw(`,"region":`)
	w.str(p.Region)
	w.raw(`,"zone":`)
	w.str(p.Zone)
	w.raw(`,"status":`)
	w.str(string(p.Status))
	w.raw("}")
	return w.b, w.ok
}

// recordReader reads one record's JSON from data at pos; ok turns false at the
// first thing that is not in the plain form.
type recordReader struct {
	data    []byte
	pos     int
	ok      bool
	strings interner
}

// lit consumes the literal s.
func (r *recordReader) lit(s string) {
	if r.ok && bytes.HasPrefix(r.data[r.pos:], []byte(s)) {
		r.pos += len(s)
		return
	}
	r.ok = false
}

// opt consumes the literal s if it comes next.
func (r *recordReader) opt(s string) bool {
	if r.ok && bytes.HasPrefix(r.data[r.pos:], []byte(s)) {
		r.pos += len(s)
		return true
	}
	return false
}

// quoted consumes a plain JSON string and returns it with its quotes.
func (r *recordReader) quoted() []byte {
	if !r.ok || r.pos >= len(r.data) || r.data[r.pos] != '"' {
		r.ok = false
		return nil
	}
	end := bytes.IndexByte(r.data[r.pos+1:], '"')
	if end < 0 || !plainJSONString(r.data[r.pos+1:r.pos+1+end]) {
		r.ok = false
		return nil
	}
	q := r.data[r.pos : r.pos+end+2]
	r.pos += end + 2
	return q
}

func (r *recordReader) str() string {
	q := r.quoted()
	if !r.ok {
		return ""
	}
	return r.strings.get(q[1 : len(q)-1])
}

// dec and time hand the quoted text to the same UnmarshalJSON encoding/json calls.
func (r *recordReader) dec() decimal.Decimal {
	var d decimal.Decimal
	if q := r.quoted(); r.ok && d.UnmarshalJSON(q) != nil {
		r.ok = false
	}
	return d
}

func (r *recordReader) time() time.Time {
	var t time.Time
	if q := r.quoted(); r.ok && t.UnmarshalJSON(q) != nil {
		r.ok = false
	}
	return t
}

// int reads a JSON integer as strconv writes it: an optional minus and up to
// nine digits, no leading zero.
func (r *recordReader) int() int {
	if !r.ok {
		return 0
	}
	i := r.pos
	if i < len(r.data) && r.data[i] == '-' {
		i++
	}
	j := i
	for j < len(r.data) && j-i < 10 && r.data[j] >= '0' && r.data[j] <= '9' {
		j++
	}
	if j == i || j-i > 9 || (r.data[i] == '0' && j-i > 1) || (r.data[r.pos] == '-' && r.data[i] == '0') {
		r.ok = false
		return 0
	}
	n, err := strconv.Atoi(string(r.data[r.pos:j]))
	if err != nil {
		r.ok = false
		return 0
	}
	r.pos = j
	return n
}

// readOfferJSON reads an offer as appendOfferJSON writes it (with or without its
// fetched_at) from data at pos, and returns the position after it. Read as a
// history record, an offer observed when fetched has ObservedAt
// observedWhenFetched (resolveObserved sets it).
func readOfferJSON(data []byte, pos int, withFetched bool, strs interner) (o Offer, end int, ok bool) {
	r := recordReader{data: data, pos: pos, ok: true, strings: strs}
	r.lit(`{"provider":`)
	o.Provider = Provider(r.str())
	r.lit(`,"instance_type":`)
	o.InstanceType = r.str()
	r.lit(`,"region":`)
	o.Region = r.str()
	if r.opt(`,"zone":`) {
		o.Zone = r.str()
	}
	r.lit(`,"billing":`)
	o.Billing = BillingKind(r.str())
	r.lit(`,"price":{"amount":`)
	o.Price.Amount = r.dec()
	r.lit(`,"currency":`)
	o.Price.Currency = Currency(r.str())
	r.lit(`,"unit":`)
	o.Price.Unit = PriceUnit(r.str())
	if r.opt(`,"upfront":`) {
		d := r.dec()
		o.Price.Upfront = &d
	}
	if r.opt(`,"list":`) {
		d := r.dec()
		o.Price.List = &d
	}
	r.lit(`}`)
	if r.opt(`,"price_range":{"min":`) {
		pr := PriceRange{Min: r.dec()}
		r.lit(`,"max":`)
		pr.Max = r.dec()
		r.lit(`}`)
		o.PriceRange = &pr
	}
	r.lit(`,"availability":`)
	o.Availability = Availability(r.str())
	if r.opt(`,"zones":[`) {
		o.Zones = []string{}
		for r.ok && !r.opt("]") {
			if len(o.Zones) > 0 {
				r.lit(",")
			}
			o.Zones = append(o.Zones, r.str())
		}
	}
	if r.opt(`,"includes":`) {
		o.Includes = r.str()
	}
	r.lit(`,"source":`)
	o.Source = r.str()
	if withFetched {
		r.lit(`,"fetched_at":`)
		o.FetchedAt = r.time()
		if r.opt(`,"observed_at":`) {
			o.ObservedAt = r.time()
		}
	} else {
		var mark observedMark
		if r.opt(`,"observed_at":`) {
			mark = observedMark(r.str())
			// encoding/json reads any string; only a valid one is the plain form
			r.ok = r.ok && mark != ""
		}
		t, err := mark.observed()
		r.ok = r.ok && err == nil
		o.ObservedAt = t
	}
	if r.opt(`,"synthetic":true`) {
		o.Synthetic = true
	}
	if r.opt(`,"reported":true`) {
		o.Reported = true
	}
	if r.opt(`,"estimated":true`) {
		o.Estimated = true
	}
	if r.opt(`,"suspect":`) {
		o.Suspect = r.str()
	}
	if r.opt(`,"interruption":{"band":`) {
		in := Interruption{Band: InterruptionBand(r.str())}
		r.lit(`,"savings_pct":`)
		in.SavingsPct = r.int()
		switch {
		case withFetched:
			r.lit(`,"observed_at":`)
			in.ObservedAt = r.time()
		case r.opt(`,"observed_at":`):
			in.ObservedAt = r.time()
			// a stand-in written out is not the plain form
			r.ok = r.ok && !in.ObservedAt.Equal(interruptionWithCrawl)
		default:
			in.ObservedAt = interruptionWithCrawl
		}
		r.lit(`,"source":`)
		in.Source = r.str()
		r.lit(`}`)
		o.Interruption = &in
	}
	if r.opt(`,"parts":[`) {
		for r.ok && !r.opt("]") {
			if len(o.Parts) > 0 {
				r.lit(",")
			}
			r.lit(`{"part":`)
			p := PricePart{Part: r.str()}
			r.lit(`,"amount":`)
			p.Amount = r.dec()
			r.lit(`}`)
			o.Parts = append(o.Parts, p)
		}
		// encoding/json reads an empty list as none; only a filled one is the plain form
		r.ok = r.ok && len(o.Parts) > 0
	}
	r.lit("}")
	return o, r.pos, r.ok
}

// readPlacementJSON reads a placement as appendPlacementJSON writes it.
func readPlacementJSON(data []byte, pos int, strs interner) (p Placement, end int, ok bool) {
	r := recordReader{data: data, pos: pos, ok: true, strings: strs}
	r.lit(`{"provider":`)
	p.Provider = Provider(r.str())
	r.lit(`,"instance_type":`)
	p.InstanceType = r.str()
	r.lit(`,"region":`)
	p.Region = r.str()
	r.lit(`,"zone":`)
	p.Zone = r.str()
	r.lit(`,"status":`)
	p.Status = Availability(r.str())
	r.lit("}")
	return p, r.pos, r.ok
}

// interner shares the strings a decoder reads many times over (providers, regions,
// instance types, sources): a 100,000-offer snapshot names a few hundred of them.
type interner map[string]string

// maxInterned bounds an interner, should a file hold many different strings.
const maxInterned = 1 << 14

func (in interner) get(b []byte) string {
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(in) < maxInterned {
		in[s] = s
	}
	return s
}

// decodeStrict decodes data, one JSON value and nothing after it but white
// space, into v, rejecting unknown fields as DecodeSnapshot does.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return errors.New("more than one JSON value")
	}
	return nil
}
