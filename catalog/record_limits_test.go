package catalog

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// The snapshot reader refuses impossible numbers (a negative vCPU or GPU
// count, memory, a share above one, a negative upfront or range, a time before
// 2006) and says what and where: the file, the record and the field.
func TestDecodeSnapshot_RefusesImpossibleNumbers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(s *Snapshot)
		want   string
	}{
		{"vcpus -4", func(s *Snapshot) { s.Instances[0].VCPUs = -4 }, "instances[1] (aws/p5.48xlarge): vcpus -4: out of range"},
		{"vcpus 1e9", func(s *Snapshot) { s.Instances[0].VCPUs = 1_000_000_000 }, "vcpus 1000000000: out of range (want 0 to 100000)"},
		{"gpu count -1", func(s *Snapshot) { s.Instances[0].Accelerators[0].Count = -1 }, "accelerators[0].count -1: out of range"},
		{"memory -1", func(s *Snapshot) { s.Instances[0].MemoryGiB = Dec("-1") }, "memory_gib -1: out of range"},
		{"gpu memory", func(s *Snapshot) { s.Instances[0].Accelerators[0].MemoryGiB = Dec("-80") }, "accelerators[0].memory_gib -80: out of range"},
		{"share 2", func(s *Snapshot) { s.Instances[0].Accelerators[0].Share = Dec("2") }, "accelerators[0].share 2: out of range (want 0 to 1)"},
		{"local storage", func(s *Snapshot) { s.Instances[0].LocalStorageGB = -1 }, "local_storage_gb -1: out of range"},
		{"efa", func(s *Snapshot) { s.Instances[0].EFAInterfaces = -2 }, "efa_interfaces -2: out of range"},
		{"upfront", func(s *Snapshot) { s.Offers[0].Price.Upfront = DecPtr("-5") }, "price.upfront -5: negative"},
		{"price range", func(s *Snapshot) { s.Offers[1].PriceRange = &PriceRange{Min: Dec("-1"), Max: Dec("2")} }, "price_range.min -1: negative"},
		{"fetched_at", func(s *Snapshot) { s.Offers[1].FetchedAt = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC) }, "fetched_at 1900-01-01T00:00:00Z: want a time from 2006 to 2099"},
		{"taken_at", func(s *Snapshot) { s.TakenAt = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC) }, "taken_at 2200-01-01T00:00:00Z: want a time from 2006 to 2099"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := testSnapshot()
			tc.change(s)
			s.Sort()
			data := marshalUnchecked(t, s)
			_, err := DecodeSnapshot("cat.json", data)
			if err == nil || !strings.HasPrefix(err.Error(), "cat.json") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	// NaN and an infinite amount are not decimals: refused with their place.
	s := testSnapshot()
	data := strings.Replace(string(marshalUnchecked(t, s)), `"memory_gib":"2048"`, `"memory_gib":"NaN"`, 1)
	if _, err := DecodeSnapshot("cat.json", []byte(data)); err == nil || !strings.HasPrefix(err.Error(), "cat.json:") {
		t.Errorf("NaN: err = %v", err)
	}
}

