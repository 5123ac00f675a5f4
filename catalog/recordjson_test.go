package catalog

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

var fullTime = time.Date(2025, 11, 30, 8, 0, 1, 500, time.FixedZone("", 8*3600))

// filled sets every field of v, recursively, to a value that is not its zero
// value, so that a field added to a record shows in its JSON.
func filled(v reflect.Value) {
	switch v.Type() {
	case reflect.TypeOf(decimal.Decimal{}):
		v.Set(reflect.ValueOf(Dec("12.3400")))
		return
	case reflect.TypeOf(time.Time{}):
		v.Set(reflect.ValueOf(fullTime))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x-" + v.Type().Name())
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int:
		v.SetInt(7)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		filled(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		filled(v.Index(0))
		filled(v.Index(1))
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			filled(v.Field(i))
		}
	default:
		panic("filled: no value for " + v.Type().String())
	}
}

// recordOffers are offers with every optional field set and unset, and values
// the plain writer must leave to encoding/json.
func recordOffers() []Offer {
	var full Offer
	filled(reflect.ValueOf(&full).Elem())
	plain := testSnapshot().Offers
	out := append([]Offer{full}, plain...)
	for _, change := range []func(o *Offer){
		func(o *Offer) {
			o.Zone, o.Zones, o.Includes, o.Suspect, o.Synthetic, o.Reported, o.PriceRange = "", nil, "", "", false, false, nil
		},
		func(o *Offer) { o.ObservedAt = time.Time{} },                                   // the source gives no date
		func(o *Offer) { o.ObservedAt = time.Date(2025, 11, 30, 0, 0, 0, 0, time.UTC) }, // a dataset's date
		func(o *Offer) { o.ObservedAt = o.FetchedAt.UTC() },                             // the same instant, written differently
		func(o *Offer) { o.ObservedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) },  // json cannot write it
		func(o *Offer) { o.PriceRange = &PriceRange{Min: Dec("7.5"), Max: decimal.New(12, 20)} },
		func(o *Offer) { o.Zones = []string{} },
		func(o *Offer) { o.Price.Upfront, o.Price.List = nil, DecPtr("-0.000000001") },
		func(o *Offer) { o.Price.Amount = decimal.New(12, 20) },
		func(o *Offer) { o.Price.Amount = decimal.Decimal{} },
		func(o *Offer) { o.FetchedAt = time.Time{} },
		func(o *Offer) { o.FetchedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }, // json cannot write it
		func(o *Offer) { o.Includes = "40 GiB <ESSD> & more" },
		func(o *Offer) { o.Includes = "系统盘 40 GiB" },
		func(o *Offer) { o.Includes = `a "quoted" \ word` },
		func(o *Offer) { o.Includes = "tab\there" },
		func(o *Offer) { o.Includes = "line\u2028separator" },
		func(o *Offer) { o.Includes = "bad \xff utf-8" },
		func(o *Offer) { o.Includes = "del \x7f" },
		func(o *Offer) { o.Zones = []string{"a", "b\n"} },
		func(o *Offer) { o.Suspect = "price is 90% below the median" },
		func(o *Offer) { o.Interruption = nil },
		func(o *Offer) {
			o.Interruption = &Interruption{Band: BandOver20, SavingsPct: -62, ObservedAt: time.Date(2025, 6, 28, 0, 0, 0, 0, time.UTC), Source: "advisor"}
		},
		func(o *Offer) { o.Interruption = &Interruption{Band: "a\"b", SavingsPct: 0} },
	} {
		o := full
		o.Price.Upfront, o.Price.List = DecPtr("100"), DecPtr("5.5")
		change(&o)
		out = append(out, o)
	}
	return out
}

// encodingJSONOffer is what encoding/json writes for o: its snapshot line
// (withFetched) or its history record.
func encodingJSONOffer(o Offer, withFetched bool) ([]byte, error) {
	var v any = o
	if !withFetched {
		st, err := stateOf(o, time.Time{})
		if err != nil {
			return nil, err
		}
		v = st
	}
	return marshalNoEscape(v)
}

