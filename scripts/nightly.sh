#!/usr/bin/env bash
# The nightly job: crawl, guard, record history, check the data's quality,
# validate benchmarks, build the site and write the Markdown diff and the
# data-quality report to the job summary. The GitHub Actions workflow runs it against the
# real APIs; `make nightly` runs it offline against the recorded responses
# (NIGHTLY_OFFLINE=1), on a copy of the data, so the whole job is tested here.
#
# Inputs (environment): NIGHTLY_OFFLINE (0|1), DATA_DIR (default data),
# SITE_DIR (default public), SITE_URL and BASE_URL (the origin and path the
# site is published at; in GitHub Actions, without them, the repository's
# Pages URL: https://OWNER.github.io and /REPO/, or / for OWNER.github.io;
# else no site URL and /), SUMMARY (Markdown diff file,
# default $GITHUB_STEP_SUMMARY or nightly-summary.md), ACCEPT_DROP and
# ACCEPT_PRICE_CHANGE (1 to accept what the guard would stop).
# Exit status: 0 done (data may or may not have changed; see $GITHUB_OUTPUT
# changed=true|false), 1 the guard stopped the update, the data-quality check
# found errors, or a step failed.
set -euo pipefail
cd "$(dirname "$0")/.."

offline=${NIGHTLY_OFFLINE:-0}
data=${DATA_DIR:-data}
site=${SITE_DIR:-public}
site_url=${SITE_URL:-}
base=${BASE_URL:-}
if [ -z "$site_url" ] && [ -n "${GITHUB_REPOSITORY:-}" ]; then
  # GitHub Pages: the owner's host (lower case) and the repository's path,
  # except for the owner's own OWNER.github.io repository, served at the root.
  owner=${GITHUB_REPOSITORY%%/*}
  repo=${GITHUB_REPOSITORY#*/}
  site_url="https://${owner,,}.github.io"
  if [ -z "$base" ]; then
    if [ "${repo,,}" = "${owner,,}.github.io" ]; then base=/; else base="/$repo/"; fi
  fi
fi
base=${base:-/}
summary=${SUMMARY:-${GITHUB_STEP_SUMMARY:-nightly-summary.md}}
work=$(mktemp -d)
trap 'kill "${replay_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

go build -o "$work/gpuatlas" ./cmd/gpuatlas
atlas="$work/gpuatlas"

crawl_args=()
if [ "$offline" = 1 ]; then
  # Work on a copy: the offline run must never change the committed data.
  # Only the wholly real recordings are crawled (replayd): the made-up ones
  # serve the adapters' tests, and the other providers keep their data.
  mkdir -p "$work/data"
  cp "$data/catalog.json" "$work/data/catalog.json"
  [ -f "$data/history.jsonl" ] && cp "$data/history.jsonl" "$work/data/history.jsonl"
  data="$work/data"
  go build -o "$work/replayd" ./internal/tools/replayd
  "$work/replayd" -env "$work/replay.env" &
  replay_pid=$!
  for _ in $(seq 1 100); do [ -s "$work/replay.env" ] && break; sleep 0.1; done
  [ -s "$work/replay.env" ] || { echo "nightly: replay servers did not start"; exit 1; }
  # shellcheck disable=SC1091
  source "$work/replay.env"
  read -r -a crawl_args <<<"$GPUATLAS_REPLAY_ARGS"
  crawl_args+=(--fx-file providers/fx/testdata/ecb-2025-11-28.xml --no-rate-limit)
fi
[ "${ACCEPT_DROP:-0}" = 1 ] && crawl_args+=(--accept-drop)
[ "${ACCEPT_PRICE_CHANGE:-0}" = 1 ] && crawl_args+=(--accept-price-change)

cp "$data/catalog.json" "$work/previous.json"
echo "::group::crawl"
set +e
"$atlas" crawl "${crawl_args[@]}" --out "$data/catalog.json" --history "$data/history.jsonl"
crawl=$?
set -e
echo "::endgroup::"
case $crawl in
  0) ;;
  3) echo "::warning title=nightly::crawl finished with partial coverage; failed providers and regions keep their previous data, marked stale" ;;
  *) echo "::error title=nightly::crawl stopped (exit $crawl): see the guard report above; rerun with ACCEPT_DROP=1 or ACCEPT_PRICE_CHANGE=1 if the change is real"; exit 1 ;;
esac

# The data-quality report goes to the job summary whatever it finds; errors
# (made-up or unsourced data, an unmarked implausible price, a suspect offer
# leading an answer) stop the job before anything is built or published.
echo "::group::data quality"
set +e
"$atlas" check --catalog "$data/catalog.json" --format markdown >"$work/check.md"
check=$?
set -e
echo "::endgroup::"
case $check in
  0) ;;
  1) cat "$work/check.md" >>"$summary"
     echo "::error title=nightly::the data-quality check found errors (see the job summary); nothing was built or published"
     exit 1 ;;
  *) echo "::error title=nightly::the data-quality check failed (exit $check)"; exit 1 ;;
esac

echo "::group::validate benchmarks"
"$atlas" validate --catalog "$data/catalog.json" data/benchmarks # benchmarks, and the check again in the log
echo "::endgroup::"

echo "::group::build"
build_args=(--catalog "$data/catalog.json" --out "$site" --base-url "$base")
[ -n "$site_url" ] && build_args+=(--site-url "$site_url")
"$atlas" build "${build_args[@]}"
if [ -n "$site_url" ]; then
  # The published site is complete: a sitemap, canonical URLs, Open Graph.
  [ -s "$site/sitemap.xml" ] || { echo "::error title=nightly::the site has no sitemap.xml"; exit 1; }
  grep -q "<link rel=\"canonical\" href=\"$site_url$base\"" "$site/index.html" || { echo "::error title=nightly::index.html has no canonical URL under $site_url$base"; exit 1; }
  grep -q '<meta property="og:url"' "$site/index.html" || { echo "::error title=nightly::index.html has no Open Graph URL"; exit 1; }
  echo "nightly: site for $site_url$base"
fi
echo "::endgroup::"

set +e
"$atlas" diff --format markdown "$work/previous.json" "$data/catalog.json" >"$work/diff.md"
diff_code=$?
set -e
[ $diff_code -le 1 ] || { echo "::error title=nightly::diff failed"; exit 1; }
cat "$work/diff.md" "$work/check.md" >>"$summary"
changed=false
[ $diff_code = 1 ] && changed=true
[ -n "${GITHUB_OUTPUT:-}" ] && echo "changed=$changed" >>"$GITHUB_OUTPUT"
echo "nightly: done; catalog changed: $changed; site in $site; diff in $summary"
