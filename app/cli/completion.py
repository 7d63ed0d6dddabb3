"""`taskpack completion bash|zsh`: print a shell completion script for this command."""

from __future__ import annotations

import argparse
import sys

from taskpack.app.cli.completion_scripts import SHELLS, script

_HOWTO = """\
Print a completion script for your shell, generated from this very command's options.

bash:  taskpack completion bash > ~/.local/share/bash-completion/completions/taskpack
       (or add  eval "$(taskpack completion bash)"  to ~/.bashrc)
zsh:   taskpack completion zsh > "${fpath[1]}/_taskpack"   then restart zsh
       (or add  source <(taskpack completion zsh)  to ~/.zshrc, after compinit)
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "completion",
        help="print a bash or zsh completion script",
        description=_HOWTO,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("shell", choices=sorted(SHELLS), help="the shell to complete for")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from taskpack.app.cli.main import build_parser  # late: cli imports this module while building

    sys.stdout.write(script(args.shell, build_parser()))
    return 0