// marshalUnchecked encodes s as MarshalCanonical does, without validating it.
func marshalUnchecked(t *testing.T, s *Snapshot) []byte {
	t.Helper()
	b, err := s.MarshalCanonical()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every string and list of a record has a limit checked on read: a 5 MB
// instance name is refused with a short message, not repeated.
func TestDecodeSnapshot_RefusesLongStringsAndLists(t *testing.T) {
	huge := strings.Repeat("x", 5<<20)
	for _, tc := range []struct {
		name   string
		change func(s *Snapshot)
		want   string
	}{
		{"instance id", func(s *Snapshot) { s.Instances[1].ID = huge; s.Offers = s.Offers[:2] }, "id: longer than 200 bytes (5242880)"},
		{"accelerator name", func(s *Snapshot) { s.Instances[0].Accelerators[0].Name = huge }, "accelerators[0].name: longer than 200 bytes"},
		{"offer source", func(s *Snapshot) { s.Offers[1].Source = huge }, "source: longer than 2000 bytes"},
		{"offer note (suspect)", func(s *Snapshot) { s.Offers[1].Suspect = huge }, "suspect: longer than 2000 bytes"},
		{"region name", func(s *Snapshot) { s.Regions[0].NameEN = huge }, "regions[0] (aws/us-east-1): name_en: longer than 200 bytes"},
		{"coverage message", func(s *Snapshot) { s.Coverage[0].Message = huge }, "message: longer than 2000 bytes"},
		{"zones", func(s *Snapshot) { s.Offers[1].Zones = make([]string, 1000) }, "zones: more than 256 items (1000)"},
		{"accelerators", func(s *Snapshot) {
			a := s.Instances[0].Accelerators[0]
			for range 100 {
				s.Instances[0].Accelerators = append(s.Instances[0].Accelerators, a)
			}
		}, "accelerators: more than 64 items (101)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := testSnapshot()
			tc.change(s)
			s.Sort()
			_, err := DecodeSnapshot("cat.json", marshalUnchecked(t, s))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %.300v, want %q", err, tc.want)
			}
			if len(err.Error()) > 500 {
				t.Errorf("the error is %d bytes: it repeats the value", len(err.Error()))
			}
		})
	}
}

// A history refuses the same: a record over a line's limit, and a record
// whose strings are over their limits.
func TestDecodeHistory_RefusesLongRecords(t *testing.T) {
	h := buildHistory(t, historyCrawls()[:1])
	data, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"5 MB name", `"name":"H100"`, `"name":"` + strings.Repeat("x", 5<<20) + `"`, "line longer than 64 KiB"},
		{"long name", `"name":"H100"`, `"name":"` + strings.Repeat("x", 300) + `"`, "accelerators[0].name: longer than 200 bytes"},
		{"negative vcpus", `"vcpus":192`, `"vcpus":-4`, "vcpus -4: out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(string(data), tc.from, tc.to, 1)
			if bad == string(data) {
				t.Fatalf("%s not in the history", tc.from)
			}
			_, err := DecodeHistory("h.jsonl", []byte(bad))
			if err == nil || !strings.HasPrefix(err.Error(), "h.jsonl:") || !strings.Contains(err.Error(), tc.want) || len(err.Error()) > 500 {
				t.Errorf("err = %.300v, want h.jsonl:LINE: ... %q", err, tc.want)
			}
		})
	}
}

// The API's JSON Schemas and the reader agree on the integer bounds: each
// "minimum" of an instance's integer fields is accepted by the reader, and one
// below it refused.
func TestRecordLimits_AgreeWithAPISchema(t *testing.T) {
	b, err := os.ReadFile("../templates/api/schema/instance.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties map[string]struct {
			Type    string   `json:"type"`
			Minimum *float64 `json:"minimum"`
			Items   struct {
				Properties map[string]struct {
					Type    string   `json:"type"`
					Minimum *float64 `json:"minimum"`
				} `json:"properties"`
			} `json:"items"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	set := map[string]func(*InstanceType, int){
		"vcpus":            func(t *InstanceType, n int) { t.VCPUs = n },
		"local_storage_gb": func(t *InstanceType, n int) { t.LocalStorageGB = n },
		"efa_interfaces":   func(t *InstanceType, n int) { t.EFAInterfaces = n },
		"accelerators.count": func(t *InstanceType, n int) {
			t.Accelerators[0].Count = n
		},
	}
	mins := map[string]*float64{}
	for name, p := range schema.Properties {
		if p.Type == "integer" {
			mins[name] = p.Minimum
		}
		for sub, q := range p.Items.Properties {
			if q.Type == "integer" && name == "accelerators" {
				mins[name+"."+sub] = q.Minimum
			}
		}
	}
	for name, apply := range set {
		m, ok := mins[name]
		if !ok || m == nil {
			t.Errorf("schema/instance.json: %s has no minimum", name)
			continue
		}
		for _, tc := range []struct {
			n      int
			accept bool
		}{{int(*m), true}, {int(*m) - 1, false}} {
			s := testSnapshot()
			apply(&s.Instances[0], tc.n)
			err := s.Validate()
			if (err == nil) != tc.accept {
				t.Errorf("%s = %d (schema minimum %v): err = %v", name, tc.n, *m, err)
			}
		}
	}
}
