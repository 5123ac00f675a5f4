#!/usr/bin/env bash
# The long versions of the fault, kill and site-safety tests (make stress):
# every region of every replay under seeded random faults (three seeds),
# limits measured over full crawls, 100 kills of crawl and build, credentials
# and hostile strings. GPUATLAS_STRESS=1 switches the tests to their long form;
# they print their figures (faults injected, retries, swept calls, rows lost)
# with -v.
#
# Then the timed crawls (about 5 minutes): the fault-free crawl and three
# crawls with 30 % of attempts failing (throttles, 5xx, resets), all five
# providers at their production rate limits against replays answering after
# 50 ms, run at once and compared (internal/tools/benchcrawl -faults): faults
# injected and seen, retries, swept calls, rows lost, identical or not, and
# the time against the fault-free crawl (target 1.5x). STRESS_TIMING=0 skips
# them; STRESS_REGIONS=r1,r2 limits them to some regions for a quick trial.
#
# Usage: scripts/stress.sh [-run REGEXP]   (default: every stress-aware test)
set -euo pipefail
cd "$(dirname "$0")/.."
run=${1:-}
if [ "$run" = "-run" ]; then run=$2; fi
run=${run:-'TestCrawl_|TestCrawlMain_|TestKill_|TestInterrupt_|TestCredentials_|TestSite_|TestCorruptData_'}
export GPUATLAS_STRESS=1
log=${STRESS_LOG:-${TMPDIR:-/tmp}/gpuatlas-stress.log}
start=$(date +%s)
set +e
go test -count=1 -timeout 30m -v -run "$run" ./internal/e2e/ 2>&1 |
  grep -vE '^(SDK [0-9/: ]+WARN|read volcenginebody err|Unmarshal err)' |
  tee "$log" |
  grep -E '^(=== RUN|--- |\s+[a-z_]+_test\.go:[0-9]+:|\s{2,}[a-z]+: |PASS|FAIL|ok )'
status=${PIPESTATUS[0]}
timing=0
if [ "${STRESS_TIMING:-1}" != 0 ]; then
  echo "stress: timed crawls at production rate limits, 30% faults, seeds 1, 2, 3 (about 5 minutes)"
  go run ./internal/tools/benchcrawl -faults 0.3 -seeds 1,2,3 -timeout 20m ${STRESS_REGIONS:+-regions "$STRESS_REGIONS"} 2>&1 |
    grep -vE '^(SDK [0-9/: ]+WARN|read volcenginebody err|Unmarshal err)' | tee -a "$log"
  timing=${PIPESTATUS[0]}
fi
set -e
echo "stress: $(( $(date +%s) - start ))s, tests exit $status, timed crawls exit $timing; full log in $log"
[ "$status" = 0 ] && [ "$timing" = 0 ]
