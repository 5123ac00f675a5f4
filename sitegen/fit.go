package sitegen

import (
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/words"
)

// The memory estimator page (fit.html): the estimate of compare.EstimateMemory
// and the fitting offers of compare.FitMemory, recomputed in the browser by
// static/fit.js from the known models (in the page) and the instance types
// with their cheapest offer per billing kind and currency (data/fit.json, shared
// by both languages). The page is rendered with the default inputs' answer, so
// it reads without JavaScript; the script's answer is the same JSON as `gpuatlas
// fit --format json`, which a browser test checks to the byte.

// fitDataPath is the estimator's instance data, under the site root.
const fitDataPath = "data/fit.json"

// fitDefaultModel is the model the page opens with, when the table has it.
const fitDefaultModel = "llama-3.1-70b"

// fitSite is what the estimator page shows, for both languages.
type fitSite struct {
	models     *compare.ModelSet
	sets       map[string]compare.CandidateSet // billing + "/" + currency
	billing    []catalog.BillingKind           // kinds with at least one candidate
	currencies []catalog.Currency
	data       []byte                                    // data/fit.json
	def        map[catalog.Currency]compare.MemoryAnswer // the opening answer in each currency
	hrefs      map[string]string                         // instance key → page path
	gpus       []fitGPU
}

type fitGPU struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// fitCurrencies are the currencies the estimator prices in (those of the FX
// table among them).
var fitCurrencies = []catalog.Currency{catalog.USD, catalog.CNY}

