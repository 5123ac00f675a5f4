#!/usr/bin/env bash
# The nightly's commit job: commit the checked candidate data (from the crawl
# job's artifact in $NIGHTLY_WORK) to published/ on main and push, rebasing
# and retrying when main moved meanwhile (at most $PUSH_ATTEMPTS times).
#
# It refuses to overwrite published data it did not start from: when
# published/catalog.json on main is not the snapshot this run's crawl started
# from (a later run, or a re-run of an old one, published since), it stops
# and asks for a new run, rather than lose a crawl from the history.
#
# Inputs (environment): NIGHTLY_WORK, GH_TOKEN (a token that may push to the
# repository; used only on the git fetch and push command lines, never stored
# in .git/config), GITHUB_REPOSITORY, PUSH_ATTEMPTS (default 5), GIT_REMOTE
# (default origin).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${NIGHTLY_WORK:?NIGHTLY_WORK: the folder with the candidate data}
remote=${GIT_REMOTE:-origin}
attempts=${PUSH_ATTEMPTS:-5}
published=published

auth=()
if [ -n "${GH_TOKEN:-}" ]; then
  # As actions/checkout does, but for these commands only.
  auth=(-c "http.https://github.com/.extraheader=AUTHORIZATION: basic $(printf 'x-access-token:%s' "$GH_TOKEN" | base64 -w0)")
fi
git config user.name "gpuatlas-nightly"
git config user.email "gpuatlas-nightly@users.noreply.github.com"

# started_from_main reports whether main's published data is what this run's
# crawl started from.
started_from_main() {
  if git cat-file -e "$remote/main:$published/catalog.json" 2>/dev/null; then
    git show "$remote/main:$published/catalog.json" | cmp -s - "$work/previous.json"
  else
    [ -f "$work/first-publish" ] # the first crawl starts from the embedded data
  fi
}

date=$(date -u +%Y-%m-%d)
for attempt in $(seq 1 "$attempts"); do
  git "${auth[@]}" fetch --quiet "$remote" main
  if git show "$remote/main:$published/catalog.json" 2>/dev/null | cmp -s - "$work/candidate/catalog.json"; then
    echo "nightly: main already holds this data; nothing to commit"
    exit 0
  fi
  if ! started_from_main; then
    echo "::error title=nightly::main's $published data changed since this run's crawl started (a later run published): not overwriting it; run the nightly again"
    exit 1
  fi
  git checkout --quiet --detach "$remote/main"
  mkdir -p "$published"
  cp "$work/candidate/catalog.json" "$work/candidate/history.jsonl" "$published/"
  git add "$published"
  if git diff --cached --quiet; then
    echo "nightly: main already holds this data; nothing to commit"
    exit 0
  fi
  git commit --quiet -m "data: nightly crawl $date"
  if git "${auth[@]}" push --quiet "$remote" HEAD:main; then
    echo "nightly: pushed $(git rev-parse --short HEAD) to main (attempt $attempt)"
    exit 0
  fi
  echo "::warning title=nightly::push to main failed (attempt $attempt of $attempts): main moved; fetching and trying again"
  sleep $((attempt * 5))
done
echo "::error title=nightly::could not push the published data after $attempts attempts; the site was deployed from it all the same"
exit 1
