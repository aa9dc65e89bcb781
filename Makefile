# recon — a fresh clone needs only `make run` and `make test`.
SHELL := /bin/bash
NPM_STAMP := node_modules/.package-lock.json
SOURCES := $(shell find src pipelines -name '*.ts' 2>/dev/null) tsconfig.json

.PHONY: help run test bench bench-large soak build clean

help: ## List the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	@touch $(NPM_STAMP)

dist/.built: $(NPM_STAMP) $(SOURCES)
	npx tsc -p tsconfig.json
	chmod +x dist/src/cli/main.js
	@touch dist/.built

build: dist/.built ## Compile TypeScript to dist/

run: dist/.built ## Reconcile against the embedded sandbox (demo: nightly run + monthly close)
	node dist/src/cli/main.js demo

test: dist/.built ## Run every test
	npx vitest run --config test/vitest.config.ts $(VITEST_ARGS)

bench: dist/.built ## Measure every stage against its limit; writes data/bench/latest.json
	node dist/test/bench/run.js

soak: dist/.built ## Long reliability soaks (faults and crashes, more rounds)
	RECON_SOAK=1 npx vitest run --config test/vitest.config.ts test/reliability

clean: ## Remove build output (keeps data/)
	rm -rf dist
