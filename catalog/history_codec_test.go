package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestHistory_FileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "history.jsonl")
	if _, err := ReadHistory(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("reading a missing history: err = %v, want fs.ErrNotExist", err)
	}
	h := buildHistory(t, historyCrawls())
	if err := WriteHistory(path, h); err != nil {
		t.Fatal(err)
	}
	got, err := ReadHistory(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(h.Crawls(), got.Crawls()); diff != "" {
		t.Errorf("crawls (-want +got):\n%s", diff)
	}
}

func TestDecodeHistory_Errors(t *testing.T) {
	good, err := buildHistory(t, historyCrawls()).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	offerLine := 0
	for i, l := range lines {
		if strings.HasPrefix(l, `{"offer":`) {
			offerLine = i
			break
		}
	}
	without := func(i int) string {
		return strings.Join(append(append([]string(nil), lines[:i]...), lines[i+1:]...), "")
	}
	replace := func(old, new string) string { return strings.Replace(string(good), old, new, 1) }
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", "h.jsonl: empty file"},
		{"a snapshot", `{"schema": 1}` + "\n", "h.jsonl:1:"},
		{"no header", lines[1], "h.jsonl:1: not a GPU Atlas history"},
		{"unknown version", replace(`"schema_version":1`, `"schema_version":7`), "h.jsonl:1: history schema version 7 is not supported"},
		{"malformed", replace(`{"offer":{"provider":"aws"`, `{"offer":{"provider":aws"`), "h.jsonl:" + itoa(offerLine+1) + ":22: malformed JSON"},
		{"wrong type", replace(`"vcpus":192`, `"vcpus":"many"`), "instance.vcpus: want a whole number, found JSON string"},
		{"unknown field", replace(`"vcpus":192`, `"vcpus":192,"cores":96`), `unknown field "cores"`},
		{"truncated in a line", string(good[:len(good)-20]), "h.jsonl:" + itoa(len(lines)-1) + ": truncated"},
		{"truncated at a line", strings.Join(lines[:len(lines)-2], ""), "truncated or was edited"},
		{"record lost", without(offerLine), "truncated or was edited"},
		{"empty line", replace("\n{\"offer\"", "\n\n{\"offer\""), "h.jsonl:" + itoa(offerLine+1) + ": empty line"},
		{"unknown crawl", replace(`"from":"2025-12-01T00:00:00Z"}`, `"from":"2024-01-01T00:00:00Z"}`), `"from" "2024-01-01T00:00:00Z" is not a recorded crawl`},
		{"crawls out of order", replace(`{"crawl":"2025-12-01T00:00:00Z"`, `{"crawl":"2025-11-01T00:00:00Z"`), "h.jsonl:3: crawl 2025-11-01T00:00:00Z is not after"},
		{"two kinds on a line", replace(`{"offer":{`, `{"region":{"provider":"aws","id":"x","name_en":"","name_zh":"","country":"","city":"","geo":""},"offer":{`), "exactly one of"},
		{"overlap", replace(`,"to":"2025-12-01T00:00:00Z"}`+"\n"+`{"offer":{"provider":"aws","instance_type":"p5.48xlarge"`, `}`+"\n"+`{"offer":{"provider":"aws","instance_type":"p5.48xlarge"`), "holds in the same crawls as the record on line"},
		{"to before from", replace(`"from":"2025-11-30T00:00:00Z","to":"2025-12-01T00:00:00Z"}`, `"from":"2025-12-01T00:00:00Z","to":"2025-11-30T00:00:00Z"}`), `is not after "from"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.data == string(good) {
				t.Fatal("the test case did not change the file")
			}
			_, err := DecodeHistory("h.jsonl", []byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func FuzzReadHistory(f *testing.F) {
	good, err := buildHistory(f, historyCrawls()).Marshal()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"format":"gpuatlas-history","schema_version":1,"crawls":0,"records":0}` + "\n"))
	f.Add([]byte(`{"format":"gpuatlas-history","schema_version":1,"crawls":1,"records":1}
{"crawl":"2025-11-30T00:00:00Z","coverage":[],"fetched_at":{}}
{"placement":{"provider":"aws","instance_type":"x","region":"r","zone":"z","status":"available"},"from":"2025-11-30T00:00:00Z"}
`))
	f.Add([]byte(`{"format":"gpuatlas-history","schema_version":2,"crawls":0,"records":0,"observations":2}
{"observation":{"provider":"tencent","instance_type":"GN7.2XLARGE32","region":"mainland-china","billing":"subscription_month","price":"2250","price_high":"2500","currency":"CNY","unit":"month","includes":"instance only","observed_at":"2020-08-24T01:49:03Z","observed_until":"2020-09-21T02:49:00Z","retrieved_at":"2026-12-01T00:00:00Z","source":"s","note":"n"}}
{"observation":{"provider":"tencent","instance_type":"GN7.2XLARGE32","region":"mainland-china","billing":"subscription_month","price":"2250","currency":"CNY","unit":"month","includes":"instance only","observed_at":"2020-09-21T02:49:00Z","retrieved_at":"2021-07-15T00:00:00Z","source":"s"}}
`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := DecodeHistory("fuzz.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.jsonl") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		enc, err := h.Marshal()
		if err != nil {
			t.Fatalf("a history that decoded does not encode: %v", err)
		}
		again, err := DecodeHistory("again.jsonl", enc)
		if err != nil {
			t.Fatalf("a re-encoded history does not decode: %v\n%s", err, enc)
		}
		if !bytes.Equal(enc, mustMarshal(t, again)) {
			t.Fatalf("a re-encoded history encodes differently")
		}
		times := again.Crawls()
		for _, s := range again.ObservedSeries() {
			for _, r := range s.Runs {
				times = append(times, r.From, r.Until.Add(-time.Nanosecond))
			}
		}
		// A history can decode and still not rebuild at some crawl (an offer
		// record whose crawl holds no fetch time for it): At says so, and so
		// may PriceIntervals, but only then.
		rebuilds := true
		for i, at := range times {
			s, err := again.At(at)
			if err != nil {
				if i < len(again.Crawls()) {
					rebuilds = false
				}
				continue
			}
			if _, err := s.MarshalCanonical(); err != nil {
				t.Fatalf("rebuilt snapshot does not encode: %v", err)
			}
		}
		again.ObservedChanges()
		if _, err := again.PriceIntervals(); err != nil && rebuilds {
			t.Fatalf("price intervals of a history whose every crawl rebuilds: %v", err)
		}
	})
}

