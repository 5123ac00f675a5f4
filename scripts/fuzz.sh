#!/usr/bin/env bash
# Runs every fuzz target of the module for a short time each (FUZZTIME, default
# 20s: the workers' start and the seed corpus take the first seconds, so a
# shorter run reports the start more than the fuzzing), one after another: go test -fuzz takes one target and one package at a
# time. A failing input is written under the package's testdata/fuzz/<Target>/;
# commit it with the fix so that `go test` replays it from then on.
#
# At the end it prints a table: per target the executions and seconds that go
# test -fuzz reported, the executions per second over the whole run and while
# fuzzing (after the workers started and ran the corpus), the new inputs
# found, and the load average of the machine before and after (the figures
# are only as good as the CPU the fuzzing processes got). A target that runs
# fewer than 1,000 executions a second while fuzzing is marked;
# FUZZ_MIN_RATE=N makes a target under N fail the run.
#
# FUZZMINIMIZE (default 1000x) bounds how long each input that finds new
# coverage is made smaller before it joins the corpus: go test's default of 60 s
# an input would spend most of a short run minimizing, counted as no execution.
# A failing input is minimized as long as that too.
#
# Each package's fuzzing test binary is built once (go test -c -fuzz=.) and
# run for each of its targets from the package's folder, as go test -fuzz runs
# it (the same flags, cache folder and testdata/fuzz corpus): go test -fuzz
# would build and link it again for every target, which was most of a short
# run's time (65 s of 34 targets at 20x, 2026-12-06).
#
# Usage: scripts/fuzz.sh [PATTERN]   (PATTERN filters target names, a grep -E regexp)
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-20s}
minimize=${FUZZMINIMIZE:-1000x}
min_rate=${FUZZ_MIN_RATE:-}
pattern=${1:-.}
log=$(mktemp "${TMPDIR:-/tmp}/gpuatlas-fuzz.XXXXXX")
bins=$(mktemp -d "${TMPDIR:-/tmp}/gpuatlas-fuzz-bin.XXXXXX")
trap 'rm -rf "$log" "$bins"' EXIT
fuzzcache=$(go env GOCACHE)/fuzz
# fuzzbin PKG: the package's fuzzing test binary, built on first use (its path
# on stdout; the build's errors on stderr, and no path, when it fails).
fuzzbin() {
  local bin
  bin="$bins/$(tr '/.' '__' <<<"$1").test"
  [ -x "$bin" ] || go test -c -fuzz=. -o "$bin" "$1" >&2 || return 1
  echo "$bin"
}
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
fail=0
n=0
rows=()
load_before=$(load)
while IFS=: read -r file name; do
  [[ $name =~ $pattern ]] || continue
  pkg=./$(dirname "$file")
  n=$((n + 1))
  echo "fuzz: $pkg $name ($fuzztime)"
  status=ok
  if ! { bin=$(fuzzbin "$pkg") && importpath=$(go list "$pkg") &&
    (cd "$pkg" && "$bin" -test.paniconexit0 -test.timeout=10m -test.run='^$' -test.fuzz="^${name}\$" \
      -test.fuzztime="$fuzztime" -test.fuzzminimizetime="$minimize" -test.fuzzcachedir="$fuzzcache/$importpath"); } 2>&1 | tee "$log"; then
    echo "fuzz: $pkg $name FAILED (the input is under $pkg/testdata/fuzz/$name/)"
    status=FAILED
    fail=1
  fi
  # The progress lines hold the totals so far:
  #   fuzz: elapsed: 5s, execs: 12345 (2469/sec), new interesting: 3 (total: 9)
  # The rate is over the whole run (execs / elapsed: worker start, baseline
  # and minimizing included) and while fuzzing (from the first progress line
  # to the last, which the 1,000-a-second mark is judged on).
  progress=$(grep -E '^fuzz: elapsed: [0-9]+s, execs: [0-9]+ ' "$log" || true)
  first=$(head -n 1 <<<"$progress") last=$(tail -n 1 <<<"$progress")
  re='elapsed: ([0-9]+)s, execs: ([0-9]+) .*new interesting: ([0-9]+)'
  if [[ $last =~ $re ]]; then
    secs=${BASH_REMATCH[1]} execs=${BASH_REMATCH[2]} found=${BASH_REMATCH[3]}
    [[ $first =~ $re ]]
    t0=${BASH_REMATCH[1]} e0=${BASH_REMATCH[2]}
    rate=$((execs / (secs > 0 ? secs : 1)))
    steady=$rate
    if ((secs > t0)); then
      steady=$(((execs - e0) / (secs - t0)))
    fi
    note=""
    if ((steady < 1000)); then
      note="below 1000/s"
      if [[ -n $min_rate ]] && ((steady < min_rate)); then
        status=SLOW
        fail=1
      fi
    fi
    rows+=("$(printf '%-26s %-42s %9s %5ss %8s %8s %4s  %s %s' "$pkg" "$name" "$execs" "$secs" "$rate" "$steady" "$found" "$status" "$note")")
  else
    rows+=("$(printf '%-26s %-42s %9s %6s %8s %8s %4s  %s' "$pkg" "$name" "-" "-" "-" "-" "-" "$status")")
  fi
done < <(git ls-files --cached --others --exclude-standard '*_test.go' |
  xargs grep -oHE '^func (Fuzz[A-Za-z0-9_]+)\(f \*testing\.F\)' |
  sed -E 's/:func (Fuzz[A-Za-z0-9_]+)\(.*/:\1/' | sort)
echo
printf '%-26s %-42s %9s %6s %8s %8s %4s  %s\n' package target execs time execs/s fuzzing new result
for r in "${rows[@]}"; do echo "$r"; done
echo "fuzz: $n targets, ${fuzztime} each, inputs minimized for at most $minimize; load average $load_before before, $(load) after ($(nproc) CPUs)"
exit $fail
