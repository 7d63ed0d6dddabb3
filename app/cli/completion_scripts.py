"""Shell completion scripts (bash, zsh) generated from the real argparse parser.

Nothing is written by hand: :func:`command_tree` walks the parser that ``taskpack``
builds (so a verb added to ``VERB_MODULES`` completes with no change here), and the two
renderers turn that tree into a script. What completes:

- verbs and nested sub-verbs, at any depth;
- options of the command being typed (``--help`` everywhere, ``--version`` at the top);
- the value of an option or positional that has ``choices`` (e.g. ``completion bash|zsh``);
- file names for other values; nothing for numeric values (``type=int``/``float``);
  directory names when the value's name says it is a folder (``dir``, ``folder``, ``home``).

Pack files are completed by plain file-name completion: a pack may arrive under any name.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

ValueKind = Literal["file", "dir", "none"]

_DIR_WORDS = re.compile(r"(dir|folder|home|directory)$", re.IGNORECASE)


@dataclass(frozen=True)
class Value:
    """What a value (of an option, or a positional) completes to."""

    kind: ValueKind
    choices: tuple[str, ...] = ()
    name: str = "value"
    many: bool = False  # nargs '*' / '+' / REMAINDER


@dataclass(frozen=True)
class Option:
    """An option: its flags, its help, what its value completes to."""

    flags: tuple[str, ...]
    help: str
    value: Value | None  # None: a flag that takes no value


@dataclass
class Command:
    """A command (a verb, a verb's subcommand, or the top level) and what follows it."""

    path: tuple[str, ...]  # () for the top level
    help: str = ""
    options: list[Option] = field(default_factory=list)
    positionals: list[Value] = field(default_factory=list)
    subcommands: dict[str, Command] = field(default_factory=dict)

    def walk(self) -> Iterator[Command]:
        yield self
        for sub in self.subcommands.values():
            yield from sub.walk()


def _value(action: argparse.Action) -> Value:
    name = str(action.metavar or action.dest or "value")
    if isinstance(action.metavar, tuple):  # pragma: no cover - multi-metavar options
        name = str(action.metavar[0])
    many = action.nargs in ("*", "+", argparse.REMAINDER) or (
        isinstance(action.nargs, int) and action.nargs > 1
    )
    if action.choices is not None and not isinstance(action.choices, dict):
        return Value("none", tuple(str(c) for c in action.choices), name, many)
    if action.type in (int, float):
        return Value("none", (), name, many)
    kind: ValueKind = (
        "dir" if _DIR_WORDS.search(str(action.dest)) or _DIR_WORDS.search(name) else "file"
    )
    return Value(kind, (), name, many)


def _takes_value(action: argparse.Action) -> bool:
    return action.nargs != 0 and not isinstance(
        action,
        argparse._StoreConstAction
        | argparse._CountAction
        | argparse._HelpAction
        | argparse._VersionAction
        | argparse.BooleanOptionalAction,
    )


def _help_text(action: argparse.Action) -> str:
    text = action.help if isinstance(action.help, str) and action.help != argparse.SUPPRESS else ""
    return " ".join(text.replace("%(default)s", str(action.default)).split())


def command_tree(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = (), help: str = ""
) -> Command:
    """The completion-relevant shape of `parser` and every sub-parser under it."""
    cmd = Command(path, help or (parser.description or "").split("\n")[0])
    for action in parser._actions:
        if action.help == argparse.SUPPRESS:
            continue
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: _help_text(a) for a in action._choices_actions}
            for name, sub in action.choices.items():  # aliases are listed under each name
                cmd.subcommands[name] = command_tree(sub, (*path, name), helps.get(name, ""))
        elif action.option_strings:
            value = _value(action) if _takes_value(action) else None
            cmd.options.append(Option(tuple(action.option_strings), _help_text(action), value))
        else:
            cmd.positionals.append(_value(action))
    return cmd


# --- bash ---------------------------------------------------------------------------


def _bash_words(words: Sequence[str]) -> str:
    return " ".join(words)