func mustMarshal(t *testing.T, h *History) []byte {
	t.Helper()
	b, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecodeHistory_AnyLayoutAgrees: record lines Marshal did not write (spaces,
// keys in another order) are read by encoding/json, to the same history.
func TestDecodeHistory_AnyLayoutAgrees(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	s := testSnapshot()
	for i := 0; i < 2100; i++ {
		o := s.Offers[i%3]
		o.Region = fmt.Sprintf("r%04d", i)
		s.Offers = append(s.Offers, o)
	}
	h := NewHistory()
	if _, err := h.Append(s); err != nil {
		t.Fatal(err)
	}
	good, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	for i, l := range lines {
		switch {
		case i%7 == 3 && strings.HasPrefix(l, `{"offer":`):
			lines[i] = `{ "offer": ` + l[len(`{"offer":`):]
		case i%7 == 4 && strings.HasPrefix(l, `{"offer":`):
			at := strings.Index(l, `,"from":`)
			lines[i] = `{"from":` + l[at+len(`,"from":`):len(l)-2] + `,"offer":` + l[len(`{"offer":`):at] + "}\n"
		}
	}
	other := strings.Join(lines, "")
	if other == string(good) {
		t.Fatal("no line changed")
	}
	got, err := DecodeHistory("h.jsonl", []byte(other))
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := got.Marshal(); !bytes.Equal(again, good) {
		t.Errorf("decoded to another history:\n%s", cmp.Diff(string(good), string(again)))
	}
	// Crawl lines in another layout are read as crawls.
	spaced := strings.ReplaceAll(string(good), `{"crawl":`, `{ "crawl":`)
	if got, err := DecodeHistory("h.jsonl", []byte(spaced)); err != nil {
		t.Errorf("crawl lines with a space: %v", err)
	} else if again, _ := got.Marshal(); !bytes.Equal(again, good) {
		t.Error("crawl lines with a space: decoded to another history")
	}
	// A crawl line among the records is reported where it is.
	lines = strings.SplitAfter(string(good), "\n")
	last := len(lines) - 2
	lines = append(lines[:last:last], lines[1], lines[last])
	lines[0] = strings.Replace(lines[0], `"crawls":1`, `"crawls":2`, 1)
	if _, err := DecodeHistory("h.jsonl", []byte(strings.Join(lines, ""))); err == nil || !strings.Contains(err.Error(), "h.jsonl:"+itoa(last+1)+": crawl line after the records") {
		t.Errorf("a crawl line among the records: err = %v", err)
	}
}

// FuzzDecodeHistory_RecordLinesAgree: what the offer and placement line reader
// takes, the encoding/json reader takes too, to the same record.
func FuzzDecodeHistory_RecordLinesAgree(f *testing.F) {
	h := buildHistory(f, historyCrawls())
	good, err := h.Marshal()
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.SplitAfter(string(good), "\n") {
		if strings.HasPrefix(line, `{"offer"`) || strings.HasPrefix(line, `{"placement"`) {
			f.Add([]byte(line))
		}
	}
	// Spot bands with their own time, and with the crawl's (left out).
	band := `{"offer":{"provider":"aws","instance_type":"g6f.large","region":"us-east-1","zone":"us-east-1b","billing":"spot","price":{"amount":"0.1","currency":"USD","unit":"hour"},"availability":"available","source":"s","interruption":{"band":"<5%","savings_pct":61%s,"source":"aws:spot-advisor"}},"from":"2025-11-30T00:00:00Z"}` + "\n"
	for _, at := range []string{"", `,"observed_at":"2025-11-30T00:00:07Z"`, `,"observed_at":"2025-11-30T00:00:07+00:00"`, `,"observed_at":"2025-11-30T08:00:07+08:00"`} {
		f.Add([]byte(strings.Replace(band, "%s", at, 1)))
	}
	d := &historyDecoder{name: "h.jsonl", lastLine: 99, crawlIndex: map[string]int{}}
	for i, at := range h.Crawls() {
		d.crawlIndex[formatHistoryTime(at)] = i
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		fast := recordLineReader{d: d, strings: interner{}}
		got, ok := fast.read(line)
		if !ok {
			return
		}
		want, isCrawl, err := d.record(2, line, true)
		if err != nil || isCrawl {
			t.Fatalf("read %s, which encoding/json does not: %v (crawl %v)", line, err, isCrawl)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read %s\ngot  %+v\nwant %+v", line, got, want)
		}
	})
}