func TestRecordJSON_OfferWritesWhatEncodingJSONWrites(t *testing.T) {
	plain := 0
	for i, o := range recordOffers() {
		for _, withFetched := range []bool{true, false} {
			want, err := encodingJSONOffer(o, withFetched)
			got, ok := appendOfferJSON([]byte("prefix"), &o, withFetched)
			if !ok {
				continue
			}
			plain++
			if err != nil {
				t.Errorf("offer %d: the plain writer wrote what encoding/json cannot: %v", i, err)
				continue
			}
			if !bytes.Equal(got, append([]byte("prefix"), want...)) {
				t.Errorf("offer %d (fetched %v):\ngot  %s\nwant prefix%s", i, withFetched, got, want)
			}
		}
	}
	if plain < 10 {
		t.Errorf("the plain writer took only %d offers", plain)
	}
}

func TestRecordJSON_OfferReadsWhatEncodingJSONReads(t *testing.T) {
	read := 0
	for i, o := range recordOffers() {
		for _, withFetched := range []bool{true, false} {
			data, err := encodingJSONOffer(o, withFetched)
			if err != nil {
				continue
			}
			got, end, ok := readOfferJSON(data, 0, withFetched, interner{})
			if !ok {
				continue
			}
			read++
			var want Offer
			if withFetched {
				if err := decodeStrict(data, &want); err != nil {
					t.Fatalf("offer %d: %v", i, err)
				}
			} else {
				var st offerState
				if err := decodeStrict(data, &st); err != nil {
					t.Fatalf("offer %d: %v", i, err)
				}
				if want, err = st.offer(time.Time{}); err != nil {
					t.Fatalf("offer %d: %v", i, err)
				}
			}
			if end != len(data) || !reflect.DeepEqual(got, want) {
				t.Errorf("offer %d (fetched %v): read %d of %d bytes\ngot  %#v\nwant %#v", i, withFetched, end, len(data), got, want)
			}
		}
	}
	if read < 10 {
		t.Errorf("the plain reader took only %d offers", read)
	}
}

func TestRecordJSON_Placement(t *testing.T) {
	var full Placement
	filled(reflect.ValueOf(&full).Elem())
	for _, p := range []Placement{full, {}, {Provider: AWS, Zone: "us-east-1a\u2029"}} {
		want, _ := marshalNoEscape(p)
		if got, ok := appendPlacementJSON(nil, &p); ok && !bytes.Equal(got, want) {
			t.Errorf("write %+v:\ngot  %s\nwant %s", p, got, want)
		}
		if got, end, ok := readPlacementJSON(want, 0, interner{}); ok && (end != len(want) || got != p) {
			t.Errorf("read %s: got %+v", want, got)
		}
	}
	if _, ok := appendPlacementJSON(nil, &full); !ok {
		t.Error("the plain writer did not take a plain placement")
	}
}

// FuzzRecordJSON_Offer checks the plain offer reader against encoding/json: what
// it reads, encoding/json reads the same, and writing it back gives the bytes
// encoding/json writes.
func FuzzRecordJSON_Offer(f *testing.F) {
	for _, o := range recordOffers() {
		if b, err := marshalNoEscape(o); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, end, ok := readOfferJSON(data, 0, true, interner{})
		if !ok || end != len(data) {
			return
		}
		var want Offer
		if err := decodeStrict(data, &want); err != nil {
			t.Fatalf("read %s, which encoding/json rejects: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read %s\ngot  %#v\nwant %#v", data, got, want)
		}
		enc, ok := appendOfferJSON(nil, &got, true)
		want2, err := marshalNoEscape(got)
		if ok && (err != nil || !bytes.Equal(enc, want2)) {
			t.Fatalf("write %#v\ngot  %s\nwant %s (%v)", got, enc, want2, err)
		}
	})
}
