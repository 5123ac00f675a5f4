package catalog

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// The observation file format: CSV with a header row (columns in any order) or
// JSON Lines (one object per line), one observed price per record, with the
// fields of ObservationFields. The history file stores each observation as the
// same object under "observation".

// ObservationField is one field of the observation format, for the README and
// `gpuatlas history import --help`.
type ObservationField struct {
	Name     string
	Required bool
	Meaning  string
}

// ObservationFields are the fields of an observation record, in file order.
var ObservationFields = []ObservationField{
	{"provider", true, "aws, alibaba, tencent, huawei, volcengine, azure or gcp"},
	{"instance_type", true, "the provider's instance type id (p5.48xlarge, GN7.2XLARGE32)"},
	{"region", true, "the provider's region id, or an area id for a price not tied to one region (mainland-china)"},
	{"zone", false, "the zone where the price is per zone; empty: the whole region"},
	{"billing", true, "on_demand, spot, reserved_1y_no_upfront, reserved_3y_no_upfront, subscription_month, subscription_year, ..."},
	{"price", true, "the amount as published, an exact decimal; for a range, its low end"},
	{"price_high", false, "the high end of a published range (\"2250 - 2500\"); ranges are never averaged"},
	{"currency", true, "ISO 4217 code: USD, CNY"},
	{"unit", true, "hour, month or year: what the amount is charged per"},
	{"includes", true, "what the price covers: \"instance only\", or e.g. \"40 GiB ESSD system disk\"; part of the series' identity"},
	{"observed_at", true, "when the source says the price held: RFC 3339 with a zone (2025-06-05T07:22:36Z) or a date (UTC midnight)"},
	{"observed_until", false, "the first time the price is no longer known to hold (the next version of a price page)"},
	{"retrieved_at", false, "when GPU Atlas retrieved the copy of the archive read (the fetched_at of the offer rebuilt from it); empty: the time of the import"},
	{"source", true, "where it was observed, pinned to a version: a URL, e.g. a GitHub blob URL at a commit"},
	{"note", false, "what a reader must know: the verbatim cell of a range, \"starting price\", a capture date that is an upper bound"},
}

// MaxObservationFileBytes bounds an observation file that import reads: far above
// the archives (the largest is 0.5 MB) and far below what would strain memory.
const MaxObservationFileBytes = 64 << 20

// maxObservationLine bounds one JSON Lines record.
const maxObservationLine = 64 << 10

// maxObservationProblems is how many problems a file's error lists before it
// stops.
const maxObservationProblems = 20

// observationJSON is the object form of an observation: the JSON Lines record and
// the value of a history file's "observation" line. Amounts are decimal strings.
type observationJSON struct {
	Provider      string      `json:"provider"`
	InstanceType  string      `json:"instance_type"`
	Region        string      `json:"region"`
	Zone          string      `json:"zone,omitempty"`
	Billing       string      `json:"billing"`
	Price         decimalText `json:"price"`
	PriceHigh     decimalText `json:"price_high,omitempty"`
	Currency      string      `json:"currency"`
	Unit          string      `json:"unit"`
	Includes      string      `json:"includes"`
	ObservedAt    string      `json:"observed_at"`
	ObservedUntil string      `json:"observed_until,omitempty"`
	RetrievedAt   string      `json:"retrieved_at,omitempty"`
	Source        string      `json:"source"`
	Note          string      `json:"note,omitempty"`
}

// decimalText is an amount read from a JSON string ("98.32") or number (98.32),
// kept as its text so that no float rounds it.
type decimalText string

func (d *decimalText) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*d = decimalText(s)
		return nil
	}
	if string(b) == "null" {
		*d = ""
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("want a decimal string or number, found %s", jsonValueWords(firstByte(b)))
	}
	*d = decimalText(n)
	return nil
}

func toObservationJSON(o *Observation) observationJSON {
	j := observationJSON{
		Provider: string(o.Provider), InstanceType: o.InstanceType, Region: o.Region, Zone: o.Zone,
		Billing: string(o.Billing), Price: decimalText(o.Price.Amount.String()), Currency: string(o.Price.Currency),
		Unit: string(o.Price.Unit), Includes: o.IncludesText(), ObservedAt: formatHistoryTime(o.ObservedAt),
		Source: o.Source, Note: o.Note,
	}
	if o.PriceHigh != nil {
		j.PriceHigh = decimalText(o.PriceHigh.String())
	}
	if !o.ObservedUntil.IsZero() {
		j.ObservedUntil = formatHistoryTime(o.ObservedUntil)
	}
	if !o.RetrievedAt.IsZero() {
		j.RetrievedAt = formatHistoryTime(o.RetrievedAt)
	}
	return j
}

// MarshalObservation is the observation as one JSON object on one line (no
// newline), the canonical form of the observation files and the history.
func MarshalObservation(o Observation) ([]byte, error) {
	return marshalNoEscape(toObservationJSON(&o))
}

