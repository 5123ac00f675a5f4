#!/usr/bin/env bash
# Runs every fuzz target of the module for a short time each (FUZZTIME, default
# 5s), one after another: go test -fuzz takes one target and one package at a
# time. A failing input is written under the package's testdata/fuzz/<Target>/;
# commit it with the fix so that `go test` replays it from then on.
#
# Usage: scripts/fuzz.sh [PATTERN]   (PATTERN filters target names, a grep -E regexp)
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-5s}
pattern=${1:-.}
fail=0
n=0
while IFS=: read -r file name; do
  [[ $name =~ $pattern ]] || continue
  pkg=./$(dirname "$file")
  n=$((n + 1))
  echo "fuzz: $pkg $name ($fuzztime)"
  if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg"; then
    echo "fuzz: $pkg $name FAILED (the input is under $pkg/testdata/fuzz/$name/)"
    fail=1
  fi
done < <(git ls-files --cached --others --exclude-standard '*_test.go' |
  xargs grep -oHE '^func (Fuzz[A-Za-z0-9_]+)\(f \*testing\.F\)' |
  sed -E 's/:func (Fuzz[A-Za-z0-9_]+)\(.*/:\1/' | sort)
echo "fuzz: $n targets, ${fuzztime} each"
exit $fail
