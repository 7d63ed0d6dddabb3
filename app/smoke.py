"""`taskpack-desk --smoke-test`: prove that this build of the desk works, in seconds.

Made for the frozen app (``make package-test`` runs it), where the usual failure is a
module, a Qt plugin or a library's metadata that PyInstaller left out. It runs the real
services on temporary data, each as one step, and prints one line per step::

    ok    version    taskpack-desk 0.1.0 (frozen)
    ok    pack       TP-… → smoke.taskpack (2.1 KiB) and smoke.taskpack.json
    FAIL  watcher    missing module 'watchdog.observers.inotify' (left out of this build)

The steps: the package metadata; the command line's parser and every verb; the keyring
backend (resolved, and every backend entry point importable); a passport made, packed
in both encodings and judged conformant (C0–C10); the pack reviewed and landed into a
second, temporary store; the same review in a spawned helper process (how the window
reviews and lands a large pack); the folder watcher started, finding a pack dropped into its
folder, and stopped; the A2A endpoint served on a loopback port, its agent card fetched,
and stopped (when this build has one); the QApplication and the main window started
offscreen and closed.

Nothing outside a temporary folder is read or written: TASKPACK_HOME, TASKPACK_MACHINE
and TASKPACK_ACTOR point the window at a throwaway desk. A failure prints one line that
names the missing piece — never a traceback, unless TASKPACK_SMOKE_TRACE=1 — and the
exit code is 1. All steps run even after a failure, so one run names every gap. The last
line, ``cleanup``, deletes that folder: on Windows a file or folder that a step left open
(a thread that outlived its service) cannot be deleted, and the line names what is left
and which threads still run.

Nothing escapes :func:`run` as an exception: a windowed Windows build has no console, and
its launcher shows an escaped exception in a dialog that waits for a click, so an
unattended check would wait for ever. A step that hangs is bounded too: after
`HANG_LIMIT` seconds every thread's stack is written to the report and the process ends
with 1 (Python's `faulthandler`, which also writes the stacks if the process crashes).

This module imports no Qt itself: the window comes from the GUI entry point
(``taskpack.app.gui_main``), which is the code the frozen app really starts.
"""

from __future__ import annotations

import faulthandler
import importlib
import os
import platform
import shutil
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

#: how long the watcher and the window may take before the step fails (seconds)
WATCH_TIMEOUT = 20.0
#: seconds the whole run may take before it is taken for hung (below the 600 s that
#: `make package-windows` and the Windows lane give it, so the stacks reach the report)
HANG_LIMIT = 480.0
#: seconds the temporary folder's deletion waits for a handle that is being closed
CLEANUP_PATIENCE = 5.0
#: the window step lets the window's queued start-up work run (at least this often)
WINDOW_PASSES = 5
TRACE_ENV = "TASKPACK_SMOKE_TRACE"


class StepFailed(Exception):
    """A step's own verdict: the one sentence to print."""


@dataclass
class Context:
    tmp: Path
    out: TextIO
    notes: dict[str, Any] = field(default_factory=dict)


@dataclass
class Result:
    name: str
    ok: bool
    detail: str
    seconds: float


Step = Callable[[Context], str]


# --- helpers ------------------------------------------------------------------------------


def need(module: str, attr: str | None = None, *, piece: str) -> Any:
    """Import `module` (and get `attr`), or fail naming the piece that is missing."""
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and (module == exc.name or module.startswith(exc.name + ".")):
            raise StepFailed(f"{piece} is not in this build (no module {module!r})") from None
        raise
    if attr is None:
        return mod
    try:
        return getattr(mod, attr)
    except AttributeError:
        raise StepFailed(f"{piece} is missing: {module} has no {attr!r}") from None


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, StepFailed):
        return str(exc)
    if isinstance(exc, ModuleNotFoundError):
        where = "left out of this build" if getattr(sys, "frozen", False) else "not installed"
        return f"missing module {exc.name!r} ({where})"
    if isinstance(exc, ImportError):
        return f"import failed: {exc} (a library or its data was left out of this build)"
    text = " ".join(str(exc).split()) or "no message"
    return f"{type(exc).__name__}: {text}"


