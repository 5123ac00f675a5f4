package catalog

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// TestHistory_SameOfferStateCoversOffer keeps sameOfferState in step with Offer:
// Append reuses an offer's record value when sameOfferState says its state is as
// it was, so a field it does not compare would let a change go unrecorded. Each
// field is changed in turn; every change that changes the record must be seen.
func TestHistory_SameOfferStateCoversOffer(t *testing.T) {
	var base Offer
	filled(reflect.ValueOf(&base).Elem())
	value := func(o *Offer) []byte {
		b, err := appendOfferRecord(nil, o, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	changes := 0
	var walk func(path string, field func(o *Offer) reflect.Value, typ reflect.Type)
	walk = func(path string, field func(o *Offer) reflect.Value, typ reflect.Type) {
		var change func(v reflect.Value)
		switch {
		case typ == reflect.TypeOf(time.Time{}):
			change = func(v reflect.Value) { v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Hour))) }
		case typ == reflect.TypeOf(decimal.Decimal{}):
			change = func(v reflect.Value) { v.Set(reflect.ValueOf(v.Interface().(decimal.Decimal).Add(Dec("0.01")))) }
		case typ.Kind() == reflect.Struct:
			for i := 0; i < typ.NumField(); i++ {
				f := typ.Field(i)
				walk(path+"."+f.Name, func(o *Offer) reflect.Value { return field(o).Field(i) }, f.Type)
			}
			return
		case typ.Kind() == reflect.String:
			change = func(v reflect.Value) { v.SetString(v.String() + "y") }
		case typ.Kind() == reflect.Bool:
			change = func(v reflect.Value) { v.SetBool(!v.Bool()) }
		case typ.Kind() == reflect.Pointer:
			change = func(v reflect.Value) { v.Set(reflect.Zero(typ)) }
		case typ.Kind() == reflect.Slice:
			change = func(v reflect.Value) { v.Set(reflect.Append(v, v.Index(0))) }
		default:
			t.Fatalf("%s: no change for %s", path, typ)
		}
		o := ownOffer(&base)
		o.FetchedAt = base.FetchedAt
		change(field(&o))
		if bytes.Equal(value(&base), value(&o)) {
			return // not in the record: the fetch time
		}
		changes++
		if sameOfferState(&base, &o) {
			t.Errorf("sameOfferState does not see a change of Offer%s", path)
		}
	}
	walk("", func(o *Offer) reflect.Value { return reflect.ValueOf(o).Elem() }, reflect.TypeOf(Offer{}))
	if changes < 15 {
		t.Errorf("only %d changes tried", changes)
	}
	// The same value written another way (1.5 and 1.50) is not the same state,
	// but Append then compares the bytes and keeps the record.
	a, b := ownOffer(&base), ownOffer(&base)
	b.Price.Amount = Dec("12.340000")
	if sameOfferState(&a, &b) || !bytes.Equal(value(&a), value(&b)) {
		t.Error("12.34 and 12.340000: want not the same state, the same record")
	}
}

// TestHistory_AppendInMemoryAndFromFileAgree builds one history by appending
// crawl after crawl in memory (each append compares with the last crawl's
// offers) and another by reading the file back before each append (each append
// compares with the records): both must write the same file.
func TestHistory_AppendInMemoryAndFromFileAgree(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4)) // several chunks of offers
	base := testSnapshot()
	for i := 0; i < 2100; i++ {
		o := base.Offers[i%3]
		o.Region = fmt.Sprintf("r%04d", i)
		o.Zones = []string{"a", "b"}
		base.Offers = append(base.Offers, o)
	}
	base.Sort()
	mem, file := NewHistory(), NewHistory()
	for d := 0; d < 10; d++ {
		s := *base
		s.TakenAt = day(d)
		s.Offers = nil
		for i, o := range base.Offers {
			switch (i + d) % 7 {
			case 0:
				continue // gone today
			case 1:
				o.Price.Amount = o.Price.Amount.Add(decimal.New(int64(d), -2))
			case 2:
				o.Price.Amount = Dec(o.Price.Amount.StringFixed(4)) // the same price, written with more places
			case 3:
				o.Zones = o.Zones[:len(o.Zones)/2]
			}
			o.FetchedAt = day(d)
			if i%11 == d%11 {
				o.FetchedAt = day(d).Add(time.Hour) // beyond fetchTolerance: kept
			}
			s.Offers = append(s.Offers, o)
		}
		if d%4 == 3 {
			s.Offers[0], s.Offers[1] = s.Offers[1], s.Offers[0] // not in order
		}
		changedMem, err := mem.Append(&s)
		if err != nil {
			t.Fatal(err)
		}
		data, err := file.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if file, err = DecodeHistory("h.jsonl", data); err != nil {
			t.Fatal(err)
		}
		changedFile, err := file.Append(&s)
		if err != nil {
			t.Fatal(err)
		}
		if changedMem != changedFile {
			t.Errorf("day %d: changed %v in memory, %v from the file", d, changedMem, changedFile)
		}
		a, _ := mem.Marshal()
		b, _ := file.Marshal()
		if !bytes.Equal(a, b) {
			t.Fatalf("day %d: the histories differ:\n%s", d, cmp.Diff(string(b), string(a)))
		}
		if d%5 == 0 {
			got, err := mem.At(s.TakenAt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(canonical(t, &s), canonical(t, got)); diff != "" {
				t.Fatalf("day %d: At (-want +got):\n%s", d, diff)
			}
		}
	}
}

