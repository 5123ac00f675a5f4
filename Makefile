# GPU Atlas. `make help` lists the targets.
GO       ?= go
SITE     ?= public
ADDR     ?= 127.0.0.1:8080
BASE_URL ?= /
REALDATA ?= ../shared/realdata
PROVIDERS ?=
# The linters are pinned by tool directives and built once into the build cache
# by go tool: nothing is fetched while testing. golangci-lint (v2.15.0) is go.mod's
# tool; actionlint (v1.7.12) and govulncheck are tools/go.mod's, a module of their
# own, because actionlint needs go.yaml.in/yaml/v4 v4.0.0-rc.3 and golangci-lint's
# gosec needs rc.6, whose API differs: one build list cannot hold both.
GOLANGCI ?= $(GO) tool golangci-lint

.DEFAULT_GOAL := help

.PHONY: help
help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  make %-15s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: site
site: ## build the site from the embedded catalog into ./public
	$(GO) run ./cmd/gpuatlas build --out $(SITE) --base-url $(BASE_URL)

# The release binary: stripped (-s -w) and trimmed (-trimpath). make bench
# reports its size against the 60 MB target.
BIN ?= bin/gpuatlas

.PHONY: build
build: ## build the release binary (stripped and trimmed) into bin/gpuatlas (BIN=path to change)
	$(GO) build -trimpath -ldflags='-s -w' -o $(BIN) ./cmd/gpuatlas

.PHONY: serve
serve: site ## build the site and serve it on http://127.0.0.1:8080
	$(GO) run ./cmd/gpuatlas serve --dir $(SITE) --addr $(ADDR) --base-url $(BASE_URL)

.PHONY: crawl
crawl: ## crawl the live provider APIs (credentials from the environment) into the published data, published/ (data/ is the embedded catalog: make data)
	@mkdir -p published
	@[ -f published/catalog.json ] || cp data/catalog.json data/history.jsonl published/
	$(GO) run ./cmd/gpuatlas crawl --out published/catalog.json $(if $(PROVIDERS),--providers $(PROVIDERS))

.PHONY: data
data: ## regenerate data/catalog.json by crawling the recorded responses (offline), and data/history.jsonl from it and data/history-sources
	$(GO) run ./internal/tools/mkdata --out data/catalog.json --history data/history.jsonl --sources data/history-sources

.PHONY: history-sources
history-sources: ## regenerate data/history-sources (dated price observations) and data/interruption_bands.csv (the Spot Instance Advisor copies' dated bands) from ../shared/realdata
	$(GO) run ./internal/tools/historysources -realdata $(REALDATA) -out data/history-sources

.PHONY: fixtures
fixtures: ## regenerate the recorded provider responses from ../shared/realdata
	$(GO) run ./providers/aws/internal/fixturegen -realdata $(REALDATA)/aws -out providers/aws/testdata/replay
	$(GO) run ./providers/alibaba/internal/fixturegen -realdata $(REALDATA)/alibaba -out providers/alibaba/testdata/replay
	$(GO) run ./providers/tencent/internal/fixturegen -realdata $(REALDATA)/tencent -out providers/tencent/testdata/replay
	$(GO) run ./providers/huawei/internal/fixturegen -realdata $(REALDATA)/huawei -out providers/huawei/testdata/replay
	$(GO) run ./providers/volcengine/internal/fixturegen -out providers/volcengine/testdata/replay
	$(GO) run ./providers/azure/internal/fixturegen -realdata $(REALDATA)/azure -out providers/azure/testdata/replay
	$(GO) run ./providers/gcp/internal/fixturegen -realdata $(REALDATA)/gcp -out providers/gcp/testdata/replay

.PHONY: benchmark-sources
benchmark-sources: ## regenerate data/benchmarks/published from the published results in ../shared/realdata/benchmarks
	$(GO) run ./internal/tools/benchsources -src $(REALDATA)/benchmarks -out data/benchmarks/published

.PHONY: test
test: ## run every test: lint (gofmt, vet, layering, golangci-lint), unit, golden, replay, browser, DuckDB, workflow lint, offline nightly, a small make bench
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory duckdb
	$(MAKE) --no-print-directory axe
	$(GO) test -count=1 -timeout 20m ./...
	FUZZTIME=$${FUZZTIME:-20x} ./scripts/fuzz.sh
	$(MAKE) --no-print-directory actionlint
	$(MAKE) --no-print-directory workflow-lint
	$(MAKE) --no-print-directory nightly
	$(MAKE) --no-print-directory bench-smoke