def _size(n: int) -> str:
    return f"{n} B" if n < 1024 else f"{n / 1024:.1f} KiB"


# --- the steps ----------------------------------------------------------------------------


def step_version(ctx: Context) -> str:
    from importlib import metadata

    try:
        v = metadata.version("taskpack-desk")
    except metadata.PackageNotFoundError:
        raise StepFailed(
            "the taskpack-desk package metadata is missing (version unknown)"
        ) from None
    frozen = "frozen" if getattr(sys, "frozen", False) else "from source"
    return f"taskpack-desk {v} ({frozen}, Python {platform.python_version()}, {platform.system()})"


def step_cli(ctx: Context) -> str:
    cli = need("taskpack.app.cli.main", piece="the command line")
    parser = cli.build_parser()  # imports every verb module this build has
    verbs = next(
        (
            sorted(a.choices)
            for a in parser._actions
            if isinstance(getattr(a, "choices", None), dict)
        ),
        [],
    )
    if not verbs:
        raise StepFailed("the command line has no verbs (its verb modules were left out)")
    return f"{len(verbs)} verbs: {' '.join(verbs)}"


def step_keyring(ctx: Context) -> str:
    from importlib import metadata

    keyring = need("keyring", piece="keyring (the credential store)")
    points = list(metadata.entry_points(group="keyring.backends"))
    if not points:
        raise StepFailed("keyring's backend list (its package metadata) is missing from this build")
    for ep in points:
        try:
            ep.load()
        except ImportError as exc:
            raise StepFailed(
                f"keyring backend {ep.name} does not import: {_one_line(exc)}"
            ) from None
    backend = keyring.get_keyring()
    name = f"{type(backend).__module__}.{type(backend).__name__}"
    return f"{name} ({len(points)} backends importable)"


def _desk(home: Path, machine: str) -> Any:
    Desk = need("taskpack.app.desk", "Desk", piece="the desk service")
    return Desk(home, machine, actor="smoke-test")


def step_pack(ctx: Context) -> str:
    desk = _desk(ctx.tmp / "sender", "smoke-sender")
    try:
        brief = ctx.tmp / "brief.txt"
        brief.write_text("What the smoke test hands over.\n", encoding="utf-8")
        lp = desk.new("Smoke test", "Prove that this build packs, judges and lands")
        pid = lp.id if hasattr(lp, "id") else lp.passport.id
        desk.add_fact(pid, "The smoke test ran on temporary data.")
        out_bag = ctx.tmp / "smoke.taskpack"
        out_flat = ctx.tmp / "smoke.taskpack.json"
        bag = desk.pack(pid, out_bag, files=[brief])
        flat = desk.pack(pid, out_flat, files=[brief], encoding="flat")
    finally:
        desk.close()
    for p in (out_bag, out_flat):
        if not p.is_file() or p.stat().st_size == 0:
            raise StepFailed(f"packing reported success but {p.name} was not written")
    ctx.notes["packs"] = [out_bag, out_flat]
    return f"{pid} → {out_bag.name} ({_size(bag.size)}), {out_flat.name} ({_size(flat.size)})"


def _packs(ctx: Context) -> list[Path]:
    packs: list[Path] | None = ctx.notes.get("packs")
    if not packs:
        raise StepFailed("no pack to work on (the pack step failed)")
    return packs


def step_judge(ctx: Context) -> str:
    judge = need("taskpack.core.trust.conformance", "judge", piece="the conformance judge")
    verdicts = []
    for path in _packs(ctx):
        report = judge(path)
        if not report.conformant:
            raise StepFailed(f"{path.name} is not conformant: failed {', '.join(report.failed)}")
        verdicts.append(path.name)
    return f"conformant (C0–C10): {', '.join(verdicts)}"


