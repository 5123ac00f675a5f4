package sitegen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The static JSON API: documents made from the build's site model (the
// figures the pages show), encoded deterministically, published under
// api/v1/ with their hand-written JSON Schemas (templates/api/schema/).

// apiSchemaDir is where the templates keep the schemas; they are published
// as api/v1/schema/.
const apiSchemaDir = "api/schema"

// apiKinds are the document kinds, each with its schema (schema/<kind>.json).
var apiKinds = []string{"index", "instance", "offers", "gpu", "region", "scenario"}

// apiSite makes the API's documents.
type apiSite struct {
	m    *siteModel
	x    *extras       // nil: no benchmark costs
	scen *scenarioSite // nil: no scenarios
	// Paths of the documents, relative to api/v1/: by GPU model id, scenario
	// id and region key.
	gpuPaths, scenarioPaths, regionPaths map[string]string
	verdicts                             map[string][]apiVerdict // by instance type key
}

func newAPISite(m *siteModel, x *extras, scen *scenarioSite) *apiSite {
	a := &apiSite{m: m, x: x, scen: scen, gpuPaths: map[string]string{}, scenarioPaths: map[string]string{}, regionPaths: map[string]string{}}
	for _, id := range m.gpuModels() {
		a.gpuPaths[id] = strings.TrimSuffix(gpuHref(id), ".html") + ".json"
	}
	if scen != nil {
		for _, r := range scen.matrix.Scenarios {
			a.scenarioPaths[r.Scenario.ID] = strings.TrimSuffix(scenarioHref(r.Scenario.ID), ".html") + ".json"
		}
	}
	// Region ids are slugs already; a collision after slugifying gets a
	// number, as instance pages do (instancePaths).
	taken := map[string]bool{}
	for _, r := range a.regionKeys() {
		dir := "regions/" + slugify(string(r.Provider)) + "/"
		p := dir + slugify(r.ID) + ".json"
		for n := 2; taken[p]; n++ {
			p = dir + slugify(r.ID) + "-" + strconv.Itoa(n) + ".json"
		}
		taken[p] = true
		a.regionPaths[r.Key()] = p
	}
	a.indexVerdicts(scen)
	return a
}

func (a *apiSite) head(kind string) apiHead {
	return apiHead{API: apiVersion, Schema: "schema/" + kind + ".json", TakenAt: a.m.snap.TakenAt.UTC()}
}

// apiSummary is what the API page and llms.txt say about the documents.
type apiSummary struct {
	Instances, GPUs, Regions, Scenarios, Offers int
	Files                                       int
	Bytes                                       int64
	// Example paths (relative to api/v1/) for the page's examples.
	ExampleInstance, ExampleGPU, ExampleRegion, ExampleScenario, ExampleOffers string
}

// files encodes every document and copies the schemas; paths are relative to
// the site root.
func (a *apiSite) files(fsys fs.FS) ([]siteFile, apiSummary, error) {
	var out []siteFile
	var sum apiSummary
	add := func(name string, v any) error {
		b, err := encodeAPI(v)
		if err != nil {
			return fmt.Errorf("api: %s: %w", name, err)
		}
		out = append(out, siteFile{name: apiRoot + name, data: b})
		sum.Files++
		sum.Bytes += int64(len(b))
		return nil
	}
	for _, k := range apiKinds {
		name := path.Join(apiSchemaDir, k+".json")
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, sum, fmt.Errorf("api: schema: %w", err)
		}
		out = append(out, siteFile{name: apiRoot + "schema/" + k + ".json", data: b})
		sum.Files++
		sum.Bytes += int64(len(b))
	}
	defs, err := fs.ReadFile(fsys, path.Join(apiSchemaDir, "defs.json"))
	if err != nil {
		return nil, sum, fmt.Errorf("api: schema: %w", err)
	}
	out = append(out, siteFile{name: apiRoot + "schema/defs.json", data: defs})
	sum.Files++
	sum.Bytes += int64(len(defs))

	if err := add("index.json", a.indexDoc()); err != nil {
		return nil, sum, err
	}
	for _, t := range a.m.types {
		if err := add(a.typeHref(t.T.Key()), a.instanceDoc(t)); err != nil {
			return nil, sum, err
		}
		if sum.Instances++; sum.ExampleInstance == "" || t.T.Key() == "aws/p5.48xlarge" {
			sum.ExampleInstance = a.typeHref(t.T.Key())
		}
	}
	offers := a.offersDocs()
	for _, p := range a.m.providers() {
		d, ok := offers[p]
		if !ok {
			continue
		}
		name := offersPath(p)
		if err := add(name, d); err != nil {
			return nil, sum, err
		}
		if sum.Offers++; sum.ExampleOffers == "" {
			sum.ExampleOffers = name
		}
	}
	for _, id := range a.m.gpuModels() {
		if err := add(a.gpuPaths[id], a.gpuDoc(id)); err != nil {
			return nil, sum, err
		}
		if sum.GPUs++; sum.ExampleGPU == "" || id == "nvidia-h100-sxm-80gb" {
			sum.ExampleGPU = a.gpuPaths[id]
		}
	}
	for _, r := range a.regionKeys() {
		if err := add(a.regionPaths[r.Key()], a.regionDoc(r)); err != nil {
			return nil, sum, err
		}
		if sum.Regions++; sum.ExampleRegion == "" {
			sum.ExampleRegion = a.regionPaths[r.Key()]
		}
	}
	if a.scen != nil {
		for _, r := range a.scen.matrix.Scenarios {
			if err := add(a.scenarioPaths[r.Scenario.ID], a.scenarioDoc(r, a.scen.matrix.Billing)); err != nil {
				return nil, sum, err
			}
			if sum.Scenarios++; sum.ExampleScenario == "" {
				sum.ExampleScenario = a.scenarioPaths[r.Scenario.ID]
			}
		}
	}
	return out, sum, nil
}