// TestHistory_AppendValidatesWhatChanged: Append trusts the prices of offers as
// they were in the last crawl; every other check still holds.
func TestHistory_AppendValidatesWhatChanged(t *testing.T) {
	h := buildHistory(t, historyCrawls()[:2])
	next := func() *Snapshot {
		s := historyCrawls()[1]
		s.TakenAt = day(2)
		s.Sort()
		return s
	}
	negative := next()
	negative.Offers[1].Price.Amount = Dec("-1")
	if _, err := h.Append(negative); err == nil || !strings.Contains(err.Error(), "negative price") {
		t.Errorf("a negative price: err = %v", err)
	}
	noType := next()
	noType.Instances = noType.Instances[1:]
	if _, err := h.Append(noType); err == nil || !strings.Contains(err.Error(), "is not in the snapshot") {
		t.Errorf("an offer without its instance type: err = %v", err)
	}
	duplicate := next()
	duplicate.Offers = append(duplicate.Offers[:2], duplicate.Offers[1:]...)
	if _, err := h.Append(duplicate); err == nil || !strings.Contains(err.Error(), "duplicate offer") {
		t.Errorf("a duplicate offer: err = %v", err)
	}
	if _, err := h.Append(next()); err != nil {
		t.Errorf("the valid crawl: %v", err)
	}
}

func TestHistory_StoresOnlyChanges(t *testing.T) {
	snaps := historyCrawls()
	h := buildHistory(t, snaps)
	before, _ := h.Marshal()
	// The same catalog crawled again a day later: new times, nothing else.
	next := historyCrawls()[2]
	next.TakenAt = day(3)
	for i := range next.Offers {
		next.Offers[i].FetchedAt = day(3)
	}
	changed, err := h.Append(next)
	if err != nil {
		t.Fatal(err)
	}
	if changed {
		t.Error("changed = true for a crawl with the same catalog")
	}
	after, _ := h.Marshal()
	beforeLines := strings.Split(string(before), "\n")
	afterLines := strings.Split(string(after), "\n")
	if len(afterLines) != len(beforeLines)+1 {
		t.Fatalf("an unchanged crawl added %d lines, want 1 (its crawl line)", len(afterLines)-len(beforeLines))
	}
	// Only the header changed among the old lines; the crawl line is one entry
	// per region's fetch time and no FX table (the rates did not change).
	for i := 1; i < len(beforeLines); i++ {
		if i <= 3 {
			if beforeLines[i] != afterLines[i] {
				t.Errorf("crawl line %d changed", i+1)
			}
			continue
		}
		if beforeLines[i] != afterLines[i+1] {
			t.Errorf("record line changed:\n%s\n%s", beforeLines[i], afterLines[i+1])
		}
	}
	crawl := afterLines[4]
	if strings.Contains(crawl, `"fx"`) || !strings.Contains(crawl, `"fetched_at":{"aws/us-east-1":"2025-12-03T00:00:00Z"}`) {
		t.Errorf("crawl line = %s", crawl)
	}
	// Each offer key has one record per value it held: the p5 on-demand price
	// went 55.04 → 60.544 → 55.04, three records.
	if n := strings.Count(string(after), `{"offer":{"provider":"aws","instance_type":"p5.48xlarge","region":"us-east-1","billing":"on_demand"`); n != 3 {
		t.Errorf("p5 on-demand offer has %d records, want 3:\n%s", n, after)
	}
}

func TestHistory_AppendOrder(t *testing.T) {
	snaps := historyCrawls()
	h := buildHistory(t, snaps[:2])
	if _, err := h.Append(snaps[0]); err == nil || !strings.Contains(err.Error(), "older than the last recorded crawl") {
		t.Errorf("appending an older snapshot: err = %v", err)
	}
	changed, err := h.Append(snaps[1])
	if err != nil || changed {
		t.Errorf("appending the last snapshot again: changed %v, err %v; want a no-op", changed, err)
	}
	other := historyCrawls()[1]
	other.Offers[0].Price.Upfront = DecPtr("1")
	if _, err := h.Append(other); err == nil || !strings.Contains(err.Error(), "already recorded") {
		t.Errorf("appending another snapshot with the same time: err = %v", err)
	}
	bad := historyCrawls()[2]
	bad.Offers = append(bad.Offers, bad.Offers[0])
	if _, err := h.Append(bad); err == nil || !strings.Contains(err.Error(), "duplicate offer") {
		t.Errorf("appending an invalid snapshot: err = %v", err)
	}
	if got := len(h.Crawls()); got != 2 {
		t.Errorf("failed appends left %d crawls, want 2", got)
	}
}

func TestHistory_AppendDoesNotModifyTheSnapshot(t *testing.T) {
	s := historyCrawls()[0]
	s.Coverage[1].Sources = []string{"b", "a"}
	before := s.Coverage[1].Sources[0]
	if _, err := NewHistory().Append(s); err != nil {
		t.Fatal(err)
	}
	if s.Coverage[1].Sources[0] != before || s.Offers[0].Billing != Reserved1yAllUpfront {
		t.Error("Append reordered the caller's snapshot")
	}
}
