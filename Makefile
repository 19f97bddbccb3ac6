# Works on a fresh machine with only Python: every target builds .venv when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all venv browser test lint typecheck pytest docs package demo bench fuzz sanitize wheel clean

all: test

$(STAMP): pyproject.toml setup.py $(wildcard csrc/closure/*)
	@echo "Setting up $(VENV) from pyproject.toml (first run only: installs ortools, z3-solver, the study"
	@echo "libraries (dask, pyarrow, matplotlib, tqdm), OpenSpiel and PettingZoo, the test, docs and packaging tools (mkdocs, twine)"
	@echo "from PyPI, and compiles the closure core"
	@echo "(csrc/closure, C++17: needs g++); about 2 minutes on a 2-core machine with a fast connection)..."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,study,docs,openspiel,pettingzoo,web]'
	touch $(STAMP)
	@echo "$(VENV) is ready."

venv: $(STAMP)

# The docs' own build code (docs/*.py: the MkDocs hooks, the Griffe extension) is linted and
# typed like the rest.
DOCS_CODE := docs/hooks.py docs/griffe_roles.py

# Fails listing every function of the library radon counts over McCabe 15 (radon cc --json on stdin).
define RADON_OVER_15
import json, sys
over = [f"{path}:{block['lineno']}: {block['name']} has McCabe {block['complexity']} (over 15)"
        for path, blocks in json.load(sys.stdin).items() for block in blocks
        if block['complexity'] > 15]
print(*over, sep="\n") if over else None
sys.exit(1 if over else 0)
endef
export RADON_OVER_15

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks fuzz $(DOCS_CODE)
	PYTHONPATH=src $(BIN)/lint-imports
	$(BIN)/vulture src --min-confidence 80
	# no function over McCabe 15, counted as lizard counts (each `and`, `or` and condition too)
	$(BIN)/lizard --CCN 15 --warnings_only src csrc tests benchmarks fuzz
	# and as radon counts it (each assert and conditional expression too), on the library's code
	$(BIN)/radon cc --json --show-closures src | $(BIN)/python -c "$$RADON_OVER_15"

typecheck: $(STAMP)
	$(BIN)/mypy --strict src tests $(DOCS_CODE)

# (the 20 slowest tests listed: the default run must stay under 15 minutes on a 2-core machine)
pytest: $(STAMP)
	$(BIN)/pytest -q --durations=20

test: browser lint typecheck pytest docs package

# The browser the web board's end-to-end tests drive (tests/web/test_browser.py): Debian's
# chromium, installed with apt when it is missing and this user may (root); Playwright drives it
# through its executable path (it downloads no browser of its own).
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	      echo "Installing Debian's chromium for the browser tests (about 45 s)..."; \
	      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	    else echo "chromium is missing and cannot be installed here: the browser tests will skip"; fi; }

# The documentation site (mkdocs.yml, docs/) in site/, every warning an error: the API reference
# from the docstrings, the tutorials, the rules pages from specs/, the gallery, the glossary.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

# The package as a user's pip gets it, in dist/: the sdist, then the wheel built from the unpacked
# sdist (python -m build does both, each in an isolated environment), twine's metadata check, a
# check that the sdist holds what MANIFEST.in promises (specs/, docs/, tests/, benchmarks/), and
# that the wheel installs with no compiler on the PATH and answers through its compiled core.
package: $(STAMP)
	rm -f dist/banditsolve-*
	$(BIN)/python -m build --outdir dist .
	$(BIN)/twine check --strict dist/banditsolve-*
	$(BIN)/python -m tests.test_package dist/banditsolve-*.tar.gz dist/banditsolve-*.whl

demo: $(STAMP)
	$(BIN)/banditsolve demo --out demo-pictures

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

# Coverage-guided fuzzing of every reader (fuzz/targets.py, atheris), FUZZ_SECONDS per target;
# a finding is left in fuzz/findings/ and fails the run. Not part of test (nor CI).
FUZZ_SECONDS ?= 60
fuzz: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[fuzz]'
	$(BIN)/python fuzz/run.py --seconds $(FUZZ_SECONDS)

# The compiled core's comparison tests against a build of it instrumented with AddressSanitizer
# and UBSan: a copy of src/ with that build in place of the optimised one, loaded by the same
# interpreter with the sanitizers' runtimes preloaded (leak checks off: CPython keeps memory
# on purpose). Any report fails the run.
SAN_DIR := build/sanitize
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
sanitize: $(STAMP)
	rm -rf $(SAN_DIR) && mkdir -p $(SAN_DIR)
	cp -r src $(SAN_DIR)/src
	find $(SAN_DIR)/src -name '*.so' -delete
	g++ -std=c++17 -shared -fPIC $(SAN_FLAGS) -Icsrc/closure $$($(BIN)/python -m pybind11 --includes) \
	  csrc/closure/board.cpp csrc/closure/maps.cpp csrc/closure/placements.cpp \
	  csrc/closure/search.cpp csrc/closure/module.cpp \
	  -o $(SAN_DIR)/src/banditsolve/tunnels/solvers/closure_core$$($(BIN)/python -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
	export PYTHONPATH=$(SAN_DIR)/src LD_PRELOAD="$$(g++ -print-file-name=libasan.so) $$(g++ -print-file-name=libubsan.so)" \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 && \
	$(BIN)/python -c "import sys, banditsolve.tunnels.solvers.closure_core as m; sys.exit(0 if '$(SAN_DIR)' in m.__file__ else 'not the sanitized build: ' + m.__file__)" && \
	$(BIN)/pytest -q -p no:cacheprovider tests/tunnels/test_compiled.py tests/tunnels/test_compiled_maps.py \
	  tests/tunnels/test_map_holes.py

# A wheel (with the compiled core) in dist/, built in isolation as a user's pip would.
wheel: $(STAMP)
	$(BIN)/python -m build --wheel --outdir dist .

clean:
	rm -rf $(VENV) build dist site src/*.egg-info .mypy_cache .ruff_cache .hypothesis
	find src -name '*.so' -delete
