# TaskPack Desk — the two commands: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP_RUN  := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.PHONY: run test lint bench package package-test install-desktop clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip setuptools wheel

$(STAMP_RUN): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(STAMP_TEST): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP_RUN)

run: $(STAMP_RUN)
	$(VENV)/bin/taskpack-desk

test: $(STAMP_TEST)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -n 2 -p no:cacheprovider $(PYTEST_ARGS)
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/lint-imports

lint: $(STAMP_TEST)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy core

bench: $(STAMP_TEST)
	$(PY) benchmarks/bench_codec.py

clean:
	rm -rf $(VENV) build dist *.egg-info
