# The two commands a newcomer needs: `make run` and `make test`.
# Both create .venv and install the project on first use; with no DATABASE_URL they
# start an embedded PostgreSQL under var/ (see README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck openapi openapi-check browser typescript shell-tools bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m service.cli serve

test: $(STAMP) lint openapi-check browser typescript shell-tools
	$(BIN)/python -m pytest

# The headless browser of the /docs test (Debian's chromium, with apt when missing; or
# set CHROMIUM=/path/to/chromium). Playwright drives it; it comes with '.[dev]'.
browser:
	sh scripts/install-browser

# The TypeScript generator and compiler the generated-client test runs (npm ci, pinned by
# clients/typescript/package-lock.json); openapi-python-client comes with '.[dev]'.
typescript:
	sh scripts/install-typescript

# curl and jq, for the test that runs the README's walk-through as written.
shell-tools:
	sh scripts/install-shell-tools

lint: $(STAMP) typecheck
	$(BIN)/ruff check service tests bench
	$(BIN)/ruff format --check service tests bench

# mypy over the whole service, every ruleset included (about 30 s cold, a few with its cache)
typecheck: $(STAMP)
	$(BIN)/mypy service

openapi: $(STAMP)
	$(BIN)/python -m service.cli openapi > openapi/openapi.yaml

openapi-check: $(STAMP)
	$(BIN)/python -m service.cli openapi | diff -u openapi/openapi.yaml - \
		|| (echo "openapi/openapi.yaml is stale: run 'make openapi'" >&2; exit 1)

bench: $(STAMP)
	$(BIN)/python bench/service_bench.py

clean:
	rm -rf $(VENV) var .pytest_cache .hypothesis test-output