def step_land(ctx: Context) -> str:
    bag = _packs(ctx)[0]
    desk = _desk(ctx.tmp / "receiver", "smoke-receiver")
    try:
        review = desk.review(bag)
        outcome = desk.land(bag)
        landed = desk.get(outcome.id)
        again = desk.land(bag)
    finally:
        desk.close()
    if not again.already or again.id != outcome.id:
        raise StepFailed("landing the same pack twice made a second passport")
    return (
        f"{outcome.id} in a temporary store ({landed.state}); "
        f"{len(review.landing_checks)} landing checks, {len(review.luggage)} luggage; twice = once"
    )


def _review_there(desk: Any, path: Path, progress: Any, cancelled: Any) -> str:
    """Run in the helper process: the review the window asks of it for a large pack."""
    return str(desk.review(path).title)


def step_helper(ctx: Context) -> str:
    isolated = need("taskpack.app.isolated", piece="the helper process for large packs")
    bag = _packs(ctx)[0]
    desk = _desk(ctx.tmp / "helper", "smoke-helper")
    steps: list[int] = []
    try:
        title = isolated.call(
            desk, _review_there, bag, progress=lambda d, t: steps.append(d), cancel=lambda: False
        )
    except RuntimeError as exc:  # the child died: in a frozen app, usually no freeze_support
        raise StepFailed(f"the helper process did not answer ({exc})") from None
    finally:
        desk.close()
    return f"a spawned helper process reviewed {bag.name}: «{title}»"


def step_watcher(ctx: Context) -> str:
    FolderWatcher = need("taskpack.app.watcher", "FolderWatcher", piece="the folder watcher")
    need("watchdog.observers", piece="watchdog (file system events)")
    inbox = ctx.tmp / "inbox"
    inbox.mkdir()
    found: list[Any] = []
    arrived = threading.Event()

    def on_found(item: Any) -> None:
        found.append(item)
        arrived.set()

    pack = _packs(ctx)[1]
    watcher = FolderWatcher([inbox], on_found, settle=0.2, tick=0.05, mount_roots=[])
    started = time.monotonic()
    watcher.start()
    try:
        shutil.copyfile(pack, inbox / "dropped.taskpack.json")
        if not arrived.wait(WATCH_TIMEOUT):
            raise StepFailed(
                f"the watcher did not report a pack dropped into its folder within {WATCH_TIMEOUT:.0f} s"
            )
        observer = "events" if getattr(watcher, "_observer", None) is not None else "rescans only"
    finally:
        watcher.stop()
    return f"found {found[0].path.name} in {time.monotonic() - started:.1f} s ({observer}), stopped"


def step_a2a(ctx: Context) -> str:
    try:
        server_mod = importlib.import_module("taskpack.app.a2a.serve")
    except ModuleNotFoundError as exc:
        if exc.name in ("taskpack.app.a2a", "taskpack.app.a2a.serve"):
            return "not part of this build (skipped)"
        raise
    A2AServer = getattr(server_mod, "A2AServer", None)
    if A2AServer is None:
        raise StepFailed("the A2A endpoint is missing: taskpack.app.a2a.serve has no 'A2AServer'")
    httpx = need("httpx", piece="httpx (the A2A client)")
    desk = _desk(ctx.tmp / "a2a", "smoke-a2a")
    server = A2AServer(desk, "127.0.0.1", 0)  # loopback, a free port
    try:
        url = server.start(timeout=WATCH_TIMEOUT)
        reply = httpx.get(f"{url}/.well-known/agent-card.json", timeout=5.0)
        if reply.status_code != 200:
            raise StepFailed(f"the A2A endpoint answered {reply.status_code} for its agent card")
        card = reply.json()
    finally:
        server.stop()
        desk.close()
    return f"served {url} (loopback), agent card '{card.get('name', '?')}', stopped"


