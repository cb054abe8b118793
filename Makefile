# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8501
# make serve: app processes (default: one per core) behind the proxy on HOST:PORT.
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
HOST ?= 127.0.0.1
# make lesson-pack: the folder the static, offline Lesson pack is written to.
OUT ?= dist/lesson
# Benchmark areas for make bench (empty: all of them), e.g. make bench AREAS="frechet pages".
AREAS ?=

.PHONY: run serve lesson-pack test bench install install-test install-bench install-serve clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-test: requirements-test.txt tests/browser/axe/package-lock.json $(VENV)/.installed
	$(BIN)/pip install --quiet -r requirements-test.txt
	if command -v npm >/dev/null; then npm ci --silent --no-audit --no-fund --prefix tests/browser/axe; fi
	touch $@

# The peers the benchmarks compare against that the app does not need, each apart in $(PEERS) without its
# dependencies (geomstats 2.8.0 pins versions the app's own packages do not share).
PEERS := $(VENV)/peers
$(VENV)/.installed-bench: requirements-bench.txt $(VENV)/.installed-test
	$(BIN)/pip install --quiet --no-deps --upgrade --target $(PEERS) -r requirements-bench.txt
	touch $@

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

install-bench: $(VENV)/.installed-bench

run: install
	$(BIN)/streamlit run app.py --server.port $(PORT)

# Caddy, the reverse proxy of make serve, from Debian where it is missing.
install-serve: install
	command -v caddy >/dev/null || { if [ "$$(id -u)" -eq 0 ]; then apt-get install -y -q caddy; else sudo apt-get install -y -q caddy; fi; }

serve: install-serve
	WORKERS=$(WORKERS) PORT=$(PORT) HOST=$(HOST) deploy/serve

lesson-pack: install
	$(BIN)/python -m lesson_pack --out "$(OUT)"

test: install-test
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup --durations=20 tests

bench: install-bench install-serve
	PYTHONPATH=$(PEERS) $(BIN)/python -m benchmarks $(AREAS) --results benchmarks/RESULTS.md

clean:
	rm -rf $(VENV) .pytest_cache
