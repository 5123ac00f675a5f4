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
		b, err := appendOfferRecord(nil, o)
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
				o.FetchedAt = day(d).Add(time.Minute)
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
