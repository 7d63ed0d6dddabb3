"""A2A verbs: the desk as an A2A endpoint, its tokens, and sending packs to other desks.

    taskpack serve [--host 127.0.0.1] [--port 8788] [--public-url URL]
    taskpack token add NAME                 mint a token a peer uses here (printed once)
    taskpack token add NAME --remote [--url URL]   keep a token a peer gave you (stdin)
    taskpack token list [--json]
    taskpack token revoke NAME [--remote]
    taskpack send FILE --to URL [--token-name NAME]
    taskpack fetch-receipt [ID] [--wait SECONDS]   merge receipts of packs you sent

Tokens live in the system keyring; the desk keeps only their names and sha256 (see
docs/a2a.md). A token is read from standard input, never from the command line, so
it does not end up in shell history or the process list.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from taskpack.app.cli.main import EXIT_ERROR, EXIT_OK, StopSignals, emit_json, say, warn
from taskpack.core.errors import NotFound, UsageError

if TYPE_CHECKING:
    from taskpack.app.a2a.ledger import A2AStore, SentRow
    from taskpack.app.desk import Desk

Handler = Callable[[argparse.Namespace], int]


def _with_desk(fn: Callable[[argparse.Namespace, Desk, A2AStore], int]) -> Handler:
    @functools.wraps(fn)
    def run(args: argparse.Namespace) -> int:
        from taskpack.app.a2a.ledger import open_ledger
        from taskpack.app.desk import Desk

        desk = Desk.open()
        try:
            with open_ledger(desk.home, desk.settings.store) as store:
                return fn(args, desk, store)
        finally:
            desk.close()

    return run


def _with_store(fn: Callable[[argparse.Namespace, A2AStore], int]) -> Handler:
    """For token verbs: they need the home folder, not the passport store."""

    @functools.wraps(fn)
    def run(args: argparse.Namespace) -> int:
        from taskpack.app import paths
        from taskpack.app.a2a.ledger import open_ledger
        from taskpack.app.settings import Settings

        home = paths.home()
        with open_ledger(home, Settings.load(home).store) as store:
            return fn(args, store)

    return run


# --- serve ------------------------------------------------------------------------------


@_with_desk
def cmd_serve(args: argparse.Namespace, desk: Desk, store: A2AStore) -> int:
    from taskpack.app.a2a.handler import Limits
    from taskpack.app.a2a.serve import A2AServer, settle_heap

    limits = Limits(blocking_timeout=args.blocking_timeout, stream_seconds=args.stream_seconds)
    server = A2AServer(
        desk,
        args.host,
        args.port,
        public_url=args.public_url,
        limits=limits,
        max_body_bytes=args.max_body,
        header_timeout=args.header_timeout,
        body_timeout=args.body_timeout,
        max_connections=args.limit_concurrency,
        keep_alive_timeout=args.timeout_keep_alive,
        log_level="info" if args.verbose else "warning",
        processes=args.processes,
    )
    with StopSignals() as signals:  # from before the address is printed
        try:
            url = server.start()
        except OSError as exc:
            warn(
                f"cannot listen on {args.host}:{args.port} ({exc.strerror or exc}). "
                "Is another server running there? Pick another --port."
            )
            return EXIT_ERROR
        settle_heap()  # this process only serves from here on
        say(f"Serving A2A 1.0 (HTTP+JSON) for this desk at {url}")
        say(f"Agent Card: {url}/.well-known/agent-card.json")
        if not any(t.kind == "accept" for t in store.tokens()):
            say("No tokens yet: nobody can send anything. Make one with `taskpack token add NAME`.")
        if args.host not in ("127.0.0.1", "::1", "localhost") and not args.public_url:
            warn(
                "the Agent Card names this machine as "
                f"{url}; pass --public-url with the address others reach it at."
            )
        if args.host not in ("127.0.0.1", "::1", "localhost"):
            warn(
                "listening beyond this machine over plain HTTP: tokens and packs travel unencrypted; "
                "put a TLS proxy in front of it."
            )
        say("Press Ctrl+C to stop.")
        sys.stdout.flush()  # the address is what a supervising process waits for
        try:
            if not signals.wait(lambda: server.running, wake=0.5):
                warn("the server stopped unexpectedly.")
                return EXIT_ERROR
        finally:
            server.stop()
    say("Stopped.")
    return EXIT_OK


# --- tokens -----------------------------------------------------------------------------


@_with_store
def cmd_token_add(args: argparse.Namespace, store: A2AStore) -> int:
    from taskpack.app.a2a import tokens

    if args.remote:
        if sys.stdin.isatty():
            sys.stderr.write(f"Paste the token for {args.name} and press Enter: ")
            sys.stderr.flush()
        secret = sys.stdin.readline().strip()
        row = tokens.add_remote_token(store, args.name, secret, url=args.url)
        if args.json:
            emit_json({"name": row.name, "kind": row.kind, "url": row.url, "sha256": row.sha256})
        else:
            say(
                f"Kept the token {row.name!r} in the system keyring"
                + (f" for {row.url}" if row.url else "")
                + "."
            )
        return EXIT_OK
    if args.url:
        raise UsageError("--url goes with --remote (a token a peer gave you)")
    new = tokens.add_token(store, args.name)
    if args.json:
        emit_json({"name": new.name, "kind": "accept", "principal": new.name, "token": new.token})
    else:
        say(new.token)
        sys.stderr.write(
            f"taskpack: this is the token for {new.name!r}; it is shown once. Give it to them "
            "over a channel you trust; they pass it with `--token-name` after "
            "`taskpack token add NAME --remote`.\n"
        )
    return EXIT_OK


@_with_store
def cmd_token_list(args: argparse.Namespace, store: A2AStore) -> int:
    rows = store.tokens()
    if args.json:
        emit_json(
            [
                {
                    "name": r.name,
                    "kind": r.kind,
                    "url": r.url,
                    "sha256": r.sha256,
                    "created_at": r.created_at,
                }
                for r in rows
            ]
        )
        return EXIT_OK
    if not rows:
        say("No tokens. Make one with `taskpack token add NAME`.")
        return EXIT_OK
    for r in rows:
        what = "accepted here" if r.kind == "accept" else f"used for {r.url or 'sending'}"
        say(f"{r.name:<24} {what:<40} sha256 {r.sha256[:12]}…  since {r.created_at}")
    return EXIT_OK


@_with_store
def cmd_token_revoke(args: argparse.Namespace, store: A2AStore) -> int:
    from taskpack.app.a2a import tokens

    tokens.revoke(store, args.name, kind="remote" if args.remote else "accept")
    say(
        f"Revoked {args.name!r}: "
        + ("removed from the keyring." if args.remote else "this desk no longer accepts it.")
    )
    return EXIT_OK


# --- send and fetch -----------------------------------------------------------------------


def _token(store: A2AStore, url: str, name: str | None) -> tuple[str | None, str | None]:
    from taskpack.app.a2a import tokens

    if name:
        return tokens.get_secret(store, name, kind="remote"), name
    row = store.remote_token_for_url(url)
    if row is not None:
        return tokens.get_secret(store, row.name, kind="remote"), row.name
    return None, None


@_with_desk
def cmd_send(args: argparse.Namespace, desk: Desk, store: A2AStore) -> int:
    from taskpack.app.a2a.client import send_file

    path: Path = args.file
    if not path.is_file():
        raise UsageError(
            f"{path} is not a file", hint="Pack one with `taskpack pack ID --out FILE`."
        )
    token, name = _token(store, args.to, args.token_name)
    if token is None:
        warn(
            "no token for this address: sending without one (add one with "
            "`taskpack token add NAME --remote --url URL`)."
        )
    result = send_file(desk, store, path, args.to, token=token, token_name=name, peer=args.peer)
    if args.json:
        emit_json(result.to_data())
        return EXIT_OK
    say(f"Sent {path.name} to {result.url}: task {result.task_id} is {result.state}.")
    text = result.to_data()["status"]
    if text:
        from taskpack.app.cli.passports import safe

        say(f"  {safe(text)}")
    if result.sent and result.sent.local_passport:
        say(
            f"  Its receipt will come home to {result.sent.local_passport}: "
            f"`taskpack fetch-receipt {result.sent.local_passport}`."
        )
    return EXIT_OK


@_with_desk
def cmd_fetch_receipt(args: argparse.Namespace, desk: Desk, store: A2AStore) -> int:
    from taskpack.app.a2a import tokens
    from taskpack.app.a2a.client import fetch_receipts

    rows: list[SentRow]
    if args.id:
        rows = store.sent(local_passport=args.id.strip().upper()) or store.sent(
            remote_task_id=args.id.strip()
        )
        if args.from_url:
            rows = [r for r in rows if r.url == args.from_url.rstrip("/")]
        if not rows:
            raise NotFound(
                f"nothing was sent over A2A from or as {args.id!r}",
                hint="Send a pack with `taskpack send FILE --to URL` first.",
            )
    else:
        rows = store.sent(pending_only=True)
        if not rows:
            say("No sent tasks are waiting for a receipt.")
            return EXIT_OK

    def token_for(row: SentRow) -> str | None:
        if args.token_name:
            return tokens.get_secret(store, args.token_name, kind="remote")
        if row.token_name and store.token("remote", row.token_name):
            return tokens.get_secret(store, row.token_name, kind="remote")
        found = store.remote_token_for_url(row.url)
        return tokens.get_secret(store, found.name, kind="remote") if found else None

    results = fetch_receipts(desk, store, rows, token_for=token_for, wait=args.wait)
    code = EXIT_ERROR if any(r.error for r in results) else EXIT_OK
    if args.json:
        emit_json([r.to_data() for r in results])
        return code
    from taskpack.app.cli.passports import safe

    for r in results:
        if r.error:
            warn(f"{r.remote_task_id} ({r.url}): {r.error}")
        elif r.merged:
            what = (
                "was already merged"
                if r.already
                else (
                    f"merged: answered {', '.join(r.answered) or 'nothing'}"
                    + (f"; adopted {', '.join(r.adopted)}" if r.adopted else "")
                )
            )
            say(f"{r.remote_task_id} → {r.local_passport}: the receipt {what}.")
        else:
            say(f"{r.remote_task_id} ({r.state}): {safe(r.note)}")
    return code


# --- registration -------------------------------------------------------------------------

_UNITS = {
    "": 1,
    "b": 1,
    "k": 1 << 10,
    "kb": 1 << 10,
    "kib": 1 << 10,
    "m": 1 << 20,
    "mb": 1 << 20,
    "mib": 1 << 20,
    "g": 1 << 30,
    "gb": 1 << 30,
    "gib": 1 << 30,
}
#: the smallest --max-body that can carry a message at all
MIN_BODY = 4 << 10


def byte_size(text: str) -> int:
    """``32M``, ``512K``, ``1G`` or a number of bytes (K/M/G count in 1024s), at least 4K."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*", text)
    unit = m.group(2).lower() if m else ""
    if m is None or unit not in _UNITS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size: write e.g. 32M, 512K or 1048576")
    size = int(float(m.group(1)) * _UNITS[unit])
    if size < MIN_BODY:
        raise argparse.ArgumentTypeError(f"{text!r} is too small: at least 4K, or no message fits")
    return size


