// Package sitegen renders a catalog snapshot and the finished comparisons of
// package compare into the static GPU Atlas site, in English and Chinese, written
// to a folder in one swap. It decides how a page shows its figures; which offers
// fit, how they rank, which TCO offers are compared and which cost figure counts
// come from compare.
//
// Where each part lives:
//
//   - build.go: Build and its Options, the data files, parallel rendering;
//     writer.go (with swap_*.go): the one writer that swaps the site in whole;
//     render.go, funcs.go: templates and their functions; i18n.go: the message
//     catalogs; reason_words.go: compare's reasons (codes and figures) in
//     words, for the pages and the command line; page_currency.go: a page's
//     currency (CNY in Chinese, USD in English), the USD figures and the
//     reasons' money converted into it; number_format.go: numbers for
//     people; fit_words.go: the memory estimate in words; slug.go: file names.
//   - model.go: the page models shared by every page (siteModel, typeView,
//     offerView); pages.go: the overview, explorer, instance, downloads and
//     about pages; rows.go: the largest tables written without templates;
//     offersdata.go: the explorer's compact offers JSON; gpus.go, regions.go,
//     compare.go: the GPU, region and side-by-side pages; markdown.go: the
//     Markdown pages.
//   - export.go, instances_export.go, parquet.go: the CSV, JSON and Parquet
//     downloads (their columns are a contract); history_parquet.go: the price
//     history as Parquet (HistoryParquet, also `gpuatlas history export`).
//   - charts.go: SVG charts; history.go: the instance pages' price history,
//     crawled and imported, and its charts; history_archived.go: the pages of
//     types only the public archives name, and the archives' source links.
//   - benchmarks.go: the benchmarks page and results on instance and GPU pages;
//     published.go: published results (MLPerf, vendors' tables) on instance and
//     GPU pages, with "no result for this count"; published_pages.go: a page
//     per workload of published results and its results per scenario;
//     changes.go, feed.go: the changes pages and their Atom feed;
//     changes_observed.go: the archives' dated price changes and their share of
//     the GPU price trends.
//   - scenarios.go: the scenario index and pages, from compare.ScenarioReport's
//     matrix; scenarios_spot.go: an interruptible scenario's ranking on spot at
//     the risk-adjusted price, from the report's spot matrix; tco.go: the TCO
//     page and its calculator, from its presets.
//   - sitemap.go: sitemap.xml and robots.txt.
package sitegen
