# GPU Atlas. `make help` lists the targets.
GO       ?= go
SITE     ?= public
ADDR     ?= 127.0.0.1:8080
BASE_URL ?= /
REALDATA ?= ../shared/realdata
PROVIDERS ?=
# golangci-lint is built from the module proxy on first use (go run caches it).
GOLANGCI ?= $(GO) run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0

.DEFAULT_GOAL := help

.PHONY: help
help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  make %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: site
site: ## build the site from the embedded catalog into ./public
	$(GO) run ./cmd/gpuatlas build --out $(SITE) --base-url $(BASE_URL)

.PHONY: serve
serve: site ## build the site and serve it on http://127.0.0.1:8080
	$(GO) run ./cmd/gpuatlas serve --dir $(SITE) --addr $(ADDR) --base-url $(BASE_URL)

.PHONY: crawl
crawl: ## crawl the live provider APIs (credentials from the environment) into data/catalog.json
	$(GO) run ./cmd/gpuatlas crawl --out data/catalog.json $(if $(PROVIDERS),--providers $(PROVIDERS))

.PHONY: data
data: ## regenerate data/catalog.json by crawling the recorded responses (offline)
	$(GO) run ./internal/tools/mkdata --out data/catalog.json

.PHONY: fixtures
fixtures: ## regenerate the recorded provider responses from ../shared/realdata
	$(GO) run ./providers/aws/internal/fixturegen -realdata $(REALDATA)/aws -out providers/aws/testdata/replay
	$(GO) run ./providers/alibaba/internal/fixturegen -realdata $(REALDATA)/alibaba -out providers/alibaba/testdata/replay
	$(GO) run ./providers/tencent/internal/fixturegen -realdata $(REALDATA)/tencent -out providers/tencent/testdata/replay
	$(GO) run ./providers/huawei/internal/fixturegen -realdata $(REALDATA)/huawei -out providers/huawei/testdata/replay
	$(GO) run ./providers/volcengine/internal/fixturegen -out providers/volcengine/testdata/replay

.PHONY: benchmark-sources
benchmark-sources: ## regenerate data/benchmarks/published from the published results in ../shared/realdata/benchmarks
	$(GO) run ./internal/tools/benchsources -src $(REALDATA)/benchmarks -out data/benchmarks/published

.PHONY: test
test: ## run every test: lint (gofmt, vet, layering, golangci-lint), unit, golden, replay, browser, workflow lint, offline nightly, a small make bench
	$(MAKE) --no-print-directory lint
	$(GO) test -count=1 -timeout 20m ./...
	FUZZTIME=$${FUZZTIME:-20x} ./scripts/fuzz.sh
	$(MAKE) --no-print-directory actionlint
	$(MAKE) --no-print-directory nightly
	$(MAKE) --no-print-directory bench-smoke

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
verify: lint ## lint (with the layering check), benchmark validation, and fail if data/catalog.json drifts from the replay
	$(GO) run ./cmd/gpuatlas validate
	$(GO) run ./internal/tools/mkdata --out $${TMPDIR:-/tmp}/gpuatlas-verify-catalog.json
	cmp data/catalog.json $${TMPDIR:-/tmp}/gpuatlas-verify-catalog.json || { echo "data/catalog.json is out of date: run make data"; exit 1; }
	@test -z "$$(git status --porcelain)" || { echo "working tree not clean:"; git status --short; exit 1; }

.PHONY: validate
validate: ## check the benchmark uploads under data/benchmarks
	$(GO) run ./cmd/gpuatlas validate

.PHONY: nightly
nightly: ## run the nightly job offline against the recorded responses (data/ is not changed)
	NIGHTLY_OFFLINE=1 SITE_DIR=$${TMPDIR:-/tmp}/gpuatlas-nightly-site SUMMARY=$${TMPDIR:-/tmp}/gpuatlas-nightly-summary.md ./scripts/nightly.sh

.PHONY: actionlint
actionlint: ## lint the GitHub Actions workflows
	$(GO) run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12

.PHONY: diff
diff: ## show what data/catalog.json changes against HEAD, as Markdown
	@git show HEAD:data/catalog.json > $${TMPDIR:-/tmp}/gpuatlas-head-catalog.json
	$(GO) run ./cmd/gpuatlas diff --format markdown $${TMPDIR:-/tmp}/gpuatlas-head-catalog.json data/catalog.json; test $$? -le 1

.PHONY: stress
stress: ## long fault, kill and site-safety tests; prints faults injected, retries, time, rows lost
	./scripts/stress.sh

.PHONY: fuzz
fuzz: ## run every fuzz target for FUZZTIME (default 5s) each
	./scripts/fuzz.sh

.PHONY: bench
bench: ## measure crawl, build, diff, history and the page against their targets; prints one table (about 5 minutes)
	./bench/run.sh

.PHONY: bench-smoke
bench-smoke: ## make bench on a small catalog and two providers (about a minute): every step runs and reports
	BENCH_OFFERS=2000 BENCH_DAYS=20 BENCH_PROVIDERS=huawei,volcengine ./bench/run.sh

.PHONY: bench-go
bench-go: ## run the Go benchmarks (go test -bench), e.g. to profile one: see README "Performance"
	$(GO) test -run '^$$' -bench . -benchmem ./...
