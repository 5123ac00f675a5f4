#!/usr/bin/env bash
# The nightly job, in phases, so that the workflow gives each phase only what
# it needs (docs/nightly.md): the provider credentials reach the crawl phase
# alone.
#
#   scripts/nightly.sh [PHASE...]   (default: build prepare crawl check)
#
#   build    build gpuatlas into $NIGHTLY_WORK/bin
#   prepare  the candidate data in $NIGHTLY_WORK/candidate: a copy of the
#            published crawl data ($PUBLISHED_DIR), or, before the first
#            crawl, of the embedded catalog and history ($DATA_DIR)
#   crawl    crawl into the candidate, guard, record history. The only phase
#            that reads provider credentials. When the guard stops the update
#            the snapshot it stopped is kept in $NIGHTLY_WORK/report.
#   check    the project's checks on the candidate, before anything is
#            committed or published: the data-quality check with the nightly's
#            alarms (a provider stale for more than $MAX_STALE_DAYS days, less
#            than $MIN_COVERAGE percent of the offers confirmed), benchmark
#            validation against it, the history's size budget (an unchanged
#            crawl adds at most $HISTORY_BUDGET_KB KB; the file stays under
#            $HISTORY_MAX_MB MB), the embedded data left untouched; then build
#            the site from it and write the diff and the reports to the job
#            summary
#   stage    copy the checked candidate into $PUBLISHED_DIR (what the commit
#            job commits)
#
# The embedded catalog (data/catalog.json, data/history.jsonl) is built from
# the recorded responses and checked by `make verify`; the nightly never
# touches it. Its crawls go to the published data ($PUBLISHED_DIR, default
# published/), which the site is built from.
#
# Inputs (environment): NIGHTLY_OFFLINE (0|1: crawl local replay servers of the
# recorded responses), NIGHTLY_WORK (the folder the phases share; default a
# temporary one, removed at the end), PUBLISHED_DIR (default published),
# DATA_DIR (default data), PROVIDERS (comma-separated subset to crawl; the
# others keep their data), MAX_STALE_DAYS (default 7), MIN_COVERAGE (percent,
# default 50), HISTORY_BUDGET_KB (default 64), HISTORY_MAX_MB (default 90),
# SITE_DIR (default public), SITE_URL and BASE_URL (the origin and path the
# site is published at; in GitHub Actions, without them, the repository's
# Pages URL: https://OWNER.github.io and /REPO/, or / for OWNER.github.io;
# else no site URL and /), SUMMARY (default $GITHUB_STEP_SUMMARY or
# nightly-summary.md), ACCEPT_DROP and ACCEPT_PRICE_CHANGE (1 to accept what
# the guard would stop).
# Outputs: $GITHUB_OUTPUT changed=true|false (check: whether the catalog
# changed). Exit status: 0 done; 1 the guard stopped the update, a check
# failed, or a step failed.
set -euo pipefail
cd "$(dirname "$0")/.."

