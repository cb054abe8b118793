# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8501

.PHONY: run test bench install install-test clean

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

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

run: install
	$(BIN)/streamlit run app.py --server.port $(PORT)

test: install-test
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup tests

bench: install-test
	$(BIN)/python -m benchmarks --results benchmarks/RESULTS.md

clean:
	rm -rf $(VENV) .pytest_cache