// newFitSite prices every instance type for every billing kind and currency;
// nil without models.
func newFitSite(m *siteModel, models *compare.ModelSet) (*fitSite, error) {
	if models == nil || len(models.Models) == 0 {
		return nil, nil
	}
	s := &fitSite{models: models, sets: map[string]compare.CandidateSet{}, hrefs: map[string]string{}}
	for _, c := range fitCurrencies {
		if _, err := m.snap.FX.Rate(c); err == nil {
			s.currencies = append(s.currencies, c)
		}
	}
	if len(s.currencies) == 0 {
		return nil, fmt.Errorf("estimator: the FX table has none of %v", fitCurrencies)
	}
	gpus := map[string]string{}
	for _, b := range catalog.BillingKinds {
		priced := false
		for _, c := range s.currencies {
			cs, err := compare.MemoryCandidates(m.snap, m.ref, compare.CandidateOptions{Billing: b, Currency: c})
			if err != nil {
				return nil, fmt.Errorf("estimator: %w", err)
			}
			s.sets[fitSetKey(b, c)] = cs
			for _, cand := range cs.Candidates {
				priced = true
				if tv, ok := m.typeByKey[cand.Instance]; ok {
					s.hrefs[cand.Instance] = tv.Href
				}
				if cand.GPUModel != "" && cand.MemoryEachGB != nil {
					gpus[cand.GPUModel] = cand.GPUName
				}
			}
		}
		if priced {
			s.billing = append(s.billing, b)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(gpus)) {
		s.gpus = append(s.gpus, fitGPU{ID: id, Name: gpus[id]})
	}
	slices.SortStableFunc(s.gpus, func(a, b fitGPU) int { return cmp.Compare(a.Name, b.Name) })
	var err error
	if s.data, err = s.encodeData(); err != nil {
		return nil, err
	}
	s.def = map[catalog.Currency]compare.MemoryAnswer{}
	for _, c := range s.currencies {
		if s.def[c], err = s.answer(s.defaultInput(), catalog.OnDemand, c); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func fitSetKey(b catalog.BillingKind, c catalog.Currency) string { return string(b) + "/" + string(c) }

// defaultInput is the page's opening question: the default model (or the
// table's first) in inference, with every other input at its default.
func (s *fitSite) defaultInput() compare.MemoryInput {
	id := fitDefaultModel
	if _, ok := s.models.Model(id); !ok {
		id = s.models.Models[0].ID
	}
	return compare.MemoryInput{Model: id}
}

// answer is compare's answer to an input, as `gpuatlas fit` gives it.
func (s *fitSite) answer(in compare.MemoryInput, b catalog.BillingKind, c catalog.Currency) (compare.MemoryAnswer, error) {
	est, err := compare.EstimateMemory(in, s.models)
	if err != nil {
		return compare.MemoryAnswer{}, fmt.Errorf("estimator default: %w", err)
	}
	cs, ok := s.sets[fitSetKey(b, c)]
	if !ok {
		cs = compare.CandidateSet{Billing: b, Currency: c, Candidates: []compare.MemoryCandidate{}}
	}
	return compare.MemoryAnswer{Schema: compare.MemorySchema, Estimate: est, Offers: compare.FitMemory(est, cs, compare.FitOptions{})}, nil
}

// fitData is data/fit.json: every instance type's hardware once, and per
// billing kind its cheapest offer with the price in each currency. The script
// rebuilds compare.CandidateSet from it field for field.
type fitData struct {
	Schema     int                           `json:"schema"`
	FXDate     string                        `json:"fx_date"`
	FXSource   string                        `json:"fx_source"`
	Currencies []catalog.Currency            `json:"currencies"`
	Billing    []catalog.BillingKind         `json:"billing"`
	LeftOut    map[string]compare.LeftOut    `json:"left_out"` // by billing kind
	Instances  []fitInstance                 `json:"instances"`
	Prices     map[string]map[string]fitCell `json:"prices"` // billing → instance → offer
}

// fitInstance is a candidate's hardware (compare.MemoryCandidate's fields).
type fitInstance struct {
	Instance     string               `json:"instance"`
	Provider     catalog.Provider     `json:"provider"`
	Type         string               `json:"type"`
	GPUModel     string               `json:"gpu_model,omitempty"`
	GPUName      string               `json:"gpu_name"`
	Mapping      string               `json:"mapping_confidence,omitempty"`
	Devices      int                  `json:"devices"`
	Partial      bool                 `json:"partial,omitempty"`
	MemoryEachGB *decimal.Decimal     `json:"memory_each_gb"`
	MemorySource compare.MemorySource `json:"memory_source,omitempty"`
	ReportedGiB  *decimal.Decimal     `json:"memory_each_reported_gib,omitempty"`
	Link         string               `json:"link"`
	// The capability facts the fit rule reads (compare.CapabilityMiss).
	Training   catalog.Capability `json:"training,omitempty"`
	NativeBF16 catalog.Capability `json:"native_bf16,omitempty"`
	NativeFP8  catalog.Capability `json:"native_fp8,omitempty"`
	Href       string             `json:"href,omitempty"`     // the instance page, from a language root
	GPUHref    string             `json:"gpu_href,omitempty"` // the GPU model's page
}

// fitCell is the cheapest offer of a type and billing kind, with its price in
// each currency. The offer is the same in every currency unless rounding made a
// tie break differently; then Other holds the offer of that currency.
type fitCell struct {
	fitOffer
	Prices map[string]decimal.Decimal `json:"prices"`
	Other  map[string]fitOffer        `json:"other,omitempty"`
}

type fitOffer struct {
	Offer          string               `json:"offer"`
	Region         string               `json:"region"`
	Availability   catalog.Availability `json:"availability"`
	NativePrice    decimal.Decimal      `json:"native_price"`
	NativeCurrency catalog.Currency     `json:"native_currency"`
}

func (s *fitSite) encodeData() ([]byte, error) {
	d := fitData{Schema: compare.MemorySchema, Currencies: s.currencies, Billing: s.billing,
		LeftOut: map[string]compare.LeftOut{}, Prices: map[string]map[string]fitCell{}}
	seen := map[string]bool{}
	for _, b := range s.billing {
		cells := map[string]fitCell{}
		for _, c := range s.currencies {
			cs := s.sets[fitSetKey(b, c)]
			d.FXDate, d.FXSource = cs.FXDate, cs.FXSource
			d.LeftOut[string(b)] = cs.LeftOut
			for _, cand := range cs.Candidates {
				if !seen[cand.Instance] {
					seen[cand.Instance] = true
					d.Instances = append(d.Instances, fitInstance{Instance: cand.Instance, Provider: cand.Provider, Type: cand.Type,
						GPUModel: cand.GPUModel, GPUName: cand.GPUName, Mapping: cand.MappingConfidence, Devices: cand.Devices, Partial: cand.Partial,
						MemoryEachGB: cand.MemoryEachGB, MemorySource: cand.MemorySource, ReportedGiB: cand.MemoryEachReportedGiB, Link: cand.Link,
						Training: cand.Training, NativeBF16: cand.NativeBF16, NativeFP8: cand.NativeFP8, Href: s.hrefs[cand.Instance],
						GPUHref: fitGPUHref(cand.GPUModel)})
				}
				o := fitOffer{Offer: cand.Offer, Region: cand.Region, Availability: cand.Availability,
					NativePrice: cand.NativePrice, NativeCurrency: cand.NativeCurrency}
				cell, ok := cells[cand.Instance]
				switch {
				case !ok:
					cell = fitCell{fitOffer: o, Prices: map[string]decimal.Decimal{}}
				case cell.Offer != o.Offer:
					if cell.Other == nil {
						cell.Other = map[string]fitOffer{}
					}
					cell.Other[string(c)] = o
				}
				cell.Prices[string(c)] = cand.Price
				cells[cand.Instance] = cell
			}
		}
		d.Prices[string(b)] = cells
	}
	slices.SortFunc(d.Instances, func(a, b fitInstance) int { return cmp.Compare(a.Instance, b.Instance) })
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", fitDataPath, err)
	}
	return b, nil
}

// fitPageData is the model of fit.html: the default answer in words, as the
// script renders any answer.
type fitPageData struct {
	Config     fitConfig
	Model      string // the default model's name
	Currency   string
	Caption    string
	Figures    []string
	Components []fitComponentView
	Total      compare.Size
	TotalGB    string
	TotalGiB   string
	LowerBound bool
	Notes      []string
	Source     *compare.ModelRef
	FitsTitle  string
	Fits       []fitRowView
	Misses     []fitRowView
	LeftOut    string
	FX         template.HTML // the FX source as written, marked lang="en"
	JSON       string
}

// fitConfig is handed to static/fit.js as JSON in the page.
type fitConfig struct {
	Lang       string                `json:"lang"`
	Base       string                `json:"base"` // site root path
	Prefix     string                `json:"prefix"`
	Data       string                `json:"data"` // data/fit.json, from the site root
	Models     []compare.ModelSpec   `json:"models"`
	Default    compare.MemoryInput   `json:"default"`
	Billing    []catalog.BillingKind `json:"billing"`
	Currencies []catalog.Currency    `json:"currencies"`
	GPUs       []fitGPU              `json:"gpus"`
	Labels     map[string]string     `json:"labels"`
}

type fitComponentView struct {
	Code, Label, Text, GB, GiB string
	C                          compare.MemoryComponent
	Estimated                  bool
}

type fitRowView struct {
	R                                    compare.MemoryFitRow
	Rank                                 int
	Href, GPUHref                        string
	Hardware, Have, PerGPU, Price, Words string
}

// fitFX says which exchange rates converted the prices, the source as written.
func fitFX(l *language, source, date string) template.HTML {
	s, err := l.tOutside("fit.fx", "source", enArg(source), "date", date)
	if err != nil { // fit.fx is in every catalog (TestMessages)
		return template.HTML(template.HTMLEscapeString(source + " " + date))
	}
	return s
}

func (s *fitSite) page(base string, l *language) (page, error) {
	w := words.NewFitWords(l.messages)
	// The page opens in its language's currency (CNY in Chinese) where the
	// estimator prices in it; the currency control lists that one first.
	curs := s.currencies
	if i := slices.Index(curs, l.currency()); i > 0 {
		curs = slices.Concat([]catalog.Currency{curs[i]}, curs[:i], curs[i+1:])
	}
	a := s.def[curs[0]]
	e, o := a.Estimate, a.Offers
	billing := l.label("billing", o.Billing)
	d := fitPageData{Model: w.ModelName(e), Currency: string(o.Currency), Total: e.Total, TotalGB: words.GB(e.Total.GB), TotalGiB: words.GB(e.Total.GiB), LowerBound: e.LowerBound, Source: e.Model, LeftOut: w.T("fit.left_out",
		"unknown", fmt.Sprint(o.UnknownMemory), "no_offer", fmt.Sprint(o.LeftOut.NoOffer),
		"excluded", fmt.Sprint(o.LeftOut.SuspectOrSynthetic), "billing", billing),
		FX:        fitFX(l, o.FXSource, o.FXDate),
		FitsTitle: w.T("fit.fits_caption", "count", fmt.Sprint(o.FitsTotal), "billing", billing, "currency", string(o.Currency))}
	capKey := "fit.estimate_caption"
	if e.LowerBound {
		capKey = "fit.estimate_caption_lower"
	}
	d.Caption = w.T(capKey, "model", w.ModelName(e), "task", w.T("fit.task."+string(e.Input.Task)), "gb", words.GB(e.Total.GB), "gib", words.GB(e.Total.GiB))
	for _, f := range e.Figures {
		d.Figures = append(d.Figures, w.Figure(f))
	}
	for _, c := range e.Components {
		d.Components = append(d.Components, fitComponentView{Code: c.Component, Label: w.T("fit.comp." + c.Component),
			Text: w.Component(c), GB: words.GB(c.GB), GiB: words.GB(c.GiB), C: c, Estimated: c.Status == compare.StatusEstimated})
	}
	for _, n := range e.Notes {
		d.Notes = append(d.Notes, w.Note(n))
	}
	row := func(r compare.MemoryFitRow, rank int) fitRowView {
		v := fitRowView{R: r, Rank: rank, Href: s.hrefs[r.Instance], Hardware: w.Hardware(r), Have: words.GB(r.HaveGB),
			PerGPU: words.GB(r.NeedPerGPUGB), Price: words.Price(r.Price)}
		v.GPUHref = fitGPUHref(r.GPUModel)
		if r.Verdict == compare.FitMisses {
			v.Words = w.MissReason(r)
		} else {
			v.Words = w.Placement(r)
		}
		return v
	}
	for i, r := range o.Fits {
		d.Fits = append(d.Fits, row(r, i+1))
	}
	for _, r := range o.Misses {
		d.Misses = append(d.Misses, row(r, 0))
	}
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return page{}, fmt.Errorf("estimator: %w", err)
	}
	d.JSON = string(b)
	d.Config = fitConfig{Lang: l.Tag, Base: base, Prefix: l.Prefix, Data: fitDataPath, Models: s.models.Models,
		Default: s.defaultInput(), Billing: s.billing, Currencies: curs, GPUs: s.gpus, Labels: l.fitLabels()}
	return page{Path: "fit.html", Template: "fit.html", Nav: "fit", Data: d}, nil
}

// fitLabels is the part of the catalog the estimator's script needs.
func (l *language) fitLabels() map[string]string {
	out := map[string]string{}
	for k, v := range l.messages {
		for _, p := range []string{"fit.", "billing.", "provider.", "nav.fit"} {
			if strings.HasPrefix(k, p) {
				out[k] = v
			}
		}
	}
	return out
}

// fitGPUHref is a GPU model's page, "" without a model.
func fitGPUHref(id string) string {
	if id == "" {
		return ""
	}
	return gpuHref(id)
}

// fitLink is a link to the estimator with a scenario's figures filled in.
type fitLink struct {
	Model, Name, Task, Precision string
	Context, Batch               int
}

// fitScenarioPresets are the estimator questions that stand for a scenario: a
// widely used model of the size the scenario names, at a usual context.
var fitScenarioPresets = map[string]fitLink{
	"llm-training":        {Model: "llama-3.1-70b", Task: "full", Precision: "bf16", Context: 4096, Batch: 1},
	"llm-finetune":        {Model: "llama-3.1-8b", Task: "lora", Precision: "bf16", Context: 4096, Batch: 1},
	"online-inference":    {Model: "llama-3.1-8b", Task: "inference", Precision: "bf16", Context: 8192, Batch: 1},
	"batch-inference":     {Model: "llama-3.1-8b", Task: "inference", Precision: "bf16", Context: 4096, Batch: 32},
	"llm-inference-large": {Model: "llama-3.1-70b", Task: "inference", Precision: "bf16", Context: 8192, Batch: 1},
}

// scenarioLinks are the presets whose model the table has, by scenario id.
func (s *fitSite) scenarioLinks() map[string]fitLink {
	out := map[string]fitLink{}
	for id, p := range fitScenarioPresets {
		if m, ok := s.models.Model(p.Model); ok {
			p.Name = m.Name
			out[id] = p
		}
	}
	return out
}
