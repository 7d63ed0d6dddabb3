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

# --- packaging and desktop integration -------------------------------------------------
# make package          dist/taskpack-desk/ (PyInstaller onedir: the window + the CLI)
# make package-test     build it, then run the frozen --smoke-test and CLI checks
# make install-desktop  register the file types, icons and launcher for this user
#                       (XDG_DATA_HOME, default ~/.local/share); uninstall-desktop undoes it
# make ci-deps          as root: the desktop tools the packaging tests use (apt-get)
STAMP_PACKAGE := $(VENV)/.installed-package
PACKAGE_SITE  := build/package-site
CI_DEPS_TOOLS := update-mime-database:shared-mime-info xdg-mime:xdg-utils \
	desktop-file-validate:desktop-file-utils mimetype:libfile-mimeinfo-perl zsh:zsh

.PHONY: ci-deps uninstall-desktop

$(STAMP_PACKAGE): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[package]'
	touch $@ $(STAMP_RUN)

package: $(STAMP_PACKAGE)
	rm -rf build/pyinstaller dist/taskpack-desk
	$(PY) packaging/stage.py $(PACKAGE_SITE)
	$(VENV)/bin/pyinstaller --noconfirm --log-level WARN --distpath dist \
		--workpath build/pyinstaller packaging/taskpack-desk.spec
	@echo "dist/taskpack-desk: $$(du -sh dist/taskpack-desk | cut -f1) unpacked"

package-test: package
	$(PY) packaging/check_frozen.py dist/taskpack-desk

install-desktop:
	sh resources/desktop/install-desktop.sh --exec "$(CURDIR)/$(VENV)/bin/taskpack-desk"

uninstall-desktop:
	sh resources/desktop/install-desktop.sh --uninstall

ci-deps:
	@missing=""; for t in $(CI_DEPS_TOOLS); do \
		command -v $${t%%:*} >/dev/null 2>&1 || missing="$$missing $${t#*:}"; done; \
	if [ -z "$$missing" ]; then echo "ci-deps: all present"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $$missing >/dev/null && \
		echo "ci-deps: installed$$missing"; \
	else echo "ci-deps: missing$$missing (install them as root; their tests are skipped)"; fi
