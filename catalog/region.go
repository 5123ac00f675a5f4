package catalog

import (
	"fmt"
	"io"
	"io/fs"
)

// RegionTable is the region metadata for every provider: display names, country,
// city and geo key, read from data/regions.csv.
type RegionTable struct {
	Regions []Region
	byKey   map[string]int
}

// ParseRegionTable reads regions.csv; errors name the file and line.
func ParseRegionTable(name string, r io.Reader) (*RegionTable, error) {
	t := &RegionTable{byKey: map[string]int{}}
	err := readCSV(name, r, []string{"provider", "id", "name_en", "name_zh", "country", "city", "geo", "source"}, func(line int, get func(string) string) error {
		p, err := ParseProvider(get("provider"))
		if err != nil {
			return err
		}
		reg := Region{Provider: p, ID: get("id"), NameEN: get("name_en"), NameZH: get("name_zh"),
			Country: get("country"), City: get("city"), Geo: get("geo")}
		if reg.ID == "" {
			return fmt.Errorf("id is empty")
		}
		if get("source") == "" {
			return fmt.Errorf("source is empty for %s", reg.Key())
		}
		if _, dup := t.byKey[reg.Key()]; dup {
			return fmt.Errorf("duplicate region %s", reg.Key())
		}
		t.byKey[reg.Key()] = len(t.Regions)
		t.Regions = append(t.Regions, reg)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Lookup returns the metadata of a provider's region. For a region the table does
// not know, it returns a region with only the id (ok false), so a new region from an
// API is shown rather than dropped.
func (t *RegionTable) Lookup(p Provider, id string) (Region, bool) {
	if t != nil {
		if i, ok := t.byKey[string(p)+"/"+id]; ok {
			return t.Regions[i], true
		}
	}
	return Region{Provider: p, ID: id, NameEN: id, NameZH: id}, false
}

// LoadRegionTable reads regions.csv from fsys (the data folder).
func LoadRegionTable(fsys fs.FS) (*RegionTable, error) {
	f, err := fsys.Open("regions.csv")
	if err != nil {
		return nil, fmt.Errorf("load regions: %w", err)
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	return ParseRegionTable("data/regions.csv", f)
}
