# TaskPack Desk — the two commands: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP_RUN  := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.PHONY: run test postgres-deps lint mypy-linked bench package package-test install-desktop clean \
	windows-env test-windows package-windows

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
	@$(PY) packaging/check_gui_libs.py
	$(VENV)/bin/taskpack-desk

# the team-desk tests start a throwaway PostgreSQL 15 cluster (tests/postgres_cluster.py)
PG_BIN := /usr/lib/postgresql/15/bin

postgres-deps:
	@test -x $(PG_BIN)/initdb || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
	    || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y \
	         --no-install-recommends postgresql-15; }; \
	  else echo "make test needs PostgreSQL 15: sudo apt-get install postgresql-15" >&2; exit 1; fi; }

# the MCP TypeScript SDK the MCP tests drive `taskpack mcp` with (tests/app/mcp/ts; the
# lock file is committed, node_modules never)
TS_CLIENT := tests/app/mcp/ts/node_modules/.package-lock.json

$(TS_CLIENT): tests/app/mcp/ts/package.json tests/app/mcp/ts/package-lock.json
	npm ci --prefix tests/app/mcp/ts --no-audit --no-fund --loglevel=error
	touch $@


test: $(STAMP_TEST) postgres-deps $(TS_CLIENT)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -n 2 -p no:cacheprovider $(PYTEST_ARGS)
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check --quiet .
	$(VENV)/bin/ruff format --check --quiet .
	$(VENV)/bin/actionlint
	$(VENV)/bin/mypy core
	$(MAKE) --no-print-directory mypy-linked
	@if [ "$(SKIP_WINDOWS_LANE)" = 1 ]; then echo "test: the Windows lane skipped (SKIP_WINDOWS_LANE=1)"; \
	else $(MAKE) --no-print-directory test-windows; fi

lint: $(STAMP_TEST)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/actionlint
	$(VENV)/bin/mypy core
	$(MAKE) --no-print-directory mypy-linked

# app/team and ui/ import themselves as taskpack.app.team and taskpack.ui (absolute, as
# app/ does): mypy reads them through a tree of links that names the folders as the
# package does (an editable install's import hook is invisible to mypy); the modules they
# import are checked by their own lanes, not here
MYPY_ROOT := build/mypy-root
mypy-linked:
	mkdir -p $(MYPY_ROOT)/taskpack
	for d in core app ui resources; do ln -sfn $(CURDIR)/$$d $(MYPY_ROOT)/taskpack/$$d; done
	cd $(MYPY_ROOT) && $(abspath $(VENV))/bin/mypy --config-file $(CURDIR)/pyproject.toml \
		--cache-dir $(CURDIR)/.mypy_cache/team --follow-imports=silent \
		-p taskpack.app.team -p taskpack.ui

# Windows' own CPython under Wine (packaging/windows/README.md): made once, cached in
# build/wine; the Windows test lane and the Windows build run in it
WINE_PREFIX := build/wine

windows-env: | $(PY)
	$(PY) packaging/windows/winenv.py setup --prefix $(WINE_PREFIX)

# the Windows lane: the portability tests under Windows' Python (tests/windows_lane.py
# names them and every exclusion), then the Windows <-> Linux round trip and the window's
# smoke test under Wine, driven from Linux (tests/packaging/test_wine_round_trip.py)
WINDOWS_PYTEST_ARGS ?= -q -n 2
test-windows: windows-env $(STAMP_TEST)
	QT_QPA_PLATFORM=offscreen $(PY) packaging/windows/winenv.py run --prefix $(WINE_PREFIX) -- \
		tests/windows_lane.py $(WINDOWS_PYTEST_ARGS)
	TASKPACK_WINDOWS_LANE=1 TASKPACK_WINE_PREFIX=$(abspath $(WINE_PREFIX)) \
		QT_QPA_PLATFORM=offscreen $(PY) -m pytest -p no:cacheprovider -q -n 0 \
		tests/packaging/test_wine_round_trip.py

bench: $(STAMP_TEST)
	$(PY) benchmarks/bench_codec.py

clean:
	rm -rf $(VENV) build dist *.egg-info

# --- packaging and desktop integration -------------------------------------------------
# make package          dist/taskpack-desk/ (PyInstaller onedir: the window + the CLI)
# make package-test     build it, then run the frozen --smoke-test and CLI checks
# make install-desktop  register the file types, icons and launcher for this user
#                       (XDG_DATA_HOME, default ~/.local/share); uninstall-desktop undoes it
# make ci-deps          as root (apt-get): the desktop tools the packaging tests use, the
#                       X11 libraries the package must carry, Xvfb for package-test
STAMP_PACKAGE := $(VENV)/.installed-package
PACKAGE_SITE  := build/package-site
# probe:package — a command on PATH, lib/<soname> known to ldconfig, or /a/file that exists
# (the CJK font: the 简体中文 screenshots render with it)
CI_DEPS := update-mime-database:shared-mime-info xdg-mime:xdg-utils node:nodejs npm:npm \
	desktop-file-validate:desktop-file-utils mimetype:libfile-mimeinfo-perl zsh:zsh strace:strace \
	Xvfb:xvfb xauth:xauth lib/libxcb-icccm.so.4:libxcb-icccm4 \
	lib/libxcb-keysyms.so.1:libxcb-keysyms1 lib/libxcb-cursor.so.0:libxcb-cursor0 \
	lib/libxkbcommon-x11.so.0:libxkbcommon-x11-0 \
	$(PG_BIN)/initdb:postgresql-15 makensis:nsis \
	/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc:fonts-wqy-zenhei

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

# make package-windows  dist/windows/: taskpack-desk.exe (window) + taskpack.exe (CLI), frozen by
#                       PyInstaller run by Windows' CPython under Wine, and the per-user
#                       installer (Debian's NSIS); then checked under Wine: smoke test, CLI,
#                       install, file types, a pack opened by `start`, uninstall
#                       (packaging/windows/winbuild.py)
package-windows: windows-env $(STAMP_RUN)
	@command -v makensis >/dev/null 2>&1 || $(MAKE) --no-print-directory ci-deps
	$(PY) packaging/windows/winbuild.py build --prefix $(WINE_PREFIX)
	$(PY) packaging/windows/winbuild.py check --prefix $(WINE_PREFIX)

install-desktop:
	sh resources/desktop/install-desktop.sh --exec "$(CURDIR)/$(VENV)/bin/taskpack-desk"

uninstall-desktop:
	sh resources/desktop/install-desktop.sh --uninstall

ci-deps:
	@missing=""; for t in $(CI_DEPS); do probe=$${t%%:*}; \
		case $$probe in \
		lib/*) /sbin/ldconfig -p 2>/dev/null | grep -q "[[:space:]]$${probe#lib/} " ;; \
		/*) test -e $$probe ;; \
		*) command -v $$probe >/dev/null 2>&1 ;; \
		esac || missing="$$missing $${t#*:}"; done; \
	if [ -z "$$missing" ]; then echo "ci-deps: all present"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $$missing >/dev/null && \
		echo "ci-deps: installed$$missing"; \
	else echo "ci-deps: missing$$missing (install them as root; their tests are skipped)"; \
		test -z "$$CI" || exit 1; fi