// WriteObservationsJSONL writes observations as JSON Lines in canonical order.
func WriteObservationsJSONL(w io.Writer, obs []Observation) error {
	sorted := slices.Clone(obs)
	slices.SortFunc(sorted, func(a, b Observation) int { return compareObservations(&a, &b) })
	bw := bufio.NewWriter(w)
	for i := range sorted {
		b, err := MarshalObservation(sorted[i])
		if err != nil {
			return err
		}
		if _, err := bw.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return bw.Flush()
}

var dateOnly = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// parseObservedTime reads an RFC 3339 time with a zone, or a date (UTC midnight).
func parseObservedTime(name, s string) (time.Time, error) {
	if dateOnly.MatchString(s) {
		t, err := time.Parse("2006-01-02", s)
		if err != nil {
			return time.Time{}, fmt.Errorf("%s %q: not a date", name, clip(s))
		}
		return t, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s %q: want an RFC 3339 time with a zone (2025-06-05T07:22:36Z) or a date (2025-06-05)", name, clip(s))
	}
	return t.UTC(), nil
}

func parseObservationDecimal(name, s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(s)
	if err != nil || strings.ContainsAny(s, "eE") || strings.TrimSpace(s) != s {
		return decimal.Zero, fmt.Errorf("%s %q: want a plain decimal such as 98.32", name, clip(s))
	}
	return d, nil
}

// observation turns the record into an Observation and validates it.
func (j observationJSON) observation() (Observation, error) {
	o := Observation{
		Provider: Provider(j.Provider), InstanceType: j.InstanceType, Region: j.Region, Zone: j.Zone,
		Billing: BillingKind(j.Billing), Source: j.Source, Note: j.Note,
	}
	if j.Price == "" {
		return o, errors.New("price: required")
	}
	amount, err := parseObservationDecimal("price", string(j.Price))
	if err != nil {
		return o, err
	}
	o.Price = Price{Amount: amount, Currency: Currency(j.Currency), Unit: PriceUnit(j.Unit)}
	if j.PriceHigh != "" {
		high, err := parseObservationDecimal("price_high", string(j.PriceHigh))
		if err != nil {
			return o, err
		}
		o.PriceHigh = &high
	}
	switch inc := j.Includes; {
	case inc == "":
		return o, fmt.Errorf("includes: required: write %q for the instance alone, or what else the price covers", InstanceOnly)
	case strings.EqualFold(strings.TrimSpace(inc), InstanceOnly):
		o.Includes = ""
	default:
		o.Includes = inc
	}
	if j.ObservedAt == "" {
		return o, errors.New("observed_at: required")
	}
	if o.ObservedAt, err = parseObservedTime("observed_at", j.ObservedAt); err != nil {
		return o, err
	}
	if j.ObservedUntil != "" {
		if o.ObservedUntil, err = parseObservedTime("observed_until", j.ObservedUntil); err != nil {
			return o, err
		}
	}
	if j.RetrievedAt != "" {
		if o.RetrievedAt, err = parseObservedTime("retrieved_at", j.RetrievedAt); err != nil {
			return o, err
		}
	}
	return o, o.Validate()
}

// ObservationAt is an observation with the file and line it was read from.
type ObservationAt struct {
	Observation
	File string
	Line int
}

// Where is "file:line".
func (o ObservationAt) Where() string { return fmt.Sprintf("%s:%d", o.File, o.Line) }

// ObservationErrors are the problems of one or more observation files, each
// "file:line: message", in file order.
type ObservationErrors []string

func (e ObservationErrors) Error() string { return strings.Join(e, "\n") }

// ReadObservationFile reads an observation file: CSV (.csv) or JSON Lines (.jsonl,
// .ndjson, .json; other names by their first byte). Every record is validated; on
// any problem it returns ObservationErrors listing them (up to 20) and no records.
func ReadObservationFile(path string) ([]ObservationAt, error) {
	data, err := ReadRegularFile(path, MaxObservationFileBytes)
	var tooLarge *TooLargeError
	if errors.As(err, &tooLarge) {
		return nil, ObservationErrors{fmt.Sprintf("%s: larger than %d MiB: split it into smaller files", SafeLine(path), MaxObservationFileBytes>>20)}
	}
	if err != nil {
		return nil, fmt.Errorf("read observations: %w", err)
	}
	return ParseObservations(path, data)
}

// ParseObservations reads observation records from data; name is the file name in
// error messages and picks the format by its extension.
func ParseObservations(name string, data []byte) ([]ObservationAt, error) {
	if len(data) > MaxObservationFileBytes {
		return nil, ObservationErrors{fmt.Sprintf("%s: larger than %d MiB: split it into smaller files", name, MaxObservationFileBytes>>20)}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	jsonl := false
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
	case ".jsonl", ".ndjson", ".json":
		jsonl = true
	default:
		jsonl = len(bytes.TrimLeft(data, " \t\r\n")) > 0 && bytes.TrimLeft(data, " \t\r\n")[0] == '{'
	}
	var out []ObservationAt
	var errs ObservationErrors
	add := func(line int, j observationJSON, err error) bool {
		if err == nil {
			var o Observation
			if o, err = j.observation(); err == nil {
				out = append(out, ObservationAt{Observation: o, File: name, Line: line})
				return true
			}
		}
		errs = append(errs, fmt.Sprintf("%s:%d: %v", name, line, err))
		return len(errs) < maxObservationProblems
	}
	var err error
	if jsonl {
		err = parseObservationLines(name, data, add)
	} else {
		err = parseObservationCSV(name, data, add)
	}
	if err != nil {
		errs = append(errs, err.Error())
	}
	if len(errs) > 0 {
		if len(errs) >= maxObservationProblems {
			errs = append(errs, fmt.Sprintf("%s: stopped after %d problems", name, maxObservationProblems))
		}
		return nil, errs
	}
	if len(out) == 0 {
		return nil, ObservationErrors{fmt.Sprintf("%s: no observation records", name)}
	}
	return out, nil
}

// parseObservationLines reads JSON Lines: one object per line, blank lines
// skipped, unknown fields refused.
func parseObservationLines(name string, data []byte, add func(int, observationJSON, error) bool) error {
	n := 0
	for len(data) > 0 {
		n++
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if len(line) > maxObservationLine {
			if !add(n, observationJSON{}, fmt.Errorf("line longer than %d KiB", maxObservationLine>>10)) {
				return nil
			}
			continue
		}
		var j observationJSON
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		err := dec.Decode(&j)
		if err == nil && dec.More() {
			err = errors.New("more than one JSON value on the line")
		}
		if err != nil {
			err = fmt.Errorf("not an observation object: %s", observationJSONWords(line, err))
		}
		if !add(n, j, err) {
			return nil
		}
	}
	return nil
}

// observationJSONWords says what is wrong with a JSON Lines record without
// repeating the line (the file may be anything): where the JSON breaks, which
// field has the wrong type, or which field is unknown (quoted, truncated and
// escaped: a name, never a value).
func observationJSONWords(line []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		_, col := LineCol(line, syn.Offset)
		return fmt.Sprintf("malformed JSON at column %d", col)
	case errors.As(err, &typ):
		_, col := LineCol(line, typ.Offset)
		return fmt.Sprintf("column %d: %s: want %s, found JSON %s", col, Excerpt(typ.Field), jsonTypeWords(typ.Type), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return "the line ends before the JSON object does"
	}
	words := jsonErrorWords(err)
	if strings.HasPrefix(words, "unknown field ") {
		words += " (the fields are " + observationFieldNames() + ")"
	}
	// A field's own decoder (decimalText) words its error itself.
	return words
}

// parseObservationCSV reads CSV with a header row naming the fields.
func parseObservationCSV(name string, data []byte, add func(int, observationJSON, error) bool) error {
	r := csv.NewReader(bytes.NewReader(data))
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return fmt.Errorf("%s:1: no header row: %w", name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if !slices.ContainsFunc(ObservationFields, func(f ObservationField) bool { return f.Name == h }) {
			// The cell is not repeated: a file that is not an observation
			// table (a symlink to /proc/self/environ) has its secrets there.
			return fmt.Errorf("%s:1: column %d of the header is not a field name (the columns are %s)", name, i+1, observationFieldNames())
		}
		if _, dup := col[h]; dup {
			return fmt.Errorf("%s:1: column %d: %q twice", name, i+1, h)
		}
		col[h] = i
	}
	for _, f := range ObservationFields {
		if _, ok := col[f.Name]; f.Required && !ok {
			return fmt.Errorf("%s:1: no %q column (required columns: %s)", name, f.Name, requiredObservationFields())
		}
	}
	get := func(rec []string, field string) string {
		if i, ok := col[field]; ok {
			return rec[i]
		}
		return ""
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			line := 0
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
				err = pe.Err
			}
			add(line, observationJSON{}, fmt.Errorf("malformed CSV: %w", err))
			return nil // the reader cannot go on reliably after a CSV error
		}
		line, _ := r.FieldPos(0)
		j := observationJSON{
			Provider: get(rec, "provider"), InstanceType: get(rec, "instance_type"), Region: get(rec, "region"),
			Zone: get(rec, "zone"), Billing: get(rec, "billing"), Price: decimalText(get(rec, "price")),
			PriceHigh: decimalText(get(rec, "price_high")), Currency: get(rec, "currency"), Unit: get(rec, "unit"),
			Includes: get(rec, "includes"), ObservedAt: get(rec, "observed_at"), ObservedUntil: get(rec, "observed_until"),
			RetrievedAt: get(rec, "retrieved_at"), Source: get(rec, "source"), Note: get(rec, "note"),
		}
		if !add(line, j, nil) {
			return nil
		}
	}
}

func observationFieldNames() string {
	names := make([]string, len(ObservationFields))
	for i, f := range ObservationFields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

func requiredObservationFields() string {
	var names []string
	for _, f := range ObservationFields {
		if f.Required {
			names = append(names, f.Name)
		}
	}
	return strings.Join(names, ", ")
}