def seconds(text: str) -> float:
    """A positive number of seconds (at most a day)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 86400:
        raise argparse.ArgumentTypeError(f"{text!r} must be more than 0 and at most 86400 seconds")
    return value


def connections(text: str) -> int:
    """A whole number of connections, 1 to 100000."""
    if not text.strip().isdigit() or not 1 <= int(text) <= 100_000:
        raise argparse.ArgumentTypeError(f"{text!r} must be a whole number from 1 to 100000")
    return int(text)


def _add_server_limits(p: argparse.ArgumentParser) -> None:
    """What an operator tunes in front of real traffic (defaults suit one desk)."""
    from taskpack.app.a2a import (
        BODY_TIMEOUT,
        HEADER_TIMEOUT,
        KEEP_ALIVE_TIMEOUT,
        MAX_BODY_BYTES,
        MAX_CONNECTIONS,
        STREAM_SECONDS,
    )

    g = p.add_argument_group("server limits")
    g.add_argument(
        "--max-body",
        type=byte_size,
        default=MAX_BODY_BYTES,
        metavar="SIZE",
        help=f"refuse a request body larger than this with 413, before reading it "
        f"(e.g. 8M, 512K; default {MAX_BODY_BYTES >> 20}M)",
    )
    g.add_argument(
        "--timeout-keep-alive",
        type=seconds,
        default=KEEP_ALIVE_TIMEOUT,
        metavar="SECONDS",
        help=f"close an idle keep-alive connection after this long (default {KEEP_ALIVE_TIMEOUT:g})",
    )
    g.add_argument(
        "--header-timeout",
        type=seconds,
        default=HEADER_TIMEOUT,
        metavar="SECONDS",
        help=f"close a connection whose request line and headers take longer (default {HEADER_TIMEOUT:g})",
    )
    g.add_argument(
        "--body-timeout",
        type=seconds,
        default=BODY_TIMEOUT,
        metavar="SECONDS",
        help=f"answer 408 to a request body that takes longer to arrive (default {BODY_TIMEOUT:g})",
    )
    g.add_argument(
        "--limit-concurrency",
        type=connections,
        default=MAX_CONNECTIONS,
        metavar="N",
        help=f"connections and requests at once; past it the answer is 503 (default {MAX_CONNECTIONS})",
    )
    g.add_argument(
        "--stream-seconds",
        type=seconds,
        default=STREAM_SECONDS,
        metavar="SECONDS",
        help=f"end a task's event stream after this long; the client subscribes again "
        f"(default {STREAM_SECONDS:g})",
    )


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from taskpack.app.a2a import DEFAULT_HOST, DEFAULT_PORT

    p = sub.add_parser(
        "serve",
        help="serve this desk as an A2A 1.0 endpoint (HTTP+JSON)",
        description="Serve this desk as an A2A 1.0 endpoint: other desks and "
        "agents send packs to it, and read their tasks and receipts back.",
    )
    p.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})"
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument("--public-url", help="the address others reach it at (for the Agent Card)")
    p.add_argument(
        "--blocking-timeout",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="how long a blocking send waits for the task to settle (default 1)",
    )
    p.add_argument(
        "--processes",
        type=connections,
        default=1,
        metavar="N",
        help="serve this desk from N processes on the one address, so that senders at once "
        "land side by side (Linux, macOS; default 1)",
    )
    _add_server_limits(p)
    p.add_argument("--verbose", action="store_true", help="log each request")
    p.set_defaults(handler=cmd_serve)

    p = sub.add_parser(
        "token",
        help="manage A2A bearer tokens (kept in the system keyring)",
        description="Manage A2A bearer tokens; secrets live in the system keyring.",
    )
    tsub = p.add_subparsers(dest="token_verb", metavar="ACTION")
    tsub.required = True
    t = tsub.add_parser("add", help="mint a token a peer uses here (printed once), or --remote")
    t.add_argument("name", help="who it is for: the principal its tasks belong to")
    t.add_argument(
        "--remote",
        action="store_true",
        help="keep a token a peer gave you (read from standard input)",
    )
    t.add_argument("--url", help="with --remote: the desk it is for (send finds it by address)")
    t.add_argument("--json", action="store_true")
    t.set_defaults(handler=cmd_token_add)
    t = tsub.add_parser("list", help="list tokens (names and hashes, never secrets)")
    t.add_argument("--json", action="store_true")
    t.set_defaults(handler=cmd_token_list)
    t = tsub.add_parser("revoke", help="stop accepting a token and delete its secret")
    t.add_argument("name")
    t.add_argument("--remote", action="store_true", help="a token a peer gave you")
    t.set_defaults(handler=cmd_token_revoke)

    p = sub.add_parser("send", help="send a pack to another desk (or A2A agent) over A2A")
    p.add_argument("file", type=Path, help="a .taskpack or .taskpack.json")
    p.add_argument("--to", required=True, metavar="URL", help="the other desk's address")
    p.add_argument(
        "--token-name", metavar="NAME", help="the token to present (see `token add --remote`)"
    )
    p.add_argument(
        "--peer",
        metavar="NAME",
        help="the token you gave the other desk (`token add NAME`): the only one whose "
        "receipt it may push back here (default: the --token-name / the address's token)",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_send)

    p = sub.add_parser(
        "fetch-receipt",
        help="bring receipts of sent packs home and merge them",
        description="Read the tasks your sent packs became; merge each receipt "
        "into the passport that asked (spec §4.4.1).",
    )
    p.add_argument("id", nargs="?", help="a local passport id or a remote task id (default: all)")
    p.add_argument("--from", dest="from_url", metavar="URL", help="only tasks sent to this address")
    p.add_argument("--token-name", metavar="NAME")
    p.add_argument(
        "--wait",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="wait up to this long for a receipt to appear (streams)",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_fetch_receipt)
