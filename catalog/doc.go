// Package catalog is the normalized model of cloud GPU offerings that every other
// package of GPU Atlas shares: instance types, offers, prices, regions, GPU models,
// coverage and the snapshot that holds them; the history of snapshots, the guard
// and the diff between two of them; and benchmark uploads with their validation.
// It imports nothing else of GPU Atlas.
//
// Each concept lives in the file named after it.
//
// # The model
//
//   - model.go: Provider, BillingKind, Availability, Accelerator, InstanceType,
//     Offer, Placement, Region, Coverage, UnmappedAccelerator.
//   - money.go: Currency, PriceUnit, Price and exact decimal amounts (Dec).
//   - subscription.go: a commitment offer per month and its hourly equivalent
//     (Offer.Subscription).
//   - fx.go: FXTable, the currency rates every conversion goes through.
//   - gpu.go: GPUModel, GPUAlias and the GPU reference (data/gpus.csv,
//     data/gpu_aliases.csv), and the CSV reader the data files share.
//   - region.go: RegionTable, the display names and geo keys (data/regions.csv).
//   - workload.go: Workload, RateUnit and the workload registry (data/workloads.csv).
//   - interconnect.go: the GPU interconnect kinds (LinkKinds, IsFastLink) and
//     the documented links per family (data/interconnect.csv).
//   - includes.go: what a price covers besides the instance (a system disk:
//     IncludesSystemDisk, ParseIncludes), its text part of a series identity.
//   - reconcile.go: a provider's figures against the GPU reference
//     (SpecConflict, InstanceSpecConflict, MemoryTolerance).
//   - spotrisk.go: AWS's Spot Instance Advisor interruption bands
//     (InterruptionBand, Interruption); spotrisk_history.go: their dated copies
//     (BandHistory, data/interruption_bands.csv).
//
// # Snapshots
//
//   - snapshot.go: Snapshot, one complete catalog, its SchemaVersion, and
//     EachNamedRegion, every region it names.
//   - snapshot_order.go: the canonical order of its lists (Snapshot.Sort).
//   - snapshot_validate.go: Snapshot.Validate, its internal consistency.
//   - snapshot_codec.go: the file format (MarshalCanonical, DecodeSnapshot,
//     ReadSnapshot, WriteSnapshot).
//   - json_errors.go: JSON decoding errors as file:line:column and words
//     (LineCol, JSONError), a failing snapshot record placed by its index.
//   - recordjson.go: the fast writer and reader of offer and placement records
//     that the snapshot and history codecs use before encoding/json.
//   - atomic_write.go: WriteFileAtomic, which replaces a file whole or not at all
//     (never a device, FIFO or link), and removes the temporaries of killed runs;
//     CheckOutputFile and CheckOutputFolder.
//   - filelock.go: Lock, the flock beside a file or folder a command writes.
//   - readlimit.go: ReadFileLimit, ReadRegularFile, OpenRegularFile and
//     LimitReader, every reader's size limit (MaxSnapshotBytes and the others),
//     the kinds of file it reads (never one under /proc, /sys or /dev) and
//     TooLargeError.
//   - record_limits.go: the limits of every string, list and number a record
//     holds (MaxIDBytes and the others), checked on read.
//   - excerpt.go: Excerpt (ExcerptN) and SafeLine, the little of outside text
//     a message may repeat, escaped.
//   - chunks.go: splitting work on many records into parallel chunks.
//   - stale.go: MergeCrawl, which keeps the last good data of a failed provider.
//   - guard.go: Guard, which stops a crawl that lost offers or jumped in price.
//
// # Data quality
//
//   - plausibility.go: the plausibility rules that mark an offer Suspect
//     (FlagImplausible, ImplausibleReasons); plausibility_regions.go: the
//     regional-median rule.
//   - price_check.go: PriceCheck, a second source's price
//     (data/price_checks.csv), and CrossCheck, which marks the offers it
//     contradicts.
//   - age.go: how old a provider's prices are (Age, DataAge, StaleDays).
//   - quality.go: the data-quality report of a snapshot (CheckQuality,
//     QualityReport, `gpuatlas check`); quality_render.go: the report as text
//     and Markdown.
//
// # History
//
//   - history.go: History, the record of every crawl as intervals of unchanged
//     values, and its records.
//   - history_append.go: History.Append, recording a crawl.
//   - history_query.go: History.At (a past snapshot), CrawlAt and PriceSeries.
//   - history_steps.go: History.Steps, each crawl told as what changed.
//   - history_codec.go: the history file format (Marshal, DecodeHistory,
//     ReadHistory, WriteHistory).
//   - history_observed.go: prices imported from public archives (History.Import),
//     their series and runs, what At adds of them, ObservedChanges.
//   - history_intervals.go: History.PriceIntervals, every price as an interval,
//     for the exports.
//   - observation.go: Observation, one dated price from an archive, and its
//     validation; observation_codec.go: the observation file format (CSV, JSON
//     Lines; ParseObservations, ReadObservationFile, WriteObservationsJSONL).
//
// # Diff
//
//   - diff.go: Diff and DiffReport, what changed between two snapshots, and
//     PriceChangePercent.
//   - diff_text.go: DiffReport.Text, and the wording the other renderers share.
//   - diff_markdown.go: DiffReport.Markdown, for pull requests and job summaries.
//   - diff_json.go: DiffReport.JSON, the stable JSON diff format.
//
// # Benchmarks
//
//   - benchmark.go: BenchmarkRun, BenchmarkRecord, the upload fields and Problem.
//   - benchmark_parse.go: reading CSV and YAML uploads (ParseBenchmarkFile).
//   - benchmark_validate.go: ValidateBenchmarks, each record against the catalog
//     and the workload registry.
//   - benchmark_system.go: a published result's system, accelerator model and
//     count, checked against the instance type it names.
//   - benchmark_outliers.go: the warning for a run far from its peers.
//   - benchmark_suggest.go: "did you mean" suggestions for unknown names.
//   - benchmark_load.go: LoadBenchmarks and LoadBenchmarksFS, files and folders.
//   - filelock_unix.go and filelock_other.go: the flock of Lock, and its
//     stand-in where there is none; gpu_sources.go: the figure-level sources
//     of the GPU reference (data/gpu_sources.csv) and their conflicts;
//     history_interruption.go: a spot band's time in the history, shared per
//     crawl and provider.
//
// Each file's tests are in its _test.go twin; the shared test fixtures are in
// snapshot_test.go, history_test.go and benchmark_test.go.
package catalog
