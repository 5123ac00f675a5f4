#!/usr/bin/env bash
# The long versions of the fault, kill and site-safety tests (make stress):
# every region of every replay under seeded random faults (three seeds),
# limits measured over full crawls, 100 kills of crawl and build, credentials
# and hostile strings. GPUATLAS_STRESS=1 switches the tests to their long form;
# they print their figures (faults injected, retries, time, rows lost) with -v.
#
# Usage: scripts/stress.sh [-run REGEXP]   (default: every stress-aware test)
set -euo pipefail
cd "$(dirname "$0")/.."
run=${1:-}
if [ "$run" = "-run" ]; then run=$2; fi
run=${run:-'TestCrawl_|TestCrawlMain_|TestKill_|TestInterrupt_|TestCredentials_|TestSite_|TestCorruptData_'}
export GPUATLAS_STRESS=1
start=$(date +%s)
go test -count=1 -timeout 30m -v -run "$run" ./internal/e2e/ 2>&1 |
  grep -vE '^(SDK [0-9/: ]+WARN|read volcenginebody err|Unmarshal err)' |
  tee "${STRESS_LOG:-${TMPDIR:-/tmp}/gpuatlas-stress.log}" |
  grep -E '^(=== RUN|--- |\s+[a-z_]+_test\.go:[0-9]+:|\s{2,}[a-z]+: |PASS|FAIL|ok )'
status=${PIPESTATUS[0]}
echo "stress: $(( $(date +%s) - start ))s, exit $status; full log in ${STRESS_LOG:-${TMPDIR:-/tmp}/gpuatlas-stress.log}"
exit "$status"
