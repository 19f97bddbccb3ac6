# Works on a fresh machine with only Python: every target builds .venv when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all venv test lint typecheck pytest demo bench clean

all: test

$(STAMP): pyproject.toml
	@echo "Setting up $(VENV) from pyproject.toml (first run only: installs ortools, z3-solver, the study"
	@echo "libraries (dask, pyarrow, matplotlib, tqdm) and the test tools from PyPI; about 2 minutes on a 2-core machine with a fast connection)..."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,study]'
	touch $(STAMP)
	@echo "$(VENV) is ready."

venv: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	PYTHONPATH=src $(BIN)/lint-imports
	$(BIN)/vulture src --min-confidence 80

typecheck: $(STAMP)
	$(BIN)/mypy --strict src tests

pytest: $(STAMP)
	$(BIN)/pytest -q

test: lint typecheck pytest

demo: $(STAMP)
	$(BIN)/banditsolve demo --out demo-pictures

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build src/*.egg-info .mypy_cache .ruff_cache .hypothesis
