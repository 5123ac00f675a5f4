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
//     render.go, funcs.go: templates and their functions; i18n.go: a page's
//     language and its message catalog (read by package words); the words
//     themselves (compare's reasons, numbers for people, the memory estimate,
//     suspect prices) come from package words; reason_html.go: a reason in
//     words as HTML, names from outside marked; outside_text.go: text from
//     outside (a provider's message, a submitter's name) marked with its
//     language;
//     data_text.go: the catalog's texts of fixed forms (what a price
//     includes, a spot figure's source, a history note) in the page's words;
//     suspect_html.go: an offer's suspect reasons (words) for a page;
//     page_currency.go: a page's currency (CNY in Chinese, USD in English),
//     the USD figures and the reasons' money converted into it; age.go: how
//     old a provider's data is ("observed … days ago", stale and undated
//     marks); slug.go: file names.
//   - model.go: the page models shared by every page (siteModel, typeView,
//     offerView) and the snapshot's counts by provider (the overview's and
//     the API index's); prices.go: an instance type's cheapest price per billing
//     group; specs.go: network, spec conflicts and GPU memory as a page shows
//     them; interconnect.go: a multi-accelerator type's unknown link;
//     coverage_billing.go: the coverage page's billing table (prices per
//     provider and billing kind: observed, estimated, archived, none);
//     coverage.go: the coverage page's unmapped accelerators, conflicts and
//     filled memory; spot.go: an instance page's spot interruption risk per
//     region; pages.go: the overview, explorer, instance, downloads and
//     about pages; subscription.go: a subscription or reservation per month
//     with its hourly equivalent in words; rows.go: the largest tables
//     written without templates;
//     explorer.go: the explorer page's rows, columns and filters;
//     explorer_data.go: what the explorer needs beyond the snapshot;
//     explorer_grammar.go: the filter grammar's fields for the help;
//     offersdata.go: the explorer's compact offers JSON; gpus.go, regions.go,
//     compare.go: the GPU, region and side-by-side pages; markdown.go: the
//     Markdown pages.
//   - api_site.go: the static JSON API's documents (api/v1) and schemas;
//     api_docs.go: the parts every document shares (head, money, price);
//     api_catalog.go: the index, provider, GPU and region documents;
//     api_instance.go: an instance type and its offers; api_page.go: the API
//     page and llms.txt.
//   - export.go, instances_export.go, parquet.go: the CSV, JSON and Parquet
//     downloads (their columns are a contract); history_parquet.go: the price
//     history as Parquet (HistoryParquet, also `gpuatlas history export`).
//   - charts.go: SVG charts, a wide and a phone drawing each; chart_legend.go: their
//     legends, one entry a line under the plot; chart_narrow.go: the phone layout of
//     a bar chart; history.go: the instance pages' price history,
//     crawled and imported, and its charts; history_archived.go: the pages of
//     types only the public archives name, and the archives' source links.
//   - benchmarks.go: the benchmarks page and results on instance and GPU pages;
//     published.go: published results (MLPerf, vendors' tables) on instance and
//     GPU pages, with "no result for this count"; published_pages.go: a page
//     per workload of published results and its results per scenario;
//     changes.go, feed.go: the changes pages and their Atom feed;
//     changes_week.go: the last seven days' changes, one comparison of the
//     newest crawl with the crawl a week before;
//     changes_observed.go: the archives' dated price changes and their share of
//     the GPU price trends.
//   - scenarios.go: the scenario index and pages, from compare.ScenarioReport's
//     matrix; scenarios_spot.go: an interruptible scenario's ranking on spot at
//     the risk-adjusted price, from the report's spot matrix; tco.go: the TCO
//     page and its calculator, from its presets; fits.go: the scenarios an
//     instance type or GPU fits, from the same report; fit.go: the memory
//     estimator page and its data (data/fit.json).
//   - sitemap.go: sitemap.xml and robots.txt.
package sitegen