def step_window(ctx: Context) -> str:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    home = ctx.tmp / "gui-home"
    inbox = ctx.tmp / "gui-inbox"
    inbox.mkdir(parents=True, exist_ok=True)
    settings = need("taskpack.app.settings", "Settings", piece="the settings")
    s = settings()
    s.watched_folders = [str(inbox)]  # never the user's real Downloads
    s.save(home)
    os.environ.update(
        {
            "TASKPACK_HOME": str(home),
            "TASKPACK_MACHINE": "smoke-gui",
            "TASKPACK_ACTOR": "smoke-test",
        }
    )

    builder = ctx.notes.get("build")
    if builder is None:  # not handed in by the GUI entry point: look for it there
        gui = need("taskpack.app.gui_main", piece="the GUI entry point")
        builder = getattr(gui, "build", None)
    if not callable(builder):
        raise StepFailed("the GUI entry point handed no build() -> (app, window) to the smoke test")
    built = builder([])  # no files to open
    app, window = built if isinstance(built, tuple) else (None, built)
    if app is None:  # build() gave only the window: the application Qt already made
        widgets = sys.modules.get("PySide6.QtWidgets")
        app = widgets.QApplication.instance() if widgets is not None else None
    if app is None or window is None:
        raise StepFailed("the GUI entry point's build() returned no application or window")
    started = time.monotonic()
    try:
        window.show()
        # what the window queued for its first turn of the event loop (its folder watcher
        # among it) runs before it closes, however long showing it took on a slow machine
        deadline, passes = started + 0.5, 0
        while passes < WINDOW_PASSES or time.monotonic() < deadline:
            app.processEvents()
            passes += 1
            time.sleep(0.02)
        if not window.isVisible():
            raise StepFailed("the main window did not show")
        title = window.windowTitle()
        platform_name = app.platformName()
    finally:
        window.close()
        app.processEvents()
        closer = getattr(window, "shutdown", None)
        if callable(closer):
            closer()
        desk = getattr(window, "desk", None)  # build() opened it: on Windows an open store
        if desk is not None:  # cannot be deleted with the smoke test's folder
            desk.close()
        window.deleteLater()
        app.processEvents()
    return f"{type(window).__name__} '{title}' shown on {platform_name} and closed"


STEPS: Sequence[tuple[str, Step]] = (
    ("version", step_version),
    ("cli", step_cli),
    ("keyring", step_keyring),
    ("pack", step_pack),
    ("judge", step_judge),
    ("land", step_land),
    ("helper", step_helper),
    ("watcher", step_watcher),
    ("a2a", step_a2a),
    ("window", step_window),
)


def remove_folder(ctx: Context) -> str:
    """Delete the temporary folder. Windows refuses while anything in it is open (a folder
    still watched, a store still connected); a handle being closed is waited for a moment."""
    deadline = time.monotonic() + CLEANUP_PATIENCE
    while True:
        try:
            shutil.rmtree(ctx.tmp)
            return "the temporary folder is deleted (nothing in it was left open)"
        except FileNotFoundError:
            return "the temporary folder is deleted (nothing in it was left open)"
        except OSError as exc:
            if time.monotonic() >= deadline:
                raise StepFailed(_left_open(ctx.tmp, exc)) from None
        time.sleep(0.2)


def _left_open(folder: Path, exc: OSError) -> str:
    left = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))
    shown = ", ".join(left[:6]) + (f" and {len(left) - 6} more" if len(left) > 6 else "")
    threads = sorted(t.name for t in threading.enumerate() if t is not threading.main_thread())
    return (
        f"the temporary folder cannot be deleted ({_one_line(exc)}); still there: "
        f"{shown or 'nothing'}; threads still running: {', '.join(threads) or 'none'}"
    )


# --- running ----------------------------------------------------------------------------


