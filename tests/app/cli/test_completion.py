"""Shell completion generated from the argparse parser: what a person gets on <Tab>."""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from taskpack.app.cli import main as cli
from taskpack.app.cli.completion_scripts import command_tree, render_bash, render_zsh, script


def sample_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tp")
    p.add_argument("--version", action="version", version="1")
    sub = p.add_subparsers(dest="verb")
    land = sub.add_parser("land", help="land a pack")
    land.add_argument("pack")
    land.add_argument("--encoding", choices=["bag", "flat"])
    land.add_argument("--home-dir")
    land.add_argument("--retries", type=int)
    land.add_argument("--json", action="store_true")
    a2a = sub.add_parser("a2a", help="the endpoint: it's [optional]")
    a2a_sub = a2a.add_subparsers(dest="a2a_verb")
    serve = a2a_sub.add_parser("serve", help="serve on loopback")
    serve.add_argument("--port", type=int)
    serve.add_argument("mode", choices=["once", "forever"])
    watch = sub.add_parser("watch")
    watch.add_argument("dirs", nargs="+", metavar="DIR")
    return p


def complete_bash(script_text: str, line: str, cwd: Path, prog: str = "tp") -> list[str]:
    """What bash offers for `line` (the cursor at its end), using the generated script."""
    fn = "_" + prog
    probe = (
        f'source "$1"; COMP_LINE="$2"; read -ra COMP_WORDS <<< "$2"; '
        f'[[ "$2" == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 )); '
        f'{fn}; printf "%s\\n" "${{COMPREPLY[@]}}"'
    )
    path = cwd / "completion.bash"
    path.write_text(script_text, encoding="utf-8")
    r = subprocess.run(
        ["bash", "--norc", "-c", probe, "_", str(path), line],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert r.returncode == 0, r.stderr
    assert not r.stderr, r.stderr
    return sorted(w for w in r.stdout.split("\n") if w)


def test_the_tree_follows_the_parser() -> None:
    tree = command_tree(sample_parser())
    assert list(tree.subcommands) == ["land", "a2a", "watch"]
    land = tree.subcommands["land"]
    values = {o.flags[0]: o.value for o in land.options}
    assert values["--json"] is None
    assert values["--encoding"].choices == ("bag", "flat")
    assert values["--home-dir"].kind == "dir"
    assert values["--retries"].kind == "none"
    assert land.positionals[0].kind == "file"
    assert tree.subcommands["a2a"].subcommands["serve"].positionals[0].choices == (
        "once",
        "forever",
    )
    assert tree.subcommands["watch"].positionals[0].many


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("tp ", ["a2a", "land", "watch"]),
        ("tp l", ["land"]),
        ("tp --v", ["--version"]),
        ("tp land --", ["--encoding", "--help", "--home-dir", "--json", "--retries"]),
        ("tp land --encoding ", ["bag", "flat"]),
        ("tp land --encoding=f", ["flat"]),
        ("tp land --retries ", []),
        ("tp land --home-dir ", ["folder"]),
        ("tp land --json x.", ["x.taskpack", "x.taskpack.json"]),
        ("tp a2a ", ["serve"]),
        ("tp a2a serve --port 80 ", ["forever", "once"]),
        ("tp land ", ["completion.bash", "folder", "x.taskpack", "x.taskpack.json"]),
        ("tp watch folder ", ["folder"]),  # metavar DIR: folders only, more than one
    ],
)
def test_bash_completes_verbs_options_choices_and_files(
    tmp_path: Path, line: str, expected: list[str]
) -> None:
    (tmp_path / "folder").mkdir()
    for name in ("x.taskpack", "x.taskpack.json"):
        (tmp_path / name).write_text("{}")
    assert (
        complete_bash(render_bash(command_tree(sample_parser()), "tp"), line, tmp_path) == expected
    )


def verbs_offered(parser: argparse.ArgumentParser) -> list[str]:
    """The verbs the CLI names to a person who types one it does not know."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit):
        parser.parse_args(["no-such-verb"])
    return sorted(re.findall(r"'([a-z][a-z-]*)'", err.getvalue().split("choose from", 1)[1]))


def test_bash_script_for_the_real_cli_completes_its_verbs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parser = cli.build_parser()
    verbs = verbs_offered(parser)
    assert "pack" in verbs and "completion" in verbs
    text = script("bash", parser)
    assert complete_bash(text, "taskpack ", tmp_path, prog="taskpack") == verbs
    assert complete_bash(text, "taskpack completion ", tmp_path, prog="taskpack") == ["bash", "zsh"]


def test_taskpack_completion_verb_prints_the_script(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["completion", "bash"]) == 0
    out = capsys.readouterr().out
    assert "complete -F _taskpack taskpack" in out
    assert cli.main(["completion", "zsh"]) == 0
    assert capsys.readouterr().out.startswith("#compdef taskpack\n")
    with pytest.raises(SystemExit) as exc:
        cli.main(["completion", "fish"])
    assert exc.value.code == 2  # argparse: a usage error names the choices


def test_zsh_script_is_valid_zsh_and_registers_the_function(tmp_path: Path) -> None:
    zsh = shutil.which("zsh")
    if zsh is None:
        pytest.skip("zsh is not installed (Debian package zsh; `make ci-deps` installs it)")
    text = render_zsh(command_tree(sample_parser()), "tp")
    path = tmp_path / "_tp"
    path.write_text(text, encoding="utf-8")
    syntax = subprocess.run([zsh, "-n", str(path)], capture_output=True, text=True)
    assert syntax.returncode == 0, syntax.stderr
    # load it as a person's ~/.zshrc would (after compinit) and ask what is bound to `tp`
    probe = f'autoload -Uz compinit && compinit -u -d "{tmp_path}/zcompdump"; source "{path}"; print -r -- $_comps[tp]; whence -w _tp__a2a__serve'
    r = subprocess.run(
        [zsh, "-f", "-c", probe],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=30,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["_tp", "_tp__a2a__serve:", "function"]
    # descriptions with quotes and brackets do not break the quoting
    assert "'a2a:the endpoint\\: it'\\''s optional'" in text
