package catalog

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

// BandHistoryFile is the embedded file of dated interruption bands: every
// committed copy of AWS's Spot Instance Advisor feed, one row per copy,
// region and instance type (`make history-sources` writes it).
const BandHistoryFile = "interruption_bands.csv"

// bandHistoryColumns are the file's columns, in order.
var bandHistoryColumns = []string{"provider", "region", "instance_type", "observed_at", "band", "savings_pct", "source"}

// BandObservation is an interruption band as one copy of the advisor feed
// gave it. ObservedAt is the day the copy was fetched, at the latest (the date
// of the commit that holds it: the feed carries no date).
type BandObservation struct {
	Provider     Provider
	Region       string
	InstanceType string
	ObservedAt   time.Time
	Band         InterruptionBand
	SavingsPct   int
	Source       string
}

// BandHistory is the dated interruption bands, sorted by provider, instance
// type, region and date.
type BandHistory struct {
	Observations []BandObservation
	// Dates are the days of the copies, ascending.
	Dates []time.Time
}

// LoadBandHistory reads BandHistoryFile from fsys; a missing file is an empty
// history. Errors name the file and line.
func LoadBandHistory(fsys fs.FS) (*BandHistory, error) {
	b, err := fs.ReadFile(fsys, BandHistoryFile)
	if errors.Is(err, fs.ErrNotExist) {
		return &BandHistory{}, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseBandHistory(BandHistoryFile, b)
}

// ParseBandHistory reads a band history file's bytes (at most
// MaxDataFileBytes); name is for errors.
func ParseBandHistory(name string, data []byte) (*BandHistory, error) {
	if len(data) > MaxDataFileBytes {
		return nil, fmt.Errorf("%s: larger than %d MB", name, MaxDataFileBytes/MB)
	}
	r := csv.NewReader(bytes.NewReader(data))
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if strings.Join(head, ",") != strings.Join(bandHistoryColumns, ",") {
		return nil, fmt.Errorf("%s:1: columns %s, want %s", name, Excerpt(strings.Join(head, ",")), strings.Join(bandHistoryColumns, ","))
	}
	h := &BandHistory{}
	dates := map[time.Time]bool{}
	seen := map[string]bool{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		where := fmt.Sprintf("%s:%d", name, line)
		p, err := ParseProvider(rec[0])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		at, err := time.Parse("2006-01-02", rec[3])
		if err != nil {
			return nil, fmt.Errorf("%s: observed_at %s: want YYYY-MM-DD", where, Excerpt(rec[3]))
		}
		band, err := ParseInterruptionBand(rec[4])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		save, err := strconv.Atoi(rec[5])
		if err != nil || save < -1000 || save > 100 {
			return nil, fmt.Errorf("%s: savings_pct %s: want a whole number -1000 to 100", where, Excerpt(rec[5]))
		}
		if rec[1] == "" || rec[2] == "" || rec[6] == "" {
			return nil, fmt.Errorf("%s: region, instance_type and source must not be empty", where)
		}
		key := rec[0] + "/" + rec[1] + "/" + rec[2] + "/" + rec[3]
		if seen[key] {
			return nil, fmt.Errorf("%s: %s in %s on %s is given twice", where, Excerpt(rec[2]), Excerpt(rec[1]), rec[3])
		}
		seen[key] = true
		dates[at] = true
		h.Observations = append(h.Observations, BandObservation{Provider: p, Region: rec[1], InstanceType: rec[2], ObservedAt: at,
			Band: band, SavingsPct: save, Source: rec[6]})
	}
	for d := range dates {
		h.Dates = append(h.Dates, d)
	}
	sort.Slice(h.Dates, func(i, j int) bool { return h.Dates[i].Before(h.Dates[j]) })
	sort.SliceStable(h.Observations, func(i, j int) bool {
		a, b := h.Observations[i], h.Observations[j]
		if a.Provider != b.Provider {
			return a.Provider < b.Provider
		}
		if a.InstanceType != b.InstanceType {
			return a.InstanceType < b.InstanceType
		}
		if a.Region != b.Region {
			return a.Region < b.Region
		}
		return a.ObservedAt.Before(b.ObservedAt)
	})
	return h, nil
}

// Of is the observations of one instance type, by region, each region's in
// date order.
func (h *BandHistory) Of(p Provider, instanceType string) map[string][]BandObservation {
	out := map[string][]BandObservation{}
	for _, o := range h.Observations {
		if o.Provider == p && o.InstanceType == instanceType {
			out[o.Region] = append(out[o.Region], o)
		}
	}
	return out
}

// BandChange is a band that differs between two copies of the feed; "" is no
// row in that copy.
type BandChange struct {
	Provider     Provider
	Region       string
	InstanceType string
	Old, New     InterruptionBand
}

// Changes lists the bands that differ between the copies of two days (each
// must be a day of a copy), sorted by instance type and region.
func (h *BandHistory) Changes(from, to time.Time) ([]BandChange, error) {
	has := func(d time.Time) bool {
		for _, x := range h.Dates {
			if x.Equal(d) {
				return true
			}
		}
		return false
	}
	if !has(from) || !has(to) {
		var ds []string
		for _, d := range h.Dates {
			ds = append(ds, d.Format("2006-01-02"))
		}
		return nil, fmt.Errorf("the interruption band history has copies of %s only", strings.Join(ds, ", "))
	}
	type key struct {
		p        Provider
		typ, reg string
	}
	old, cur := map[key]InterruptionBand{}, map[key]InterruptionBand{}
	var keys []key
	for _, o := range h.Observations {
		k := key{o.Provider, o.InstanceType, o.Region}
		_, a := old[k]
		_, b := cur[k]
		if o.ObservedAt.Equal(from) {
			old[k] = o.Band
		}
		if o.ObservedAt.Equal(to) {
			cur[k] = o.Band
		}
		if !a && !b && (o.ObservedAt.Equal(from) || o.ObservedAt.Equal(to)) {
			keys = append(keys, k)
		}
	}
	var out []BandChange
	for _, k := range keys {
		if old[k] != cur[k] {
			out = append(out, BandChange{Provider: k.p, Region: k.reg, InstanceType: k.typ, Old: old[k], New: cur[k]})
		}
	}
	return out, nil
}
