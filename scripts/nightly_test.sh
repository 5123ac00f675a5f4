#!/usr/bin/env bash
# The nightly's end-to-end test (make nightly): on a copy of this repository
# (its tracked and untracked, not ignored, files, committed in a fresh git
# repository whose main lives in a local bare repository), run the nightly
# offline twice in a row, commit and push what it would (the commit job:
# scripts/nightly-commit.sh, while main moved meanwhile), and then run the
# project's own checks on the pushed commit: benchmark validation, the embedded
# data's drift check (make verify's), a clean tree, the published catalog's
# quality check and the history's size budget (two identical crawls grow it
# by at most HISTORY_BUDGET_KB, default 64, KB).
set -euo pipefail
cd "$(dirname "$0")/.."
budget_kb=${HISTORY_BUDGET_KB:-64}
# The copy lives in a new temporary folder each run. Without -trimpath the
# build cache keys every package of this module by its folder, so each run
# compiled the whole module again (78 s for the test, 40 s now, warm caches,
# 2 cores, 2026-12-06); with it, a package compiled once from the same source is reused, whatever
# folder it is in (make build's release binary is built -trimpath too).
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo="$tmp/repo"
start=$SECONDS

mkdir -p "$repo"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  tar --null -T - -cf - | tar -xf - -C "$repo"
cd "$repo"
git init -q -b main
git -c user.name=nightly-test -c user.email=nightly-test@example.invalid add -A
git -c user.name=nightly-test -c user.email=nightly-test@example.invalid commit -qm "copy of the working tree"
[ ! -e published ] || { echo "nightly test: the copy already has published data; the test starts without it" >&2; exit 1; }
# main lives in a bare repository, as on GitHub; the nightly pushes there.
git init -q --bare -b main "$tmp/origin.git"
git remote add origin "$tmp/origin.git"
git push -q origin main

run() { # run N: the nightly offline, then the commit job when it would commit
  local n=$1 work="$tmp/work$1"
  mkdir -p "$work/bin"
  local phases=(build prepare crawl check)
  if [ "$n" -gt 1 ]; then cp "$tmp/work1/bin/gpuatlas" "$work/bin/"; phases=(prepare crawl check); fi
  git fetch -q origin main && git checkout -q --detach origin/main
  NIGHTLY_OFFLINE=1 NIGHTLY_WORK="$work" GITHUB_REPOSITORY=gpuatlas/gpuatlas GITHUB_OUTPUT="$work/output" \
    SITE_DIR="$tmp/site$n" SUMMARY="$tmp/summary$n.md" HISTORY_BUDGET_KB="$budget_kb" \
    ./scripts/nightly.sh "${phases[@]}" >"$tmp/log$n" 2>&1 || { cat "$tmp/log$n"; echo "nightly test: run $n failed" >&2; exit 1; }
  if [ "$n" = 1 ]; then
    # main moves while the nightly runs: someone pushes an unrelated commit.
    git clone -q "$tmp/origin.git" "$tmp/other"
    (cd "$tmp/other" && echo "an unrelated change" >>README.md && git add README.md &&
      git -c user.name=someone -c user.email=someone@example.invalid commit -qm "an unrelated change during the crawl" && git push -q origin main)
  fi
  if grep -q '^changed=true$' "$work/output"; then
    NIGHTLY_WORK="$work" ./scripts/nightly-commit.sh >>"$tmp/log$n" 2>&1 || { cat "$tmp/log$n"; echo "nightly test: run $n: the commit failed" >&2; exit 1; }
  fi
  echo "nightly test: run $n: changed $(sed -n 's/^changed=//p' "$work/output"), history $(stat -c %s "$work/candidate/history.jsonl") bytes"
}
run 1
run 2
git fetch -q origin main && git checkout -q --detach origin/main
grep -q "an unrelated change" README.md || { echo "nightly test: the nightly's push lost the change made on main during the crawl" >&2; exit 1; }

first=$(stat -c %s "$tmp/work1/candidate/history.jsonl")
second=$(stat -c %s "$tmp/work2/candidate/history.jsonl")
grew=$((second - first))
[ "$grew" -le $((budget_kb * 1024)) ] || { echo "nightly test: the second identical crawl grew the history by $grew bytes, over $budget_kb KB" >&2; exit 1; }
echo "nightly test: the second identical crawl grew the history by $grew bytes (budget $budget_kb KB)"
# The budget is enforced: the same check with a budget below that growth fails,
# loudly, before the site is built.
if NIGHTLY_WORK="$tmp/work2" HISTORY_BUDGET_KB=$(( grew / 1024 - 1 < 0 ? 0 : grew / 1024 - 1 )) SITE_DIR="$tmp/site-budget" SUMMARY="$tmp/summary-budget.md" \
  ./scripts/nightly.sh check >"$tmp/log-budget" 2>&1; then
  echo "nightly test: the check phase let a history over its budget through" >&2; exit 1
fi
grep -q "::error title=nightly::a crawl that changed nothing grew the history" "$tmp/log-budget" || { cat "$tmp/log-budget"; echo "nightly test: the over-budget history failed for another reason" >&2; exit 1; }
[ ! -e "$tmp/site-budget" ] || { echo "nightly test: a site was built from a history over its budget" >&2; exit 1; }

# The project's checks, on the commit the nightly pushed.
[ -f published/catalog.json ] && [ -f published/history.jsonl ] || { echo "nightly test: nothing was published" >&2; exit 1; }
[ -z "$(git status --porcelain)" ] || { echo "nightly test: the tree is not clean after the nightly's commit:" >&2; git status --short >&2; exit 1; }
go run ./cmd/gpuatlas validate
"$tmp/work1/bin/gpuatlas" check --catalog published/catalog.json --max-stale-days 7 --min-coverage 50 >/dev/null
go run ./internal/tools/mkdata --out "$tmp/verify-catalog.json" --history "$tmp/verify-history.jsonl" --sources data/history-sources >/dev/null 2>&1
cmp data/catalog.json "$tmp/verify-catalog.json" || { echo "nightly test: data/catalog.json drifts from the replay build after the nightly's commit" >&2; exit 1; }
cmp data/history.jsonl "$tmp/verify-history.jsonl" || { echo "nightly test: data/history.jsonl drifts from the replay build after the nightly's commit" >&2; exit 1; }
# A re-run of the first night's commit job must not overwrite newer data.
if NIGHTLY_WORK="$tmp/work1" PUSH_ATTEMPTS=1 ./scripts/nightly-commit.sh >"$tmp/log-rerun" 2>&1 && ! grep -q "nothing to commit" "$tmp/log-rerun"; then
  echo "nightly test: a re-run of an old commit job overwrote newer published data" >&2; exit 1
fi
echo "nightly test: ok in $((SECONDS - start)) s: two offline nightlies, $(git rev-list --count HEAD) commits on main, the project's checks green on the last"
