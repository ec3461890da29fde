# `make demo`, `make test` and `make lint`. Each builds .venv from pyproject.toml
# when it is missing or older than pyproject.toml, and is quick otherwise.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench venv clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/meeple demo

# Two processes for everything but Ray; the few Ray tests then share one Ray session.
test: $(STAMP)
	$(PY) -m pytest -q -n 2 -m "not ray"
	$(PY) -m pytest -q -m ray

# ruff (lint + format) on everything, mypy on the packages; tool versions pinned in
# pyproject.toml's dev extra.
lint: $(STAMP)
	$(VENV)/bin/ruff check spiel_games solvers tournament tests scripts
	$(VENV)/bin/ruff format --check spiel_games solvers tournament tests scripts
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) scripts/bench.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