offline=${NIGHTLY_OFFLINE:-0}
data=${DATA_DIR:-data}
published=${PUBLISHED_DIR:-published}
site=${SITE_DIR:-public}
summary=${SUMMARY:-${GITHUB_STEP_SUMMARY:-nightly-summary.md}}
max_stale=${MAX_STALE_DAYS:-7}
min_coverage=${MIN_COVERAGE:-50}
budget_kb=${HISTORY_BUDGET_KB:-64}
max_mb=${HISTORY_MAX_MB:-90}
phases=("$@")
[ ${#phases[@]} -gt 0 ] || phases=(build prepare crawl check)

if [ -n "${NIGHTLY_WORK:-}" ]; then
  work=$NIGHTLY_WORK
  mkdir -p "$work"
  trap 'kill "${replay_pid:-}" 2>/dev/null || true' EXIT
else
  work=$(mktemp -d)
  trap 'kill "${replay_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
fi
atlas="$work/bin/gpuatlas"
cand="$work/candidate"
report="$work/report"
mkdir -p "$report"

# fail writes an error annotation and stops.
fail() { echo "::error title=nightly::$*"; exit 1; }

phase_build() {
  mkdir -p "$work/bin"
  go build -o "$atlas" ./cmd/gpuatlas
}

phase_prepare() {
  rm -rf "$cand"
  mkdir -p "$cand"
  if [ -f "$published/catalog.json" ]; then
    cp "$published/catalog.json" "$cand/catalog.json"
    [ -f "$published/history.jsonl" ] && cp "$published/history.jsonl" "$cand/history.jsonl"
    echo "nightly: starting from the published data in $published"
  else
    # The first crawl starts from the embedded catalog and its history.
    cp "$data/catalog.json" "$cand/catalog.json"
    [ -f "$data/history.jsonl" ] && cp "$data/history.jsonl" "$cand/history.jsonl"
    echo "nightly: no published data yet; starting from the embedded catalog in $data"
  fi
  cp "$cand/catalog.json" "$work/previous.json"
  history_size "$cand/history.jsonl" >"$work/previous-history"
  [ -f "$published/catalog.json" ] || echo "first" >"$work/first-publish"
}

# history_size prints a history file's bytes and records (its header's count),
# 0 0 when there is none.
history_size() {
  if [ -f "$1" ]; then
    echo "$(stat -c %s "$1") $(head -c 4096 "$1" | head -n 1 | sed -n 's/.*"records":\([0-9]*\).*/\1/p')"
  else
    echo "0 0"
  fi
}

phase_crawl() {
  [ -f "$cand/catalog.json" ] || fail "no candidate to crawl into: run the prepare phase first"
  local args=()
  if [ "$offline" = 1 ]; then
    # Only the wholly real recordings are crawled (replayd): the made-up
    # ones serve the adapters' tests, and the other providers keep their data.
    go build -o "$work/bin/replayd" ./internal/tools/replayd
    rm -f "$work/replay.env"
    "$work/bin/replayd" -env "$work/replay.env" &
    replay_pid=$!
    for _ in $(seq 1 100); do [ -s "$work/replay.env" ] && break; sleep 0.1; done
    [ -s "$work/replay.env" ] || fail "replay servers did not start"
    # shellcheck disable=SC1091
    source "$work/replay.env"
    read -r -a args <<<"$GPUATLAS_REPLAY_ARGS"
    args+=(--fx-file providers/fx/testdata/ecb-2025-11-28.xml --no-rate-limit)
  fi
  # Google Cloud reads its credentials from a file: the GCP_CREDENTIALS_JSON
  # secret (a service account key or a workload identity federation file) is
  # written to one only this user can read, for this phase, and removed after.
  local gcp_key=
  if [ -n "${GCP_CREDENTIALS_JSON:-}" ] && [ -z "${GOOGLE_APPLICATION_CREDENTIALS:-}" ]; then
    gcp_key=$(umask 077 && mktemp "$work/gcp-credentials.XXXXXX")
    printf '%s' "$GCP_CREDENTIALS_JSON" >"$gcp_key"
    export GOOGLE_APPLICATION_CREDENTIALS="$gcp_key"
  fi
  unset GCP_CREDENTIALS_JSON
  [ -n "${PROVIDERS:-}" ] && args+=(--providers "$PROVIDERS")
  [ "${ACCEPT_DROP:-0}" = 1 ] && args+=(--accept-drop)
  [ "${ACCEPT_PRICE_CHANGE:-0}" = 1 ] && args+=(--accept-price-change)
  echo "::group::crawl"
  set +e
  "$atlas" crawl "${args[@]}" --out "$cand/catalog.json" --history "$cand/history.jsonl" \
    --rejected "$report/rejected-catalog.json" 2>&1 | tee "$report/crawl.log"
  local code=${PIPESTATUS[0]}
  set -e
  echo "::endgroup::"
  if [ -n "$gcp_key" ]; then rm -f "$gcp_key"; unset GOOGLE_APPLICATION_CREDENTIALS; fi
  if [ -n "${replay_pid:-}" ]; then kill "$replay_pid" 2>/dev/null || true; wait "$replay_pid" 2>/dev/null || true; replay_pid=; fi
  case $code in
    0) ;;
    3) echo "::warning title=nightly::crawl finished with partial coverage; failed providers and regions keep their previous data, marked stale" ;;
    *) fail "crawl stopped (exit $code): see the guard report in the log and the nightly-report artifact (the stopped snapshot, rejected-catalog.json); rerun with accept_drop or accept_price_change if the change is real" ;;
  esac
}