func offersPath(p catalog.Provider) string { return "offers/" + slugify(string(p)) + ".json" }

// encodeAPI is a document as published: compact JSON (every decimal a string,
// every list in the model's order), one line, no HTML escaping.
func encodeAPI(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// indexDoc is api/v1/index.json.
func (a *apiSite) indexDoc() apiIndexDoc {
	snap := a.m.snap
	d := apiIndexDoc{apiHead: a.head("index"),
		FX:      apiFX{Base: snap.FX.Base, Date: snap.FX.Date, Source: snap.FX.Source, Rates: snap.FX.Rates},
		Schemas: map[string]string{}, InstanceTypes: []apiTypeEntry{}, GPUs: []apiGPUEntry{}, Regions: []apiRegionEntry{},
		Scenarios: []apiScenarioEntry{}, Providers: []apiProviderEntry{},
		Pages: apiPages{API: apiPagePath, Downloads: "downloads.html", LLMsTxt: llmsTxtPath}}
	for _, k := range apiKinds {
		d.Schemas[k] = "schema/" + k + ".json"
	}
	counts := a.m.counts()
	d.Counts = apiCounts{InstanceTypes: len(snap.Instances), Offers: len(snap.Offers), Regions: counts.regions,
		Placements: len(snap.Placements), GPUModels: counts.gpuModels}
	for _, p := range a.m.providers() {
		c := counts.of(p)
		e := apiProviderEntry{Provider: p, Coverage: "unknown", InstanceTypes: c.types, Offers: c.offers, Regions: len(c.regions)}
		if cov, ok := a.m.coverage[p]; ok {
			e.Coverage, e.LastOK = cov.Status, cov.LastOK.UTC()
		}
		for _, age := range a.m.ages {
			if age.Provider == p {
				e.ReportedOffers, e.UndatedOffers = age.Reported, age.Unknown
				e.OldestObservedAt, e.NewestObservedAt, e.RetrievedAt = age.Oldest.UTC(), age.Newest.UTC(), age.Retrieved.UTC()
			}
		}
		if c.offers > 0 {
			e.Href = offersPath(p)
		}
		d.Providers = append(d.Providers, e)
	}
	for _, t := range a.m.types {
		d.InstanceTypes = append(d.InstanceTypes, apiTypeEntry{apiTypeRef: a.typeRef(t), GPUModel: t.GPUModel, GPUs: t.units, Offers: len(a.m.offersOf[t.T.Key()])})
	}
	for _, id := range a.m.gpuModels() {
		name := id
		if g, ok := a.m.refModel(id); ok && g.Name != "" {
			name = g.Name
		}
		d.GPUs = append(d.GPUs, apiGPUEntry{ID: id, Name: name, Href: a.gpuPaths[id]})
	}
	for _, r := range a.regionKeys() {
		d.Regions = append(d.Regions, apiRegionEntry{Provider: r.Provider, Region: r.ID, Country: r.Country, Href: a.regionPaths[r.Key()]})
	}
	if a.scen != nil {
		for _, r := range a.scen.matrix.Scenarios {
			d.Scenarios = append(d.Scenarios, apiScenarioEntry{ID: r.Scenario.ID, Href: a.scenarioPaths[r.Scenario.ID]})
		}
	}
	d.Counts.Scenarios = len(d.Scenarios)
	return d
}
