package catalog

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestMarshalCanonical_Deterministic(t *testing.T) {
	a := testSnapshot()
	b := testSnapshot()
	// Same content in another order must give the same bytes.
	b.Offers[0], b.Offers[2] = b.Offers[2], b.Offers[0]
	b.Instances[0], b.Instances[1] = b.Instances[1], b.Instances[0]
	ba, err := a.MarshalCanonical()
	if err != nil {
		t.Fatal(err)
	}
	bb, err := b.MarshalCanonical()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ba, bb) {
		t.Fatalf("same content, different bytes:\n%s", cmp.Diff(string(ba), string(bb)))
	}
	// One record per line: each offer on its own line.
	if n := strings.Count(string(ba), "\"billing\":"); n != 3 {
		t.Errorf("offers on their own lines: got %d, want 3\n%s", n, ba)
	}
	// Coverage in provider display order: aws before alibaba.
	if strings.Index(string(ba), `"provider":"aws","status"`) > strings.Index(string(ba), `"provider":"alibaba","status"`) {
		t.Errorf("coverage not in provider order")
	}
}

func TestDecodeSnapshot_RoundTrip(t *testing.T) {
	want := testSnapshot()
	b, err := want.MarshalCanonical()
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeSnapshot("x.json", b)
	if err != nil {
		t.Fatal(err)
	}
	want.Sort()
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty(), decimalEqual); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	again, _ := got.MarshalCanonical()
	if !bytes.Equal(b, again) {
		t.Errorf("re-encoding changed the bytes")
	}
}

