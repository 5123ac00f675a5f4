package catalog

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// MaxUploadRecords is the most records one upload file may hold; the records
// after it are not read. A real upload holds tens; one run per record.
const MaxUploadRecords = 20_000

var tooManyRecords = fmt.Sprintf("more than %d records: the rest of the file is not read (split it into several files)", MaxUploadRecords)

var knownField = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range BenchmarkFields {
		m[f] = true
	}
	return m
}()

// ParseBenchmarkFile reads the records of one upload; the format follows the name's
// extension (.csv, .yaml, .yml). It never fails as a whole: every problem is
// returned with its line, and the records that could be read are returned.
func ParseBenchmarkFile(name string, data []byte) ([]BenchmarkRecord, []Problem) {
	switch strings.ToLower(path.Ext(filepath.ToSlash(name))) {
	case ".csv":
		return ParseBenchmarksCSV(name, data)
	case ".yaml", ".yml":
		return ParseBenchmarksYAML(name, data)
	}
	return nil, []Problem{{File: name, Severity: SeverityError, Message: "not a benchmark file: want a .csv, .yaml or .yml extension"}}
}

// ParseBenchmarksCSV reads a CSV upload: a header row naming the fields (any order)
// and one run per row.
func ParseBenchmarksCSV(name string, data []byte) ([]BenchmarkRecord, []Problem) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var probs []Problem
	errAt := func(line int, format string, args ...any) {
		probs = append(probs, Problem{File: name, Line: line, Severity: SeverityError, Message: fmt.Sprintf(format, args...)})
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, []Problem{{File: name, Line: 1, Severity: SeverityWarning, Message: "file has no records"}}
	}
	if !utf8.Valid(data) {
		errAt(1, "file is not UTF-8 text")
		return nil, probs
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		errAt(csvErrorLine(err, 1), "malformed CSV header: %v", csvErrorText(err))
		return nil, probs
	}
	headerLine, _ := cr.FieldPos(0)
	if !slices.ContainsFunc(header, func(h string) bool { return knownField[strings.TrimSpace(h)] }) {
		// Not an upload at all (what a link to /proc/self/environ reads): one
		// message, and nothing of the file repeated.
		errAt(headerLine, "not a benchmark upload: no column of the first row is an upload field (it must name fields such as submitter, run_date, provider)")
		return nil, probs
	}
	cols := make([]string, len(header))
	seen := map[string]bool{}
	broken := false
	for i, h := range header {
		h = strings.TrimSpace(h)
		cols[i] = h
		switch {
		case h == "":
			errAt(headerLine, "column %d has no name", i+1)
			broken = true
		case seen[h] && fieldLike(h):
			errAt(headerLine, "field %q appears twice in the header", h)
			broken = true
		case !knownField[h]:
			errAt(headerLine, "%s", unknownFieldMessage(h))
			broken = true
		}
		seen[h] = true
	}
	missing := false
	for _, f := range RequiredBenchmarkFields {
		if !seen[f] {
			errAt(headerLine, "missing required field %q (no such column)", f)
			missing = true
		}
	}
	if !seen["provider"] && !seen["instance_type"] && !seen["accelerator_model"] {
		// Neither an instance type nor a system: no row could say where it ran.
		for _, f := range InstanceFields {
			errAt(headerLine, "missing required field %q (no such column; a published result on another system names accelerator_model and accelerator_count instead)", f)
		}
		missing = true
	}
	if missing {
		// Every row would lack the field: one message at the header says it all.
		return nil, probs
	}
	var recs []BenchmarkRecord
	rows := 0
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			if rows == 0 && !broken {
				probs = append(probs, Problem{File: name, Line: headerLine, Severity: SeverityWarning, Message: "file has no records: only the header row"})
			}
			break
		}
		if err != nil {
			// After a quoting error the reader's position in the file is no longer
			// trustworthy: report it and stop reading this file.
			errAt(csvErrorLine(err, headerLine), "malformed CSV: %v", csvErrorText(err))
			break
		}
		line, _ := cr.FieldPos(0)
		if len(row) != len(cols) {
			rows++
			errAt(line, "row has %d fields, the header has %d", len(row), len(cols))
			continue
		}
		blank := true
		for _, v := range row {
			if strings.TrimSpace(v) != "" {
				blank = false
				break
			}
		}
		if blank {
			continue
		}
		rows++
		if len(recs) == MaxUploadRecords {
			errAt(line, "%s", tooManyRecords)
			break
		}
		rec := BenchmarkRecord{File: name, Line: line, Fields: map[string]string{}, FieldLines: map[string]int{}, broken: broken}
		for i, c := range cols {
			if c == "" || !knownField[c] {
				continue
			}
			rec.Fields[c] = strings.TrimSpace(row[i])
			l, _ := cr.FieldPos(i)
			rec.FieldLines[c] = l
		}
		recs = append(recs, rec)
	}
	return recs, probs
}