def render_bash(tree: Command, prog: str = "taskpack") -> str:
    fn = "_" + re.sub(r"\W", "_", prog)
    subs, opts, values, positionals = [], [], [], []
    for cmd in tree.walk():
        key = " ".join(cmd.path)
        if cmd.subcommands:
            subs.append(f'        "{key}") echo "{_bash_words(list(cmd.subcommands))}" ;;')
        flags = [f for o in cmd.options for f in o.flags]
        opts.append(f'        "{key}") echo "{_bash_words(flags)}" ;;')
        for o in cmd.options:
            if o.value is None:
                continue
            for flag in o.flags:
                values.append(
                    f'        "{key}|{flag}") echo "{o.value.kind} {_bash_words(o.value.choices)}" ;;'
                )
        for i, v in enumerate(cmd.positionals):
            values_key = f"{key}|#{i}"
            positionals.append(
                f'        "{values_key}") echo "{v.kind} {_bash_words(v.choices)}" ;;'
            )
            if v.many:
                positionals.append(
                    f'        "{key}|#*") echo "{v.kind} {_bash_words(v.choices)}" ;;'
                )
                break
    return _BASH_TEMPLATE.format(
        prog=prog,
        fn=fn,
        subs="\n".join(subs),
        opts="\n".join(opts),
        values="\n".join(values + positionals),
    )


_BASH_TEMPLATE = """\
# bash completion for {prog}; generated by `{prog} completion bash` from its parser.
# Install:  {prog} completion bash > ~/.local/share/bash-completion/completions/{prog}
#     or:   eval "$({prog} completion bash)"   (in ~/.bashrc)

{fn}_subcommands() {{
    case "$1" in
{subs}
    esac
}}

{fn}_options() {{
    case "$1" in
{opts}
    esac
}}

# "<kind> <choices…>" for the value of option $2 (or positional #N) of command $1
{fn}_value() {{
    case "$1|$2" in
{values}
    esac
}}

{fn}_complete_value() {{
    local spec="$1" cur="$2" kind choices
    kind="${{spec%% *}}"
    choices="${{spec#* }}"
    [[ "$choices" == "$kind" ]] && choices=""
    if [[ -n "$choices" ]]; then
        COMPREPLY=($(compgen -W "$choices" -- "$cur"))
    elif [[ "$kind" == dir ]]; then
        COMPREPLY=($(compgen -d -- "$cur"))
    elif [[ "$kind" == file ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
        compopt -o filenames 2>/dev/null
    fi
}}

{fn}() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="" path="" w i skip=0 npos=0 spec subs
    (( COMP_CWORD > 0 )) && prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    COMPREPLY=()
    for (( i = 1; i < COMP_CWORD; i++ )); do
        w="${{COMP_WORDS[i]}}"
        if (( skip )); then skip=0; continue; fi
        if [[ "$w" == -* ]]; then
            [[ "$w" != *=* && -n "$({fn}_value "$path" "$w")" ]] && skip=1
            continue
        fi
        subs=" $({fn}_subcommands "$path") "
        if [[ "$subs" == *" $w "* ]]; then
            path="${{path:+$path }}$w"
            npos=0
        else
            npos=$(( npos + 1 ))
        fi
    done
    if [[ "$cur" == --*=* ]]; then
        spec="$({fn}_value "$path" "${{cur%%=*}}")"
        [[ -n "$spec" ]] && {fn}_complete_value "$spec" "${{cur#*=}}"
        return 0
    fi
    if [[ "$prev" == -* ]]; then
        spec="$({fn}_value "$path" "$prev")"
        if [[ -n "$spec" ]]; then
            {fn}_complete_value "$spec" "$cur"
            return 0
        fi
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$({fn}_options "$path")" -- "$cur"))
        return 0
    fi
    subs="$({fn}_subcommands "$path")"
    if [[ -n "$subs" ]]; then
        COMPREPLY=($(compgen -W "$subs" -- "$cur"))
        return 0
    fi
    spec="$({fn}_value "$path" "#$npos")"
    [[ -z "$spec" ]] && spec="$({fn}_value "$path" "#*")"
    [[ -n "$spec" ]] && {fn}_complete_value "$spec" "$cur"
    return 0
}}

complete -F {fn} {prog}
"""


# --- zsh ----------------------------------------------------------------------------


def _zq(text: str) -> str:
    """Quote for a single-quoted zsh word."""
    return "'" + text.replace("'", "'\\''") + "'"


def _zdesc(text: str) -> str:
    """A description safe inside an _arguments ``[...]`` or a ``name:desc`` pair."""
    return re.sub(r"[\[\]]", "", text).replace(":", "\\:")[:120]