.PHONY: test-short
test-short: ## the inner loop: go test -short ./... (unit tests; skips browsers, whole-site builds, subprocesses, DuckDB and axe; about a minute and a half on 2 cores)
	$(GO) test -short ./...

# DuckDB for Node, for the test that reads the Parquet exports (internal/duckdbtest):
# installed with npm from the committed lock file into the ignored .cache, again only
# when the lock file changed. Without npm the test skips, except under CI=true.
DUCKDB_DIR := .cache/duckdb

.PHONY: duckdb
duckdb: ## install DuckDB for Node (pinned in internal/duckdbtest/package-lock.json) under .cache/duckdb
	@if [ -f $(DUCKDB_DIR)/node_modules/@duckdb/node-api/package.json ] && cmp -s internal/duckdbtest/package-lock.json $(DUCKDB_DIR)/package-lock.json; then \
	  echo "duckdb: installed in $(DUCKDB_DIR)"; \
	elif command -v npm >/dev/null 2>&1; then \
	  mkdir -p $(DUCKDB_DIR) && cp internal/duckdbtest/package.json internal/duckdbtest/package-lock.json $(DUCKDB_DIR)/ && \
	  npm ci --prefix $(DUCKDB_DIR) --no-audit --no-fund --cache "$(CURDIR)/.cache/npm"; \
	elif [ "$${CI:-}" = true ]; then \
	  echo "duckdb: npm not found, and CI=true needs the DuckDB test"; exit 1; \
	else \
	  echo "duckdb: npm not found: the DuckDB test will be skipped"; \
	fi

# axe-core, for the accessibility browser test (internal/browsertest Axe, run by
# cmd/gpuatlas's TestEmbeddedSite): installed with npm from the committed lock
# file into the ignored .cache, again only when the lock file changed. Without
# npm the test skips, except under CI=true.
AXE_DIR := .cache/axe

.PHONY: axe
axe: ## install axe-core (pinned in internal/browsertest/axe/package-lock.json) under .cache/axe
	@if [ -f $(AXE_DIR)/node_modules/axe-core/axe.min.js ] && cmp -s internal/browsertest/axe/package-lock.json $(AXE_DIR)/package-lock.json; then \
	  echo "axe: installed in $(AXE_DIR)"; \
	elif command -v npm >/dev/null 2>&1; then \
	  mkdir -p $(AXE_DIR) && cp internal/browsertest/axe/package.json internal/browsertest/axe/package-lock.json $(AXE_DIR)/ && \
	  npm ci --prefix $(AXE_DIR) --no-audit --no-fund --cache "$(CURDIR)/.cache/npm"; \
	elif [ "$${CI:-}" = true ]; then \
	  echo "axe: npm not found, and CI=true needs the accessibility test"; exit 1; \
	else \
	  echo "axe: npm not found: the accessibility test will be skipped"; \
	fi

.PHONY: docs
docs: ## regenerate docs/reference.md (every command and flag) from the commands' flag definitions
	$(GO) run ./internal/tools/cmdref --out docs/reference.md

.PHONY: golden
golden: ## rewrite golden files after a deliberate change (review the diff)
	$(GO) test $$(grep -l '"github.com/gpuatlas/gpuatlas/internal/golden"' $$(git ls-files '*_test.go') | xargs -n1 dirname | sort -u | sed 's|^|./|') -update

.PHONY: lint
lint: ## gofmt, go vet, the layering rules (internal/layering) and golangci-lint (.golangci.yml)
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt would change:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...
	$(GO) run ./internal/tools/layering
	$(GOLANGCI) run ./...

.PHONY: verify
verify: lint ## lint (with the layering check), benchmark validation, and fail if data/catalog.json or data/history.jsonl drifts from the replay and the history sources
	$(GO) run ./cmd/gpuatlas validate
	$(GO) run ./internal/tools/mkdata --out $${TMPDIR:-/tmp}/gpuatlas-verify-catalog.json --history $${TMPDIR:-/tmp}/gpuatlas-verify-history.jsonl --sources data/history-sources
	cmp data/catalog.json $${TMPDIR:-/tmp}/gpuatlas-verify-catalog.json || { echo "data/catalog.json is out of date: run make data"; exit 1; }
	cmp data/history.jsonl $${TMPDIR:-/tmp}/gpuatlas-verify-history.jsonl || { echo "data/history.jsonl is out of date: run make data"; exit 1; }
	@if [ -d $(REALDATA)/history ]; then \
	  $(GO) run ./internal/tools/historysources -realdata $(REALDATA) -out $${TMPDIR:-/tmp}/gpuatlas-verify-history-sources && \
	  diff -r data/history-sources $${TMPDIR:-/tmp}/gpuatlas-verify-history-sources || { echo "data/history-sources is out of date: run make history-sources"; exit 1; }; \
	else echo "verify: $(REALDATA)/history not found: data/history-sources not checked against the archives"; fi
	@test -z "$$(git status --porcelain)" || { echo "working tree not clean:"; git status --short; exit 1; }

