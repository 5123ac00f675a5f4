#!/usr/bin/env bash
# The site's speed and size targets (issue 7), measured and enforced here rather
# than in the ordinary tests: the explorer's first load must weigh under 250 KB
# compressed with a realistic catalog, and filtering and rendering 10,000 offers
# in Chromium must take under 16 ms (median over the filter steps). Prints the
# measured figures; exits 1 when a target is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
export GPUATLAS_PERF_TARGETS=1
go test -count=1 -v -run 'TestExplorer_FirstLoadWeight' ./sitegen | grep -E 'first load|FAIL|ok'
go test -count=1 -v -run 'TestBrowser_Explorer10kRows' ./cmd/gpuatlas | grep -E 'filter \+ render|FAIL|ok'
