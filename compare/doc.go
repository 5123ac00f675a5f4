// Package compare decides and computes the comparisons the site and the CLI show:
// cost per unit of work from benchmark results, fit and ranking of instance types
// for each scenario, and total cost of ownership. It imports only package
// catalog; callers render its results (sitegen, the CLI).
//
// Where each concept lives:
//
//   - cost.go: cost per unit of work (CostPerWork, WorkCost), measured or
//     estimated from a run on the same GPU model; cost_published.go: published
//     results' stricter rules (same GPU model and count only, never across
//     scenarios: WorkKey, PublishedBasis, CountGaps); cost_select.go: which of
//     several cost figures counts (best per offer, cheapest per type or billing).
//   - speed.go: spec figures (Figure) and relative speeds (Speed), from specs or
//     benchmarks.
//   - scenario.go: a scenario's definition (Scenario, Requirements, Preferences,
//     Targets, Weights, ScenarioSet); scenario_load.go: reading and validating
//     data/scenarios.yaml.
//   - scenario_fit.go: how one offer suits one scenario (Verdict, Check,
//     DimensionScore, Tier, OfferFit); scenario_specs.go: the facts of an
//     instance type a scenario looks at; scenario_rules.go: the hard
//     requirements as checks; scenario_score.go: the dimension scores and the
//     weighted score; scenario_reasons.go: requirement and preference lists,
//     preference weaknesses, a dimension as a strength or weakness.
//   - reason.go: Reason, a code with its figures and units, which every
//     explanation is (compare never writes a sentence: words.ReasonWords and
//     the command line's --lang make the words); reason_codes.go: the codes.
//   - scenario_matrix.go: ranking every type for every scenario (BuildMatrix,
//     Matrix, Cell); scenario_report.go: the matrices and the TCO presets a
//     site shows (NewScenarioReport): every scenario on on-demand prices, the
//     interruptible ones also on spot at the risk-adjusted price (tco_spot.go's
//     SpotRiskPrice).
//   - tco.go: the TCO model (TCOInput, TCO, TCOResult, break-evens,
//     comparisons); tco_input.go: building a TCOInput from a catalog
//     (NewTCOInput); tco_preset.go: each scenario's preset comparison and the
//     calculator's billing groups (TCOPresets, ScenarioTCO); tco_currency.go:
//     a TCO result in another currency, rounded as the calculator rounds it
//     (TCOInCurrency).
//   - model_spec.go: the known models of data/models.csv (ModelSpec, ModelSet,
//     LoadModels); memory_input.go: the memory estimate's input, its defaults
//     and its errors (MemoryInput, InputError); memory_estimate.go: GPU memory
//     per component with every formula's terms (EstimateMemory,
//     MemoryEstimate); memory_fit.go: the instance types that hold it, cheapest
//     first, and the nearest misses per GPU model (MemoryCandidates, FitMemory,
//     and memoryPerDevice, the one place that decides a device's memory).
//   - filter_grammar.go: the explorer's filter expressions, their fields
//     (FilterFields, which the explorer's help lists) and billing values;
//     filter_parse.go: reading an expression with errors at their columns
//     (ParseFilter), as static/filter.js does; filter_eval.go: its terms bound
//     to a catalog's facts, as static/explorer-view.js binds them;
//     find_data.go: the facts, prepared as the explorer prepares offers.json;
//     find.go: the explorer's default view of what an expression keeps (Find):
//     what gpuatlas find prints; find_why.go: why a query finds nothing
//     (FindEmpty), by the explorer's rule; offer_facts.go: the derived offer facts
//     computed once (OfferFactsOf, NewOfferFactTable: per GPU-hour and per GPU-memory GB-hour by the datasheet class,
//     saving against on-demand, spot band and risk-adjusted price, work
//     costs) for find, the scenario rankings, the pages, the API and exports.
//   - capability.go: CapabilityMiss, whether hardware can run a task at a
//     precision; tco_bounds.go: TCOBounds, one table of ranges for the tco
//     flags and a TCO input file; tco_input_scan.go: ScanTCOInput, the size
//     limits checked before a TCO input file is decoded.
package compare
