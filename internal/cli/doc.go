// Package cli implements the gpuatlas command line: flags, wiring, progress and
// exit codes. cmd/gpuatlas calls Main; tools call it in-process.
//
// Where each part lives (one file per command, its output beside it):
//
//   - cli.go: Main, Env, the command table, flag sets and the one check of a
//     command line (parseFlags, reportFlags: no stray argument, --format,
//     --lang), usage and exit codes;
//     site.go: Site, the site generator cmd/gpuatlas wires in (sitegen is
//     never imported here); lang.go: the language of a command's words
//     (--lang, the locale) and the words of package words.
//   - crawl.go: crawl, with its progress lines; snapshot.go: snapshot, a past
//     date's catalog, and the guard and history a crawl appends to;
//     history.go: history import and history export (Parquet).
//   - build.go: build, the site; export.go: export, the offers as CSV or
//     JSON, and loadSnapshot, loadCatalog; serve.go: serve, a built site on a local
//     address.
//   - diff.go: diff of two catalogs or history dates; diff_bands.go: the
//     spot interruption bands' changes (--interruptions).
//   - validate.go: validate, benchmark uploads; check.go: check, the
//     data-quality report.
//   - scenarios.go: scenarios; scenarios_text.go: its text output.
//   - tco.go: tco; tco_text.go: its text output.
//   - find.go: find; find_output.go: its csv, json and markdown output;
//     find_why.go: why nothing matches, in the explorer's words;
//     find_table.go: its terminal table; find_width_unix.go and
//     find_width_other.go: the terminal's width.
//   - fit.go: fit; fit_text.go: its text output.
//   - check_thresholds.go: check's alarms for the nightly (--max-stale-days,
//     --min-coverage); crawl_progress.go: the crawl's reporter (plain lines,
//     bars on a terminal, --log-format json); terminal.go: whether a writer is
//     a terminal; lock.go: the locks beside the files a command writes;
//     reference.go: Reference, the command reference from the flag sets.
package cli