phase_check() {
  [ -f "$cand/catalog.json" ] || fail "no candidate to check"
  # The data-quality report goes to the job summary whatever it finds;
  # errors (made-up or unsourced data, an unmarked implausible price, a
  # suspect offer leading an answer, a provider stale too long, too little
  # of the catalog confirmed) stop the job before anything is published.
  echo "::group::data quality"
  set +e
  "$atlas" check --catalog "$cand/catalog.json" --format markdown \
    --max-stale-days "$max_stale" --min-coverage "$min_coverage" >"$report/check.md"
  local code=$?
  set -e
  echo "::endgroup::"
  case $code in
    0) ;;
    1) cat "$report/check.md" >>"$summary"
       fail "the data-quality check found errors (see the job summary and the nightly-report artifact); nothing was committed or published" ;;
    *) fail "the data-quality check failed (exit $code)" ;;
  esac

  echo "::group::validate benchmarks"
  "$atlas" validate --catalog "$cand/catalog.json" "$data/benchmarks" || fail "the benchmark uploads do not validate against the candidate catalog"
  echo "::endgroup::"

  set +e
  "$atlas" diff --format markdown "$work/previous.json" "$cand/catalog.json" >"$report/diff.md"
  local diff_code=$?
  set -e
  [ "$diff_code" -le 1 ] || fail "diff failed"

  # The history's size: a crawl that changed nothing (no record opened or
  # closed: the header's record count stays) adds its crawl line only, and
  # the file stays well under GitHub's 100 MB limit (docs/nightly.md says how
  # old history is archived).
  local before before_records after after_records grew
  read -r before before_records <"$work/previous-history"
  read -r after after_records < <(history_size "$cand/history.jsonl")
  grew=$((after - before))
  echo "nightly: history $before -> $after bytes (+$grew), $before_records -> $after_records records"
  if [ "$before" -gt 0 ] && [ "$after_records" = "$before_records" ] && [ "$grew" -gt $((budget_kb * 1024)) ]; then
    fail "a crawl that changed nothing grew the history by $grew bytes, over the budget of $budget_kb KB"
  fi
  # What to commit: a changed catalog, a changed history, or the first data.
  local changed=false
  if [ "$diff_code" = 1 ] || [ "$after_records" != "$before_records" ] || [ -f "$work/first-publish" ]; then changed=true; fi
  [ "$after" -le $((max_mb * 1024 * 1024)) ] || fail "the history is $after bytes, over $max_mb MB: archive its older part (docs/nightly.md)"
  # The embedded data is the replay build's, checked by make verify.
  if git rev-parse --git-dir >/dev/null 2>&1 && [ -n "$(git status --porcelain -- "$data/catalog.json" "$data/history.jsonl")" ]; then
    fail "$data/catalog.json or $data/history.jsonl changed: the nightly writes only $published"
  fi

  echo "::group::build"
  local site_url=${SITE_URL:-} base=${BASE_URL:-}
  if [ -z "$site_url" ] && [ -n "${GITHUB_REPOSITORY:-}" ]; then
    # GitHub Pages: the owner's host (lower case) and the repository's path,
    # except for the owner's own OWNER.github.io repository, served at the root.
    local owner=${GITHUB_REPOSITORY%%/*} repo=${GITHUB_REPOSITORY#*/}
    site_url="https://${owner,,}.github.io"
    if [ -z "$base" ]; then
      if [ "${repo,,}" = "${owner,,}.github.io" ]; then base=/; else base="/$repo/"; fi
    fi
  fi
  base=${base:-/}
  local build_args=(--catalog "$cand/catalog.json" --history "$cand/history.jsonl" --out "$site" --base-url "$base")
  [ -n "$site_url" ] && build_args+=(--site-url "$site_url")
  "$atlas" build "${build_args[@]}"
  if [ -n "$site_url" ]; then
    # The published site is complete: a sitemap, canonical URLs, Open Graph.
    [ -s "$site/sitemap.xml" ] || fail "the site has no sitemap.xml"
    grep -q "<link rel=\"canonical\" href=\"$site_url$base\"" "$site/index.html" || fail "index.html has no canonical URL under $site_url$base"
    grep -q '<meta property="og:url"' "$site/index.html" || fail "index.html has no Open Graph URL"
    echo "nightly: site for $site_url$base"
  fi
  echo "::endgroup::"

  cat "$report/diff.md" "$report/check.md" >>"$summary"
  echo "$changed" >"$work/changed"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "changed=$changed" >>"$GITHUB_OUTPUT"; fi
  echo "nightly: checked; catalog changed: $changed; site in $site; diff in $summary"
}

phase_stage() {
  [ -f "$cand/catalog.json" ] || fail "no candidate to stage"
  mkdir -p "$published"
  cp "$cand/catalog.json" "$published/catalog.json"
  cp "$cand/history.jsonl" "$published/history.jsonl"
  echo "nightly: staged the candidate in $published"
}

for p in "${phases[@]}"; do
  case $p in
    build | prepare | crawl | check | stage) "phase_$p" ;;
    *) echo "nightly: unknown phase $p (want build, prepare, crawl, check or stage)" >&2; exit 2 ;;
  esac
done
