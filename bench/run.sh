#!/usr/bin/env bash
# make bench: every speed and size figure of issue 10, measured on this machine
# and printed as one table beside its target.
#
#   crawl     each provider's crawl at its documented rate limits against the
#             replay servers answering with BENCH_LATENCY per request, against
#             the lower bound those limits allow (target ≤ 1.25×); requests per
#             priced offer (target ≤ 1.05) and calls answered "not found"
#             (target 0)
#   build     gpuatlas build of the embedded catalog and of a made-up catalog of
#             BENCH_OFFERS offers (with and without BENCH_DAYS of daily history),
#             against cp -r of the folder it wrote (target ≤ 3×); pages/s, memory
#   snapshot  load and save throughput of the large catalog
#   diff      two large snapshots BENCH_DIFF_DAYS apart (target < 0.5 s, peak
#             memory < 10× a snapshot)
#   history   the nightly job's history step on the long history
#   binary    the release binary's size (make build; target ≤ 60 MB)
#   page      the explorer's first load, gzip (target < 250 KB) and the time to
#             filter 10,000 rows in headless Chromium (target < 16 ms)
#
# The made-up catalog and history come from internal/synth (marked synthetic,
# written only under the scratch folder). A missed target is reported in the
# table, not as an exit status; the script fails only when a measurement fails.
# BENCH_KEEP=1 keeps the scratch folder (BENCH_WORK, default a temporary one).
# BENCH_BUILD_RUNS (default 3) is how many measured builds of the embedded
# catalog give its median, after a warm-up build; 1 is one build, no warm-up
# (make bench-smoke: every step runs and reports, the figure from one build).
# A quick trial: BENCH_OFFERS=5000 BENCH_DAYS=30 BENCH_PROVIDERS=huawei make bench
set -euo pipefail
cd "$(dirname "$0")/.."

offers=${BENCH_OFFERS:-100000}
days=${BENCH_DAYS:-1095}
diff_days=${BENCH_DIFF_DAYS:-30}
build_runs=${BENCH_BUILD_RUNS:-3}
build_warmup=true
[[ $build_runs -gt 1 ]] || build_warmup=false
latency=${BENCH_LATENCY:-50ms}
providers=${BENCH_PROVIDERS:-}   # a comma-separated subset, for a quick run
work=${BENCH_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/gpuatlas-bench.XXXXXX")}
mkdir -p "$work"
crawl_pid=
cleanup() {
  [[ -n $crawl_pid ]] && kill "$crawl_pid" 2>/dev/null || true
  [[ ${BENCH_KEEP:-} == 1 ]] || rm -rf "$work"
}
trap cleanup EXIT
started=$SECONDS
step() { printf 'bench: [%3ds] %s\n' $((SECONDS - started)) "$*" >&2; }

step "compiling (scratch folder $work)"
bin=$work/bin
go build -o "$bin/" ./cmd/gpuatlas ./internal/tools/bench ./internal/tools/benchcrawl ./internal/tools/synth
rm -f "$work"/rows-*.jsonl

# The crawl waits on rate limits, not the processor: it runs while the made-up
# data is generated and the page is measured, and is waited for before the
# builds, which want the machine to themselves.
step "crawl: all five providers at their production limits, $latency per request (about 2 minutes)"
"$bin/benchcrawl" -latency "$latency" -providers "$providers" -rows "$work/rows-crawl.jsonl" >"$work/crawl.log" 2>&1 &
crawl_pid=$!

step "synth: $offers offers, $days daily crawls"
"$bin/synth" -offers "$offers" -days "$days" -diff-days "$diff_days" -out "$work/large"
mkdir -p "$work/large-now" "$work/no-benchmarks"
ln -f "$work/large/catalog.json" "$work/large-now/catalog.json"

step "page: first load and filtering 10,000 rows in Chromium"
GPUATLAS_BENCH_ROWS=$work/rows-page.jsonl go test -count=1 -run 'TestExplorer_FirstLoadWeight' ./sitegen >"$work/page.log" 2>&1 ||
  { cat "$work/page.log" >&2; exit 1; }
if command -v "${GPUATLAS_CHROMIUM:-chromium}" >/dev/null; then
  GPUATLAS_BENCH_ROWS=$work/rows-page.jsonl go test -count=1 -run 'TestBrowser_Explorer10kRows' ./cmd/gpuatlas >>"$work/page.log" 2>&1 ||
    { cat "$work/page.log" >&2; exit 1; }
else
  step "page: no chromium on PATH (GPUATLAS_CHROMIUM): the filter time is not measured"
fi

step "snapshot and diff: $diff_days days apart"
"$bin/bench" diff -gpuatlas "$bin/gpuatlas" -old "$work/large/old.json" -new "$work/large/catalog.json" \
  -work "$work" -rows "$work/rows-diff.jsonl"

step "history: the nightly step on $days crawls"
"$bin/bench" history -history "$work/large/history.jsonl" -catalog "$work/large/catalog.json" \
  -work "$work" -rows "$work/rows-history.jsonl"

step "crawl: waiting for it to finish"
if ! wait "$crawl_pid"; then
  crawl_pid=
  cat "$work/crawl.log" >&2
  exit 1
fi
crawl_pid=

step "build: the embedded catalog"
"$bin/bench" build -gpuatlas "$bin/gpuatlas" -name "embedded catalog" -runs "$build_runs" -warmup="$build_warmup" \
  -work "$work/build-embedded" -rows "$work/rows-build.jsonl"
step "build: $offers offers"
"$bin/bench" build -gpuatlas "$bin/gpuatlas" -name "$offers offers" -catalog "$work/large-now/catalog.json" \
  -benchmarks "$work/no-benchmarks" -runs 1 -warmup=false -work "$work/build-large" -rows "$work/rows-build.jsonl"
step "build: $offers offers with $days days of history"
"$bin/bench" build -gpuatlas "$bin/gpuatlas" -name "$offers offers + $days days of history" -catalog "$work/large/catalog.json" \
  -history "$work/large/history.jsonl" -benchmarks "$work/no-benchmarks" -runs 1 -warmup=false \
  -work "$work/build-history" -rows "$work/rows-build.jsonl"

step "binary: the release build (make build)"
make --no-print-directory build BIN="$bin/gpuatlas-release" >&2
"$bin/bench" binary -path "$bin/gpuatlas-release" -rows "$work/rows-binary.jsonl"

step "done"
echo
"$bin/bench" table -require crawl,build,snapshot,diff,history,page,binary "$work"/rows-*.jsonl
