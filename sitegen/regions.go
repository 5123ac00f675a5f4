package sitegen

import (
	"sort"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// regionsData is the model of regions.html: every region with offers, grouped by
// country and city, with the GPU models it offers.
type regionsData struct {
	Countries []countryGroup
	Regions   int
}

type countryGroup struct {
	Code, Name string
	Cities     []cityGroup
}

type cityGroup struct {
	City    string // "" when the snapshot does not say
	Regions []regionRow
}

type regionRow struct {
	Region catalog.Region
	Offers int
	GPUs   []gpuLink
}

type gpuLink struct{ Name, Href string }

func (m *siteModel) regionsPage(l *language) regionsData {
	type acc struct {
		r      catalog.Region
		offers int
		gpus   map[string]string // model id (or provider name when unmapped) -> name
	}
	byKey := map[string]*acc{}
	var keys []string
	for _, o := range m.offers {
		k := o.Region.Key()
		a := byKey[k]
		if a == nil {
			a = &acc{r: o.Region, gpus: map[string]string{}}
			byKey[k] = a
			keys = append(keys, k)
		}
		a.offers++
		if o.Type.HasGPU {
			if o.Type.Unmapped {
				a.gpus["\x00"+o.Type.GPUName] = o.Type.GPUName
			} else {
				a.gpus[o.Type.GPUModel] = o.Type.ModelName
			}
		}
	}
	countries := map[string]*countryGroup{}
	cities := map[string]int{} // country and city -> index in the country's Cities
	var order []string
	for _, k := range keys {
		a := byKey[k]
		code := a.r.Country
		c := countries[code]
		if c == nil {
			name := l.label("country", code)
			if code == "" {
				name = l.msg("regions.unknown_country")
			}
			c = &countryGroup{Code: code, Name: name}
			countries[code] = c
			order = append(order, code)
		}
		ck := code + "\x00" + a.r.City
		ci, ok := cities[ck]
		if !ok {
			ci = len(c.Cities)
			c.Cities = append(c.Cities, cityGroup{City: a.r.City})
			cities[ck] = ci
		}
		row := regionRow{Region: a.r, Offers: a.offers}
		for id, name := range a.gpus {
			link := gpuLink{Name: name}
			if id[0] != 0 {
				link.Href = gpuHref(id)
			}
			row.GPUs = append(row.GPUs, link)
		}
		sort.Slice(row.GPUs, func(i, j int) bool { return row.GPUs[i].Name < row.GPUs[j].Name })
		c.Cities[ci].Regions = append(c.Cities[ci].Regions, row)
	}
	rank := map[catalog.Provider]int{}
	for i, p := range m.providers() {
		rank[p] = i
	}
	d := regionsData{Regions: len(keys)}
	for _, code := range order {
		c := countries[code]
		sort.Slice(c.Cities, func(i, j int) bool { return l.label("city", c.Cities[i].City) < l.label("city", c.Cities[j].City) })
		for i := range c.Cities {
			rs := c.Cities[i].Regions
			sort.Slice(rs, func(a, b int) bool {
				if rs[a].Region.Provider != rs[b].Region.Provider {
					return rank[rs[a].Region.Provider] < rank[rs[b].Region.Provider]
				}
				return rs[a].Region.ID < rs[b].Region.ID
			})
		}
		d.Countries = append(d.Countries, *c)
	}
	sort.SliceStable(d.Countries, func(i, j int) bool {
		a, b := d.Countries[i], d.Countries[j]
		if (a.Code == "") != (b.Code == "") {
			return b.Code == ""
		}
		return a.Name < b.Name
	})
	return d
}