func csvErrorLine(err error, fallback int) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) && pe.Line > 0 {
		return pe.Line
	}
	return fallback
}

func csvErrorText(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

var yamlErrorLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// ParseBenchmarksYAML reads a YAML upload: one document holding a list of records,
// each a mapping of field: value.
func ParseBenchmarksYAML(name string, data []byte) ([]BenchmarkRecord, []Problem) {
	var probs []Problem
	errAt := func(line int, format string, args ...any) {
		probs = append(probs, Problem{File: name, Line: line, Severity: SeverityError, Message: fmt.Sprintf(format, args...)})
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, []Problem{{File: name, Line: 1, Severity: SeverityWarning, Message: "file has no records"}}
	}
	docs, err := decodeYAMLDocuments(data)
	if err != nil {
		line, msg := 1, err.Error()
		if m := yamlErrorLine.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		} else {
			msg = strings.TrimPrefix(msg, "yaml: ")
		}
		errAt(line, "malformed YAML: %s", SafeLine(msg))
		return nil, probs
	}
	if len(docs) == 0 || docs[0].Kind != yaml.DocumentNode || len(docs[0].Content) == 0 {
		return nil, []Problem{{File: name, Line: 1, Severity: SeverityWarning, Message: "file has no records"}}
	}
	if len(docs) > 1 {
		errAt(docs[1].Line, "more than one YAML document: put every record in one list")
	}
	root := resolveAlias(docs[0].Content[0])
	if root.Kind != yaml.SequenceNode {
		errAt(root.Line, "want a list of records (a YAML sequence), found %s", yamlKind(root))
		return nil, probs
	}
	if len(root.Content) == 0 {
		return nil, []Problem{{File: name, Line: root.Line, Severity: SeverityWarning, Message: "file has no records: the list is empty"}}
	}
	var recs []BenchmarkRecord
	for k, item := range root.Content {
		if k == MaxUploadRecords {
			errAt(item.Line, "%s", tooManyRecords)
			break
		}
		n := resolveAlias(item)
		if n.Kind != yaml.MappingNode {
			errAt(item.Line, "record must be a mapping of field: value, found %s", yamlKind(n))
			continue
		}
		rec := BenchmarkRecord{File: name, Line: item.Line, Fields: map[string]string{}, FieldLines: map[string]int{}}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := resolveAlias(n.Content[i]), resolveAlias(n.Content[i+1])
			if k.Kind != yaml.ScalarNode {
				errAt(n.Content[i].Line, "field name must be text, found %s", yamlKind(k))
				rec.broken = true
				continue
			}
			key := strings.TrimSpace(k.Value)
			if !knownField[key] {
				errAt(n.Content[i].Line, "%s", unknownFieldMessage(key))
				rec.broken = true
				continue
			}
			if first, dup := rec.FieldLines[key]; dup {
				errAt(n.Content[i].Line, "field %q given twice (first on line %d)", key, first)
				rec.broken = true
				continue
			}
			// A field's line is its key's: the value of a list or a block scalar
			// starts on a later line, but the field is where the key is.
			rec.FieldLines[key] = n.Content[i].Line
			switch {
			case v.Kind != yaml.ScalarNode:
				errAt(n.Content[i].Line, "field %q must be a single value, found %s", key, yamlKind(v))
				rec.broken = true
				rec.Fields[key] = ""
			case v.ShortTag() == "!!null":
				rec.Fields[key] = ""
			default:
				rec.Fields[key] = strings.TrimSpace(v.Value)
			}
		}
		recs = append(recs, rec)
	}
	return recs, probs
}

// decodeYAMLDocuments decodes every document of data into nodes. yaml.v3 is
// third-party code fed with user input: a panic inside it is turned into an error
// so that one bad file cannot stop the others from loading.
func decodeYAMLDocuments(data []byte) (docs []*yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			docs, err = nil, fmt.Errorf("yaml: the parser failed on this file (%v)", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				return docs, nil
			}
			return nil, err
		}
		docs = append(docs, &n)
	}
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; i < 16 && n.Kind == yaml.AliasNode && n.Alias != nil; i++ {
		n = n.Alias
	}
	return n
}

func yamlKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		return "a single value"
	case yaml.AliasNode:
		return "an alias"
	}
	return "nothing"
}
