# The two commands: `make run` and `make test`. Each creates or updates .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The install compiles the engine, the bots and the research adapters' integer work (setup.py,
# mypyc): an edited source of any of them rebuilds them.
COMPILED_SOURCES := $(wildcard src/tigris_euphrates/engine/*.py src/tigris_euphrates/ai/*.py) \
	src/tigris_euphrates/rl/bits.py src/tigris_euphrates/rl/indices.py

.PHONY: run test lint typecheck bench clean venv chromium nodejs

$(STAMP): pyproject.toml setup.py $(COMPILED_SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/tne serve

# The browser tests drive Debian's Chromium (Playwright's own browser download cannot be used).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; }

# The example JavaScript bot (examples/bots/nodebot.mjs) runs on Debian's Node.js in the tests.
nodejs:
	@command -v node >/dev/null 2>&1 || { \
		SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nodejs; }

# The page's JavaScript tools (package.json, pinned by package-lock.json): installed again
# when the lock changes.
NODE_STAMP := node_modules/.installed
JS := src/tigris_euphrates/server/static/js

$(NODE_STAMP): package.json package-lock.json
	@$(MAKE) --no-print-directory nodejs
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

# The Python (ruff) and the page's JavaScript: ESLint, Prettier and TypeScript's checker over
# its JSDoc types (tsconfig.json, strict; nothing is emitted: the page has no build step).
lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check src tests bench support
	$(BIN)/ruff format --check src tests bench support
	node_modules/.bin/eslint $(JS)
	node_modules/.bin/prettier --check $(JS)
	node_modules/.bin/tsc --noEmit -p tsconfig.json

typecheck: $(STAMP)
	$(BIN)/mypy

# The bots' golden games on the pure-Python engine and bots too, then everything on the
# compiled core and bots (which must have been built: TNE_EXPECT_COMPILED). The PostgreSQL
# tests fail rather than skip when it does not answer (TNE_REQUIRE_POSTGRES).
test: $(STAMP) chromium nodejs lint typecheck
	TNE_REQUIRE_POSTGRES=1 TNE_PURE_PYTHON=1 $(BIN)/pytest -n 2 -q tests/ai/test_golden.py
	TNE_REQUIRE_POSTGRES=1 TNE_EXPECT_COMPILED=1 $(BIN)/pytest -n 2 -q

bench: $(STAMP)
	$(BIN)/python bench/engine.py --compare

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build node_modules
	find src -name "*.so" -delete
	rm -f src/tigris_euphrates/engine/_compiled.json src/tigris_euphrates/ai/_compiled.json \
		src/tigris_euphrates/rl/_compiled.json
