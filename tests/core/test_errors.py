"""`core/errors.py`'s drawing lists every error a command can end with, with its exit code
: a newcomer reads the tree there, and this keeps it true as classes are added."""

from __future__ import annotations

import importlib
import pkgutil
import re

import taskpack.app
import taskpack.core
from taskpack.core import errors
from taskpack.core.errors import TaskPackError

#: a tree line: "├── Name   (app)?  words …  exit-code"
LINE = re.compile(r"[├└]── (\w+)\b.*?(?:\s(\d+))?\s*$")


def drawn() -> dict[str, int | None]:
    found: dict[str, int | None] = {}
    for line in (errors.__doc__ or "").splitlines():
        m = LINE.search(line)
        if m:
            found[m.group(1)] = int(m.group(2)) if m.group(2) else None
    return found


def every_error_class() -> set[type[TaskPackError]]:
    for package in (taskpack.core, taskpack.app):
        for mod in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if ".mcp" in mod.name or mod.name.endswith(("gui_main", "smoke")):
                continue  # optional SDKs and the GUI entry point: checked where installed
            importlib.import_module(mod.name)
    seen: set[type[TaskPackError]] = set()
    todo: list[type[TaskPackError]] = [TaskPackError]
    while todo:
        cls = todo.pop()
        seen.add(cls)
        # the project's own classes only: a test module's subclass (test_sqlite's DemoError)
        # is there too when that test ran first in the same process
        todo.extend(
            c
            for c in cls.__subclasses__()
            if c not in seen and c.__module__.startswith("taskpack.")
        )
    return seen


def test_every_error_class_is_in_the_drawing_with_its_exit_code() -> None:
    tree = drawn()
    tree.setdefault("TaskPackError", None)
    for cls in every_error_class():
        if cls.__name__.startswith("_"):
            continue
        assert cls.__name__ in tree, (
            f"{cls.__module__}.{cls.__name__} is missing from core/errors.py's drawing"
        )
        code = tree[cls.__name__]
        if code is not None:  # a line without a number exits as its parent does
            assert cls.exit_code == code, f"{cls.__name__}: drawn {code}, exits {cls.exit_code}"


def test_the_drawing_names_no_class_that_does_not_exist() -> None:
    names = {cls.__name__ for cls in every_error_class()}
    assert set(drawn()) - names == set()


def test_every_error_says_its_code_params_and_exit_code() -> None:
    """The window translates by code and params; the CLI ends with the class's exit code."""
    refused = errors.LandingRefused([errors.Finding("credential", "GitHub token", "note")])
    assert (refused.code, refused.exit_code) == ("landing_refused", 2)
    assert refused.params["findings"] == [
        {"rule": "credential", "kind": "GitHub token", "place": "note", "detail": ""}
    ]
    wrong = errors.MergeRefused("x", code="merge_wrong_target", params={"target": "A", "into": "B"})
    assert (wrong.code, wrong.exit_code, wrong.params["into"]) == ("merge_wrong_target", 2, "B")
    assert errors.NotFound("gone").exit_code == 1 and errors.Cancelled().exit_code == 130
    assert errors.FormatError("bad", place="kind").params == {"place": "kind"}
    # every class in the tree is drawn in the module's docstring, with a code of its own
    classes = [
        c
        for c in vars(errors).values()
        if isinstance(c, type) and issubclass(c, errors.TaskPackError)
    ]
    doc = errors.__doc__ or ""
    assert all(c.__name__ in doc for c in classes), [
        c.__name__ for c in classes if c.__name__ not in doc
    ]
    codes = [c.code for c in classes]
    assert len(set(codes)) == len(codes), codes
    assert errors.sentence(FileNotFoundError(2, "No such file", "/x")).endswith("permissions.")
    assert "KeyError" in errors.sentence(
        KeyError("secret-value")
    ) and "secret" not in errors.sentence(KeyError("secret-value"))
