# recon — a fresh clone needs only `make run` and `make test`.
SHELL := /bin/bash
NPM_STAMP := node_modules/.package-lock.json
SOURCES := $(shell find src pipelines sandbox -name '*.ts' 2>/dev/null) tsconfig.json sandbox/tsconfig.json

.PHONY: help run test bench bench-docs bench-large soak build clean

help: ## List the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	@touch $(NPM_STAMP)

dist/.built: $(NPM_STAMP) $(SOURCES)
	npx tsc -b tsconfig.json
	chmod +x dist/pipelines/cli/main.js
	@touch dist/.built

build: dist/.built ## Compile TypeScript to dist/

run: dist/.built ## Reconcile against the embedded sandbox (demo: nightly run + monthly close)
	@# exit 1 = completed with exceptions found, which is what the demo's planted anomalies produce
	node dist/pipelines/cli/main.js demo || [ $$? -eq 1 ]

test: dist/.built ## Run every test
	@# the tests' own types: vitest strips them unchecked, so a test built on a shape the code no longer has would pass
	npx tsc -p test/tsconfig.json
	npx vitest run --config test/vitest.config.ts $(VITEST_ARGS)

bench: dist/.built ## Measure every stage against its limit; writes data/bench/latest.json (docs/performance.md)
	npx tsc -p bench/tsconfig.json
	node dist-bench/bench/run.js

bench-docs: ## Write the figures of the last make bench (data/bench/latest.json) into README.md and docs/performance.md
	npx tsc -p bench/tsconfig.json
	node dist-bench/bench/docs-table.js

bench-large: dist/.built ## Re-run only the 10M-payout checks stage (~1.3 GB RAM); updates data/bench/latest.json
	npx tsc -p bench/tsconfig.json
	node dist-bench/bench/run.js --large

soak: dist/.built ## Long reliability soaks (more fault rounds, 60 + 20 kills); figures in data/reliability/
	RECON_SOAK=1 RECON_RECORD_FIGURES=1 npx vitest run --config test/vitest.config.ts test/reliability test/sync/crash.test.ts

clean: ## Remove build output (keeps data/)
	rm -rf dist