def run_steps(steps: Sequence[tuple[str, Step]], ctx: Context) -> list[Result]:
    results = []
    trace = bool(os.environ.get(TRACE_ENV))
    for name, step in steps:
        t0 = time.monotonic()
        try:
            detail, ok = step(ctx), True
        except Exception as exc:  # one line per failure; the next step still runs
            detail, ok = _one_line(exc), False
            if trace:
                traceback.print_exc(file=ctx.out)
        result = Result(name, ok, detail, time.monotonic() - t0)
        ctx.out.write(f"  {'ok  ' if ok else 'FAIL'}  {name:<8} {detail}\n")
        ctx.out.flush()
        results.append(result)
    return results


def _output(argv: Sequence[str]) -> TextIO:
    for arg in argv:
        if arg.startswith("--smoke-log="):  # windowed builds (Windows) have no stdout
            return open(arg.split("=", 1)[1], "w", encoding="utf-8")
    stream = sys.stdout if sys.stdout is not None else sys.__stderr__
    return stream if stream is not None else open(os.devnull, "w")


def run(
    argv: Sequence[str] | None = None,
    *,
    build: Callable[[list[Any]], Any] | None = None,
    steps: Sequence[tuple[str, Step]] = STEPS,
) -> int:
    """Run every step; print one line each and a verdict. 0 when all passed, else 1.

    `build(files)` makes the QApplication and the main window without running the event
    loop, returning ``(app, window)``; the GUI entry point hands it in (it may import the
    Qt layer, this module may not). Without it, ``gui_main.build`` is used if it exists.
    """
    argv = list(sys.argv if argv is None else argv)
    out = _output(argv)
    watching = _watch_for_hangs(out)
    try:
        return _run(out, build, steps)
    except Exception as exc:  # never out of here (a windowed build's dialog would wait)
        out.write(f"smoke test FAILED: {_one_line(exc)}\n")
        if os.environ.get(TRACE_ENV):
            traceback.print_exc(file=out)
        return 1
    finally:
        out.flush()
        _stop_watching(watching)
        if out not in (sys.stdout, sys.__stderr__):
            out.close()  # the --smoke-log file (or devnull): no handle outlives the run


def _watch_for_hangs(out: TextIO) -> bool | None:
    """Every thread's stack into `out` if the run hangs past `HANG_LIMIT` (then exit 1) or
    the process crashes. None when `out` is no real file (faulthandler writes to its fd);
    else whether crash reports were switched on here (they may be already: pytest)."""
    try:
        out.flush()
        out.fileno()
    except (OSError, ValueError, AttributeError):
        return None
    faulthandler.dump_traceback_later(HANG_LIMIT, exit=True, file=out)
    if faulthandler.is_enabled():
        return False
    faulthandler.enable(file=out)
    return True


def _stop_watching(watching: bool | None) -> None:
    if watching is None:
        return
    faulthandler.cancel_dump_traceback_later()
    if watching:
        faulthandler.disable()


def _run(
    out: TextIO, build: Callable[[list[Any]], Any] | None, steps: Sequence[tuple[str, Step]]
) -> int:
    saved_env = {
        k: os.environ.get(k) for k in ("TASKPACK_HOME", "TASKPACK_MACHINE", "TASKPACK_ACTOR")
    }
    out.write("TaskPack Desk smoke test\n")
    out.flush()
    ctx = Context(Path(tempfile.mkdtemp(prefix="taskpack-smoke-")), out)
    if build is not None:
        ctx.notes["build"] = build
    try:
        results = run_steps(steps, ctx)
    finally:
        for k, v in saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    results += run_steps([("cleanup", remove_folder)], ctx)
    failed = [r.name for r in results if not r.ok]
    total = sum(r.seconds for r in results)
    if failed:
        out.write(
            f"smoke test FAILED: {len(failed)} of {len(results)} steps ({', '.join(failed)}) in {total:.1f} s\n"
        )
    else:
        out.write(f"smoke test passed: {len(results)} steps in {total:.1f} s\n")
    return 1 if failed else 0


def main() -> int:  # `python -m taskpack.app.smoke`: the same checks from a source install
    return run()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