func TestDecodeSnapshot_Errors(t *testing.T) {
	good, _ := testSnapshot().MarshalCanonical()
	tests := []struct {
		name string
		data string
		want string
	}{
		{"unknown version", `{"schema": 99}`, "x.json: snapshot schema version 99 is not supported"},
		{"no schema", `{"offers": []}`, `x.json: not a GPU Atlas snapshot: no "schema" field`},
		{"malformed", "{\n\"schema\": 1,\n\"taken_at\": oops\n}", "x.json:3:"},
		{"truncated", string(good[:len(good)/2]), "x.json:"},
		{"wrong type", strings.Replace(string(good), `"vcpus":192`, `"vcpus":"many"`, 1), "instances.vcpus"},
		{"unknown field", strings.Replace(string(good), `"vcpus":192`, `"vcpus":192,"cores":96`, 1), `unknown field "cores"`},
		{"offer without type", strings.Replace(string(good), `"instance_type":"g6f.large","region"`, `"instance_type":"g9.large","region"`, 1), "instance type aws/g9.large is not in the snapshot"},
		// What, not how it is held in Go: no "struct { Schema *int ... }".
		{"a list", "[]\n", "x.json: not a GPU Atlas snapshot: the file holds a JSON list, not a JSON object"},
		{"text", `"catalog"`, "x.json: not a GPU Atlas snapshot: the file holds JSON text, not a JSON object"},
		{"schema as text", `{"schema": "1"}`, "x.json:1:15: schema: want a whole number, found JSON string"},
		{"unknown currency", strings.Replace(string(good), `"amount":"55.04","currency":"USD"`, `"amount":"55.04","currency":"XBT"`, 1),
			`offers[1] (aws/p5.48xlarge/us-east-1//on_demand): unknown currency "XBT" (want USD, CNY, EUR or a currency of the snapshot's FX table)`},
		{"unknown unit", strings.Replace(string(good), `"currency":"USD","unit":"hour"}`, `"currency":"USD","unit":"fortnight"}`, 1),
			`offers[0] (aws/g6f.large/us-east-1/us-east-1b/spot): unknown price unit "fortnight" (want hour, month, year or upfront)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeSnapshot("x.json", []byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestDecodeSnapshot_TypeErrorPosition(t *testing.T) {
	good, _ := testSnapshot().MarshalCanonical()
	bad := strings.Replace(string(good), `"vcpus":192`, `"vcpus":"many"`, 1)
	at := strings.Index(bad, `"vcpus":"many"`)
	if at < 0 {
		t.Fatal(`the test snapshot has no "vcpus":192 to spoil`)
	}
	line := strings.Count(bad[:at], "\n") + 1
	_, err := DecodeSnapshot("data/catalog.json", []byte(bad))
	if err == nil || !strings.HasPrefix(err.Error(), "data/catalog.json:"+itoa(line)+":") {
		t.Fatalf("error %v does not name line %d", err, line)
	}
}

// A value that only its own decoder refuses (an amount "NaN") is placed: the
// file, line and column of its record, and which record it is.
func TestDecodeSnapshot_ValueErrorPosition(t *testing.T) {
	good, _ := testSnapshot().MarshalCanonical()
	bad := strings.Replace(string(good), `"amount":"55.04"`, `"amount":"NaN"`, 1)
	at := strings.Index(bad, `"amount":"NaN"`)
	line := strings.Count(bad[:at], "\n") + 1
	for name, data := range map[string]string{"canonical": bad, "one line": strings.ReplaceAll(bad, "\n", "")} {
		_, err := DecodeSnapshot("data/catalog.json", []byte(data))
		want := "data/catalog.json:" + itoa(line) + ":3: offers[1]: "
		if name == "one line" {
			flat := strings.ReplaceAll(bad, "\n", "")
			offers := strings.Index(flat, `"offers": [`)
			want = "data/catalog.json:1:" + itoa(offers+strings.Index(flat[offers:], `{"provider":"aws","instance_type":"p5.48xlarge"`)+1) + ": offers[1]: "
		}
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "NaN") {
			t.Errorf("%s: error %v, want it to start with %q and name the value", name, err, want)
		}
	}
}

// ReadSnapshot reads at most MaxSnapshotBytes, and no device: /dev/zero and a
// file over the limit are refused at once, without reading them.
func TestReadSnapshot_Limits(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: the size is there, the disk space is not.
	if err := f.Truncate(MaxSnapshotBytes + 1); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/dev/zero": "read snapshot: /dev/zero: not a file (a character device)",
		big:         "read snapshot: " + big + ": larger than 256 MB",
	} {
		if _, err := ReadSnapshot(path); err == nil || err.Error() != want {
			t.Errorf("ReadSnapshot(%s) = %v, want %q", path, err, want)
		}
	}
}

func TestWriteSnapshot_Atomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "catalog.json")
	if err := WriteSnapshot(path, testSnapshot()); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	bad := testSnapshot()
	bad.Offers = append(bad.Offers, bad.Offers[0]) // duplicate: invalid
	if err := WriteSnapshot(path, bad); err == nil {
		t.Fatal("writing an invalid snapshot succeeded")
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("a failed write changed the file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if _, err := ReadSnapshot(path); err != nil {
		t.Fatal(err)
	}
}

func FuzzDecodeSnapshot(f *testing.F) {
	good, _ := testSnapshot().MarshalCanonical()
	f.Add(good)
	f.Add([]byte(`{"schema":1}`))
	f.Add([]byte(`{"schema":1,"offers":[{"price":{"amount":"1e999999"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeSnapshot("fuzz.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if _, err := s.MarshalCanonical(); err != nil {
			t.Fatalf("a snapshot that decoded does not encode: %v", err)
		}
	})
}

func TestDecodeSnapshot_CanonicalAndOtherLayoutsAgree(t *testing.T) {
	s := testSnapshot()
	s.Offers[0].Includes = "系统盘 \"40\" GiB" // decoded by encoding/json, line by line
	s.Placements = append(s.Placements, Placement{Provider: AWS, InstanceType: "g6f.large", Region: "us-east-1", Zone: "us-east-1b", Status: SoldOut})
	canonical, err := s.MarshalCanonical()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := decodeCanonical(canonical); !ok {
		t.Fatal("the canonical layout was not decoded line by line")
	}
	fast, err := DecodeSnapshot("x.json", canonical)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := decodeSnapshotJSON("x.json", canonical)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Errorf("line by line and whole differ:\n%#v\n%#v", fast, slow)
	}
	// Other layouts decode whole, to the same snapshot.
	for name, data := range map[string]string{
		"indented":   strings.ReplaceAll(string(canonical), "\n  {", "\n    {"),
		"crlf":       strings.ReplaceAll(string(canonical), "\n", "\r\n"),
		"no newline": strings.TrimSuffix(string(canonical), "\n"),
		"one line":   strings.ReplaceAll(string(canonical), "\n", ""),
	} {
		got, err := DecodeSnapshot("x.json", []byte(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if again, _ := got.MarshalCanonical(); !bytes.Equal(again, canonical) {
			t.Errorf("%s: decoded to another snapshot", name)
		}
	}
}

// FuzzDecodeSnapshot_CanonicalAgrees: what the line by line decoder takes, the
// whole-document decoder takes too, to the same snapshot.
func FuzzDecodeSnapshot_CanonicalAgrees(f *testing.F) {
	good, _ := testSnapshot().MarshalCanonical()
	f.Add(good)
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := decodeCanonical(data)
		if !ok {
			return
		}
		slow, err := decodeSnapshotJSON("fuzz.json", data)
		if err != nil {
			t.Fatalf("decoded line by line, but not whole: %v", err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("line by line and whole differ:\n%#v\n%#v", fast, slow)
		}
	})
}

// TestMarshalCanonical_FirstErrorInOrder: of the records that cannot be encoded,
// the error names the first, however the work is split.
func TestMarshalCanonical_FirstErrorInOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	s := testSnapshot()
	o := s.Offers[1]
	s.Offers = nil
	for i := 0; i < 20000; i++ {
		o.Region = fmt.Sprintf("r%05d", i)
		s.Offers = append(s.Offers, o)
	}
	for _, i := range []int{17001, 9001} {
		s.Offers[i].FetchedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	_, err := s.MarshalCanonical()
	if err == nil || !strings.HasPrefix(err.Error(), "encode offers[9001]: json: error calling MarshalJSON for type time.Time") {
		t.Errorf("err = %v", err)
	}
}