def _zaction(v: Value) -> str:
    if v.choices:
        return "(" + " ".join(c.replace(" ", "\\ ") for c in v.choices) + ")"
    return {"file": "_files", "dir": "_files -/", "none": " "}[v.kind]


def _zfunc(prog: str, path: tuple[str, ...]) -> str:
    return "_" + "__".join(re.sub(r"\W", "_", p) for p in (prog, *path))


def render_zsh(tree: Command, prog: str = "taskpack") -> str:
    out = [
        f"#compdef {prog}",
        f"# zsh completion for {prog}; generated by `{prog} completion zsh` from its parser.",
        f'# Install:  {prog} completion zsh > "${{fpath[1]}}/_{prog}"   (then: compinit)',
        f"#     or:   source <({prog} completion zsh)   (in ~/.zshrc, after compinit)",
        "",
    ]
    for cmd in tree.walk():
        out += _zsh_function(cmd, prog)
    out += [
        "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then",
        f'    {_zfunc(prog, ())} "$@"',
        "else",
        f"    compdef {_zfunc(prog, ())} {prog}",
        "fi",
        "",
    ]
    return "\n".join(out)


def _zsh_function(cmd: Command, prog: str) -> list[str]:
    specs: list[str] = []
    for o in cmd.options:
        desc = _zdesc(o.help)
        exclusive = "(- *)" if o.flags[0] in ("-h", "--help", "--version") else ""
        if not exclusive and len(o.flags) > 1:
            exclusive = "(" + " ".join(o.flags) + ")"
        for flag in o.flags:
            if o.value is None:
                specs.append(_zq(f"{exclusive}{flag}[{desc}]"))
            else:
                eq = "=" if flag.startswith("--") else ""
                specs.append(
                    _zq(f"{exclusive}{flag}{eq}[{desc}]:{_zdesc(o.value.name)}:{_zaction(o.value)}")
                )
    lines = [f"{_zfunc(prog, cmd.path)}() {{"]
    if cmd.subcommands:
        specs.append(
            _zq(f"1:{'verb' if not cmd.path else 'sub-verb'}:{_zfunc(prog, cmd.path)}_verbs")
        )
        specs.append(_zq("*::arg:->args"))
        lines += [
            '    local curcontext="$curcontext" state line ret=1',
            "    typeset -A opt_args",
            "    _arguments -C -s \\",
            *[f"        {s} \\" for s in specs],
            "        && ret=0",
            "    case $state in",
            "        args)",
            "            case $line[1] in",
        ]
        for name in cmd.subcommands:
            lines.append(
                f"                {_zq(name)}) {_zfunc(prog, (*cmd.path, name))} && ret=0 ;;"
            )
        lines += [
            "            esac",
            "            ;;",
            "    esac",
            "    return ret",
            "}",
            "",
            f"{_zfunc(prog, cmd.path)}_verbs() {{",
            "    local -a verbs",
            "    verbs=(",
            *[
                f"        {_zq(name.replace(':', chr(92) + ':') + ':' + _zdesc(sub.help))}"
                for name, sub in cmd.subcommands.items()
            ],
            "    )",
            f"    _describe -t verbs {_zq('verb')} verbs",
            "}",
            "",
        ]
        return lines
    for i, v in enumerate(cmd.positionals):
        if v.many:
            specs.append(_zq(f"*:{_zdesc(v.name)}:{_zaction(v)}"))
            break
        specs.append(_zq(f"{i + 1}:{_zdesc(v.name)}:{_zaction(v)}"))
    if specs:
        lines += [
            "    _arguments -s \\",
            *[f"        {s} \\" for s in specs[:-1]],
            f"        {specs[-1]}",
        ]
    else:
        lines.append("    _arguments -s")
    lines += ["}", ""]
    return lines


SHELLS = {"bash": render_bash, "zsh": render_zsh}


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    """The completion script for `shell` ("bash" or "zsh") of `parser`."""
    try:
        render = SHELLS[shell]
    except KeyError:
        raise ValueError(
            f"no completion for shell {shell!r}; choose one of {', '.join(SHELLS)}"
        ) from None
    return render(command_tree(parser), parser.prog)


__all__ = [
    "SHELLS",
    "Command",
    "Option",
    "Value",
    "command_tree",
    "render_bash",
    "render_zsh",
    "script",
]
