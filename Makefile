# Two commands set up a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: demo test venv bench clean clean-jit

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/bwlab validate
	$(BIN)/bwlab demo
	$(BIN)/bwlab report

# The engine's kernels are compiled first, two call trees at a time (sim/runner/warm.py), so the
# test workers load them from Numba's cache instead of each compiling the same engine.
test: $(TEST_STAMP)
	$(BIN)/python -m sim.runner.warm
	$(BIN)/python -m pytest -q -n auto --dist worksteal

bench: $(STAMP)
	$(BIN)/python benchmarks/combat.py

# The compile cache is keyed to a digest of the kernel layers' source (sim/_jit.py:
# source_digest), so an edit never reuses stale kernels; this only frees the disk (and drops
# caches of the old in-tree layout).
clean-jit:
	rm -rf .jit-cache
	find sim -name '*.nbi' -delete -o -name '*.nbc' -delete

clean: clean-jit
	rm -rf $(VENV) build *.egg-info