.PHONY: validate
validate: ## check the benchmark uploads under data/benchmarks
	$(GO) run ./cmd/gpuatlas validate

.PHONY: nightly
nightly: ## run the nightly offline twice on a copy of the repository, commit and push as the workflow does (to a local bare main), then the project's checks on that commit and the history budget (data/ is not changed)
	./scripts/nightly_test.sh

.PHONY: actionlint
actionlint: ## lint the GitHub Actions workflows (actionlint, pinned in tools/go.mod; built from the module cache, offline once fetched)
	$(GO) -C tools tool actionlint $(CURDIR)/.github/workflows/*.yml

# eslint-plugin-github-action, for make workflow-lint: installed with npm from
# the committed lock file into the ignored .cache, again only when the lock file
# changed. Without npm the lint is skipped, except under CI=true.
WORKFLOWLINT_DIR := .cache/workflowlint

.PHONY: workflow-lint
workflow-lint: ## lint the workflows' security and style: actions pinned to commit SHAs, permissions and env per job (eslint-plugin-github-action, pinned in internal/workflowlint)
	@if [ -f $(WORKFLOWLINT_DIR)/node_modules/eslint-plugin-github-action/package.json ] && cmp -s internal/workflowlint/package-lock.json $(WORKFLOWLINT_DIR)/package-lock.json; then \
	  :; \
	elif command -v npm >/dev/null 2>&1; then \
	  mkdir -p $(WORKFLOWLINT_DIR) && cp internal/workflowlint/package.json internal/workflowlint/package-lock.json $(WORKFLOWLINT_DIR)/ && \
	  npm ci --prefix $(WORKFLOWLINT_DIR) --no-audit --no-fund --cache "$(CURDIR)/.cache/npm" || exit 1; \
	elif [ "$${CI:-}" = true ]; then \
	  echo "workflow-lint: npm not found, and CI=true needs the workflow lint"; exit 1; \
	else \
	  echo "workflow-lint: npm not found: skipped"; exit 0; \
	fi; \
	cp internal/workflowlint/eslint.config.mjs $(WORKFLOWLINT_DIR)/ && \
	$(WORKFLOWLINT_DIR)/node_modules/.bin/eslint --config $(WORKFLOWLINT_DIR)/eslint.config.mjs .github/workflows/

.PHONY: vulncheck
vulncheck: ## report known vulnerabilities in the code the binary calls (govulncheck, pinned in tools/go.mod; needs vuln.go.dev)
	$(GO) -C tools tool govulncheck -C $(CURDIR) ./...

.PHONY: diff
diff: ## show what data/catalog.json changes against HEAD, as Markdown
	@git show HEAD:data/catalog.json > $${TMPDIR:-/tmp}/gpuatlas-head-catalog.json
	$(GO) run ./cmd/gpuatlas diff --format markdown $${TMPDIR:-/tmp}/gpuatlas-head-catalog.json data/catalog.json; test $$? -le 1

.PHONY: stress
stress: ## long fault, kill and site-safety tests; prints faults injected, retries, time, rows lost
	./scripts/stress.sh

.PHONY: fuzz
fuzz: ## run every fuzz target for FUZZTIME (default 20s) each
	./scripts/fuzz.sh

.PHONY: bench
bench: ## measure crawl, build, diff, history and the page against their targets; prints one table (about 5 minutes)
	./bench/run.sh

.PHONY: bench-smoke
bench-smoke: ## make bench on a small catalog, two providers and one build of the embedded catalog (about a minute): every step runs and reports
	BENCH_OFFERS=2000 BENCH_DAYS=20 BENCH_PROVIDERS=huawei,volcengine BENCH_BUILD_RUNS=1 ./bench/run.sh

.PHONY: bench-go
bench-go: ## run the Go benchmarks (go test -bench), e.g. to profile one: see README "Performance"
	$(GO) test -run '^$$' -bench . -benchmem ./...
